// Analytic inverse dynamics with soft constraints (spec "Reduced primal problem": at the
// minimum M qacc + c = tau + J' f(J qacc - aref)) against MuJoCo 2.2.2 and against forward
// dynamics, without contacts.
//
// At the forward solution of newton at tolerance 1e-12 (random states that violate limits and
// equalities, random qfrc_applied, xfrc_applied and controls):
//  - Engine::Inverse at MuJoCo's qacc gives MuJoCo's mj_inverse qfrc_inverse (and efc_force)
//    to 1e-8 relative (max |a - b| / max(1, |b|));
//  - Engine::Inverse at Gauss's own forward qacc recovers the applied forces
//    qfrc_applied + qfrc_actuator + J' xfrc_applied to the solver's accuracy;
//  - the fwdinv flag: solver_fwdinv (forward vs inverse constraint forces) is ~0 after newton
//    at 1e-12 and clearly larger after 5 iterations of pgs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "constraint_pair.h"

namespace gauss::test {
namespace {

constexpr double kMujocoTolerance = 1e-8;
// Inverse of the numerical forward solution vs the applied forces, relative to
// max(1, max |applied|): the residual is the primal gradient left by newton at tolerance 1e-12;
// measured <= 4e-11 on these models.
constexpr double kIdentityTolerance = 1e-9;
constexpr int kStates = 100;

// qfrc_applied + qfrc_actuator + J' xfrc_applied of Gauss's forward evaluation: its
// qfrc_smooth = passive - bias + applied + actuator + J' xfrc, so the sum is
// qfrc_smooth - passive + bias.
std::vector<double> AppliedForces(const Data& d) {
  std::vector<double> out(d.qfrc_smooth.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = d.qfrc_smooth[i] - d.qfrc_passive[i] + d.qfrc_bias[i];
  }
  return out;
}

// max |x| / max(1, max |y|): a difference x measured against the size of y.
double ScaledNorm(const double* x, int n, const double* y, int ny) {
  double xm = 0, ym = 1;
  for (int i = 0; i < n; ++i) xm = std::max(xm, std::fabs(x[i]));
  for (int i = 0; i < ny; ++i) ym = std::max(ym, std::fabs(y[i]));
  return xm / ym;
}

class InverseReference : public ::testing::TestWithParam<std::string> {};

TEST_P(InverseReference, InverseMatchesMujocoAndRecoversAppliedForces) {
  const std::string& path = GetParam();
  ConstraintPair p(path, SolverSetup());
  ASSERT_TRUE(p.mj);
  const mjModel* m = p.mj.get();
  mjData* md = p.mjd.get();
  const int nv = m->nv;
  std::mt19937_64 gen(77);
  double worst_mujoco = 0, worst_force = 0, worst_identity = 0;
  int rows = 0;
  for (int s = 0; s < kStates; ++s) {
    // every state gets applied forces here (the generator sets them on odd states only)
    RandomConstraintState(m, md, gen, 2 * s + 1);
    p.CopyInputs(/*warmstart=*/true);
    mj_forward(m, md);
    p.engine->Forward(p.d);
    ASSERT_EQ(p.d.nefc, md->nefc) << "state " << s;
    rows += md->nefc;
    const std::vector<double> applied = AppliedForces(p.d);

    // 1. Gauss's inverse at its own forward solution recovers the applied forces
    p.engine->Inverse(p.d);
    std::vector<double> residual(nv);
    for (int i = 0; i < nv; ++i) residual[i] = p.d.qfrc_inverse[i] - applied[i];
    const double identity = ScaledNorm(residual.data(), nv, applied.data(), nv);
    worst_identity = std::max(worst_identity, identity);
    EXPECT_LE(identity, kIdentityTolerance) << path << " state " << s;

    // 2. at MuJoCo's qacc, Gauss's inverse equals mj_inverse
    std::copy_n(md->qacc, nv, p.d.qacc.begin());
    p.engine->Inverse(p.d);
    mj_inverse(m, md);
    const double err = MaxRelError(p.d.qfrc_inverse.data(), md->qfrc_inverse, nv);
    const double ferr = MaxRelError(p.d.efc_force.data(), md->efc_force, md->nefc);
    worst_mujoco = std::max(worst_mujoco, err);
    worst_force = std::max(worst_force, ferr);
    ASSERT_LE(err, kMujocoTolerance) << path << " qfrc_inverse, state " << s;
    ASSERT_LE(ferr, kMujocoTolerance) << path << " efc_force, state " << s;
  }
  std::printf("[ measured ] %s rows=%d inverse vs mj_inverse=%.1e efc_force=%.1e "
              "inverse(forward) - applied=%.1e\n",
              ModelTestName(path).c_str(), rows, worst_mujoco, worst_force, worst_identity);
  RecordProperty("max_rel_qfrc_inverse", std::to_string(worst_mujoco));
  RecordProperty("max_identity_residual", std::to_string(worst_identity));
}

INSTANTIATE_TEST_SUITE_P(Models, InverseReference, ::testing::ValuesIn(ConstraintModels()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return ModelTestName(info.param);
                         });

// solver_fwdinv = (|qfrc_constraint difference|, |efc_force difference|) between the forward
// solution and the inverse at its acceleration, scaled here by max(1, max|qfrc_constraint|)
// and max(1, max|efc_force|). For a primal solver the forward forces are -ds/djar at its own
// acceleration, so the difference is ~0 whatever the tolerance; for a dual solver (pgs) it
// measures how far the forces are from the optimum.
struct Fwdinv {
  double qfrc = 0, force = 0;
};

Fwdinv ScaledFwdinv(const Data& d) {
  double fq = 1, ff = 1;
  for (double v : d.qfrc_constraint) fq = std::max(fq, std::fabs(v));
  for (int i = 0; i < d.nefc; ++i) ff = std::max(ff, std::fabs(d.efc_force[i]));
  return {d.solver_fwdinv[0] / fq, d.solver_fwdinv[1] / ff};
}

TEST(FwdinvReference, FwdinvFlagMeasuresForwardSolverError) {
  const std::string path = TestModel("constraints_limits.xml");
  SolverSetup exact;
  exact.fwdinv = true;
  SolverSetup rough = exact;
  rough.solver = "pgs";
  rough.iterations = 5;
  rough.tolerance = 1e-20;  // stop by the iteration limit only
  ConstraintPair newton(path, exact), pgs(path, rough);
  ASSERT_TRUE(newton.mj);
  std::mt19937_64 gen(5);
  double newton_worst = 0, mujoco_newton_worst = 0;
  std::vector<double> pgs_values;
  int states = 0;
  for (int s = 0; s < 30; ++s) {
    RandomConstraintState(newton.mj.get(), newton.mjd.get(), gen, 3 * s);  // violating states
    newton.CopyInputs(/*warmstart=*/true);
    mj_forward(newton.mj.get(), newton.mjd.get());
    newton.engine->Forward(newton.d);
    if (newton.d.nefc < 5) continue;
    ++states;
    pgs.d.qpos = newton.d.qpos;
    pgs.d.qvel = newton.d.qvel;
    pgs.d.ctrl = newton.d.ctrl;
    pgs.d.qfrc_applied = newton.d.qfrc_applied;
    pgs.d.xfrc_applied = newton.d.xfrc_applied;
    std::fill(pgs.d.qacc_warmstart.begin(), pgs.d.qacc_warmstart.end(), 0.0);
    pgs.engine->Forward(pgs.d);
    ASSERT_EQ(pgs.d.solver_iter, 5);

    const Fwdinv n = ScaledFwdinv(newton.d), g = ScaledFwdinv(pgs.d);
    newton_worst = std::max({newton_worst, n.qfrc, n.force});
    pgs_values.push_back(std::max(g.qfrc, g.force));
    EXPECT_GT(pgs_values.back(), 0) << "state " << s;
    EXPECT_LT(n.qfrc, 1e-6) << "state " << s;
    EXPECT_LT(n.force, 1e-6) << "state " << s;
    // MuJoCo's own fwdinv after its newton, as a sanity check of the scale used
    double fq = 1;
    for (int i = 0; i < newton.mj->nv; ++i) {
      fq = std::max(fq, std::fabs(newton.mjd->qfrc_constraint[i]));
    }
    mujoco_newton_worst = std::max(mujoco_newton_worst, newton.mjd->solver_fwdinv[0] / fq);
  }
  ASSERT_GE(states, 10);
  // 5 sweeps of pgs leave the forces far from the analytic inverse of their acceleration in a
  // typical state (a few states with weakly coupled rows converge in 5 sweeps: measured
  // median 4e-2, minimum 2e-9 over these states)
  std::sort(pgs_values.begin(), pgs_values.end());
  const double median = pgs_values[pgs_values.size() / 2];
  EXPECT_GT(median, 1e-3);
  EXPECT_GT(median, 1e3 * newton_worst);
  std::printf("[ measured ] fwdinv scaled: newton(1e-12) max=%.1e (mujoco newton max=%.1e), "
              "pgs(5 iterations) median=%.1e min=%.1e over %d states\n",
              newton_worst, mujoco_newton_worst, median, pgs_values.front(), states);
}

}  // namespace
}  // namespace gauss::test
