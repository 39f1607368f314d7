// `gauss run` under faults (apps/gauss/run.cc, csv.cc, common.cc, main.cc): a killed run never
// leaves a TRAJ.csv that looks complete (real SIGKILL, SIGTERM, SIGINT and SIGHUP), --out is
// refused when empty, a directory or the model itself, an unwritable --out names the OS error,
// a crashing plugin is named in the crash report, bad controls are zeroed and counted, and
// divergence resets are counted and marked in the CSV.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

namespace fs = std::filesystem;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Starts `gauss run MODEL --steps 100000000 --out OUT` in the background; returns its pid.
pid_t StartLongRun(const std::string& out, const std::string& log) {
  const std::string gauss = BinaryDir() + "/gauss";
  const std::string model = RepoModel("double_pendulum.xml");
  const pid_t pid = fork();
  if (pid == 0) {
    if (!freopen(log.c_str(), "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(126);
    execl(gauss.c_str(), gauss.c_str(), "run", model.c_str(), "--steps", "100000000", "--out",
          out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// Waits until `path` holds more than `bytes` bytes (at most 30 s).
void WaitForBytes(const std::string& path, std::uintmax_t bytes) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::error_code ec;
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(path, ec) && fs::file_size(path, ec) > bytes) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

class RunKill : public ::testing::TestWithParam<int> {};

TEST_P(RunKill, LeavesNoOutputThatLooksComplete) {
  const int sig = GetParam();
  const std::string out = ScratchDir() + "/traj.csv";
  const std::string log = ScratchDir() + "/stderr";
  const pid_t pid = StartLongRun(out, log);
  ASSERT_GT(pid, 0);
  WaitForBytes(out + ".part", 20000);  // several 4096-byte buffers written
  ASSERT_EQ(kill(pid, sig), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_FALSE(fs::exists(out)) << "a killed run must not leave " << out;
  EXPECT_FALSE(fs::exists(out + ".config.yaml"));
  ASSERT_TRUE(fs::exists(out + ".part"));
  const std::string text = ReadFile(out + ".part");
  ASSERT_FALSE(text.empty());
  if (sig == SIGKILL) {
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    return;  // cut anywhere: that is why it is only ever a .part file
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
  EXPECT_TRUE(Contains(ReadFile(log), "gauss run: stopped by SIG")) << ReadFile(log);
  // finished rows only: the file ends with a line break and every row has the header's width
  EXPECT_EQ(text.back(), '\n');
  const Csv csv = ReadCsvFile(out + ".part");
  ASSERT_GT(csv.rows.size(), 10u);
  for (const auto& row : csv.rows) ASSERT_EQ(row.size(), csv.header.size());
  EXPECT_NEAR(csv.At(static_cast<int>(csv.rows.size()) - 1, "time"),
              (csv.rows.size() - 1) * csv.At(1, "time"), 1e-9);  // rows in order, none lost
}

INSTANTIATE_TEST_SUITE_P(Signals, RunKill, ::testing::Values(SIGKILL, SIGTERM, SIGINT, SIGHUP),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(sigabbrev_np(info.param));
                         });

TEST(RunOut, CompleteRunRenamesThePartFileAndWritesTheConfigLast) {
  const std::string out = ScratchDir() + "/traj.csv";
  const CliResult r = RunGauss("run '" + RepoModel("double_pendulum.xml") + "' --steps 20 --out '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(out));
  EXPECT_TRUE(fs::exists(out + ".config.yaml"));
  EXPECT_FALSE(fs::exists(out + ".part"));
  EXPECT_FALSE(fs::exists(out + ".config.yaml.part"));
  EXPECT_EQ(ReadCsvFile(out).rows.size(), 21u);
}

TEST(RunOut, BadOutPathsAreRefusedBeforeAnythingIsWritten) {
  const std::string model = ScratchDir() + "/model.xml";
  fs::copy_file(RepoModel("double_pendulum.xml"), model);
  const std::string before = ReadFile(model);
  CliResult r = RunGauss("run '" + model + "' --steps 5 --out '" + model + "'");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(Contains(r.err, "would overwrite the input")) << r.err;
  r = RunGauss("run '" + model + "' --steps 5 --out '" + ScratchDir() + "/../" +
               fs::path(ScratchDir()).filename().string() + "/model.xml'");
  EXPECT_EQ(r.status, 1) << "the same file by another path";
  EXPECT_EQ(ReadFile(model), before);
  r = RunGauss("run '" + model + "' --steps 5 --out ''");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Contains(r.err, "--out must name a file, not be empty")) << r.err;
  r = RunGauss("run '" + model + "' --steps 5 --out '" + ScratchDir() + "'");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(Contains(r.err, "names a directory")) << r.err;
  r = RunGauss("run '" + model + "' --steps 5 --out '" + ScratchDir() + "/missing/traj.csv'");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(Contains(r.err, "cannot open for writing")) << r.err;
  EXPECT_TRUE(Contains(r.err, "No such file or directory")) << r.err;
}

TEST(RunFaults, CrashingSolverIsNamedInTheCrashReport) {
  const CliResult r = RunGauss("run '" + RepoModel("sliding_box.xml") + "' --steps 50 --set plugins.paths='" +
                               TestPluginDir() + "/faulty' --set solver=test_segfault");
  EXPECT_TRUE(r.crashed);
  EXPECT_TRUE(Contains(r.err, "gauss: fatal signal SIGSEGV (invalid memory access) in solver "
                              "plugin 'test_segfault' (stage: constraint solve)")) << r.err;
}

TEST(RunFaults, NonStandardExceptionIsAnErrorNamingThePlugin) {
  const CliResult r = RunGauss("run '" + RepoModel("sliding_box.xml") + "' --steps 50 --set plugins.paths='" +
                               TestPluginDir() + "/faulty' --set solver=test_throw42");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(Contains(r.err, "solver plugin 'test_throw42' (stage: constraint solve) threw an "
                              "exception that is not a std::exception")) << r.err;
}

TEST(RunFaults, BadControlsAreZeroedCountedAndTheRunGoesOn) {
  const std::string controls = WriteScratch("ctrl.csv", "ctrl0\n0.5\nnan\ninf\n0.5\n");
  const std::string out = ScratchDir() + "/traj.csv";
  const CliResult r = RunGauss("run '" + TestModel("apps_pendulum.xml") + "' --steps 10 --controls '" +
                               controls + "' --out '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "bad ctrl (controls zeroed) x2")) << r.out;
  const Csv csv = ReadCsvFile(out);
  ASSERT_EQ(csv.rows.size(), 11u);
  for (const auto& row : csv.rows) {
    for (double v : row) EXPECT_TRUE(std::isfinite(v));
  }
  EXPECT_NEAR(csv.At(10, "time"), 10 * csv.At(1, "time"), 1e-12);  // not frozen
}

TEST(RunFaults, DivergenceResetsAreCountedAndMarked) {
  // a falling body with an absurd mass and a spring that cannot be integrated at this timestep
  const std::string model = WriteScratch(
      "diverge.xml",
      "<mujoco><option timestep=\"0.01\"/><worldbody><body><joint type=\"slide\" axis=\"0 0 1\" "
      "stiffness=\"1e12\"/><geom type=\"sphere\" size=\"0.1\" mass=\"1e-6\"/></body></worldbody>"
      "</mujoco>");
  const std::string out = ScratchDir() + "/traj.csv";
  const CliResult r = RunGauss("run '" + model + "' --steps 200 --out '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  const Csv csv = ReadCsvFile(out);
  double marked = 0;
  for (int i = 0; i < static_cast<int>(csv.rows.size()); ++i) marked += csv.At(i, "reset");
  ASSERT_GT(marked, 1);
  EXPECT_TRUE(Contains(r.out, "resets: " + std::to_string(static_cast<long>(marked)) + " ")) << r.out;
}

}  // namespace
}  // namespace gauss::test
