// Third-party actuator dynamics named by a model (<general dyntype="<plugin>">): the compiler
// records the plugin, the engine loads it through the registry, and the simulation follows the
// plugin's physics — here the DC motor of tests/test_plugins/dcmotor (armature current as the
// activation), whose steady speed on a viscous load is V / (kt + R b / kt). An unknown plugin
// name is the registry's error.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kR = 2.0, kL = 0.01, kKt = 0.5, kDamping = 0.1, kVolts = 6.0;

// A wheel (hinge about z, no gravity torque) with viscous damping b, driven by `dyntype`.
std::shared_ptr<const Model> Wheel(const std::string& dyntype) {
  const std::string xml = R"(<mujoco><option timestep="0.001"/><worldbody>
      <body><joint name="wheel" axis="0 0 1" damping=")" + std::to_string(kDamping) + R"("/>
        <geom type="cylinder" size=".1 .02" mass="1"/></body></worldbody>
    <actuator><general name="motor" joint="wheel" dyntype=")" + dyntype + R"(" dynprm=")" +
                          std::to_string(kR) + " " + std::to_string(kL) + " " +
                          std::to_string(kKt) + R"(" ctrllimited="true" ctrlrange="-12 12"/>
    </actuator></mujoco>)";
  return LoadModelFromString(xml, "wheel.xml");
}

Config WithTestPlugins() {
  Config config;
  config.plugin_paths.push_back(TestPluginDir() + "/dcmotor");
  return config;
}

TEST(DcMotor, DyntypeNamesThePlugin) {
  const auto model = Wheel("dcmotor");
  EXPECT_EQ(model->actuator_plugin[0], "dcmotor");
  EXPECT_EQ(model->actuator_dyntype[0], DynType::kUser);
  EXPECT_EQ(model->na, 1);
  EXPECT_EQ(model->actuator_actadr[0], 0);
}

TEST(DcMotor, ReachesTheSteadySpeedOfTheMotorEquations) {
  Engine engine(Wheel("dcmotor"), WithTestPlugins());
  Data d = engine.MakeData();
  d.ctrl[0] = kVolts;
  // mechanical time constant J / (b + kt^2 / R) ~ 0.02 s, electrical L / R = 5 ms
  for (int k = 0; k < 3000; ++k) engine.Step(d);
  const double speed = kVolts / (kKt + kR * kDamping / kKt);
  EXPECT_NEAR(d.qvel[0], speed, 1e-9 * speed);
  // steady current: the torque kt i balances the damping b w
  EXPECT_NEAR(d.act[0], kDamping * speed / kKt, 1e-9);
  engine.Forward(d);
  EXPECT_NEAR(d.actuator_force[0], kKt * d.act[0], 1e-15);
  EXPECT_NEAR(d.act_dot[0], 0, 1e-6);
}

TEST(DcMotor, StallCurrentIsVoltageOverResistance) {
  // at rest the back-EMF is zero: the current rises to V / R with time constant L / R
  Engine engine(Wheel("dcmotor"), WithTestPlugins());
  Data d = engine.MakeData();
  d.ctrl[0] = kVolts;
  engine.Forward(d);
  EXPECT_NEAR(d.act_dot[0], kVolts / kL, 1e-12);
  EXPECT_EQ(d.actuator_force[0], 0);  // no current yet
  engine.Step(d);
  // one step of the exact current update, with the wheel still at rest at the step's start
  EXPECT_NEAR(d.act[0], kVolts / kR * (1 - std::exp(-0.001 * kR / kL)), 1e-12);
}

TEST(DcMotor, UnknownPluginNameIsTheRegistrysError) {
  const auto model = Wheel("no_such_motor");
  EXPECT_EQ(model->actuator_plugin[0], "no_such_motor");
  try {
    Engine engine(model, WithTestPlugins());
    FAIL() << "no plugin is called no_such_motor";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_motor"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("dcmotor"), std::string::npos)
        << "the message should list the searched directories: " << e.what();
  }
}

}  // namespace
}  // namespace gauss::test
