// The builtin sensor plugin on models whose readings are known in closed form: a hinge
// pendulum (joint, frame, gyro, velocimeter, accelerometer, force and torque at the pivot), a
// free body spinning in free fall (subtree sensors, accelerometer), rangefinders above a plane
// and towards a sphere, from sites and from the pixels of cameras, the magnetometer and the clock; and the refusal of sensors the plugin
// does not evaluate. MuJoCo cross-checks are in tests/reference/sensor_test.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"

namespace gauss {
namespace {

constexpr double kTol = 1e-12;

// The readings of sensor `name`.
const double* Reading(const Engine& engine, const Data& d, const std::string& name) {
  const Model& m = engine.model();
  for (int s = 0; s < m.nsensor; ++s) {
    if (m.sensor_name[s] == name) return d.sensordata.data() + m.sensor_adr[s];
  }
  ADD_FAILURE() << "no sensor named " << name;
  static const double zeros[4] = {0, 0, 0, 0};
  return zeros;
}

void ExpectVec(const double* got, double x, double y, double z, double tol = kTol) {
  EXPECT_NEAR(got[0], x, tol);
  EXPECT_NEAR(got[1], y, tol);
  EXPECT_NEAR(got[2], z, tol);
}

// A point mass m = 2 (a sphere of radius 0.1) at L = 1 below a hinge about y at height 2. The
// tip site is turned 90 degrees about z, so its x axis is the world y axis at qpos = 0.
const char* kPendulum = R"(
<mujoco>
  <worldbody>
    <body name="rod" pos="0 0 2">
      <joint name="hinge" type="hinge" axis="0 1 0"/>
      <geom type="sphere" size=".1" mass="2" pos="0 0 -1" contype="0" conaffinity="0"/>
      <site name="tip" pos="0 0 -1" euler="0 0 90"/>
      <site name="pivot"/>
    </body>
  </worldbody>
  <sensor>
    <jointpos name="q" joint="hinge"/>
    <jointvel name="v" joint="hinge"/>
    <framepos name="tip_pos" objtype="site" objname="tip"/>
    <framezaxis name="tip_z" objtype="site" objname="tip"/>
    <gyro name="gyro" site="tip"/>
    <velocimeter name="vel" site="tip"/>
    <accelerometer name="acc_pivot" site="pivot"/>
    <accelerometer name="acc_tip" site="tip"/>
    <force name="force" site="pivot"/>
    <torque name="torque" site="pivot"/>
    <clock name="clock"/>
  </sensor>
</mujoco>)";

struct PendulumState {
  Engine engine{LoadModelFromString(kPendulum)};
  Data d = engine.MakeData();
  double theta = 0.7, omega = -1.3;
  PendulumState() {
    d.qpos[0] = theta;
    d.qvel[0] = omega;
    d.time = 4.25;
    engine.Forward(d);
  }
};

TEST(BuiltinSensors, JointFrameAndClockSensorsOfAPendulum) {
  PendulumState p;
  const double s = std::sin(p.theta), c = std::cos(p.theta);
  EXPECT_EQ(Reading(p.engine, p.d, "q")[0], p.theta);
  EXPECT_EQ(Reading(p.engine, p.d, "v")[0], p.omega);
  EXPECT_EQ(Reading(p.engine, p.d, "clock")[0], 4.25);
  // the rod turns (0, 0, -1) into (-sin, 0, -cos) about the pivot at height 2
  ExpectVec(Reading(p.engine, p.d, "tip_pos"), -s, 0, 2 - c);
  // the site's z axis is the body's z axis turned by theta about y
  ExpectVec(Reading(p.engine, p.d, "tip_z"), s, 0, c);
}

TEST(BuiltinSensors, GyroAndVelocimeterAreInTheSiteFrame) {
  PendulumState p;
  // world angular velocity (0, omega, 0); the site's x axis is the body's y axis
  ExpectVec(Reading(p.engine, p.d, "gyro"), p.omega, 0, 0);
  // the tip moves along the rod's -x direction at L omega, which is the site's +y axis
  ExpectVec(Reading(p.engine, p.d, "vel"), 0, p.omega, 0);
}

TEST(BuiltinSensors, AccelerometerForceAndTorqueOfAPendulum) {
  PendulumState p;
  const double s = std::sin(p.theta), c = std::cos(p.theta), w = p.omega, g = 9.81, m = 2;
  // rigid-body dynamics about the pivot: I alpha = -m g L sin(theta), I = m L^2 + 2/5 m r^2
  const double inertia = m + 0.4 * m * 0.01;
  const double alpha = -m * g * s / inertia;
  ASSERT_NEAR(p.d.qacc[0], alpha, kTol);
  // the pivot does not move: it reads the reaction to gravity, g upward, in the rod frame
  ExpectVec(Reading(p.engine, p.d, "acc_pivot"), -s * g, 0, c * g);
  // the tip: tangential L alpha along the site's y, centripetal L w^2 toward the pivot (site
  // z), plus g upward; rod frame -> site frame: (x, y, z) -> (y, -x, z)
  const double rod_acc[3] = {-alpha - s * g, 0, w * w + c * g};
  ExpectVec(Reading(p.engine, p.d, "acc_tip"), rod_acc[1], -rod_acc[0], rod_acc[2], 1e-11);
  // the pivot holds the mass: F = m (a_com + g up) in world, read in the rod (= pivot) frame
  const double a_world[3] = {-c * alpha + s * w * w, 0, s * alpha + c * w * w + g};
  const double f_rod[3] = {m * (c * a_world[0] - s * a_world[2]), 0,
                           m * (s * a_world[0] + c * a_world[2])};
  ExpectVec(Reading(p.engine, p.d, "force"), f_rod[0], f_rod[1], f_rod[2], 1e-11);
  // a frictionless hinge transmits no torque about its axis, and the motion is planar
  ExpectVec(Reading(p.engine, p.d, "torque"), 0, 0, 0, 1e-11);
}

// A box spinning about a tilted axis in free fall, com at the body origin.
const char* kFreeBody = R"(
<mujoco>
  <option magnetic="0.2 -0.4 0.5"/>
  <worldbody>
    <body name="box" pos="0 0 1">
      <freejoint/>
      <geom type="box" size=".3 .2 .1" mass="3" contype="0" conaffinity="0"/>
      <site name="center"/>
      <site name="turned" euler="30 0 60"/>
    </body>
  </worldbody>
  <sensor>
    <subtreecom name="com" body="box"/>
    <subtreelinvel name="linvel" body="box"/>
    <subtreeangmom name="angmom" body="box"/>
    <subtreelinvel name="world_linvel" body="world"/>
    <accelerometer name="acc" site="center"/>
    <magnetometer name="mag" site="turned"/>
    <framequat name="quat" objtype="site" objname="turned"/>
  </sensor>
</mujoco>)";

