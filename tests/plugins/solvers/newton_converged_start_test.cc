// Newton's start-point test (parameter converged_start, plugins/solvers/newton/newton.cc): a
// solve whose start point (the warmstart, or qacc_smooth when that costs less) already passes
// the gradient half of the convergence test returns that point after 0 iterations, as MuJoCo
// 3.x's newton does; converged_start=false iterates at least once, as MuJoCo 2.2.2 does. A
// solve whose start does not pass is the same with either setting, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "gauss/sparse_inertia.h"
#include "gauss/state.h"
#include "support/test_support.h"

namespace gauss {
namespace {

Config NewtonConfig(bool converged_start) {
  Config config;
  config.solver = "newton";
  config.integrator = "euler";
  config.solver_params.Set("converged_start", converged_start ? "true" : "false");
  return config;
}

using test::SameBits;

// The scaled norm of the cost's gradient M qacc - qfrc_smooth - J' force at d's solution (the
// quantity the test compares with the tolerance).
double ScaledGradient(const Engine& engine, const Data& d) {
  const Model& m = engine.model();
  std::vector<double> Ma(m.nv);
  MulTreeSparse(m, d.qM.data(), d.qacc.data(), Ma.data());
  double sum = 0;
  for (int i = 0; i < m.nv; ++i) {
    const double g = Ma[i] - d.qfrc_smooth[i] - d.qfrc_constraint[i];
    sum += g * g;
  }
  return std::sqrt(sum) / (m.stat_meaninertia * std::max(1, m.nv));
}

// The same positions and velocities solved again: the warmstart is the first solve's solution,
// whose gradient is round-off, so the second solve stops at its start.
TEST(NewtonConvergedStart, SolvedProblemIsReturnedWithoutIterating) {
  for (const bool islands : {false, true}) {
    Config config = NewtonConfig(true);
    config.flags["island"] = islands;
    const Engine engine(LoadModel(test::TestModel("contact_pile.xml")), config);
    Data d = engine.MakeData();
    std::mt19937_64 gen(7);
    std::normal_distribution<double> nd(0, 0.3);
    for (int i = 0; i < engine.model().nv; ++i) d.qvel[i] = nd(gen);
    for (int k = 0; k < 300; ++k) engine.Step(d);
    engine.Forward(d);
    ASSERT_GT(d.nefc, 0);
    ASSERT_GT(d.solver_iter, 0) << "islands " << islands;
    const std::vector<double> solution = d.qacc;
    engine.Forward(d);  // warmstart = solution
    EXPECT_EQ(d.solver_iter, 0) << "islands " << islands;
    EXPECT_TRUE(SameBits(d.qacc, solution)) << "islands " << islands;
    EXPECT_LT(ScaledGradient(engine, d), engine.options().tolerance) << "islands " << islands;
  }
}

// Along a trajectory of the settling pile, every solve is compared with the same solve (same
// state and warmstart) of converged_start=false: bit-identical where the start did not pass,
// and close to the iterated answer where it did.
TEST(NewtonConvergedStart, OnlySolvesWhoseStartPassesChange) {
  const Engine stopping(LoadModel(test::TestModel("contact_pile.xml")), NewtonConfig(true));
  const Engine iterating(LoadModel(test::TestModel("contact_pile.xml")), NewtonConfig(false));
  Data a = stopping.MakeData();
  Data b = iterating.MakeData();
  // the pile has landed and settled after ~2.4 s: from there on most starts pass
  for (int k = 0; k < 1150; ++k) stopping.Step(a);
  int stopped = 0, iterated = 0;
  for (int k = 0; k < 300; ++k) {
    const std::vector<double> state = GetState(stopping.model(), a, kStateIntegration);
    SetState(iterating.model(), b, kStateIntegration, state.data());
    stopping.Forward(a);
    iterating.Forward(b);
    ASSERT_GT(b.nefc, 0);
    ASSERT_GT(b.solver_iter, 0) << "step " << k;
    if (a.solver_iter > 0) {
      ++iterated;
      ASSERT_TRUE(SameBits(a.qacc, b.qacc)) << "step " << k;
      ASSERT_EQ(a.nefc, b.nefc);
      ASSERT_EQ(std::memcmp(a.efc_force.data(), b.efc_force.data(), a.nefc * sizeof(double)), 0)
          << "step " << k;
    } else {
      ++stopped;
      EXPECT_LT(ScaledGradient(stopping, a), stopping.options().tolerance) << "step " << k;
      for (int i = 0; i < stopping.model().nv; ++i) {
        EXPECT_NEAR(a.qacc[i], b.qacc[i], 1e-5 * (1 + std::fabs(b.qacc[i]))) << "step " << k;
      }
    }
    stopping.Step(a);
  }
  EXPECT_GT(iterated, 0);
  EXPECT_GT(stopped, 0);  // the comparison covered solves that stopped at their start
}

}  // namespace
}  // namespace gauss
