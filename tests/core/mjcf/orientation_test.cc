// Orientation conversions of the MJCF compiler against hand-computed rotations.
#include "mjcf/orientation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/error.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"

namespace gauss::mjcf {
namespace {

constexpr double kTol = 1e-14;
const double kH = std::sqrt(0.5);  // cos(45 deg) = sin(45 deg)

// Expects quaternions equal up to sign.
void ExpectSameRotation(const double* got, const double* want) {
  const double sign =
      got[0] * want[0] + got[1] * want[1] + got[2] * want[2] + got[3] * want[3] < 0 ? -1 : 1;
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(got[k], sign * want[k], kTol) << "component " << k;
}

// Applies the rotation q to v.
void Rotate(const double* q, const double* v, double* out) { math::RotVecQuat(out, v, q); }

TEST(Orientation, QuatIsNormalized) {
  Orientation o;
  o.quat[0] = 2;
  o.quat[3] = 2;
  double q[4];
  OrientationToQuat(o, true, "xyz", Source{}, q);
  const double want[4] = {kH, 0, 0, kH};
  ExpectSameRotation(q, want);
}

TEST(Orientation, ZeroQuatIsRefused) {
  Orientation o;
  o.quat[0] = 0;
  double q[4];
  EXPECT_THROW(OrientationToQuat(o, true, "xyz", Source{"f.xml", 3, "body"}, q), Error);
}

TEST(Orientation, AxisAngleInDegreesAndRadians) {
  Orientation o;
  o.has_axisangle = true;
  o.axisangle[0] = 0, o.axisangle[1] = 0, o.axisangle[2] = 5, o.axisangle[3] = 90;  // axis not unit
  double q[4];
  OrientationToQuat(o, true, "xyz", Source{}, q);
  const double want[4] = {kH, 0, 0, kH};
  ExpectSameRotation(q, want);
  o.axisangle[3] = M_PI / 2;
  OrientationToQuat(o, false, "xyz", Source{}, q);
  ExpectSameRotation(q, want);
}

TEST(Orientation, EulerIntrinsicAndExtrinsicDiffer) {
  // intrinsic "xyz" 90, 90, 0: rotate about x, then about the rotated y (= old z)
  Orientation o;
  o.has_euler = true;
  o.euler[0] = 90, o.euler[1] = 90, o.euler[2] = 0;
  double qi[4], qe[4];
  OrientationToQuat(o, true, "xyz", Source{}, qi);
  OrientationToQuat(o, true, "XYZ", Source{}, qe);
  const double ex[3] = {1, 0, 0}, ez[3] = {0, 0, 1};
  double v[3];
  // intrinsic: R = Rx(90) Ry(90); R ex = Rx(90) (0,0,-1) = (0,1,0)
  Rotate(qi, ex, v);
  EXPECT_NEAR(v[0], 0, kTol);
  EXPECT_NEAR(v[1], 1, kTol);
  EXPECT_NEAR(v[2], 0, kTol);
  // extrinsic: R = Ry(90) Rx(90); R ez = Ry(90) (0,-1,0) = (0,-1,0)
  Rotate(qe, ez, v);
  EXPECT_NEAR(v[0], 0, kTol);
  EXPECT_NEAR(v[1], -1, kTol);
  EXPECT_NEAR(v[2], 0, kTol);
  // and intrinsic R ez = Rx(90) Ry(90) ez = Rx(90) (1,0,0) = (1,0,0)
  Rotate(qi, ez, v);
  EXPECT_NEAR(v[0], 1, kTol);
}

TEST(Orientation, EulerSequenceOrderMatters) {
  Orientation o;
  o.has_euler = true;
  o.euler[0] = 30, o.euler[1] = 0, o.euler[2] = 0;
  double qz[4];
  OrientationToQuat(o, true, "zyx", Source{}, qz);  // first angle is about z
  const double want[4] = {std::cos(M_PI / 12), 0, 0, std::sin(M_PI / 12)};
  ExpectSameRotation(qz, want);
}

TEST(Orientation, XYAxesOrthogonalizes) {
  // x = (1,1,0), y = (0,1,0): y is made orthogonal to x -> (-1,1,0)/sqrt2: 45 deg about z
  Orientation o;
  o.has_xyaxes = true;
  const double axes[6] = {1, 1, 0, 0, 1, 0};
  for (int k = 0; k < 6; ++k) o.xyaxes[k] = axes[k];
  double q[4];
  OrientationToQuat(o, true, "xyz", Source{}, q);
  const double want[4] = {std::cos(M_PI / 8), 0, 0, std::sin(M_PI / 8)};
  ExpectSameRotation(q, want);
}

TEST(Orientation, ParallelXYAxesAreRefused) {
  Orientation o;
  o.has_xyaxes = true;
  const double axes[6] = {1, 0, 0, 2, 0, 0};
  for (int k = 0; k < 6; ++k) o.xyaxes[k] = axes[k];
  double q[4];
  EXPECT_THROW(OrientationToQuat(o, true, "xyz", Source{}, q), Error);
}

TEST(Orientation, ZAxisIsMinimalRotation) {
  Orientation o;
  o.has_zaxis = true;
  o.zaxis[0] = 1, o.zaxis[1] = 0, o.zaxis[2] = 0;  // +z onto +x: 90 deg about +y
  double q[4];
  OrientationToQuat(o, true, "xyz", Source{}, q);
  const double want[4] = {kH, 0, kH, 0};
  ExpectSameRotation(q, want);
}

TEST(Orientation, EulerWinsOverOtherInheritedForms) {
  // MuJoCo 2.2.2 precedence when a class and an element write different forms
  Orientation o;
  o.has_axisangle = true;
  o.axisangle[0] = 1, o.axisangle[3] = 90;
  o.has_euler = true;
  o.euler[2] = 90;
  double q[4];
  OrientationToQuat(o, true, "xyz", Source{}, q);
  const double want[4] = {kH, 0, 0, kH};
  ExpectSameRotation(q, want);
}

TEST(Orientation, FromtoPointsZFromToToFrom) {
  const double fromto[6] = {0, 0, 0, 0, 0, 2};
  double pos[3], q[4], half;
  FromtoFrame(fromto, Source{}, pos, q, &half);
  EXPECT_NEAR(pos[2], 1, kTol);
  EXPECT_NEAR(half, 1, kTol);
  const double ez[3] = {0, 0, 1};
  double v[3];
  Rotate(q, ez, v);
  EXPECT_NEAR(v[2], -1, kTol);  // MuJoCo aligns +z with from - to
}

TEST(Orientation, GlobalToLocalInvertsLocalToGlobal) {
  const double pp[3] = {1, 2, 3}, pq[4] = {0.5, 0.5, -0.5, 0.5};
  const double lp[3] = {0.3, -0.2, 0.1}, lq[4] = {kH, kH, 0, 0};
  double gp[3], gq[4], bp[3], bq[4];
  LocalToGlobal(pp, pq, lp, lq, gp, gq);
  GlobalToLocal(pp, pq, gp, gq, bp, bq);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(bp[k], lp[k], kTol);
  ExpectSameRotation(bq, lq);
}

TEST(Orientation, BodyFramesThroughTheLoader) {
  const std::string xml = R"(<mujoco><worldbody>
    <body name="a" axisangle="0 0 1 90"><body name="b" pos="1 0 0" euler="0 90 0"/></body>
  </worldbody></mujoco>)";
  auto m = LoadModelFromString(xml, "frames.xml");
  const double wa[4] = {kH, 0, 0, kH}, wb[4] = {kH, 0, kH, 0};
  ExpectSameRotation(&m->body_quat[4], wa);
  ExpectSameRotation(&m->body_quat[8], wb);
  EXPECT_DOUBLE_EQ(m->body_pos[6], 1);
}

}  // namespace
}  // namespace gauss::mjcf
