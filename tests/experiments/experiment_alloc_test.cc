// The experiment run loop (apps/gauss/experiment_run.cc, compiled into this test) allocates
// nothing per step: a run of 400 steps makes exactly as many heap allocations as a run of 20
// (those of its setup), with probes, a reference engine and traces all on. Counted by the
// replacement of the global allocation functions (support/alloc_counter.h: process-wide,
// plugins included).
#include <gtest/gtest.h>

#include <atomic>

#include "experiment_run.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// (engine, reference, steps) => heap allocations made by one RunOne call.
long AllocationsOfRun(const Engine& engine, const Engine& reference, long steps) {
  cli::RunSetup setup;
  setup.engine = &engine;
  setup.reference = &reference;
  setup.steps = steps;
  setup.keyframe = 0;  // the launch keyframe: the box slides, contacts change
  setup.qvel_noise = 0.01;
  setup.control = cli::RunSetup::Control::kNoise;  // no actuators: draws nothing, still the path
  setup.control_sigma = 0.1;
  setup.sample_every = 5;
  setup.track_body = engine.model().BodyId("box");
  setup.trace_every = 3;
  cli::Workspace ws = cli::MakeWorkspace(setup);
  std::atomic<bool> stop{false};
  std::atomic<long> done{0};
  const long before = AllocationCount();
  const cli::RunResult result = cli::RunOne(setup, 1, ws, stop, &done);
  const long count = AllocationCount() - before;
  EXPECT_EQ(result.status, cli::RunStatus::kOk);
  EXPECT_EQ(result.metrics[cli::kMetricSteps], steps);
  EXPECT_EQ(done.load(), steps);
  EXPECT_GT(result.metrics[cli::kMetricNconMean], 0);  // contacts come and go
  return count;
}

TEST(ExperimentRunLoop, StepsDoNotAllocate) {
  if (!AllocationCountAvailable()) GTEST_SKIP() << AllocationCountUnavailable();
  Config config;
  config.cone = Cone::kElliptic;
  config.solver = "cg";
  Config tight = config;
  tight.solver = "newton";
  tight.iterations = 1000;
  tight.tolerance = 1e-12;
  const auto model = LoadModel(RepoModel("sliding_box.xml"));
  const Engine engine(model, config);
  const Engine reference(model, tight);
  const long short_run = AllocationsOfRun(engine, reference, 20);
  const long long_run = AllocationsOfRun(engine, reference, 400);
  EXPECT_EQ(short_run, long_run);
}

}  // namespace
}  // namespace gauss::test
