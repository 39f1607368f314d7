// Fault containment of `gauss experiment` (apps/gauss/experiment_isolation.cc): each run is a
// child process, so a plugin that segfaults, aborts, throws 42 or never returns costs its own
// run (a `failed` row naming the signal and quoting the run's last output) and every healthy run
// of the sweep is recorded; a library that crashes when loaded is skipped by "*" sweeps; two
// Ctrl-C end a sweep whose run hangs. The faulty plugins are built in tests/test_plugins.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>
#include <thread>

#include "experiment_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

namespace fs = std::filesystem;

const std::string kFaulty = std::string(GAUSS_TEST_PLUGIN_DIR) + "/faulty";
const std::string kCrashOnLoad = std::string(GAUSS_TEST_PLUGIN_DIR) + "/crash_on_load";

// The row of results.csv whose solver column is `solver` (fails the test when absent).
int RowOf(const Table& t, const std::string& solver) {
  const std::vector<int> rows = t.Where({{"solver", solver}});
  EXPECT_EQ(rows.size(), 1u) << solver;
  return rows.empty() ? 0 : rows.front();
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ExperimentIsolation, FaultyPluginsCostOnlyTheirOwnRuns) {
  // sliding_box's launch keyframe has contacts from the first step: every solver is called.
  // The faulty solvers come first so that a fault taking the sweep down would lose the rest.
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("sliding_box.xml") + "]\n"
                  "set: {plugins.paths: '" + kFaulty + "'}\n"
                  "sweep: {solver: [test_segfault, test_abort, test_hang, test_throw42, newton, "
                  "pgs, cg]}\n"
                  "steps: 50\ninitial: {keyframe: launch}\nlimits: {wall_time: 1}\n");
  std::string out;
  const CliResult r = RunExperiment("'" + file + "' --jobs 2 --no-plots", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 7u);
  for (const char* healthy : {"newton", "pgs", "cg"}) {
    const int row = RowOf(t, healthy);
    EXPECT_EQ(t.Text(row, "status"), "ok") << healthy << ": " << t.Text(row, "reason");
    EXPECT_EQ(t.Number(row, "steps"), 50) << healthy;
    EXPECT_GT(t.Number(row, "ncon_mean"), 0) << healthy;  // the solver had work to do
  }
  struct Expected {
    const char* solver;
    std::vector<std::string> parts;  // all in the reason
  };
  const Expected faults[] = {
      {"test_segfault",
       {"crashed with SIGSEGV", "faulty solver test_segfault: about to fail on",
        "fatal signal SIGSEGV (invalid memory access) in solver plugin 'test_segfault' (stage: "
        "constraint solve)"}},
      {"test_abort", {"crashed with SIGABRT", "in solver plugin 'test_abort'"}},
      {"test_hang",
       {"exceeded limits.wall_time = 1 s without returning; stopped with SIGTERM",
        "faulty solver test_hang: about to fail on"}},
      {"test_throw42", {"threw an exception that is not a std::exception"}},
  };
  for (const Expected& f : faults) {
    const int row = RowOf(t, f.solver);
    EXPECT_EQ(t.Text(row, "status"), "failed") << f.solver;
    for (const std::string& part : f.parts) {
      EXPECT_TRUE(Contains(t.Text(row, "reason"), part)) << f.solver << ": " << t.Text(row, "reason");
    }
    EXPECT_TRUE(std::isnan(t.Number(row, "steps"))) << f.solver;
  }
  EXPECT_TRUE(Contains(r.out, "runs: 3 ok, 0 diverged, 4 failed")) << r.out;
}

TEST(ExperimentIsolation, TracesAreWrittenByTheRunsProcess) {
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("sliding_box.xml") + "]\n"
                  "sweep: {solver: [newton]}\nsteps: 20\ninitial: {keyframe: launch}\n"
                  "traces: {every: 5}\n");
  std::string out;
  const CliResult r = RunExperiment("'" + file + "' --no-plots", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table trace = ReadTable(out + "/traces/run_0.csv");
  ASSERT_EQ(trace.rows.size(), 4u);  // steps 0, 5, 10, 15
  EXPECT_DOUBLE_EQ(trace.Number(3, "time"), 15 * trace.Number(1, "time") / 5);
}

TEST(ExperimentIsolation, WildcardSweepSkipsALibraryThatCrashesWhenLoaded) {
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("sliding_box.xml") + "]\n"
                  "set: {plugins.paths: '" + kCrashOnLoad + "'}\n"
                  "sweep: {solver: ['*']}\nsteps: 10\ninitial: {keyframe: launch}\n");
  std::string out;
  const CliResult r = RunExperiment("'" + file + "' --no-plots", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  std::set<std::string> solvers;
  for (int i = 0; i < static_cast<int>(t.rows.size()); ++i) {
    solvers.insert(t.Text(i, "solver"));
    EXPECT_EQ(t.Text(i, "status"), "ok") << t.Text(i, "solver");
  }
  EXPECT_EQ(solvers, (std::set<std::string>{"cg", "ip", "newton", "pgs"}));
  EXPECT_TRUE(Contains(r.err, "test_crash_on_load")) << r.err;  // the skip is announced
}

TEST(ExperimentIsolation, TwoInterruptsEndASweepWhoseRunHangs) {
  // no wall-time limit: only the second Ctrl-C can end the hanging run
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("sliding_box.xml") + "]\n"
                  "set: {plugins.paths: '" + kFaulty + "'}\n"
                  "sweep: {solver: [test_hang]}\nsteps: 50\ninitial: {keyframe: launch}\n");
  const std::string out = ScratchDir() + "/out";
  const std::string gauss = BinaryDir() + "/gauss";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string log = ScratchDir() + "/log";
    if (!freopen(log.c_str(), "w", stderr)) _exit(126);
    execl(gauss.c_str(), gauss.c_str(), "experiment", file.c_str(), "--out", out.c_str(),
          "--no-plots", static_cast<char*>(nullptr));
    _exit(127);
  }
  // results.csv's header is written just before the runs start; then the run needs a moment
  // to reach the solver
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!fs::exists(out + "/results.csv") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_EQ(kill(pid, SIGINT), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, WNOHANG), 0) << "one Ctrl-C must not kill a hanging run";
  ASSERT_EQ(kill(pid, SIGINT), 0);
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  pid_t got = 0;
  while ((got = waitpid(pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (got == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL() << "the second Ctrl-C did not end the experiment";
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const Table t = ReadTable(out + "/results.csv");  // complete (header only: nothing finished)
  EXPECT_EQ(t.rows.size(), 0u);
}

}  // namespace
}  // namespace gauss::test
