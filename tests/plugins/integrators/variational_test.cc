// The `variational` integrator (plugins/integrators/variational): energy without secular drift
// on a conservative chain where euler and rk4 drift, exact angular momentum of a free
// asymmetric body, second-order convergence against an rk4 reference, exact motion under a
// constant force, dissipation with damping, a box dropped on a plane with newton, and a clear
// error when the Newton iteration fails.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

Config MakeConfig(const std::string& integrator, double timestep) {
  Config config;
  config.integrator = integrator;
  config.timestep = timestep;
  config.flags["energy"] = true;
  return config;
}

std::string Scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", x);
  return text;
}

double TotalEnergy(const Engine& engine, Data& d) {
  engine.Forward(d);
  return d.energy[0] + d.energy[1];
}

// Largest |E - E0| (relative to the chain's energy scale m g L) in the first and the last
// tenth of `steps` steps from the keyframe "swing".
struct EnergyDrift {
  double early = 0;
  double late = 0;
};
EnergyDrift ChainEnergyDrift(const std::string& integrator, double timestep, int steps) {
  Engine engine(LoadModel(test::RepoModel("conservative_chain.xml")),
                MakeConfig(integrator, timestep));
  const Model& m = engine.model();
  Data d = engine.MakeData();
  engine.ResetToKeyframe(d, 0);
  const double e0 = TotalEnergy(engine, d);
  double scale = 0;
  for (int b = 1; b < m.nbody; ++b) scale += m.body_mass[b] * 9.81 * 1.0;
  EnergyDrift drift;
  for (int k = 1; k <= steps; ++k) {
    engine.Step(d);
    if (k <= steps / 10 || k > steps - steps / 10) {
      engine.ComputeEnergy(d);
      const double error = std::fabs(d.energy[0] + d.energy[1] - e0) / scale;
      (k <= steps / 10 ? drift.early : drift.late) =
          std::max(k <= steps / 10 ? drift.early : drift.late, error);
    }
  }
  return drift;
}

TEST(Variational, ChainEnergyBoundedWhereEulerAndRk4Drift) {
  const int steps = 100000;
  const double h = 0.01;
  const EnergyDrift variational = ChainEnergyDrift("variational", h, steps);
  const EnergyDrift rk4 = ChainEnergyDrift("rk4", h, steps);
  const EnergyDrift euler = ChainEnergyDrift("euler", h, steps);
  RecordProperty("variational_early", std::to_string(variational.early));
  RecordProperty("variational_late", std::to_string(variational.late));
  RecordProperty("rk4_early", std::to_string(rk4.early));
  RecordProperty("rk4_late", std::to_string(rk4.late));
  RecordProperty("euler_early", std::to_string(euler.early));
  RecordProperty("euler_late", std::to_string(euler.late));
  // bounded: the error of the last 10k steps is no larger than that of the first 10k
  EXPECT_LT(variational.late, 1.5 * variational.early);
  EXPECT_LT(variational.late, 0.05);
  // rk4 drifts: its late error is several times its early one; euler's error is an order of
  // magnitude larger from the start (its energy wanders by ~20 % of m g L within 10 s)
  EXPECT_GT(rk4.late, 3 * rk4.early);
  EXPECT_GT(rk4.late, 2 * variational.late);
  EXPECT_GT(euler.early, 5 * variational.early);
  EXPECT_GT(euler.late, 10 * variational.late);
}

// World-frame angular momentum about the body's com: R (I_body w) for a body with its com at
// the origin of a free joint is not assumed; computed from the kernel as sum over bodies.
void AngularMomentum(const Engine& engine, Data& d, double* l) {
  engine.Forward(d);
  const Model& m = engine.model();
  math::Zero3(l);
  for (int b = 1; b < m.nbody; ++b) {
    // cinert * cvel about the tree's reference point: the angular part is the momentum about it
    const double* in = d.cinert.data() + 10 * b;
    const double* v = d.cvel.data() + 6 * b;
    double h[3] = {in[0] * v[0] + in[3] * v[1] + in[4] * v[2],
                   in[3] * v[0] + in[1] * v[1] + in[5] * v[2],
                   in[4] * v[0] + in[5] * v[1] + in[2] * v[2]};
    double t[3];
    math::Cross3(t, in + 6, v + 3);
    math::AddTo3(h, t);
    // about the world origin: + subtree_com x linear momentum
    double p[3], mcw[3];
    math::Cross3(mcw, in + 6, v);
    for (int c = 0; c < 3; ++c) p[c] = in[9] * v[3 + c] - mcw[c];
    math::Cross3(t, d.subtree_com.data() + 3 * m.body_rootid[b], p);
    math::AddTo3(h, t);
    math::AddTo3(l, h);
  }
}

