// Contact-free multi-body dynamics against MuJoCo 2.2.2: forward qacc at 100 random states per
// model (random qpos, qvel, ctrl, qfrc_applied, xfrc_applied) to max |a-b|/max(1,|b|) <= 1e-8,
// and euler / rk4 trajectories whose qpos agree to 1e-6 over the first 200 of 1000 steps.
// Constraints are disabled on both sides: this checks the smooth dynamics (kinematics, CRB,
// factorization, RNE, passive forces, actuation, applied forces, integrators).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gauss/engine.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// A contact-free pair: the same file loaded by MuJoCo and by Gauss, constraints disabled.
struct Pair : ReferencePair {
  Pair(const std::string& path, const std::string& integrator) {
    mj = LoadMujoco(path);
    if (!mj) return;
    mj->opt.disableflags |= mjDSBL_CONSTRAINT;
    mj->opt.integrator = integrator == "rk4" ? mjINT_RK4 : mjINT_EULER;
    mjd = MakeMujocoData(mj.get());
    Config config;
    config.flags["constraint"] = false;
    config.integrator = integrator;
    engine = std::make_unique<Engine>(LoadModel(path), config);
    d = engine->MakeData();
  }
};

double MaxRel(const double* a, const double* b, int n) { return MaxRelError(a, b, n); }

std::vector<std::string> ContactFreeModels() {
  std::vector<std::string> out = {TestModel("pendulum3.xml"), TestModel("chain_mixed.xml"),
                                  TestModel("free_asymmetric.xml"), RepoModel("double_pendulum.xml"),
                                  MujocoSampleModel("humanoid/humanoid.xml")};
  for (const std::string& path : GymnasiumModels()) {
    if (path.find("swimmer") == std::string::npos) out.push_back(path);  // fluid forces: later
  }
  return out;
}

class SmoothDynamics : public ::testing::TestWithParam<std::string> {};

TEST_P(SmoothDynamics, ForwardMatchesMujocoAt100RandomStates) {
  Pair p(GetParam(), "euler");
  ASSERT_TRUE(p.mj);
  std::mt19937_64 gen(2022);
  double worst = 0, worst_bias = 0;
  for (int s = 0; s < 100; ++s) {
    // joints around qpos0 (random orientations), velocities, controls within their range, and
    // (every other state) applied joint and Cartesian forces
    RandomStateOptions random;
    random.forces = s % 2 == 1;
    RandomState(p.mj.get(), p.mjd.get(), gen, random);
    mj_forward(p.mj.get(), p.mjd.get());
    p.CopyInputs(/*warmstart=*/false);
    p.engine->Forward(p.d);
    const int nv = p.mj->nv;
    worst = std::max(worst, MaxRel(p.d.qacc.data(), p.mjd->qacc, nv));
    worst_bias = std::max(worst_bias, MaxRel(p.d.qfrc_bias.data(), p.mjd->qfrc_bias, nv));
    ASSERT_LE(MaxRel(p.d.qM.data(), p.mjd->qM, p.mj->nM), 1e-9) << "qM, state " << s;
    ASSERT_LE(MaxRel(p.d.qfrc_passive.data(), p.mjd->qfrc_passive, nv), 1e-9) << "state " << s;
    ASSERT_LE(MaxRel(p.d.qfrc_actuator.data(), p.mjd->qfrc_actuator, nv), 1e-9) << "state " << s;
    ASSERT_LE(MaxRel(p.d.ten_length.data(), p.mjd->ten_length, p.mj->ntendon), 1e-12) << "state " << s;
  }
  RecordProperty("max_rel_qacc_error", std::to_string(worst));
  EXPECT_LE(worst, 1e-8) << GetParam();
  EXPECT_LE(worst_bias, 1e-8) << GetParam();
}

TEST_P(SmoothDynamics, ConstantsAtQpos0MatchMujoco) {
  // inverse weights scale the constraint regularization; meaninertia scales solver tolerances
  Pair p(GetParam(), "euler");
  ASSERT_TRUE(p.mj);
  const Model& m = p.engine->model();
  const mjModel* mj = p.mj.get();
  EXPECT_LE(MaxRel(m.dof_invweight0.data(), mj->dof_invweight0, mj->nv), 1e-10);
  EXPECT_LE(MaxRel(m.body_invweight0.data(), mj->body_invweight0, 2 * mj->nbody), 1e-10);
  EXPECT_LE(MaxRel(m.tendon_invweight0.data(), mj->tendon_invweight0, mj->ntendon), 1e-10);
  EXPECT_LE(MaxRel(m.tendon_length0.data(), mj->tendon_length0, mj->ntendon), 1e-12);
  EXPECT_NEAR(m.stat_meaninertia, mj->stat.meaninertia, 1e-12 * mj->stat.meaninertia);
}

INSTANTIATE_TEST_SUITE_P(Models, SmoothDynamics, ::testing::ValuesIn(ContactFreeModels()));

// 1000-step trajectories from the same initial velocity with constant random controls.
class Trajectory : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(Trajectory, QposMatchesMujocoForFirst200Steps) {
  const auto& [path, integrator] = GetParam();
  Pair p(path, integrator);
  ASSERT_TRUE(p.mj);
  std::mt19937_64 gen(5);
  std::normal_distribution<double> nd(0, 1);
  mj_resetData(p.mj.get(), p.mjd.get());
  for (int i = 0; i < p.mj->nv; ++i) p.mjd->qvel[i] = 0.5 * nd(gen);
  for (int i = 0; i < p.mj->nu; ++i) p.mjd->ctrl[i] = 0.3 * nd(gen);
  p.CopyInputs(/*warmstart=*/false);
  double first200 = 0, all = 0;
  for (int k = 0; k < 1000; ++k) {
    mj_step(p.mj.get(), p.mjd.get());
    p.engine->Step(p.d);
    double err = 0;
    for (int i = 0; i < p.mj->nq; ++i) err = std::max(err, std::fabs(p.d.qpos[i] - p.mjd->qpos[i]));
    if (k < 200) first200 = std::max(first200, err);
    all = std::max(all, err);
  }
  RecordProperty("max_qpos_error_200", std::to_string(first200));
  RecordProperty("max_qpos_error_1000", std::to_string(all));
  EXPECT_LE(first200, 1e-6) << path << " " << integrator;
}

INSTANTIATE_TEST_SUITE_P(
    Models, Trajectory,
    ::testing::Combine(::testing::Values(TestModel("pendulum3.xml"),
                                         MujocoSampleModel("humanoid/humanoid.xml"),
                                         TestModel("chain_mixed.xml"),
                                         SharedModel("gymnasium/ant.xml")),
                       ::testing::Values(std::string("euler"), std::string("rk4"))));

}  // namespace
}  // namespace gauss::test
