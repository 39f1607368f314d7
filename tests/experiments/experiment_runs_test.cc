// How `gauss experiment` runs: a failing run is recorded with its reason and the others finish;
// Ctrl-C leaves complete rows for the finished runs; --dry-run writes nothing; results do not
// depend on the number of workers; seeds, noise and CSV controls drive the runs as documented.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <regex>
#include <thread>

#include "experiment_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

namespace fs = std::filesystem;

TEST(ExperimentRuns, FailedRunIsRecordedAndTheOthersFinish) {
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("sliding_box.xml") + "]\n"
                  "set: {plugins.paths: " GAUSS_EXPERIMENT_PLUGIN_DIR "}\n"
                  "sweep: {solver: [newton, test_failing, pgs]}\n"
                  "steps: 50\ninitial: {keyframe: launch}\n");
  std::string out;
  const CliResult r = RunExperiment("'" + file + "' --jobs 2", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.Text(0, "status"), "ok");
  EXPECT_EQ(t.Text(2, "status"), "ok");
  EXPECT_EQ(t.Number(0, "steps"), 50);
  EXPECT_EQ(t.Number(2, "steps"), 50);
  EXPECT_EQ(t.Text(1, "solver"), "test_failing");
  EXPECT_EQ(t.Text(1, "status"), "failed");
  EXPECT_NE(t.Text(1, "reason").find("test_failing solver: refusing a problem with"),
            std::string::npos) << t.Text(1, "reason");
  EXPECT_TRUE(std::isnan(t.Number(1, "steps_per_second")));
  // the box starts on the plane: its first contact, and the solver's throw, come in step 1
  EXPECT_EQ(t.Text(1, "reason").rfind("failed at step 1 (t=0.002 s): test_failing solver", 0), 0u)
      << t.Text(1, "reason");
  EXPECT_EQ(t.Number(1, "steps"), 1);
  EXPECT_NE(r.out.find("runs: 2 ok, 0 diverged, 1 failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("run 1 failed: failed at step 1 (t=0.002 s): test_failing solver"),
            std::string::npos) << r.out;
}

// A run failing in the middle says where: the step it was in, the simulated time, the cause;
// steps and sim_time hold what was completed (not nan).
TEST(ExperimentRuns, FailedRunSaysAtWhichStepAndTime) {
  // a ball 5 cm above a plane touches it after sqrt(2 * 0.05 / 9.81) = 0.101 s: the solver is
  // first called (and throws) then
  const std::string model = WriteScratch(
      "drop.xml", "<mujoco>\n  <option timestep=\"0.002\"/>\n  <worldbody>\n"
                  "    <geom type=\"plane\" size=\"1 1 0.1\"/>\n"
                  "    <body pos=\"0 0 0.15\"><freejoint/><geom size=\"0.1\"/></body>\n"
                  "  </worldbody>\n</mujoco>\n");
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + model + "]\nset: {plugins.paths: " GAUSS_EXPERIMENT_PLUGIN_DIR "}\n"
                  "sweep: {solver: [test_failing]}\nsteps: 200\n");
  std::string out;
  const CliResult r = RunExperiment("'" + file + "'", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.Text(0, "status"), "failed");
  std::smatch m;
  const std::string reason = t.Text(0, "reason");
  ASSERT_TRUE(std::regex_search(reason, m, std::regex("^failed at step ([0-9]+) \\(t=([0-9.e-]+) s\\): "
                                                      "test_failing solver")))
      << reason;
  const int step = std::stoi(m[1]);
  EXPECT_GE(step, 45);  // contact within a margin of the analytic 0.101 s = step 50
  EXPECT_LE(step, 52);
  EXPECT_NEAR(std::stod(m[2]), step * 0.002, 1e-12);
  EXPECT_EQ(t.Number(0, "steps"), step);
  EXPECT_NEAR(t.Number(0, "sim_time"), step * 0.002, 1e-12);
  EXPECT_TRUE(std::isnan(t.Number(0, "solver_iter_mean")));
}

TEST(ExperimentRuns, WallTimeLimitFailsTheRunWithItsReason) {
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("damped_chain.xml") + "]\n"
                  "sweep: {timestep: [0.0001]}\nsteps: 2000000\nlimits: {wall_time: 0.05}\n");
  std::string out;
  const CliResult r = RunExperiment("'" + file + "'", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.Text(0, "status"), "failed");
  EXPECT_NE(t.Text(0, "reason").find("wall-time limit of 0.05"), std::string::npos);
}