TEST(Variational, FreeBodyKeepsAngularMomentum) {
  Config config = MakeConfig("variational", 0.01);
  config.gravity = {0, 0, 0};
  Engine engine(LoadModel(test::TestModel("free_asymmetric.xml")), config);
  Data d = engine.MakeData();
  // spin about the body's intermediate principal axis, slightly perturbed (the unstable axis:
  // the body tumbles), plus a drift of the center of mass
  d.qvel[0] = 0.2; d.qvel[1] = -0.1; d.qvel[2] = 0.05;
  d.qvel[3] = 0.05; d.qvel[4] = 8.0; d.qvel[5] = 0.05;
  double l0[3];
  AngularMomentum(engine, d, l0);
  const double e0 = TotalEnergy(engine, d);
  double worst_l = 0, worst_e = 0, lowest_spin = d.qvel[4];
  for (int k = 0; k < 20000; ++k) {
    engine.Step(d);
    lowest_spin = std::min(lowest_spin, d.qvel[4]);
    double l[3], diff[3];
    AngularMomentum(engine, d, l);
    math::Sub3(diff, l, l0);
    worst_l = std::max(worst_l, math::Norm3(diff) / math::Norm3(l0));
    worst_e = std::max(worst_e, std::fabs(d.energy[0] + d.energy[1] - e0) / e0);
  }
  RecordProperty("angular_momentum_relative_error", Scientific(worst_l));
  RecordProperty("energy_relative_error", Scientific(worst_e));
  EXPECT_LT(lowest_spin, -4.0);  // it tumbles: the spin about the body's y axis reverses
  EXPECT_LT(worst_l, 1e-10);
  EXPECT_LT(worst_e, 1e-3);
}

}  // namespace
}  // namespace gauss

namespace gauss {
namespace {

// max_i |qpos_i - reference_i| after `duration` from the keyframe of `model`.
std::vector<double> FinalQpos(const std::string& model, const std::string& integrator, double h,
                              double duration) {
  Engine engine(LoadModel(model), MakeConfig(integrator, h));
  Data d = engine.MakeData();
  if (engine.model().nkey > 0) engine.ResetToKeyframe(d, 0);
  const int steps = static_cast<int>(std::lround(duration / h));
  for (int k = 0; k < steps; ++k) engine.Step(d);
  return d.qpos;
}

double MaxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double r = 0;
  for (std::size_t i = 0; i < a.size(); ++i) r = std::max(r, std::fabs(a[i] - b[i]));
  return r;
}

// Observed order log2(e(h) / e(h/2)) on the two finest of three timesteps against an rk4
// reference at h = 1e-5 (its own error ~1e-15, far below the variational one).
TEST(Variational, SecondOrderConvergence) {
  for (const std::string& model :
       {test::RepoModel("conservative_chain.xml"), test::TestModel("pendulum3.xml")}) {
    const double duration = 0.4;
    const std::vector<double> reference = FinalQpos(model, "rk4", 1e-5, duration);
    double errors[3];
    const double steps[3] = {0.004, 0.002, 0.001};
    for (int i = 0; i < 3; ++i) {
      errors[i] = MaxDifference(FinalQpos(model, "variational", steps[i], duration), reference);
    }
    const double order_coarse = std::log2(errors[0] / errors[1]);
    const double order_fine = std::log2(errors[1] / errors[2]);
    RecordProperty(model + "_error_h4e-3", std::to_string(errors[0]));
    RecordProperty(model + "_error_h1e-3", std::to_string(errors[2]));
    RecordProperty(model + "_order", std::to_string(order_fine));
    EXPECT_NEAR(order_coarse, 2.0, 0.15) << model;
    EXPECT_NEAR(order_fine, 2.0, 0.1) << model;
  }
}

// A constant applied force on a free slider (no gravity): the discrete motion is exactly
// x = x0 + v0 t + F t^2 / (2 m), to round-off.
TEST(Variational, ConstantForceIsExact) {
  const char* xml = R"(
    <mujoco><option gravity="0 0 0"/>
      <worldbody><body><joint name="x" type="slide" axis="1 0 0"/>
        <geom type="sphere" size="0.1" mass="2" contype="0" conaffinity="0"/></body></worldbody>
    </mujoco>)";
  Engine engine(LoadModelFromString(xml), MakeConfig("variational", 0.01));
  Data d = engine.MakeData();
  d.qvel[0] = 0.5;
  const double force = 3.0, mass = engine.model().body_mass[1];
  for (int k = 0; k < 500; ++k) {
    d.qfrc_applied[0] = force;
    engine.Step(d);
  }
  const double t = d.time;
  EXPECT_NEAR(d.qpos[0], 0.5 * t + force * t * t / (2 * mass), 1e-11);
  EXPECT_NEAR(d.qvel[0], 0.5 + force * t / mass, 1e-12);
}