TEST(BuiltinSensors, SubtreeSensorsAndAccelerometerOfAFreeBody) {
  Engine engine(LoadModelFromString(kFreeBody));
  Data d = engine.MakeData();
  const double q[4] = {0.8, 0.2, -0.4, 0.4};
  double quat[4] = {q[0], q[1], q[2], q[3]};
  math::NormalizeQuat(quat);
  const double pos[3] = {0.5, -0.25, 2}, v[3] = {1, -2, 0.5}, w_local[3] = {3, -1, 2};
  for (int k = 0; k < 3; ++k) {
    d.qpos[k] = pos[k];
    d.qvel[k] = v[k];
    d.qvel[3 + k] = w_local[k];
  }
  for (int k = 0; k < 4; ++k) d.qpos[3 + k] = quat[k];
  engine.Forward(d);

  ExpectVec(Reading(engine, d, "com"), pos[0], pos[1], pos[2]);
  ExpectVec(Reading(engine, d, "linvel"), v[0], v[1], v[2]);
  ExpectVec(Reading(engine, d, "world_linvel"), v[0], v[1], v[2]);  // the only mass
  // L = R diag(I) w_local, I of a box: m/3 (b^2 + c^2), ...
  const double m = 3, a = 0.3, b = 0.2, c = 0.1;
  const double inertia[3] = {m / 3 * (b * b + c * c), m / 3 * (a * a + c * c),
                             m / 3 * (a * a + b * b)};
  double local[3], angmom[3], rot[9];
  for (int k = 0; k < 3; ++k) local[k] = inertia[k] * w_local[k];
  math::QuatToMat(rot, quat);
  math::MulMatVec3(angmom, rot, local);
  ExpectVec(Reading(engine, d, "angmom"), angmom[0], angmom[1], angmom[2]);
  // in free fall the com accelerates with gravity: the accelerometer reads nothing
  ExpectVec(Reading(engine, d, "acc"), 0, 0, 0, 1e-11);
  // the magnetometer reads the field in the site frame: R_site' B
  const double* site_quat = Reading(engine, d, "quat");
  double site_rot[9], field[3];
  math::QuatToMat(site_rot, site_quat);
  const double b_world[3] = {0.2, -0.4, 0.5};
  math::MulMatTVec3(field, site_rot, b_world);
  ExpectVec(Reading(engine, d, "mag"), field[0], field[1], field[2]);
  EXPECT_NEAR(math::Norm3(Reading(engine, d, "mag")), math::Norm3(b_world), kTol);
}

