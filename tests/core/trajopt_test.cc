// iLQR (core/src/trajopt.cc): on the sliding box with contacts, the accepted costs never rise
// and the optimized rollout reaches the goal; the same problem over a 2-thread pool gives the
// same controls bit for bit; wrong sizes are refused naming the field.
#include "gauss/trajopt.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

IlqrProblem PushProblem() {
  IlqrProblem p;
  p.horizon = 60;
  p.goal_qpos = {0.5, 0, 0};  // slide offsets: 0.5 m along x on the ground
  p.goal_qvel = {0, 0, 0};
  p.terminal_qpos_weight = {1000, 1000, 1000};
  p.terminal_qvel_weight = {100, 100, 100};
  p.control_weight = 1e-3;
  p.max_iterations = 40;
  return p;
}

TEST(Ilqr, PushesTheBoxToItsGoalWithNonIncreasingCost) {
  const Engine engine(LoadModel(test::RepoModel("box_slide.xml")));
  const Data start = engine.MakeData();
  Ilqr ilqr(engine, PushProblem());
  const IlqrResult r = ilqr.Solve(start, std::vector<double>(60 * 3, 0.0));
  ASSERT_GE(r.history.size(), 2u);
  for (std::size_t i = 1; i < r.history.size(); ++i) {
    EXPECT_LE(r.history[i].cost, r.history[i - 1].cost);
  }
  EXPECT_LT(r.cost, 0.05 * r.history.front().cost);
  EXPECT_LT(r.goal_violation, 0.02);
  const int nphys = 6;  // nq + nv
  EXPECT_NEAR(r.states[60 * nphys + 0], 0.5, 0.02);
  // the controls respect ctrlrange (+-20 N)
  for (double u : r.controls) EXPECT_LE(std::fabs(u), 20.0);
}

TEST(Ilqr, PoolGivesTheSameControls) {
  const Engine engine(LoadModel(test::RepoModel("box_slide.xml")));
  const Data start = engine.MakeData();
  IlqrProblem p = PushProblem();
  p.max_iterations = 5;
  ThreadPool pool(2);
  Ilqr serial(engine, p), parallel(engine, p, &pool);
  const std::vector<double> u0(60 * 3, 0.0);
  EXPECT_EQ(serial.Solve(start, u0).controls, parallel.Solve(start, u0).controls);
}

TEST(Ilqr, WrongSizesAreRefused) {
  const Engine engine(LoadModel(test::RepoModel("box_slide.xml")));
  IlqrProblem p = PushProblem();
  p.goal_qpos = {1, 2};
  try {
    Ilqr ilqr(engine, p);
    FAIL() << "a 2-value goal for nq = 3 was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("goal qpos"), std::string::npos) << e.what();
  }
  Ilqr ok(engine, PushProblem());
  EXPECT_THROW(ok.Solve(engine.MakeData(), std::vector<double>(5, 0.0)), Error);
}

}  // namespace
}  // namespace gauss