// A box dropped on a plane with the newton solver: it lands, settles flat at its half height
// (up to the soft contact's penetration) and comes to rest, as with euler, at the same height
// (constraint_impulse=split, the default: a resting contact keeps v = 0 exactly).
TEST(Variational, BoxDropSettlesWithNewton) {
  std::vector<double> final_z;
  for (const char* integrator : {"euler", "variational"}) {
    Config config = MakeConfig(integrator, 0.01);
    config.solver = "newton";
    Engine engine(LoadModel(test::RepoModel("box_drop_tilted.xml")), config);
    Data d = engine.MakeData();
    double lowest = 1;
    for (int k = 0; k < 300; ++k) {
      engine.Step(d);
      lowest = std::min(lowest, d.qpos[2]);
    }
    double speed = 0;
    for (int i = 0; i < 6; ++i) speed = std::max(speed, std::fabs(d.qvel[i]));
    RecordProperty(std::string(integrator) + "_final_z", std::to_string(d.qpos[2]));
    EXPECT_NEAR(d.qpos[2], 0.05, 2e-3) << integrator;  // flat on its smallest half-size
    EXPECT_GT(lowest, 0.04) << integrator;              // never sank through the floor
    EXPECT_LT(speed, 1e-3) << integrator;
    final_z.push_back(d.qpos[2]);
  }
  EXPECT_NEAR(final_z[0], final_z[1], 1e-6);
}

// constraint_impulse is checked when the engine is made.
TEST(Variational, RefusesAnUnknownConstraintImpulse) {
  Config config = MakeConfig("variational", 0.01);
  config.integrator_params.Set("constraint_impulse", "middle");
  try {
    Engine engine(LoadModel(test::RepoModel("box_drop_tilted.xml")), config);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("constraint_impulse must be 'start' or 'split'"),
              std::string::npos)
        << e.what();
  }
}

// A timestep far too large for the motion: Newton cannot solve the step, and the error names
// the step instead of returning garbage.
TEST(Variational, NewtonFailureNamesTheStep) {
  Config config = MakeConfig("variational", 0.25);
  config.integrator_params.Set("max_iterations", "8");
  Engine engine(LoadModel(test::RepoModel("conservative_chain.xml")), config);
  Data d = engine.MakeData();
  engine.ResetToKeyframe(d, 0);
  for (int i = 0; i < engine.model().nv; ++i) d.qvel[i] = 40;
  try {
    for (int k = 0; k < 100; ++k) engine.Step(d);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string message = e.what();
    RecordProperty("message", message);
    EXPECT_NE(message.find("variational"), std::string::npos) << message;
    EXPECT_NE(message.find("at step "), std::string::npos) << message;
    EXPECT_NE(message.find("Newton iteration"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace gauss

namespace gauss {
namespace {

// Steps allocate nothing on the heap: the Newton arrays, the dense finite-difference Jacobian
// and the kernel evaluations take Data::arena only (a fast chaotic chain uses every path:
// analytic and finite-difference Jacobians; a humanoid with contacts the sparse one).
TEST(Variational, StepsDoNotAllocate) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  for (const std::string& model :
       {test::RepoModel("conservative_chain.xml"), test::RepoModel("humanoid.xml")}) {
    Engine engine(LoadModel(model), MakeConfig("variational", 0.01));
    Data d = engine.MakeData();
    if (engine.model().nkey > 0) engine.ResetToKeyframe(d, 0);
    for (int k = 0; k < 20; ++k) engine.Step(d);  // warm up
    const long before = test::AllocationCount();
    for (int k = 0; k < 1000; ++k) engine.Step(d);
    EXPECT_EQ(test::AllocationCount(), before) << model;
  }
}

}  // namespace
}  // namespace gauss