// Rangefinders on a hinge above a plane at z = 0 and facing a sphere of radius 0.5 at x = 3.
const char* kRange = R"(
<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1"/>
    <geom name="ball" type="sphere" size=".5" pos="3 0 1"/>
    <body name="head" pos="0 0 1">
      <joint name="tilt" type="hinge" axis="0 1 0"/>
      <geom type="box" size=".2 .2 .2" contype="0" conaffinity="0"/>
      <site name="down" zaxis="0 0 -1"/>
      <site name="ahead" zaxis="1 0 0"/>
    </body>
  </worldbody>
  <sensor>
    <rangefinder name="down" site="down"/>
    <rangefinder name="ahead" site="ahead"/>
    <rangefinder name="clipped" site="ahead" cutoff="2"/>
  </sensor>
</mujoco>)";

TEST(BuiltinSensors, RangefinderDistancesAlongTheSiteZAxis) {
  Engine engine(LoadModelFromString(kRange));
  Data d = engine.MakeData();
  for (double tilt : {0.0, 0.3, -0.6}) {
    d.qpos[0] = tilt;
    engine.Forward(d);
    // the own body's box (around the site) is ignored; the floor is 1 below, slanted by tilt
    EXPECT_NEAR(Reading(engine, d, "down")[0], 1 / std::cos(tilt), kTol) << tilt;
  }
  d.qpos[0] = 0;
  engine.Forward(d);
  EXPECT_NEAR(Reading(engine, d, "ahead")[0], 2.5, kTol);
  EXPECT_NEAR(Reading(engine, d, "clipped")[0], 2, kTol);  // positive data: clamped from above
  // turned away from the floor and the ball: nothing is hit, and -1 is not clamped
  d.qpos[0] = M_PI;
  engine.Forward(d);
  EXPECT_EQ(Reading(engine, d, "down")[0], -1);
  EXPECT_EQ(Reading(engine, d, "ahead")[0], -1);
  EXPECT_EQ(Reading(engine, d, "clipped")[0], -1);
}

// Cameras 1 above a plane, looking straight down (a camera looks along its -z axis), with the
// ball out of view: a perspective camera's rays reach the floor at distance 1 / cos(angle of
// the pixel's ray), all at depth 1; an orthographic camera's rays all at distance 1, from the
// pixel centres of an image fovy = 2 high.
const char* kCameraRange = R"(
<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1"/>
    <body name="head" pos="0.5 0 1">
      <geom type="box" size=".2 .2 .2" contype="0" conaffinity="0"/>
      <camera name="persp" resolution="3 2" fovy="60"/>
      <camera name="ortho" resolution="2 2" fovy="2" projection="orthographic"/>
    </body>
  </worldbody>
  <sensor>
    <rangefinder name="persp" camera="persp" data="dist dir depth"/>
    <rangefinder name="ortho" camera="ortho" data="dist origin point"/>
  </sensor>
</mujoco>)";

