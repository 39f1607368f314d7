// Built-in sensors of the position stage (after kinematics, com, tendons, constraints and
// transmissions; spec "Sensors", MuJoCo 2.2.2 semantics):
//   magnetometer     opt.magnetic in the site frame
//   rangefinder      distance along the site's +z axis to the nearest visible geom of another
//                    body (static geoms included), -1 when nothing is hit; 3.x: one ray per
//                    pixel of a camera, and the `data` fields of each ray
//   jointpos, tendonpos, actuatorpos: qpos of a hinge/slide, ten_length, actuator_length
//   ballquat         the ball joint's quaternion, normalized
//   jointlimitpos, tendonlimitpos: efc_pos - efc_margin of the limit row (0 when inactive):
//                    negative when the limit is violated
//   framepos, frame[xyz]axis, framequat: position, axes, orientation of a body's inertial frame
//                    (objtype body), body frame (xbody), geom, site or camera; with a reference
//                    object, relative to and expressed in the reference frame
//   subtreecom, clock: subtree_com of the body, time
//   e_potential      (3.x) energy[0], computed whether or not the energy flag is enabled
//   insidesite       (3.x) 1 when the object's frame origin is in the site's volume, else 0
//   camprojection    (3.x) the site's image coordinates (pixels) in the camera
#include <algorithm>
#include <cmath>

#include "builtin.h"
#include "gauss/math.h"
#include "gauss/sensor_support.h"

