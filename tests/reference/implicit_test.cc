// The implicit integrator against MuJoCo 2.2.2's `implicit` (full analytic derivative incl.
// RNE, sparse LU): 200-step trajectories on contact-free models driven by the same recorded
// controls agree to 1e-6 in qpos; with contacts, every step's forward result from the same state
// agrees, and the time at which the trajectories separate (chaotic contact dynamics) is reported.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

struct ImplicitPair : ReferencePair {
  ImplicitPair(const std::string& path, bool contacts) {
    mj = LoadMujoco(path);
    if (!mj) return;
    mj->opt.integrator = mjINT_IMPLICIT;
    if (!contacts) mj->opt.disableflags |= mjDSBL_CONTACT;
    mjd = MakeMujocoData(mj.get());
    Config config;
    config.integrator = "implicit";
    if (!contacts) config.flags["contact"] = false;
    engine = std::make_unique<Engine>(LoadModel(path), config);
    d = engine->MakeData();
  }
};

// Controls for step k, the same on both sides (a fixed-seed sequence, clamped by the engines).
std::vector<double> Controls(const mjModel* m, std::mt19937_64& gen) {
  std::normal_distribution<double> nd(0, 0.5);
  std::vector<double> u(m->nu);
  for (double& v : u) v = nd(gen);
  return u;
}

class ImplicitTrajectory : public ::testing::TestWithParam<std::string> {};

TEST_P(ImplicitTrajectory, QposMatchesMujocoFor200Steps) {
  ImplicitPair r(GetParam(), /*contacts=*/false);
  ASSERT_TRUE(r.mj);
  std::mt19937_64 gen(12);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < r.mj->nv; ++i) r.d.qvel[i] = r.mjd->qvel[i] = 0.5 * nd(gen);
  double worst = 0;
  for (int k = 0; k < 200; ++k) {
    const std::vector<double> u = Controls(r.mj.get(), gen);
    for (int a = 0; a < r.mj->nu; ++a) r.d.ctrl[a] = r.mjd->ctrl[a] = u[a];
    mj_step(r.mj.get(), r.mjd.get());
    r.engine->Step(r.d);
    for (int i = 0; i < r.mj->nq; ++i) worst = std::max(worst, std::fabs(r.d.qpos[i] - r.mjd->qpos[i]));
  }
  RecordProperty("max_qpos_error", std::to_string(worst));
  EXPECT_LE(worst, 1e-6) << GetParam();
}

std::vector<std::string> ImplicitModels() {
  std::vector<std::string> out = {TestModel("implicit_damped.xml"), TestModel("chain_mixed.xml"),
                                  TestModel("gyro_pendulum.xml"),
                                  MujocoSampleModel("humanoid/humanoid.xml")};
  for (const char* name : {"ant", "half_cheetah", "hopper", "walker2d", "humanoid", "inverted_pendulum",
                           "inverted_double_pendulum", "reacher", "pusher", "swimmer"}) {
    out.push_back(SharedModel(std::string("gymnasium/") + name + ".xml"));
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Models, ImplicitTrajectory, ::testing::ValuesIn(ImplicitModels()));

TEST(ImplicitContacts, HumanoidStepsAgreeAndDivergenceTimeIsReported) {
  ImplicitPair r(MujocoSampleModel("humanoid/humanoid.xml"), /*contacts=*/true);
  ASSERT_TRUE(r.mj);
  // per step: set Gauss to MuJoCo's state, one step each, compare the result
  double worst_step = 0;
  for (int k = 0; k < 300; ++k) {
    r.engine->Reset(r.d);
    r.CopyInputs(/*warmstart=*/true);
    mj_step(r.mj.get(), r.mjd.get());
    r.engine->Step(r.d);
    for (int i = 0; i < r.mj->nq; ++i) {
      worst_step = std::max(worst_step, std::fabs(r.d.qpos[i] - r.mjd->qpos[i]));
    }
  }
  RecordProperty("max_one_step_qpos_error", std::to_string(worst_step));
  EXPECT_LE(worst_step, 1e-8);

  // free run from the same start: report when the trajectories separate
  ImplicitPair free_run(MujocoSampleModel("humanoid/humanoid.xml"), /*contacts=*/true);
  double separation_time = -1;
  for (int k = 0; k < 1000 && separation_time < 0; ++k) {
    mj_step(free_run.mj.get(), free_run.mjd.get());
    free_run.engine->Step(free_run.d);
    for (int i = 0; i < free_run.mj->nq; ++i) {
      if (std::fabs(free_run.d.qpos[i] - free_run.mjd->qpos[i]) > 1e-6) separation_time = free_run.d.time;
    }
  }
  RecordProperty("separation_time_1e-6", std::to_string(separation_time));
  // the fall onto the floor is chaotic; before the first impact the runs must agree
  EXPECT_TRUE(separation_time < 0 || separation_time > 0.2) << separation_time;
}

}  // namespace
}  // namespace gauss::test
