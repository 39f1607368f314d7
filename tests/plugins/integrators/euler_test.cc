// The euler plugin: implicit joint damping. With damping b and timestep h the velocity update
// of a single hinge must be v' = (M v + h f) / (M + h b), i.e. exactly the implicit-damping
// formula, and the plain semi-implicit update when implicit_damping is switched off. The factor
// of M + h diag(damping) kept in Data is reused exactly while the positions stay. The MuJoCo
// 3.x flag eulerdamp="disable" gives the explicit update too.
#include <gtest/gtest.h>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "gauss/state.h"

#include <cmath>
#include <string>
#include <vector>

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

// MuJoCo 3.x <flag eulerdamp="disable"/>: the same hinge is updated with the explicit
// acceleration, v' = v + h (f - b v) / M, exactly as with implicit_damping=false.
TEST(Euler, EulerdampFlagMakesDampingExplicit) {
  std::string xml = kDampedHinge;
  const std::string option_end = "gravity=\"0 0 0\"/>";
  xml.replace(xml.find(option_end), option_end.size(),
              "gravity=\"0 0 0\"><flag eulerdamp=\"disable\"/></option>");
  Engine engine(LoadModelFromString(xml));
  ASSERT_TRUE(engine.model().opt.Disabled(kDisableEulerdamp));
  Data d = engine.MakeData();
  d.qvel[0] = 3;
  d.qfrc_applied[0] = 1.5;
  engine.Forward(d);
  const double M = d.qM[0], h = 0.01, b = 40;
  engine.Step(d);
  EXPECT_NEAR(d.qvel[0], 3 + h * (1.5 - b * 3) / M, 1e-14);
  EXPECT_NEAR(d.qpos[0], h * d.qvel[0], 1e-15);
}

// Two damped hinges in a chain (M has an off-diagonal entry) and a motor on the first.
const char* kDampedChain = R"(
  <mujoco>
    <option timestep="0.01"/>
    <worldbody><body><joint name="a" axis="0 1 0" damping="5"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05" contype="0" conaffinity="0"/>
      <body pos="0.4 0 0"><joint name="b" axis="0 1 0" damping="3"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04" contype="0" conaffinity="0"/>
      </body>
    </body></worldbody>
    <actuator><motor joint="a" gear="2"/></actuator>
  </mujoco>)";

TEST(Euler, DampedFactorIsReusedOnlyWhilePositionsStay) {
  Engine engine(LoadModelFromString(kDampedChain));
  const Model& m = engine.model();
  Data d = engine.MakeData();
  d.qpos = {0.3, -0.7};
  d.qvel = {1.2, -0.4};
  d.ctrl[0] = 0.5;
  std::vector<double> start(StateSize(m, kStateIntegration));
  GetState(m, d, kStateIntegration, start.data());
  engine.Step(d);
  ASSERT_EQ(d.qLD_damped_current, 1);  // the euler step factored M + h diag(damping)

  // the same positions with another control and velocity: the velocity stage onwards runs
  // again, the factor of the first step is reused (qM did not change)
  auto restart = [&](Data& x) {
    SetState(m, x, kStateIntegration, start.data());
    x.ctrl[0] = -0.8;
    x.qvel[1] = 0.9;
  };
  restart(d);
  engine.StepSkip(d, Stage::kPosition, false);
  Data fresh = engine.MakeData();  // never stepped: factors from scratch
  restart(fresh);
  engine.Step(fresh);
  for (int i = 0; i < m.nv; ++i) {
    EXPECT_EQ(d.qpos[i], fresh.qpos[i]) << i;
    EXPECT_EQ(d.qvel[i], fresh.qvel[i]) << i;
  }

  // the reuse is real: a factor marked current is used as it is, whatever it holds
  restart(d);
  std::vector<double> kept = d.qLDiagInv_damped;
  d.qLDiagInv_damped[0] *= 2;
  engine.StepSkip(d, Stage::kPosition, false);
  EXPECT_NE(d.qvel[0], fresh.qvel[0]);
  d.qLDiagInv_damped = kept;

  // new positions: the position stage recomputes qM and marks the factor stale, the step
  // factors again and matches a step from scratch exactly
  d.qpos = {-0.2, 0.6};
  engine.Forward(d);
  EXPECT_EQ(d.qLD_damped_current, 0);
  GetState(m, d, kStateIntegration, start.data());
  engine.Step(d);
  Data scratch = engine.MakeData();
  SetState(m, scratch, kStateIntegration, start.data());
  engine.Step(scratch);
  EXPECT_EQ(d.qLD_damped, scratch.qLD_damped);
  EXPECT_EQ(d.qLDiagInv_damped, scratch.qLDiagInv_damped);
  EXPECT_EQ(d.qvel, scratch.qvel);
}

TEST(Euler, RejectsUnknownParameter) {
  Config config;
  config.integrator_params.Set("implicit_dampnig", "true");
  EXPECT_THROW(Engine(LoadModelFromString(kDampedHinge), config), Error);
}

}  // namespace
}  // namespace gauss
