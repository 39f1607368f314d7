// Mass properties of primitive geoms against closed-form formulas, and of bodies (parallel
// axes, principal axes, inertiafromgeom, bounds, settotalmass) against hand computations.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/error.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "mjcf/compiler.h"
#include "mjcf/geom_inertia.h"

namespace gauss::mjcf {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kRel = 1e-13;

void ExpectRel(double got, double want) { EXPECT_NEAR(got, want, kRel * std::fabs(want)); }

TEST(GeomInertia, Sphere) {
  const double size[3] = {0.3, 0, 0};
  ExpectRel(GeomVolume(GeomType::kSphere, size), 4.0 / 3 * kPi * 0.027);
  double in[3];
  GeomInertia(GeomType::kSphere, size, 2, in);
  for (double i : in) ExpectRel(i, 0.4 * 2 * 0.09);
  ExpectRel(GeomBoundingRadius(GeomType::kSphere, size), 0.3);
}

TEST(GeomInertia, Box) {
  const double size[3] = {0.1, 0.2, 0.3};  // half sizes
  ExpectRel(GeomVolume(GeomType::kBox, size), 0.2 * 0.4 * 0.6);
  double in[3];
  GeomInertia(GeomType::kBox, size, 3, in);
  // full edges a = 0.2, b = 0.4, c = 0.6: Ix = m (b^2 + c^2) / 12
  ExpectRel(in[0], 3 * (0.16 + 0.36) / 12);
  ExpectRel(in[1], 3 * (0.04 + 0.36) / 12);
  ExpectRel(in[2], 3 * (0.04 + 0.16) / 12);
  ExpectRel(GeomBoundingRadius(GeomType::kBox, size), std::sqrt(0.14));
}

TEST(GeomInertia, Cylinder) {
  const double size[3] = {0.1, 0.4, 0};  // radius, half height
  ExpectRel(GeomVolume(GeomType::kCylinder, size), kPi * 0.01 * 0.8);
  double in[3];
  GeomInertia(GeomType::kCylinder, size, 5, in);
  ExpectRel(in[0], 5 * (3 * 0.01 + 0.64) / 12);
  ExpectRel(in[1], in[0]);
  ExpectRel(in[2], 5 * 0.01 / 2);
  ExpectRel(GeomBoundingRadius(GeomType::kCylinder, size), std::sqrt(0.01 + 0.16));
}

TEST(GeomInertia, Ellipsoid) {
  const double size[3] = {0.1, 0.2, 0.3};
  ExpectRel(GeomVolume(GeomType::kEllipsoid, size), 4.0 / 3 * kPi * 0.006);
  double in[3];
  GeomInertia(GeomType::kEllipsoid, size, 2, in);
  ExpectRel(in[0], 2 * (0.04 + 0.09) / 5);
  ExpectRel(in[1], 2 * (0.01 + 0.09) / 5);
  ExpectRel(in[2], 2 * (0.01 + 0.04) / 5);
  ExpectRel(GeomBoundingRadius(GeomType::kEllipsoid, size), 0.3);
}

TEST(GeomInertia, CapsuleIsCylinderPlusDisplacedHemispheres) {
  const double r = 0.1, h = 0.8, size[3] = {r, h / 2, 0};
  const double vc = kPi * r * r * h, vs = 4.0 / 3 * kPi * r * r * r;
  ExpectRel(GeomVolume(GeomType::kCapsule, size), vc + vs);
  const double density = 1000, mc = density * vc, ms = density * vs;
  // each hemisphere: mass ms/2, center at 3r/8 from its flat face, Iz = 2/5 (ms/2) r^2; about
  // axes through its own center of mass the transverse moment is (83/320) (ms/2) r^2
  const double hemi_com = h / 2 + 3 * r / 8;
  const double hemi_transverse = 83.0 / 320 * (ms / 2) * r * r + (ms / 2) * hemi_com * hemi_com;
  const double ix = mc * (3 * r * r + h * h) / 12 + 2 * hemi_transverse;
  const double iz = mc * r * r / 2 + 2 * 0.4 * (ms / 2) * r * r;
  double in[3];
  GeomInertia(GeomType::kCapsule, size, mc + ms, in);
  // derived independently from the hemispheres' own centroids and moments
  ExpectRel(in[0], ix);
  ExpectRel(in[2], iz);
  ExpectRel(GeomBoundingRadius(GeomType::kCapsule, size), r + h / 2);
}

TEST(GeomInertia, CapsuleMatchesMujocoClosedForm) {
  // The exact expression MuJoCo 2.2.2 uses (measured to the last digit): hemispheres of total
  // mass ms, sphere moment 2/5 ms r^2 plus ms h (3r + 2h) / 8 about the transverse axes
  const double r = 0.08, h = 0.3, size[3] = {r, h / 2, 0};
  const double mass = 1.7;
  const double ms = mass * 4 * r / (4 * r + 3 * h), mc = mass - ms;
  double in[3];
  GeomInertia(GeomType::kCapsule, size, mass, in);
  ExpectRel(in[0], mc * (3 * r * r + h * h) / 12 + 0.4 * ms * r * r + ms * h * (3 * r + 2 * h) / 8);
  ExpectRel(in[2], mc * r * r / 2 + 0.4 * ms * r * r);
}

TEST(BodyInertia, TwoSpheresUseParallelAxes) {
  const std::string xml = R"(<mujoco><worldbody><body><joint/>
      <geom size="0.1" pos="-0.5 0 0" mass="1"/><geom size="0.1" pos="0.5 0 0" mass="3"/>
    </body></worldbody></mujoco>)";
  auto m = LoadModelFromString(xml, "two_spheres.xml");
  ExpectRel(m->body_mass[1], 4);
  ExpectRel(m->body_ipos[3], (-0.5 + 1.5) / 4);
  // about the com (x = 0.25): each sphere 2/5 m r^2, plus m d^2 about y and z
  const double own = 0.4 * 0.01;
  const double shift = 1 * 0.75 * 0.75 + 3 * 0.25 * 0.25;
  double moments[3] = {m->body_inertia[3], m->body_inertia[4], m->body_inertia[5]};
  ExpectRel(moments[0], 4 * own + shift);  // decreasing order: the two transverse moments
  ExpectRel(moments[1], 4 * own + shift);
  ExpectRel(moments[2], 4 * own);
}

