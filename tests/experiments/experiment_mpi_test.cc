// `mpirun -np 2 gauss experiment` on localhost (docs/parallel.md): the results equal a
// single-process run except the timing columns, both ranks run some of the runs, a rank killed
// mid-way loses only its run in flight, SIGTERM to mpirun leaves a consistent results.csv, and
// an error on one rank ends the whole job with its message instead of leaving the others waiting.
// Skipped when gauss was built without MPI (GAUSS_WITH_MPI off).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "experiment_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

#ifdef GAUSS_TEST_MPIEXEC
constexpr const char* kMpiexec = GAUSS_TEST_MPIEXEC;
#else
constexpr const char* kMpiexec = nullptr;
#endif

#define SKIP_WITHOUT_MPI() \
  if (kMpiexec == nullptr) GTEST_SKIP() << "gauss built without MPI (GAUSS_WITH_MPI off)"

// `mpirun <launcher options> -np 2 gauss experiment <args>`, as a child process whose stdout
// and stderr go to `log`. Root may run it (CI containers) and two ranks fit on any machine.
pid_t StartMpirun(const std::vector<std::string>& launcher, const std::vector<std::string>& args,
                  const std::string& log) {
  std::vector<std::string> argv = {kMpiexec, "--allow-run-as-root", "--oversubscribe", "-np", "2"};
  argv.insert(argv.end(), launcher.begin(), launcher.end());
  argv.push_back(BinaryDir() + "/gauss");
  argv.push_back("experiment");
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = fork();
  if (pid == 0) {
    freopen(log.c_str(), "w", stdout);
    freopen(log.c_str(), "a", stderr);
    std::vector<char*> c;
    for (std::string& a : argv) c.push_back(a.data());
    c.push_back(nullptr);
    execv(c[0], c.data());
    _exit(127);
  }
  return pid;
}

// Waits for `pid`; its exit status, or 128 + signal.
int Wait(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The pid of MPI rank `rank` of the gauss process whose command line contains `marker`.
pid_t RankPid(int rank, const std::string& marker) {
  const std::string want = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = ReadFile(entry.path().string() + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(marker) == std::string::npos || cmdline.find("gauss") == std::string::npos) continue;
    std::istringstream env(ReadFile(entry.path().string() + "/environ"));
    for (std::string var; std::getline(env, var, '\0');) {
      if (var == want) return static_cast<pid_t>(std::stoi(name));
    }
  }
  return -1;
}

// Rows in results.csv so far (it is appended as runs finish).
std::size_t RowsSoFar(const std::string& dir) {
  const std::string text = ReadFile(dir + "/results.csv");
  return text.empty() ? 0 : std::count(text.begin(), text.end(), '\n') - 1;
}

// 20 runs of ~0.5 s each on an idle core: slow enough to kill a rank or send SIGTERM in the
// middle (after 4 rows), fast enough for CI.
constexpr int kLongRuns = 20;
constexpr int kLongSteps = 400000;
std::string LongExperiment() {
  return WriteScratch("long.yaml", "models: [" + RepoModel("damped_chain.xml") + "]\n"
                                   "sweep: {timestep: [0.0001]}\nsteps: " + std::to_string(kLongSteps) +
                                   "\nrepeats: " + std::to_string(kLongRuns) + "\n"
                                   "metrics: {sample_every: 40000}\n");
}

TEST(ExperimentMpi, TwoRanksGiveTheSingleProcessResultsExceptTiming) {
  SKIP_WITHOUT_MPI();
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("sliding_box.xml") + ", " + RepoModel("damped_chain.xml") + "]\n"
                  "sweep: {solver: [newton, pgs, cg]}\nsteps: 3000\nrepeats: 2\nseed: 5\n"
                  "controls: {source: noise, sigma: 0.2}\ninitial: {qvel_noise: 0.1}\n"
                  "traces: {every: 500}\n");
  const std::string dir = ScratchDir();
  const CliResult one = RunGauss("experiment '" + file + "' --jobs 1 --no-plots --out '" + dir + "/one'");
  ASSERT_EQ(one.status, 0) << one.err;
  const pid_t pid = StartMpirun({}, {file, "--jobs", "1", "--no-plots", "--out", dir + "/two"}, dir + "/log");
  ASSERT_EQ(Wait(pid), 0) << ReadFile(dir + "/log");
  const std::string log = ReadFile(dir + "/log");
  EXPECT_NE(log.find("on each of 2 MPI ranks"), std::string::npos) << log;
  // dynamic assignment: both ranks ran some of the 12 runs
  const std::size_t at = log.find("rank 1: ");
  ASSERT_NE(at, std::string::npos) << log;
  EXPECT_GT(std::stoi(log.substr(at + 8)), 0) << log;

  const Table a = ReadTable(dir + "/one/results.csv");
  const Table b = ReadTable(dir + "/two/results.csv");
  ASSERT_EQ(a.columns, b.columns);
  ASSERT_EQ(a.rows.size(), 12u);
  ASSERT_EQ(b.rows.size(), 12u);
  const std::set<std::string> timing = {"wall_time", "step_time_us", "steps_per_second",
                                        "step_rate"};
  for (std::size_t r = 0; r < a.rows.size(); ++r) {
    for (std::size_t c = 0; c < a.columns.size(); ++c) {
      if (timing.count(a.columns[c])) continue;
      EXPECT_EQ(a.rows[r][c], b.rows[r][c]) << "row " << r << " column " << a.columns[c];
    }
  }
  // traces are written by rank 0, identical but for the wall-clock step_rate
  for (int run = 0; run < 12; ++run) {
    const std::string name = "/traces/run_" + std::to_string(run) + ".csv";
    const std::string trace = ReadFile(dir + "/one" + name);
    ASSERT_FALSE(trace.empty()) << name;
    EXPECT_EQ(DropCsvColumn(ReadFile(dir + "/two" + name), "step_rate"),
              DropCsvColumn(trace, "step_rate")) << name;
  }
}

