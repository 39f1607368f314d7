// MJCF <composite> against MuJoCo 2.2.2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "reference/model_compare.h"
#include "reference/mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

std::vector<std::string> CompositeSamples() {
  std::vector<std::string> out;
  for (const char* name : {"composite/particle.xml", "composite/grid2pin.xml",
                           "composite/rope.xml", "composite/loop.xml", "composite/cloth.xml",
                           "composite/softbox.xml", "flag/flag.xml"}) {
    out.push_back(MujocoSampleModel(name));
  }
  return out;
}

void CheckCompiled(const std::string& path) {
  SCOPED_TRACE(path);
  std::cout << "  " << path;
  MjModelPtr mj = LoadMujoco(path);
  ASSERT_NE(mj, nullptr);
  std::shared_ptr<const Model> g;
  try {
    g = LoadModel(path);
  } catch (const Error& e) {
    FAIL() << "gauss refused a model MuJoCo accepts: " << e.what();
  }
  EXPECT_EQ(CompareModels(*g, mj.get()), "");
}

TEST(CompositeReference, SampleModelsCompileAsMujoco) {
  for (const std::string& path : CompositeSamples()) CheckCompiled(path);
}

std::vector<std::string> AllCompositeModels() {
  std::vector<std::string> out = CompositeSamples();
  out.push_back(TestModel("compile_composite_shells.xml"));
  out.push_back(TestModel("compile_composite_chains.xml"));
  return out;
}

// Relative difference max |a - b| / max(1, |b|) over n values.
double RelativeDifference(const double* a, const double* b, int n) {
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i])));
  }
  return worst;
}

struct CompositePair : ReferencePair {
  MjDataPtr sim;
  explicit CompositePair(const std::string& path) {
    mj = LoadMujoco(path);
    if (!mj) return;
    mjd = MakeMujocoData(mj.get());
    sim = MakeMujocoData(mj.get());
    engine = std::make_unique<Engine>(LoadModel(path), Config());
    d = engine->MakeData();
  }
};

class CompositeDynamics : public ::testing::TestWithParam<std::string> {};

TEST_P(CompositeDynamics, ForwardAtSimulatedStates) {
  CompositePair p(GetParam());
  ASSERT_TRUE(p.mj);
  std::mt19937_64 gen(16);
  std::normal_distribution<double> nd(0, 1);
  std::uniform_int_distribution<int> steps(1, 150);
  double worst = 0;
  int contacts = 0, efc = 0;
  for (int s = 0; s < 10; ++s) {
    mj_resetData(p.mj.get(), p.sim.get());
    for (int i = 0; i < p.mj->nv; ++i) p.sim->qvel[i] = 0.2 * nd(gen);
    const int n = steps(gen);
    for (int k = 0; k < n; ++k) mj_step(p.mj.get(), p.sim.get());
    mj_resetData(p.mj.get(), p.mjd.get());
    std::copy_n(p.sim->qpos, p.mj->nq, p.mjd->qpos);
    std::copy_n(p.sim->qvel, p.mj->nv, p.mjd->qvel);
    std::copy_n(p.sim->qacc_warmstart, p.mj->nv, p.mjd->qacc_warmstart);
    p.engine->Reset(p.d);
    p.CopyInputs(/*warmstart=*/true);
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Forward(p.d);
    contacts += p.mjd->ncon;
    efc += p.mjd->nefc;
    EXPECT_EQ(p.d.ncon, p.mjd->ncon) << "state " << s;
    worst = std::max(worst, RelativeDifference(p.d.qacc.data(), p.mjd->qacc, p.mj->nv));
  }
  std::printf("%s: qacc %.2e (contacts %d, rows %d)\n", GetParam().c_str(), worst, contacts, efc);
}

TEST_P(CompositeDynamics, Trajectory200Steps) {
  CompositePair p(GetParam());
  ASSERT_TRUE(p.mj);
  double worst = 0;
  int diverged = -1;
  for (int k = 0; k < 200; ++k) {
    mj_step(p.mj.get(), p.mjd.get());
    p.engine->Step(p.d);
    const double e = RelativeDifference(p.d.qpos.data(), p.mjd->qpos, p.mj->nq);
    if (diverged < 0 && e > 1e-6) diverged = k;
    worst = std::max(worst, e);
  }
  std::printf("%s: qpos %.2e over 200 steps (first > 1e-6: %d, ncon %d)\n", GetParam().c_str(),
              worst, diverged, p.mjd->ncon);
}

INSTANTIATE_TEST_SUITE_P(Models, CompositeDynamics, ::testing::ValuesIn(AllCompositeModels()));

}  // namespace
}  // namespace gauss::test