TEST(BuiltinSensors, CameraRangefindersCastOneRayPerPixel) {
  Engine engine(LoadModelFromString(kCameraRange));
  const Model& m = engine.model();
  EXPECT_EQ(m.sensor_dim[0], 6 * 5);
  EXPECT_EQ(m.sensor_dim[1], 4 * 7);
  Data d = engine.MakeData();
  engine.Forward(d);
  const double* persp = Reading(engine, d, "persp");
  const double f = 2 / (2 * std::tan(M_PI / 6));  // pixels: height / (2 tan(fovy / 2))
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 3; ++col) {
      const double* ray = persp + 5 * (3 * row + col);
      const double x = (col + 0.5 - 1.5) / f, y = (1 - row - 0.5) / f;
      const double norm = std::sqrt(x * x + y * y + 1);
      EXPECT_NEAR(ray[0], norm, kTol) << row << " " << col;  // dist: 1 / cos
      ExpectVec(ray + 1, x / norm, y / norm, -1 / norm);
      EXPECT_NEAR(ray[4], 1, kTol);  // depth along the camera axis
    }
  }
  const double* ortho = Reading(engine, d, "ortho");
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 2; ++col) {
      const double* ray = ortho + 7 * (2 * row + col);
      EXPECT_NEAR(ray[0], 1, kTol);
      ExpectVec(ray + 1, 0.5 + (col - 0.5), 0.5 - row, 1);  // pixels 1 x 1, centred
      ExpectVec(ray + 4, 0.5 + (col - 0.5), 0.5 - row, 0);
    }
  }
  // turned upside down nothing is hit: dist and depth -1, dir and point zero, origin kept
  auto upside = std::make_shared<Model>(m);
  upside->body_quat[4 * m.BodyId("head") + 0] = 0;
  upside->body_quat[4 * m.BodyId("head") + 1] = 1;
  Engine flipped(upside);
  Data u = flipped.MakeData();
  flipped.Forward(u);
  const double* miss = Reading(flipped, u, "persp");
  EXPECT_EQ(miss[0], -1);
  ExpectVec(miss + 1, 0, 0, 0, 0);
  EXPECT_EQ(miss[4], -1);
  const double* miss_ortho = Reading(flipped, u, "ortho");
  EXPECT_EQ(miss_ortho[0], -1);
  ExpectVec(miss_ortho + 4, 0, 0, 0, 0);
  EXPECT_NEAR(miss_ortho[3], 1, kTol);  // the origins stay in the camera's plane
}

TEST(BuiltinSensors, RangefinderDataAndCameraRulesAreChecked) {
  const std::string head = R"(<mujoco><worldbody><site name="s"/><camera name="c"/>
    <camera name="lens" resolution="4 3" sensorsize="0.004 0.003" focal="0.002 0.002"/>
    </worldbody><sensor>)";
  auto error = [&](const std::string& sensor) {
    try {
      LoadModelFromString(head + sensor + "</sensor></mujoco>");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  EXPECT_NE(error(R"(<rangefinder site="s" camera="c"/>)").find("at most one"), std::string::npos);
  EXPECT_NE(error(R"(<rangefinder site="s" data="depth dist"/>)").find("order"), std::string::npos);
  EXPECT_NE(error(R"(<rangefinder site="s" data="normal"/>)").find("not supported yet"),
            std::string::npos);
  EXPECT_NE(error(R"(<rangefinder camera="lens"/>)").find("not supported yet"), std::string::npos);
  EXPECT_EQ(error(R"(<rangefinder site="s" data="dist dir origin point depth"/>)"), "loaded");
}

// User sensors belong to the Engine's callback; handed to the builtin plugin, they are refused.
TEST(BuiltinSensors, RefusesUserSensorsWhenTheEngineIsMade) {
  const char* xml = R"(
<mujoco>
  <worldbody>
    <body name="b"><joint type="hinge"/><geom type="sphere" size=".1"/></body>
  </worldbody>
  <sensor><user name="mine" objtype="body" objname="b" dim="2" needstage="vel"
                        datatype="real"/></sensor>
</mujoco>)";
  Model model = *LoadModelFromString(xml);
  EXPECT_EQ(model.sensor_plugin[0], "user");
  model.sensor_plugin[0] = "builtin";
  try {
    Engine engine(std::make_shared<const Model>(model));
    FAIL() << "a user sensor was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not supported yet: sensor user 'mine'"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gauss