TEST(ExperimentMpi, AKilledRankLosesOnlyItsRunInFlight) {
  // --enable-recovery keeps mpirun from stopping the job when rank 1 dies; rank 0 gives rank 1
  // up after 1.5 s of silence and finishes the other runs itself.
  SKIP_WITHOUT_MPI();
  const std::string dir = ScratchDir() + "/out";
  const pid_t pid = StartMpirun({"--enable-recovery"},
                                {LongExperiment(), "--jobs", "1", "--no-plots", "--rank-timeout",
                                 "1.5", "--out", dir},
                                ScratchDir() + "/log");
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(60);
  while (RowsSoFar(dir) < 4 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const pid_t rank1 = RankPid(1, dir);
  ASSERT_GT(rank1, 0);
  ASSERT_EQ(kill(rank1, SIGKILL), 0);
  ASSERT_EQ(Wait(pid), 0) << ReadFile(ScratchDir() + "/log");
  const Table t = ReadTable(dir + "/results.csv");
  ASSERT_EQ(t.rows.size(), static_cast<std::size_t>(kLongRuns)) << "every run has a row";
  int failed = 0;
  for (int r = 0; r < kLongRuns; ++r) {
    EXPECT_EQ(t.Text(r, "run"), std::to_string(r));
    if (t.Text(r, "status") == "failed") {
      ++failed;
      EXPECT_NE(t.Text(r, "reason").find("rank 1 was lost"), std::string::npos) << t.Text(r, "reason");
    } else {
      EXPECT_EQ(t.Text(r, "status"), "ok");
      EXPECT_EQ(t.Number(r, "steps"), kLongSteps);
    }
  }
  EXPECT_EQ(failed, 1) << "rank 1 had one run in flight (--jobs 1)";
}

TEST(ExperimentMpi, SigtermLeavesAConsistentResultsFile) {
  SKIP_WITHOUT_MPI();
  const std::string dir = ScratchDir() + "/out";
  const pid_t pid = StartMpirun({}, {LongExperiment(), "--jobs", "1", "--no-plots", "--out", dir},
                                ScratchDir() + "/log");
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(60);
  while (RowsSoFar(dir) < 4 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  EXPECT_NE(Wait(pid), 0);
  const Table t = ReadTable(dir + "/results.csv");  // every row complete
  ASSERT_GE(t.rows.size(), 4u);
  ASSERT_LT(t.rows.size(), static_cast<std::size_t>(kLongRuns));
  // mpirun may SIGKILL rank 0 before it rewrites the file sorted: rows are then in finishing
  // order, but each complete (ReadTable checks) and each run at most once
  std::set<int> seen;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const int run = std::stoi(t.Text(static_cast<int>(r), "run"));
    EXPECT_TRUE(seen.insert(run).second) << "run " << run << " twice";
    const std::string status = t.Text(static_cast<int>(r), "status");
    if (status == "ok") {
      EXPECT_EQ(t.Number(static_cast<int>(r), "steps"), kLongSteps);
    } else {
      EXPECT_EQ(status, "failed");
      EXPECT_NE(t.Text(static_cast<int>(r), "reason").find("in flight on rank 1"), std::string::npos)
          << t.Text(static_cast<int>(r), "reason");
    }
  }
}

TEST(ExperimentMpi, AnErrorOnOneRankEndsTheJobWithItsMessage) {
  // rank 0 cannot create the output directory; rank 1 waits for runs: the job must end (not
  // hang) with rank 0's message
  SKIP_WITHOUT_MPI();
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("sliding_box.xml") + "]\nsweep: {solver: [newton, pgs]}\nsteps: 10\n");
  const std::string log = ScratchDir() + "/log";
  const std::string blocker = WriteScratch("file", "a file, not a directory");
  const pid_t pid = StartMpirun({}, {file, "--jobs", "1", "--no-plots", "--out", blocker + "/out"}, log);
  EXPECT_NE(Wait(pid), 0);
  const std::string text = ReadFile(log);
  EXPECT_NE(text.find("error on MPI rank 0"), std::string::npos) << text;
  EXPECT_NE(text.find("cannot write the output"), std::string::npos) << text;
}

}  // namespace
}  // namespace gauss::test
