// Cameras: pose in the body frame, mode, target body and intrinsics, as MuJoCo 3.12.1 compiles
// them (measured; the world poses are computed by the kernel, core/src/camera.cc).
//
// Intrinsics (3.x): with a sensor size (both entries > 0), pixel density = resolution /
// sensorsize, focal = focalpixel / density (or focal as written), principal likewise, and
// fovy = 2 atan(sensorsize_y / 2 / focal_y) in degrees, overriding a written fovy. MuJoCo keeps
// these in single precision and computes them in float, which is reproduced. Without a sensor
// size, fovy stays as written and the focal entries are visual znear (0.01; a <visual><map
// znear> is not read). Writing a length and a pixel value for the same entry is an error, as
// is fovy >= 180.
#include <cmath>

#include "compiler.h"
#include "gauss/error.h"
#include "orientation.h"

namespace gauss::mjcf {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDefaultZnear = 0.01;  // MuJoCo's <visual><map znear>

// (spec intrinsics) => (fovy, intrinsic[4], sensorsize[2]) as MuJoCo 3.12 stores them
void CameraIntrinsics(const CameraSpec& s, double* fovy, double intrinsic[4],
                      double sensorsize[2]) {
  if (s.fovy >= 180) throw Error(s.src.Where("fovy"), "fovy must be below 180 degrees");
  for (int k = 0; k < 2; ++k) {
    if (s.focal[k] != 0 && s.focalpixel[k] != 0) {
      throw Error(s.src.Where("focal"), "focal and focalpixel both set the focal length");
    }
    if (s.principal[k] != 0 && s.principalpixel[k] != 0) {
      throw Error(s.src.Where("principal"),
                  "principal and principalpixel both set the principal point");
    }
  }
  const float size[2] = {static_cast<float>(s.sensorsize[0]),
                         static_cast<float>(s.sensorsize[1])};
  // stored through a volatile float: GCC 12 at -O3 was measured storing the unrounded doubles
  // for the plain assignment
  for (int k = 0; k < 2; ++k) {
    volatile float rounded = size[k];
    sensorsize[k] = rounded;
  }
  *fovy = s.fovy;
  if (size[0] > 0 && size[1] > 0) {
    float value[4];
    for (int k = 0; k < 2; ++k) {
      const float density = static_cast<float>(s.resolution[k]) / size[k];
      value[k] = static_cast<float>(s.focalpixel[k]) / density + static_cast<float>(s.focal[k]);
      value[2 + k] = static_cast<float>(s.principalpixel[k]) / density +
                     static_cast<float>(s.principal[k]);
    }
    for (int k = 0; k < 4; ++k) intrinsic[k] = value[k];
    *fovy = std::atan2(size[1] / 2, value[1]) * 360.0 / kPi;
  } else {
    intrinsic[0] = intrinsic[1] = static_cast<float>(kDefaultZnear);
    intrinsic[2] = intrinsic[3] = 0;
  }
}

}  // namespace

void CompileCameras(CompileContext* c, int b) {
  Model& m = *c->m;
  const CompilerSpec& cmp = c->spec->compiler;
  for (const CameraSpec& s : c->bodies[b]->cameras) {
    const int id = m.ncam++;
    c->camera_names.Add(s.name, id, s.src, "camera");
    int target = -1;
    if (!s.target.empty()) {
      target = c->body_names.Require(s.target, s.src, "target", "body");
      if (target == b) {
        throw Error(s.src.Where("target"), "a camera or light cannot target its own body");
      }
    }
    if (s.resolution[0] < 1 || s.resolution[1] < 1) {
      throw Error(s.src.Where("resolution"), "the resolution must be at least 1 x 1 pixels");
    }
    double pos[3] = {s.pos[0], s.pos[1], s.pos[2]}, quat[4];
    OrientationToQuat(s.orient, cmp.degree, cmp.eulerseq, s.src, quat);
    PlaceInBody(*c, b, s.frame, pos, quat);
    double fovy, intrinsic[4], sensorsize[2];
    CameraIntrinsics(s, &fovy, intrinsic, sensorsize);
    m.cam_mode.push_back(static_cast<CamMode>(s.mode));
    m.cam_bodyid.push_back(b);
    m.cam_targetbodyid.push_back(target);
    m.cam_pos.insert(m.cam_pos.end(), pos, pos + 3);
    m.cam_quat.insert(m.cam_quat.end(), quat, quat + 4);
    m.cam_orthographic.push_back(s.orthographic ? 1 : 0);
    m.cam_fovy.push_back(fovy);
    m.cam_ipd.push_back(s.ipd);
    m.cam_resolution.insert(m.cam_resolution.end(), s.resolution, s.resolution + 2);
    m.cam_sensorsize.insert(m.cam_sensorsize.end(), sensorsize, sensorsize + 2);
    m.cam_intrinsic.insert(m.cam_intrinsic.end(), intrinsic, intrinsic + 4);
    m.cam_name.push_back(s.name);
  }
  // cam_pos0, cam_poscom0, cam_mat0: SetConstants (camera.cc)
}

}  // namespace gauss::mjcf