TEST(BodyInertia, FullInertiaIsDiagonalized) {
  const std::string xml = R"(<mujoco><worldbody><body><joint/>
      <inertial pos="0 0 0" mass="1" fullinertia="2 2 3 1 0 0"/>
    </body></worldbody></mujoco>)";
  auto m = LoadModelFromString(xml, "full.xml");
  // [[2,1,0],[1,2,0],[0,0,3]] has eigenvalues 3, 3, 1
  ExpectRel(m->body_inertia[3], 3);
  ExpectRel(m->body_inertia[4], 3);
  EXPECT_NEAR(m->body_inertia[5], 1, 1e-9);
  // the eigenvector of 1 is (1,-1,0)/sqrt2: it is the frame's third axis
  double r[9];
  math::QuatToMat(r, &m->body_iquat[4]);
  EXPECT_NEAR(std::fabs(r[2]), std::sqrt(0.5), 1e-6);
  EXPECT_NEAR(std::fabs(r[5]), std::sqrt(0.5), 1e-6);
}

TEST(BodyInertia, PrincipalAxesOfDiagonalTensorKeepOrder) {
  const double full[6] = {5, 3, 1, 0, 0, 0};
  double in[3], q[4];
  EXPECT_DOUBLE_EQ(PrincipalAxes(full, in, q), 1);
  EXPECT_DOUBLE_EQ(in[0], 5);
  EXPECT_DOUBLE_EQ(in[1], 3);
  EXPECT_DOUBLE_EQ(q[0], 1);
}

TEST(BodyInertia, InertialBeatsGeomsUnlessInertiafromgeomTrue) {
  const std::string body = R"(<worldbody><body><joint/><geom size="0.1"/>
      <inertial pos="0 0 0" mass="7" diaginertia="1 1 1"/></body></worldbody>)";
  auto a = LoadModelFromString("<mujoco>" + body + "</mujoco>", "auto.xml");
  ExpectRel(a->body_mass[1], 7);
  auto t = LoadModelFromString(R"(<mujoco><compiler inertiafromgeom="true"/>)" + body + "</mujoco>",
                               "true.xml");
  ExpectRel(t->body_mass[1], 1000 * 4.0 / 3 * kPi * 0.001);
}

TEST(BodyInertia, BoundsAndTotalMass) {
  const std::string xml = R"(<mujoco><compiler boundmass="2" boundinertia="0.5" settotalmass="12"/>
    <worldbody><body><joint/><geom size="0.01"/></body>
      <body><joint/><geom type="box" size="1 1 1" mass="4"/></body></worldbody></mujoco>)";
  auto m = LoadModelFromString(xml, "bounds.xml");
  // masses become (2, 4), then scale by 12 / 6
  ExpectRel(m->body_mass[1], 4);
  ExpectRel(m->body_mass[2], 8);
  ExpectRel(m->body_inertia[3], 1.0);  // bound 0.5, scaled by 2
  ExpectRel(m->body_subtreemass[0], 12);
}

TEST(BodyInertia, BalanceInertiaAveragesMoments) {
  const std::string bad = R"(<worldbody><body><joint/>
      <inertial pos="0 0 0" mass="1" diaginertia="1 1 3"/></body></worldbody></mujoco>)";
  EXPECT_THROW(LoadModelFromString("<mujoco>" + bad, "unbalanced.xml"), Error);
  auto m =
      LoadModelFromString(R"(<mujoco><compiler balanceinertia="true"/>)" + bad, "balanced.xml");
  for (int k = 0; k < 3; ++k) ExpectRel(m->body_inertia[3 + k], 5.0 / 3);
}

}  // namespace
}  // namespace gauss::mjcf