namespace gauss::builtin_sensors {

using namespace math;

namespace {

// (object and reference frames) => framepos (axis < 0) or frame axis `axis` (0, 1, 2)
void FrameVector(const Model& m, const Data& d, int s, int axis, double* out) {
  const double* pos = nullptr;
  const double* mat = nullptr;
  ObjectFrame(m, d, m.sensor_objtype[s], m.sensor_objid[s], &pos, &mat);
  double vec[3];
  if (axis < 0) {
    Copy3(vec, pos);
  } else {
    // the axis is a column of the row-major rotation matrix
    vec[0] = mat[axis];
    vec[1] = mat[axis + 3];
    vec[2] = mat[axis + 6];
  }
  if (m.sensor_refid[s] < 0) {
    Copy3(out, vec);
    return;
  }
  const double* ref_pos = nullptr;
  const double* ref_mat = nullptr;
  ObjectFrame(m, d, m.sensor_reftype[s], m.sensor_refid[s], &ref_pos, &ref_mat);
  if (axis < 0) Sub3(vec, vec, ref_pos);
  MulMatTVec3(out, ref_mat, vec);
}

// (object and reference quaternions) => framequat: ref^-1 * obj
void FrameQuat(const Model& m, const Data& d, int s, double* out) {
  double quat[4];
  ObjectQuat(m, d, m.sensor_objtype[s], m.sensor_objid[s], quat);
  if (m.sensor_refid[s] < 0) {
    Copy4(out, quat);
    return;
  }
  double ref[4];
  ObjectQuat(m, d, m.sensor_reftype[s], m.sensor_refid[s], ref);
  NegQuat(ref, ref);
  MulQuat(out, ref, quat);
}

// (geom poses) => out advanced past the `data` fields (sensor_intprm bits) of one ray from
// origin along the unit dir that ignores body `exclude`: dist (-1: no hit), dir and point (zero
// without a hit), origin, depth (how far the hit lies in front of the camera (camera_xpos,
// camera_xmat: along its -z axis), dist for a site (null camera); -1 without a hit)
double* RangefinderRay(const Model& m, const Data& d, int fields, const double origin[3],
                       const double dir[3], int exclude, const double* camera_xmat,
                       const double* camera_xpos, double* out) {
  int geom = -1;
  const double dist = Ray(m, d, origin, dir, nullptr, true, exclude, &geom);
  const bool hit = dist >= 0;
  double point[3] = {0, 0, 0};
  if (hit) {
    for (int k = 0; k < 3; ++k) point[k] = origin[k] + dist * dir[k];
  }
  if (fields & 1) *out++ = dist;
  if (fields & 2) {
    for (int k = 0; k < 3; ++k) *out++ = hit ? dir[k] : 0;
  }
  if (fields & 4) {
    for (int k = 0; k < 3; ++k) *out++ = origin[k];
  }
  if (fields & 8) {
    for (int k = 0; k < 3; ++k) *out++ = point[k];
  }
  // bit 16 (normal) is refused by the parser
  if (fields & 32) {
    if (!hit) {
      *out++ = -1;
    } else if (camera_xmat) {
      double rel[3];
      Sub3(rel, point, camera_xpos);
      *out++ = -(rel[0] * camera_xmat[2] + rel[1] * camera_xmat[5] + rel[2] * camera_xmat[8]);
    } else {
      *out++ = dist;
    }
  }
  return out;
}

// (geom poses, site or camera frame) => rangefinder readings: a site's one ray along its +z, or
// one per pixel of a camera, row by row from the top (CameraPixelRay), each ignoring the geoms
// of the site's or camera's body
void Rangefinder(const Model& m, const Data& d, int s, double* out) {
  const int id = m.sensor_objid[s], fields = m.sensor_intprm[3 * s];
  if (m.sensor_objtype[s] != ObjType::kCamera) {
    const double* mat = d.site_xmat.data() + 9 * id;
    const double zaxis[3] = {mat[2], mat[5], mat[8]};
    RangefinderRay(m, d, fields, d.site_xpos.data() + 3 * id, zaxis, m.site_bodyid[id], nullptr,
                   nullptr, out);
    return;
  }
  const int width = m.cam_resolution[2 * id], height = m.cam_resolution[2 * id + 1];
  for (int row = 0; row < height; ++row) {
    for (int col = 0; col < width; ++col) {
      // always posed: the compiler refuses rangefinders on cameras with a sensorsize, the one
      // case CameraPixelRay does not handle
      double origin[3], dir[3];
      CameraPixelRay(m, d, id, col, row, origin, dir);
      out = RangefinderRay(m, d, fields, origin, dir, m.cam_bodyid[id],
                           d.cam_xmat.data() + 9 * id, d.cam_xpos.data() + 3 * id, out);
    }
  }
}

// (object frame, site frame) => 1 when the object's frame origin lies in the site's volume
// (sphere, capsule, ellipsoid, cylinder or box; the surface counts as inside), else 0
double InsideSite(const Model& m, const Data& d, int s) {
  const double* pos = nullptr;
  const double* mat = nullptr;
  ObjectFrame(m, d, m.sensor_objtype[s], m.sensor_objid[s], &pos, &mat);
  return PointInSite(m, d, m.sensor_refid[s], pos) ? 1 : 0;
}

}  // namespace

// (site frame, site size) => whether the world point lies in the site's volume
bool PointInSite(const Model& m, const Data& d, int site, const double point[3]) {
  const double* size = m.site_size.data() + 3 * site;
  double dif[3], p[3];
  Sub3(dif, point, d.site_xpos.data() + 3 * site);
  MulMatTVec3(p, d.site_xmat.data() + 9 * site, dif);  // in the site's frame
  switch (static_cast<GeomType>(m.site_type[site])) {
    case GeomType::kSphere:
      return Dot3(p, p) <= size[0] * size[0];
    case GeomType::kCapsule: {
      const double z = std::max(0.0, std::fabs(p[2]) - size[1]);  // beyond the segment
      return p[0] * p[0] + p[1] * p[1] + z * z <= size[0] * size[0];
    }
    case GeomType::kEllipsoid: {
      double q = 0;
      for (int k = 0; k < 3; ++k) q += (p[k] / size[k]) * (p[k] / size[k]);
      return q <= 1;
    }
    case GeomType::kCylinder:
      return p[0] * p[0] + p[1] * p[1] <= size[0] * size[0] && std::fabs(p[2]) <= size[1];
    case GeomType::kBox:
      return std::fabs(p[0]) <= size[0] && std::fabs(p[1]) <= size[1] &&
             std::fabs(p[2]) <= size[2];
    default:
      return false;  // sites have no other shapes
  }
}

// (site_xmat, site_xpos, geom poses, qpos, ten_length, actuator_length, efc_pos, efc_margin,
// object frames, subtree_com, time) => sensordata
void EvaluatePosition(const Model& m, Data& d, const Kind* kinds, const int* ids, int n) {
  for (int k = 0; k < n; ++k) {
    const int s = ids[k];
    const int id = m.sensor_objid[s];
    double* out = d.sensordata.data() + m.sensor_adr[s];
    switch (kinds[s]) {
      case Kind::kMagnetometer:
        MulMatTVec3(out, d.site_xmat.data() + 9 * id, m.opt.magnetic.data());
        break;
      case Kind::kRangefinder:
        Rangefinder(m, d, s, out);
        break;
      case Kind::kJointPos:
        out[0] = d.qpos[m.jnt_qposadr[id]];
        break;
      case Kind::kTendonPos:
        out[0] = d.ten_length[id];
        break;
      case Kind::kActuatorPos:
        out[0] = d.actuator_length[id];
        break;
      case Kind::kBallQuat:
        Copy4(out, d.qpos.data() + m.jnt_qposadr[id]);
        NormalizeQuat(out);
        break;
      case Kind::kJointLimitPos:
      case Kind::kTendonLimitPos: {
        const bool joint = kinds[s] == Kind::kJointLimitPos;
        const int row =
            LimitRow(d, joint ? ConstraintType::kLimitJoint : ConstraintType::kLimitTendon, id);
        out[0] = row < 0 ? 0 : d.efc_pos[row] - d.efc_margin[row];
        break;
      }
      case Kind::kFramePos:
        FrameVector(m, d, s, -1, out);
        break;
      case Kind::kFrameXAxis:
        FrameVector(m, d, s, 0, out);
        break;
      case Kind::kFrameYAxis:
        FrameVector(m, d, s, 1, out);
        break;
      case Kind::kFrameZAxis:
        FrameVector(m, d, s, 2, out);
        break;
      case Kind::kFrameQuat:
        FrameQuat(m, d, s, out);
        break;
      case Kind::kSubtreeCom:
        Copy3(out, d.subtree_com.data() + 3 * id);
        break;
      case Kind::kClock:
        out[0] = d.time;
        break;
      case Kind::kEPotential:  // MuJoCo 3.x: whether or not the energy flag is enabled
        PotentialEnergy(m, d);
        out[0] = d.energy[0];
        break;
      case Kind::kInsideSite:
        out[0] = InsideSite(m, d, s);
        break;
      case Kind::kCamProjection:
        CameraProjection(m, d, m.sensor_refid[s], d.site_xpos.data() + 3 * id, out);
        break;
      default:
        break;  // not a position sensor: Check and the compiler's stage table exclude this
    }
  }
}

}  // namespace gauss::builtin_sensors