TEST(ExperimentRuns, InterruptLeavesCompleteRowsForFinishedRuns) {
  // 100 runs of ~0.1 s each on one worker: interrupted once two rows are on disk
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("damped_chain.xml") + "]\n"
                  "sweep: {timestep: [0.0001]}\nsteps: 40000\nrepeats: 100\n"
                  "metrics: {sample_every: 1000}\n");
  const std::string out = ScratchDir() + "/out";
  const std::string gauss = BinaryDir() + "/gauss";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string log = ScratchDir() + "/log";
    freopen(log.c_str(), "w", stdout);
    execl(gauss.c_str(), gauss.c_str(), "experiment", file.c_str(), "--jobs", "1", "--out",
          out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::size_t rows = 0;
  while (rows < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::string text = fs::exists(out + "/results.csv") ? ReadFile(out + "/results.csv") : "";
    rows = text.empty() ? 0 : std::count(text.begin(), text.end(), '\n') - 1;
  }
  ASSERT_EQ(kill(pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const Table t = ReadTable(out + "/results.csv");  // checks that every row is complete
  EXPECT_GE(t.rows.size(), 2u);
  EXPECT_LT(t.rows.size(), 100u);
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    EXPECT_EQ(t.Text(static_cast<int>(i), "run"), std::to_string(i));  // sorted, no gaps
    EXPECT_EQ(t.Text(static_cast<int>(i), "status"), "ok");
    EXPECT_EQ(t.Number(static_cast<int>(i), "steps"), 40000);
  }
}

TEST(ExperimentRuns, DryRunListsTheRunsAndWritesNothing) {
  std::string out;
  const CliResult r = RunExperiment("'" + ShippedExperiment("friction_cone") +
                                        "' --dry-run --sweep solver=pgs --repeats 2 --seed 7",
                                    &out);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("= 2 points, 2 repeat(s) = 4 runs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("run 3: model=sliding_box cone=elliptic solver=pgs seed=8 steps=500"),
            std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out));
}

TEST(ExperimentRuns, ResultsDoNotDependOnTheNumberOfWorkers) {
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("sliding_box.xml") + ", " + RepoModel("damped_chain.xml") + "]\n"
                  "sweep: {solver: [newton, cg], cone: [pyramidal, elliptic]}\n"
                  "steps: 100\ninitial: {qvel_noise: 0.3}\nrepeats: 2\nseed: 5\n");
  const CliResult one = RunGauss("experiment '" + file + "' --jobs 1 --out '" + ScratchDir() + "/one'");
  const CliResult two = RunGauss("experiment '" + file + "' --jobs 2 --out '" + ScratchDir() + "/two'");
  ASSERT_EQ(one.status, 0) << one.err;
  ASSERT_EQ(two.status, 0) << two.err;
  const Table a = ReadTable(ScratchDir() + "/one/results.csv");
  const Table b = ReadTable(ScratchDir() + "/two/results.csv");
  ASSERT_EQ(a.rows.size(), 16u);
  ASSERT_EQ(b.rows.size(), 16u);
  for (int r = 0; r < 16; ++r) {
    for (const char* c : {"model", "solver", "cone", "seed", "status", "solver_iter_mean",
                          "solver_cost", "penetration_max", "fwdinv_residual"}) {
      EXPECT_EQ(a.Text(r, c), b.Text(r, c)) << "row " << r << " column " << c;
    }
  }
  // seeds 5 and 6 draw different initial velocities
  EXPECT_EQ(a.Text(0, "seed"), "5");
  EXPECT_EQ(a.Text(1, "seed"), "6");
  EXPECT_NE(a.Text(0, "solver_cost"), a.Text(1, "solver_cost"));
}

