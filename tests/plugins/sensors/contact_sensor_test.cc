// The MuJoCo 3.x contact sensor (plugins/sensors/builtin/contact_sensor.cc) on a scene whose
// readings follow from statics: two balls resting on a plane (masses 1 and 3) and a light ball
// resting on the heavy one. At rest each contact carries the weight above it, so the net force
// on the plane is the total weight, the direction convention flips it, and the reductions
// order the contacts by load. The parser's refusals of malformed sensors are checked too.
// MuJoCo 3.12.1 cross-checks: tests/reference/mjcf3_test.cc (contact_sensor.xml).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

const char* kScene = R"(
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 .1" solref=".005 1"/>
    <site name="left" type="box" size=".2 .2 .2" pos="-.5 0 0"/>
    <body name="light" pos="-.5 0 .1"><freejoint/><geom name="light" size=".1" mass="1"/></body>
    <body name="heavy" pos=".5 0 .1"><freejoint/><geom name="heavy" size=".1" mass="3"/></body>
    <body name="top" pos=".5 0 .3"><freejoint/><geom name="top" size=".1" mass=".5"/></body>
  </worldbody>
  <sensor>
    <contact name="all" num="4" data="found force dist normal"/>
    <contact name="floor_first" geom1="floor" num="2" data="found force normal"/>
    <contact name="floor_second" geom2="floor" num="2" data="found force normal tangent"/>
    <contact name="net_on_floor" body2="world" reduce="netforce" data="found force torque pos"/>
    <contact name="net_on_heavy" body2="heavy" reduce="netforce" num="2" data="force"/>
    <contact name="maxforce" reduce="maxforce" num="3" data="force"/>
    <contact name="mindist" reduce="mindist" num="3" data="dist"/>
    <contact name="left" site="left" num="2" data="found pos"/>
    <contact name="none" geom1="light" geom2="top"/>
  </sensor>
</mujoco>)";

class ContactSensor : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = std::make_unique<Engine>(LoadModelFromString(kScene, "contact_sensor.xml"));
    d_ = engine_->MakeData();
    for (int k = 0; k < 1500; ++k) engine_->Step(d_);  // settle: 3 s
    engine_->Forward(d_);
  }
  const double* Reading(const std::string& name) const {
    const Model& m = engine_->model();
    for (int s = 0; s < m.nsensor; ++s) {
      if (m.sensor_name[s] == name) return d_.sensordata.data() + m.sensor_adr[s];
    }
    ADD_FAILURE() << "no sensor named " << name;
    return d_.sensordata.data();
  }
  std::unique_ptr<Engine> engine_;
  Data d_;
};

// Weights at rest (g = 9.81): light 1, heavy 3 carrying top 0.5
constexpr double kG = 9.81, kLight = 1 * kG, kTop = 0.5 * kG, kHeavy = 3.5 * kG;
constexpr double kTol = 1e-6;

TEST_F(ContactSensor, SlotsHoldTheMatchedContactsAndZerosBeyond) {
  const Model& m = engine_->model();
  ASSERT_EQ(d_.ncon, 3);
  EXPECT_EQ(m.sensor_dim[0], 4 * (1 + 3 + 1 + 3));
  const double* all = Reading("all");
  for (int k = 0; k < 3; ++k) EXPECT_EQ(all[8 * k], 3);  // found = number matched
  for (int i = 24; i < 32; ++i) EXPECT_EQ(all[i], 0);    // the fourth slot is empty
  EXPECT_EQ(Reading("none")[0], 0);
  // only the light ball's floor contact lies in the left box
  const double* left = Reading("left");
  EXPECT_EQ(left[0], 1);
  EXPECT_NEAR(left[1], -0.5, 1e-3);
  for (int i = 4; i < 8; ++i) EXPECT_EQ(left[i], 0);
}

