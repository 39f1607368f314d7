// The euler plugin: implicit joint damping. With damping b and timestep h the velocity update
// of a single hinge must be v' = (M v + h f) / (M + h b), i.e. exactly the implicit-damping
// formula, and the plain semi-implicit update when implicit_damping is switched off.
#include <gtest/gtest.h>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"

#include <cmath>

namespace gauss {
namespace {

const char* kDampedHinge = R"(
  <mujoco>
    <option timestep="0.01" gravity="0 0 0"/>
    <worldbody><body><joint name="j" axis="0 0 1" damping="40"/>
      <geom type="sphere" size="0.1" pos="0.5 0 0" mass="2" contype="0" conaffinity="0"/>
    </body></worldbody>
  </mujoco>)";

TEST(Euler, DampingIsIntegratedImplicitly) {
  Engine engine(LoadModelFromString(kDampedHinge));
  Data d = engine.MakeData();
  d.qvel[0] = 3;
  d.qfrc_applied[0] = 1.5;
  engine.Forward(d);
  const double M = d.qM[0], h = 0.01, b = 40;
  engine.Step(d);
  EXPECT_NEAR(d.qvel[0], (M * 3 + h * 1.5) / (M + h * b), 1e-14);
  // semi-implicit position update uses the new velocity
  EXPECT_NEAR(d.qpos[0], h * d.qvel[0], 1e-15);
}

TEST(Euler, StiffDampingStaysStableOnlyWhenImplicit) {
  // h b / M = 0.05 * 40 / 0.508 = 3.9: explicit damping multiplies v by 1 - 3.9 each step and
  // diverges (until the divergence check resets the state); the implicit update multiplies it
  // by M / (M + h b) = 0.2 and decays monotonically.
  for (bool implicit : {true, false}) {
    Config config;
    config.timestep = 0.05;
    config.integrator_params.Set("implicit_damping", implicit ? "true" : "false");
    Engine engine(LoadModelFromString(kDampedHinge), config);
    Data d = engine.MakeData();
    d.qvel[0] = 1;
    for (int k = 0; k < 8; ++k) engine.Step(d);
    if (implicit) {
      EXPECT_GT(d.qvel[0], 0);
      EXPECT_LT(d.qvel[0], 1e-4);
    } else {
      EXPECT_GT(std::fabs(d.qvel[0]), 1e3);
      for (int k = 0; k < 30; ++k) engine.Step(d);
      EXPECT_GE(d.warning_count[static_cast<int>(Warning::kBadQacc)], 1);
    }
  }
}

TEST(Euler, RejectsUnknownParameter) {
  Config config;
  config.integrator_params.Set("implicit_dampnig", "true");
  EXPECT_THROW(Engine(LoadModelFromString(kDampedHinge), config), Error);
}

}  // namespace
}  // namespace gauss