TEST(ExperimentRuns, CsvControlsDriveTheActuators) {
  // A slider of mass 1 pushed by a motor, no gravity: force u gives x(t) = u t^2 / 2; with
  // semi-implicit Euler after N steps of h, x = u h^2 N (N + 1) / 2.
  WriteScratch("slider.xml", R"(
<mujoco model="slider">
  <option timestep="0.001" gravity="0 0 0"/>
  <worldbody>
    <body name="cart">
      <joint name="rail" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.1 0.1 0.1" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator><motor joint="rail" gear="1"/></actuator>
</mujoco>)");
  // row i is applied before step i and the last row is held: 0.5 for 500 steps, then 0.25
  std::string rows = "ctrl0\n";
  for (int i = 0; i < 500; ++i) rows += "0.5\n";
  rows += "0.25\n";
  WriteScratch("ctrl.csv", rows);
  const std::string file = WriteScratch(
      "exp.yaml", "models: [slider.xml]\nsweep: {integrator: [euler]}\nsteps: 1000\n"
                  "controls: {source: csv, file: ctrl.csv}\nmetrics: {track_body: cart}\n");
  std::string out;
  const CliResult r = RunExperiment("'" + file + "'", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 1u);
  // velocity after 500 steps: 0.5 * 0.5 = 0.25; x = sum over steps of h * v_k
  double x = 0, v = 0;
  for (int i = 0; i < 1000; ++i) {
    v += 0.001 * (i < 500 ? 0.5 : 0.25);
    x += 0.001 * v;
  }
  EXPECT_NEAR(t.Number(0, "track_x"), x, 1e-12);
  EXPECT_NEAR(t.Number(0, "track_travel"), x, 1e-12);
  EXPECT_NEAR(t.Number(0, "track_drift"), 0, 1e-12);

  // CSV controls must match the model's actuators, checked before any run
  WriteScratch("bad.csv", "ctrl0,ctrl1\n1,2\n");
  const std::string bad = WriteScratch(
      "bad.yaml", "models: [slider.xml]\nsweep: {integrator: [euler]}\nsteps: 10\n"
                  "controls: {source: csv, file: bad.csv}\n");
  const CliResult refused = RunGauss("experiment '" + bad + "' --out '" + ScratchDir() + "/bad'");
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find("bad.csv:1: element 'ctrl1': not a control of model slider.xml (nu=1)"),
            std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(ScratchDir() + "/bad"));
}

TEST(ExperimentRuns, NoiseControlsFollowTheSeed) {
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("humanoid.xml") + "]\n"
                  "sweep: {solver: [newton]}\nsteps: 30\nrepeats: 2\nseed: 3\n"
                  "controls: {source: noise, sigma: 0.2}\n"
                  "set: {flags.contact: false, flags.energy: true}\n");
  const CliResult a = RunGauss("experiment '" + file + "' --out '" + ScratchDir() + "/a'");
  const CliResult b = RunGauss("experiment '" + file + "' --out '" + ScratchDir() + "/b' --seed 4");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  const Table ta = ReadTable(ScratchDir() + "/a/results.csv");
  const Table tb = ReadTable(ScratchDir() + "/b/results.csv");
  // seeds 3, 4 and 4, 5: the run with seed 4 is the same in both; seeds 3 and 4 differ
  EXPECT_EQ(ta.Text(1, "seed"), "4");
  EXPECT_EQ(tb.Text(0, "seed"), "4");
  EXPECT_EQ(ta.Text(1, "energy_final"), tb.Text(0, "energy_final"));
  EXPECT_EQ(ta.Text(1, "energy_drift"), tb.Text(0, "energy_drift"));
  EXPECT_NE(ta.Text(0, "energy_final"), ta.Text(1, "energy_final"));
}

TEST(ExperimentRuns, WithoutGnuplotThePlotDataAndScriptsAreStillWritten) {
  const std::string file = WriteScratch(
      "exp.yaml", "models: [" + RepoModel("pendulum.xml") + "]\n"
                  "sweep: {integrator: [euler, rk4], timestep: [0.01, 0.02]}\nsteps: 100\n"
                  "set: {flags.energy: true}\n"
                  "plots:\n  - {name: drift, x: timestep, y: energy_drift, group: integrator}\n");
  const std::string out = ScratchDir() + "/out";
  // gnuplot is looked up on PATH: an empty one hides it
  const std::string command = "/usr/bin/env PATH=/nonexistent '" + BinaryDir() + "/gauss' experiment '" +
                              file + "' --out '" + out + "' >'" + ScratchDir() + "/log' 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << ReadFile(ScratchDir() + "/log");
  EXPECT_NE(ReadFile(ScratchDir() + "/log").find("gnuplot not found (Debian package gnuplot-nox)"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(out + "/plots/drift.svg"));
  EXPECT_NE(ReadFile(out + "/plots/drift.gp").find("set terminal svg"), std::string::npos);
  // the data file holds one block per integrator, x sorted, y the run's energy_drift
  const Table t = ReadTable(out + "/results.csv");
  const std::string dat = ReadFile(out + "/plots/drift.dat");
  // (columns x, mean, min, max, zero-at-floor; one repeat: mean = min = max)
  auto cell = [&](int row) {
    const std::string v = t.Text(row, "energy_drift");
    return v + " " + v + " " + v + " nan";
  };
  EXPECT_NE(dat.find("# integrator=euler\n0.01 " + cell(0) + "\n0.02 " + cell(1)), std::string::npos)
      << dat;
  EXPECT_NE(dat.find("# integrator=rk4\n0.01 " + cell(2)), std::string::npos) << dat;
}

}  // namespace
}  // namespace gauss::test
