// Cameras (MuJoCo 3.x semantics, measured against MuJoCo 3.12.1): their world poses by mode,
// the constants the track modes keep, the pinhole projection of the camprojection sensor, and
// the pixel rays of camera rangefinders.
//
// Modes: fixed moves with the body; track keeps the orientation of qpos0 and follows the body
// origin at its qpos0 offset; trackcom likewise follows the body's subtree com; targetbody and
// targetbodycom start from the fixed pose and turn the camera to look at the target body's
// origin (or subtree com): its z axis points away from the target, its x axis is horizontal
// (z_world x z) and y = z x x. Without a target body the target* modes stay fixed.
#include "camera.h"

#include <cmath>

#include "gauss/math.h"
#include "gauss/sensor_support.h"
#include "pipeline.h"

namespace gauss {

using namespace math;

namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

void CameraPoses(const Model& m, Data& d) {
  for (int i = 0; i < m.ncam; ++i) {
    const int b = m.cam_bodyid[i];
    double* xpos = d.cam_xpos.data() + 3 * i;
    double* xmat = d.cam_xmat.data() + 9 * i;
    FixedFrame(d, b, m.cam_pos.data() + 3 * i, m.cam_quat.data() + 4 * i, xpos, xmat);
    switch (m.cam_mode[i]) {
      case CamMode::kFixed:
        break;
      case CamMode::kTrack:
      case CamMode::kTrackCom: {
        std::copy(m.cam_mat0.begin() + 9 * i, m.cam_mat0.begin() + 9 * (i + 1), xmat);
        const bool com = m.cam_mode[i] == CamMode::kTrackCom;
        const double* origin = com ? d.subtree_com.data() + 3 * b : d.xpos.data() + 3 * b;
        const double* offset = com ? m.cam_poscom0.data() + 3 * i : m.cam_pos0.data() + 3 * i;
        for (int k = 0; k < 3; ++k) xpos[k] = origin[k] + offset[k];
        break;
      }
      case CamMode::kTargetBody:
      case CamMode::kTargetBodyCom: {
        const int t = m.cam_targetbodyid[i];
        if (t < 0) break;
        const double* target = m.cam_mode[i] == CamMode::kTargetBody
                                   ? d.xpos.data() + 3 * t
                                   : d.subtree_com.data() + 3 * t;
        double x[3], y[3], z[3];
        const double up[3] = {0, 0, 1};
        Sub3(z, xpos, target);
        Normalize3(z);
        Cross3(x, up, z);
        Normalize3(x);
        Cross3(y, z, x);
        Normalize3(y);
        for (int r = 0; r < 3; ++r) {  // the axes are the columns
          xmat[3 * r] = x[r];
          xmat[3 * r + 1] = y[r];
          xmat[3 * r + 2] = z[r];
        }
        break;
      }
    }
  }
}

void SetCameraConstants(Model& m, const Data& d) {
  m.cam_pos0.assign(3 * m.ncam, 0);
  m.cam_poscom0.assign(3 * m.ncam, 0);
  m.cam_mat0.assign(9 * m.ncam, 0);
  for (int i = 0; i < m.ncam; ++i) {
    const int b = m.cam_bodyid[i], t = m.cam_targetbodyid[i];
    double xpos[3], xmat[9];
    FixedFrame(d, b, m.cam_pos.data() + 3 * i, m.cam_quat.data() + 4 * i, xpos, xmat);
    Sub3(m.cam_pos0.data() + 3 * i, xpos, d.xpos.data() + 3 * b);
    // MuJoCo 3.12 measures this offset from the target's subtree com when there is a target
    // (trackcom then follows the body's com at that offset)
    Sub3(m.cam_poscom0.data() + 3 * i, xpos, d.subtree_com.data() + 3 * (t >= 0 ? t : b));
    std::copy(xmat, xmat + 9, m.cam_mat0.begin() + 9 * i);
  }
}

void CameraProjection(const Model& m, const Data& d, int cam, const double* point,
                      double pixel[2]) {
  const int* res = m.cam_resolution.data() + 2 * cam;
  const double* size = m.cam_sensorsize.data() + 2 * cam;
  const double* intrinsic = m.cam_intrinsic.data() + 4 * cam;
  double fx, fy;
  if (size[0] != 0 && size[1] != 0) {
    // MuJoCo 3.12 keeps intrinsic and sensorsize as floats and divides them in float
    fx = static_cast<float>(static_cast<float>(intrinsic[0]) / static_cast<float>(size[0])) *
         static_cast<float>(res[0]);
    fy = static_cast<float>(static_cast<float>(intrinsic[1]) / static_cast<float>(size[1])) *
         static_cast<float>(res[1]);
    fx = static_cast<float>(fx);
    fy = static_cast<float>(fy);
  } else {
    fx = fy = 0.5 / std::tan(m.cam_fovy[cam] * kPi / 360.0) * res[1];
  }
  // the point in the camera frame (x right, y up, looking along -z), then the pinhole
  // projection with the image center at (width / 2, height / 2) and pixel x growing rightward
  double rel[3], c[3];
  Sub3(rel, point, d.cam_xpos.data() + 3 * cam);
  MulMatTVec3(c, d.cam_xmat.data() + 9 * cam, rel);
  double u = -fx * c[0] + res[0] / 2.0 * c[2];
  double v = fy * c[1] + res[1] / 2.0 * c[2];
  double w = c[2];
  // no division by a vanishing depth (the point in the camera's plane)
  if (std::abs(w) < kMinVal) w = w < 0 ? -kMinVal : kMinVal;
  pixel[0] = u / w;
  pixel[1] = v / w;
}

bool CameraPixelRay(const Model& m, const Data& d, int cam, int col, int row, double origin[3],
                    double dir[3]) {
  if (m.cam_sensorsize[2 * cam] != 0 || m.cam_sensorsize[2 * cam + 1] != 0) return false;
  const int width = m.cam_resolution[2 * cam], height = m.cam_resolution[2 * cam + 1];
  const double* xpos = d.cam_xpos.data() + 3 * cam;
  const double* xmat = d.cam_xmat.data() + 9 * cam;
  // the pixel centre relative to the image centre, in pixels, x right and y up
  const double px = col + 0.5 - width / 2.0, py = height / 2.0 - row - 0.5;
  if (m.cam_orthographic[cam]) {
    // the image spans fovy in both directions, whatever its aspect (measured, MuJoCo 3.12.1)
    const double offset[3] = {px * m.cam_fovy[cam] / width, py * m.cam_fovy[cam] / height, 0};
    double world[3];
    MulMatVec3(world, xmat, offset);
    Add3(origin, xpos, world);
    const double back[3] = {0, 0, -1};
    MulMatVec3(dir, xmat, back);
    return true;
  }
  const double f = 0.5 / std::tan(m.cam_fovy[cam] * kPi / 360.0) * height;
  double local[3] = {px / f, py / f, -1};
  Normalize3(local);
  Copy3(origin, xpos);
  MulMatVec3(dir, xmat, local);
  return true;
}

}  // namespace gauss