TEST_F(ContactSensor, ForcesCarryTheWeightAboveAndFlipWithTheSides) {
  // the floor is side 1: normals point up into the balls, positive normal forces
  const double* first = Reading("floor_first");
  const double* second = Reading("floor_second");
  EXPECT_EQ(first[0], 2);
  const double loads[2] = {first[1], first[8]};
  EXPECT_NEAR(loads[0] + loads[1], kLight + kHeavy, kTol);
  EXPECT_NEAR(std::max(loads[0], loads[1]), kHeavy, kTol);
  EXPECT_NEAR(first[6], 1, 1e-12);  // normal z of slot 1
  // the floor as side 2: the same contacts from the balls' side, normals and tangents negated,
  // normal force unchanged, second tangential component negated
  for (int k = 0; k < 2; ++k) {
    const double* a = first + 7 * k;
    const double* b = second + 10 * k;
    EXPECT_EQ(b[0], 2);
    EXPECT_DOUBLE_EQ(b[1], a[1]);
    EXPECT_DOUBLE_EQ(b[2], a[2]);
    EXPECT_DOUBLE_EQ(b[3], -a[3]);
    for (int j = 0; j < 3; ++j) EXPECT_DOUBLE_EQ(b[4 + j], -a[4 + j]);
  }
}

TEST_F(ContactSensor, NetForceIsTheTotalWeightAtTheLoadWeightedCentroid) {
  // force on the floor from the balls above it: (0, 0, -total weight), acting at the
  // force-weighted centroid of the two floor contacts, with no moment about it
  const double* net = Reading("net_on_floor");
  EXPECT_EQ(net[0], 2);
  EXPECT_NEAR(net[1], 0, kTol);
  EXPECT_NEAR(net[2], 0, kTol);
  EXPECT_NEAR(net[3], -(kLight + kHeavy), kTol);
  for (int i = 4; i < 7; ++i) EXPECT_NEAR(net[i], 0, 1e-5);
  EXPECT_NEAR(net[7], (-0.5 * kLight + 0.5 * kHeavy) / (kLight + kHeavy), 1e-4);
  // on the heavy ball (side 2): the floor pushes up by its load, top presses down by its own
  // weight, so the net contact force balances the heavy ball's own weight; slot 2 stays empty
  const double* heavy = Reading("net_on_heavy");
  EXPECT_NEAR(heavy[2], 3 * kG, kTol);
  for (int i = 3; i < 6; ++i) EXPECT_EQ(heavy[i], 0);
}

TEST_F(ContactSensor, ReductionsOrderByLoadAndByDepth) {
  const double* maxforce = Reading("maxforce");
  EXPECT_NEAR(maxforce[0], kHeavy, kTol);
  EXPECT_NEAR(maxforce[3], kLight, kTol);
  EXPECT_NEAR(maxforce[6], kTop, kTol);
  const double* mindist = Reading("mindist");
  EXPECT_LT(mindist[0], mindist[1]);
  EXPECT_LT(mindist[1], mindist[2]);
  EXPECT_LT(mindist[2], 0);
}

std::string ErrorOf(const std::string& sensor) {
  return test::ErrorMessage([&] {
    LoadModelFromString("<mujoco><worldbody><site name=\"s\"/><body name=\"b\"><freejoint/>"
                        "<geom name=\"g\" size=\".1\"/></body></worldbody><sensor>" + sensor +
                            "</sensor></mujoco>",
                        "bad.xml");
  });
}

TEST(ContactSensorSyntax, MalformedSensorsAreRefusedWithTheReason) {
  EXPECT_NE(ErrorOf("<contact data=\"force found\"/>").find("in the order found, force"),
            std::string::npos);
  EXPECT_NE(ErrorOf("<contact data=\"found found\"/>").find("distinct"), std::string::npos);
  EXPECT_NE(ErrorOf("<contact data=\"speed\"/>").find("invalid field 'speed'"),
            std::string::npos);
  EXPECT_NE(ErrorOf("<contact geom1=\"g\" body1=\"b\"/>")
                .find("at most one of geom1, body1, subtree1, site"), std::string::npos);
  EXPECT_NE(ErrorOf("<contact site=\"s\" subtree1=\"b\"/>").find("at most one"),
            std::string::npos);
  EXPECT_NE(ErrorOf("<contact num=\"0\"/>").find("num must be positive"), std::string::npos);
  EXPECT_NE(ErrorOf("<contact reduce=\"sum\"/>").find("reduce"), std::string::npos);
  EXPECT_NE(ErrorOf("<contact body2=\"nobody\"/>").find("nobody"), std::string::npos);
  EXPECT_NE(ErrorOf("<contact geom1=\"g\" distance=\"1\"/>").find("distance"),
            std::string::npos);
}

}  // namespace
}  // namespace gauss
