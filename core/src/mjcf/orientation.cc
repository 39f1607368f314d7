// Orientation conversions of the MJCF compiler. Rules measured against MuJoCo 2.2.2:
//  - euler: the sequence letters rotate about the moving axes when lowercase (intrinsic:
//    q <- q * r) and about the fixed axes when uppercase (extrinsic: q <- r * q).
//  - xyaxes: x is normalized, y is made orthogonal to x and normalized, z = x cross y.
//  - zaxis: the minimal rotation taking +z onto the given vector.
//  - axisangle: the axis is normalized; the angle follows compiler angle.
//  - When a default class and an element set different forms, precedence is
//    euler > zaxis > xyaxes > axisangle > quat, whichever of them was written where.
//  - quat is normalized. MuJoCo 2.2.2 keeps "0 0 0 0" as is (an invalid rotation); we refuse it.
#include "mjcf/orientation.h"

#include <cmath>

#include "gauss/math.h"
#include "mjcf/attributes.h"

namespace gauss::mjcf {
namespace {

constexpr double kPi = 3.14159265358979323846;

// An angle from the file in radians.
double Angle(double a, bool degree) { return degree ? a * kPi / 180 : a; }

}  // namespace

// (orientation attributes) => (o)
void ReadOrientation(const XmlElement& e, Orientation* o) {
  int forms = 0;
  for (const char* a : {"quat", "axisangle", "xyaxes", "zaxis", "euler"}) {
    forms += e.Find(a) != nullptr;
  }
  if (forms > 1) {
    throw Error(e.Where(), "more than one orientation given (quat, axisangle, xyaxes, zaxis, "
                           "euler); write only one");
  }
  ReadNumbers(e, "quat", o->quat, 4);
  if (ReadNumbers(e, "axisangle", o->axisangle, 4)) o->has_axisangle = true;
  if (ReadNumbers(e, "xyaxes", o->xyaxes, 6)) o->has_xyaxes = true;
  if (ReadNumbers(e, "zaxis", o->zaxis, 3)) o->has_zaxis = true;
  if (ReadNumbers(e, "euler", o->euler, 3)) o->has_euler = true;
}

bool ValidEulerSeq(const std::string& seq) {
  if (seq.size() != 3) return false;
  for (char c : seq) {
    if (std::string("xyzXYZ").find(c) == std::string::npos) return false;
  }
  return true;
}

// (o) => (quat), forms applied in precedence order so that the last one written wins.
void OrientationToQuat(const Orientation& o, bool degree, const std::string& eulerseq,
                       const Source& src, double quat[4]) {
  math::Copy4(quat, o.quat);
  if (math::NormalizeQuat(quat) < kMinVal) {
    throw Error(src.Where("quat"), "the quaternion is zero; it must have a nonzero norm");
  }
  if (o.has_axisangle) {
    double axis[3] = {o.axisangle[0], o.axisangle[1], o.axisangle[2]};
    if (math::Norm3(axis) < kMinVal) throw Error(src.Where("axisangle"), "the axis is zero");
    math::Normalize3(axis);
    math::AxisAngleToQuat(quat, axis, Angle(o.axisangle[3], degree));
  }
  if (o.has_xyaxes) {
    double x[3] = {o.xyaxes[0], o.xyaxes[1], o.xyaxes[2]};
    double y[3] = {o.xyaxes[3], o.xyaxes[4], o.xyaxes[5]};
    if (math::Norm3(x) < kMinVal) throw Error(src.Where("xyaxes"), "the x axis is zero");
    math::Normalize3(x);
    math::AddScaled3(y, x, -math::Dot3(x, y));
    if (math::Norm3(y) < kMinVal) {
      throw Error(src.Where("xyaxes"), "the y axis is zero or parallel to the x axis");
    }
    math::Normalize3(y);
    double z[3];
    math::Cross3(z, x, y);
    // rotation matrix with columns x, y, z (row-major)
    const double m[9] = {x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]};
    math::MatToQuat(quat, m);
  }
  if (o.has_zaxis) {
    if (math::Norm3(o.zaxis) < kMinVal) throw Error(src.Where("zaxis"), "the z axis is zero");
    math::QuatZ2Vec(quat, o.zaxis);
  }
  if (o.has_euler) {
    math::SetIdentityQuat(quat);
    for (int i = 0; i < 3; ++i) {
      const char c = eulerseq[i];
      double axis[3] = {0, 0, 0};
      axis[(c == 'x' || c == 'X') ? 0 : (c == 'y' || c == 'Y') ? 1 : 2] = 1;
      double r[4];
      math::AxisAngleToQuat(r, axis, Angle(o.euler[i], degree));
      if (c >= 'a') {
        math::MulQuat(quat, quat, r);  // intrinsic: about the rotated axes
      } else {
        math::MulQuat(quat, r, quat);  // extrinsic: about the fixed axes
      }
    }
  }
  math::NormalizeQuat(quat);
}

// (fromto) => (pos, quat, half length)
void FromtoFrame(const double fromto[6], const Source& src, double pos[3], double quat[4],
                 double* half_length) {
  double vec[3] = {fromto[0] - fromto[3], fromto[1] - fromto[4], fromto[2] - fromto[5]};
  const double len = math::Norm3(vec);
  if (len < 1e-10) throw Error(src.Where("fromto"), "the two points coincide");
  for (int k = 0; k < 3; ++k) pos[k] = 0.5 * (fromto[k] + fromto[k + 3]);
  math::QuatZ2Vec(quat, vec);
  *half_length = 0.5 * len;
}

// (parent frame, child frame) => (child frame relative to the parent)
void GlobalToLocal(const double parent_pos[3], const double parent_quat[4],
                   const double child_pos[3], const double child_quat[4], double local_pos[3],
                   double local_quat[4]) {
  double d[3], qinv[4], q[4];
  math::Sub3(d, child_pos, parent_pos);
  math::NegQuat(qinv, parent_quat);
  math::RotVecQuat(local_pos, d, qinv);
  math::MulQuat(q, qinv, child_quat);
  math::NormalizeQuat(q);
  math::Copy4(local_quat, q);
}

// (parent frame, child frame in it) => (child frame where the parent is given)
void LocalToGlobal(const double parent_pos[3], const double parent_quat[4],
                   const double local_pos[3], const double local_quat[4], double pos[3],
                   double quat[4]) {
  double p[3], q[4];
  math::RotVecQuat(p, local_pos, parent_quat);
  math::Add3(pos, p, parent_pos);
  math::MulQuat(q, parent_quat, local_quat);
  math::NormalizeQuat(q);
  math::Copy4(quat, q);
}

}  // namespace gauss::mjcf
