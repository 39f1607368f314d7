// Inverse dynamics (inverse.cc) with the enable flag invdiscrete: the acceleration given to
// Inverse is the integrator's discrete-time one, (v' - v) / h of a step, and Inverse must give
// back the forces that produced that step, for every single-step integrator; without the flag
// the same acceleration is read as a continuous-time one and the forces differ.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gauss/config.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"

namespace gauss::test {
namespace {

// Joint damping (euler's M + h diag(damping)), a damped tendon, a velocity-dependent actuator
// and a servo (the implicit integrators' D), armature, a ball joint, and a free box resting on
// the floor in contact (constraint forces in the inverse).
const char* kModel = R"(<mujoco><option timestep="0.005"/><worldbody>
  <geom type="plane" size="5 5 0.1"/>
  <body name="arm" pos="0 0 1"><joint name="j1" axis="0 1 0" damping="0.7"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
    <body pos="0.5 0 0"><joint name="j2" axis="0 0.6 0.8" damping="0.3" armature="0.1"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04"/>
      <body pos="0.4 0 0"><joint name="j3" type="ball" damping="0.2"/>
        <geom type="box" size="0.1 0.05 0.05" pos="0.1 0 0"/></body></body></body>
  <body name="box" pos="1.5 0 0.098"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
  </worldbody>
  <tendon><fixed name="t" damping="0.4"><joint joint="j1" coef="1"/>
    <joint joint="j2" coef="-0.5"/></fixed></tendon>
  <actuator><velocity joint="j1" kv="3"/>
    <general joint="j2" gainprm="20" biastype="affine" biasprm="0 -20 -1"/></actuator>
</mujoco>)";

struct StepCase {
  Data start;                  // the state, controls and applied forces
  std::vector<double> forces;  // qfrc_applied + qfrc_actuator of Forward at the start
  std::vector<double> qacc;    // (v' - v) / h of one Step from the start
};

// One step from a posed, moving state of `engine`'s model.
StepCase StepFromPosedState(const Engine& engine) {
  const Model& m = engine.model();
  StepCase c{engine.MakeData(), {}, {}};
  c.start.qpos[0] = 0.3;
  c.start.qpos[1] = -0.4;
  for (int i = 0; i < m.nv; ++i) {
    c.start.qvel[i] = 0.5 * std::cos(2.3 * i);
    c.start.qfrc_applied[i] = 0.4 * std::sin(0.9 * i + 1);
  }
  c.start.ctrl = {0.8, 0.2};
  Data forward = c.start;
  engine.Forward(forward);
  for (int i = 0; i < m.nv; ++i) {
    c.forces.push_back(forward.qfrc_applied[i] + forward.qfrc_actuator[i]);
  }
  Data next = c.start;
  engine.Step(next);
  for (int i = 0; i < m.nv; ++i) {
    c.qacc.push_back((next.qvel[i] - c.start.qvel[i]) / m.opt.timestep);
  }
  return c;
}

// The engine of kModel with `integrator`, a converged Newton solve and invdiscrete on or off.
Engine MakeEngine(const std::string& integrator, bool invdiscrete) {
  Config config;
  config.integrator = integrator;
  config.solver = "newton";
  config.tolerance = 1e-15;
  config.iterations = 1000;
  config.flags["invdiscrete"] = invdiscrete;
  return Engine(LoadModelFromString(kModel, "invdiscrete.xml"), config);
}

// Largest |qfrc_inverse - expected| when Inverse is given the step's acceleration.
double InverseError(const Engine& engine, const StepCase& c, Data* inverse) {
  *inverse = c.start;
  std::copy(c.qacc.begin(), c.qacc.end(), inverse->qacc.begin());
  engine.Inverse(*inverse);
  double err = 0;
  for (std::size_t i = 0; i < c.forces.size(); ++i) {
    err = std::max(err, std::abs(inverse->qfrc_inverse[i] - c.forces[i]));
  }
  return err;
}

TEST(InverseDiscrete, GivesBackTheForcesOfTheStepForEverySingleStepIntegrator) {
  for (const char* integrator : {"euler", "implicit", "implicitfast"}) {
    const Engine engine = MakeEngine(integrator, true);
    const StepCase c = StepFromPosedState(engine);
    Data inverse;
    const double err = InverseError(engine, c, &inverse);
    // the forces are of order 1..10; (v' - v) / h loses about eps / h of qvel
    EXPECT_LT(err, 1e-9) << integrator;
    EXPECT_GT(inverse.nefc, 0) << integrator << ": the box must be in contact";
    // the caller's (discrete) acceleration is left as it was given
    for (int i = 0; i < engine.model().nv; ++i) EXPECT_EQ(inverse.qacc[i], c.qacc[i]) << i;
  }
}

TEST(InverseDiscrete, WithoutTheFlagTheStepAccelerationIsReadAsContinuous) {
  // the same comparison fails without invdiscrete: the damping and velocity derivative change
  // the step's acceleration by h Mhat^-1 D qacc, forces of order h |D| |qacc| ~ 1e-2 here
  for (const char* integrator : {"euler", "implicit", "implicitfast"}) {
    const Engine engine = MakeEngine(integrator, false);
    const StepCase c = StepFromPosedState(engine);
    Data inverse;
    EXPECT_GT(InverseError(engine, c, &inverse), 1e-3) << integrator;
  }
}

TEST(InverseDiscrete, EulerWithoutDampingNeedsNoConversion) {
  // no dof damping: euler steps with qacc itself, so the flag changes nothing (bit for bit)
  std::string xml = kModel;
  for (const char* d : {" damping=\"0.7\"", " damping=\"0.3\"", " damping=\"0.2\""}) {
    xml.erase(xml.find(d), std::string(d).size());
  }
  Data results[2];
  for (bool flag : {false, true}) {
    Config config;
    config.integrator = "euler";
    config.flags["invdiscrete"] = flag;
    const Engine engine(LoadModelFromString(xml, "undamped.xml"), config);
    const StepCase c = StepFromPosedState(engine);
    InverseError(engine, c, &results[flag]);
  }
  EXPECT_EQ(results[0].qfrc_inverse, results[1].qfrc_inverse);
}

TEST(InverseDiscrete, MultiStageIntegratorsAreRefused) {
  const Engine engine = MakeEngine("rk4", true);
  Data d = engine.MakeData();
  try {
    engine.Inverse(d);
    FAIL() << "rk4 has no discrete inverse";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("invdiscrete"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rk4"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gauss::test
