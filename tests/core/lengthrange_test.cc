// Actuator constants of the compiler (lengthrange.cc): actuator_length0 and actuator_acc0 in
// closed form, and the <compiler><lengthrange> options: mode, useexisting, uselimit, and the
// simulated range of an actuator on a limited joint (the joint range, overshooting by the
// small penetration of the soft limit).
#include <gtest/gtest.h>

#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// A hinge limited to [-0.5, 0.7] and a free slide (mass 2, ref 0.1); `compiler` goes inside
// <compiler>, `actuators` inside <actuator>.
std::shared_ptr<const Model> Load(const std::string& compiler, const std::string& actuators) {
  const std::string xml = R"(<mujoco><compiler angle="radian">)" + compiler + R"(</compiler>
    <worldbody>
      <body><joint name="h" axis="0 1 0" limited="true" range="-0.5 0.7"/>
        <geom type="capsule" fromto="0 0 0 .3 0 0" size=".05"/></body>
      <body pos="1 0 0"><joint name="s" type="slide" axis="1 0 0" ref="0.1" armature="0.5"/>
        <geom type="sphere" size=".1" mass="2"/></body>
    </worldbody>
    <actuator>)" + actuators + R"(</actuator></mujoco>)";
  return LoadModelFromString(xml, "lengthrange.xml");
}

TEST(ActuatorConstants, Acc0AndLength0InClosedForm) {
  // slide: M = mass + armature = 2.5, moment = gear 3 => acc0 = 3 / 2.5; length0 = 3 * ref
  const auto m = Load("", R"(<motor joint="s" gear="3"/>)");
  EXPECT_NEAR(m->actuator_acc0[0], 3 / 2.5, 1e-14);
  EXPECT_NEAR(m->actuator_length0[0], 0.3, 1e-15);
}

TEST(LengthRange, DefaultModeSkipsNonMuscles) {
  const auto m = Load("", R"(<position joint="h" kp="1"/>)");
  EXPECT_EQ(m->actuator_lengthrange[0], 0);
  EXPECT_EQ(m->actuator_lengthrange[1], 0);
}

TEST(LengthRange, ModeAllSimulatesToTheJointLimits) {
  const auto m = Load(R"(<lengthrange mode="all"/>)", R"(<position joint="h" kp="1"/>)");
  // the push ends at each limit, inside the soft-limit penetration (a few mrad here)
  EXPECT_LT(m->actuator_lengthrange[0], -0.5);
  EXPECT_GT(m->actuator_lengthrange[0], -0.51);
  EXPECT_GT(m->actuator_lengthrange[1], 0.7);
  EXPECT_LT(m->actuator_lengthrange[1], 0.71);
}

TEST(LengthRange, UseLimitCopiesTheJointRange) {
  const auto m = Load(R"(<lengthrange mode="all" uselimit="true"/>)",
                      R"(<position joint="h" kp="1"/>)");
  EXPECT_EQ(m->actuator_lengthrange[0], -0.5);
  EXPECT_EQ(m->actuator_lengthrange[1], 0.7);
}

TEST(LengthRange, UseExistingKeepsAGivenRangeUnlessDisabled) {
  const std::string muscle = R"(<muscle joint="h" lengthrange="-0.2 0.3"/>)";
  const auto kept = Load("", muscle);
  EXPECT_EQ(kept->actuator_lengthrange[0], -0.2);
  EXPECT_EQ(kept->actuator_lengthrange[1], 0.3);
  const auto recomputed = Load(R"(<lengthrange useexisting="false"/>)", muscle);
  EXPECT_LT(recomputed->actuator_lengthrange[0], -0.5);
  EXPECT_GT(recomputed->actuator_lengthrange[1], 0.7);
}

TEST(LengthRange, ModeNoneLeavesMusclesAlone) {
  const auto m = Load(R"(<lengthrange mode="none"/>)", R"(<muscle joint="h"/>)");
  EXPECT_EQ(m->actuator_lengthrange[0], 0);
  EXPECT_EQ(m->actuator_lengthrange[1], 0);
}

TEST(LengthRange, AnUnboundedActuatorIsAnErrorAtItsElement) {
  try {
    Load(R"(<lengthrange mode="all"/>)", R"(<motor name="m" joint="s"/>)");
    FAIL() << "an actuator on an unlimited slide has no length range";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().element, "motor");
    EXPECT_GT(e.where().line, 0);
    EXPECT_NE(std::string(e.what()).find("did not converge"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gauss::test
