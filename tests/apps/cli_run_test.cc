// `gauss run`, `forward`, `bench` and `plugins` on a small model: file formats, row counts,
// option effects and the key=value output, all through the built binary.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

#include "cli_harness.h"
#include "gauss/config.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// apps_pendulum.xml: nq=nv=2, nu=1, na=0, timestep 0.01; sensors: shoulder angle, clock, motor
// force (= ctrl).
const std::string kModel = TestModel("apps_pendulum.xml");
constexpr double kTimestep = 0.01;

std::string Q(const std::string& path) { return "'" + path + "'"; }

// Runs `gauss run` on the pendulum and returns the trajectory; fails the test on a bad exit.
Csv RunTrajectory(const std::string& extra, const std::string& name = "traj.csv") {
  const std::string out = ScratchDir() + "/" + name;
  const CliResult r = RunGauss("run " + Q(kModel) + " --out " + Q(out) + " " + extra);
  EXPECT_EQ(r.status, 0) << r.err;
  return ReadCsvFile(out);
}

// "key=value" lines of stdout.
std::map<std::string, std::string> KeyValues(const std::string& text) {
  std::map<std::string, std::string> kv;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return kv;
}

TEST(CliRun, HeaderAndOneRowPerStep) {
  const Csv traj = RunTrajectory("--steps 10");
  EXPECT_EQ(traj.header,
            (std::vector<std::string>{"time", "qpos0", "qpos1", "qvel0", "qvel1", "sensordata0",
                                      "sensordata1", "sensordata2", "reset"}));
  ASSERT_EQ(traj.rows.size(), 11u);  // initial state + 10 steps
  for (int i = 0; i <= 10; ++i) EXPECT_EQ(traj.At(i, "reset"), 0);  // no divergence
  for (int i = 0; i <= 10; ++i) EXPECT_NEAR(traj.At(i, "time"), i * kTimestep, 1e-12);
  // the initial row is the reference configuration at rest
  EXPECT_EQ(traj.At(0, "qpos0"), 0);
  EXPECT_EQ(traj.At(0, "qvel1"), 0);
}

TEST(CliRun, EveryKeepsEveryKthStep) {
  const Csv all = RunTrajectory("--steps 10", "all.csv");
  const Csv sparse = RunTrajectory("--steps 10 --every 3", "sparse.csv");
  ASSERT_EQ(sparse.rows.size(), 4u);  // steps 0, 3, 6, 9
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(sparse.At(k, "time"), 3 * k * kTimestep, 1e-12);
    EXPECT_EQ(sparse.rows[k], all.rows[3 * k]);  // the same states, bit for bit
  }
}

TEST(CliRun, DurationAndDefaultSteps) {
  EXPECT_EQ(RunTrajectory("--duration 0.1", "d.csv").rows.size(), 11u);  // 0.1 s / 0.01 s
  EXPECT_EQ(RunTrajectory("--duration 0.105", "e.csv").rows.size(), 12u);  // rounded up
  EXPECT_EQ(RunTrajectory("", "default.csv").rows.size(), 1001u);  // 1000 steps by default
}

TEST(CliRun, SummaryOnStdout) {
  const CliResult r =
      RunGauss("run " + Q(kModel) + " --steps 20 --set flags.energy=true");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("nq=2 nv=2 nu=1 na=0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("integrator euler"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("steps: 20"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("simulated time: 0.2 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("steps/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("final energy: potential="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warnings: none"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");  // no progress bar: stderr is not a terminal
}

TEST(CliRun, ResolvedConfigWrittenNextToOutputAndReloadable) {
  const std::string cfg = WriteScratch("cfg.yaml", "timestep: 0.004\nsolver: {iterations: 9}\n");
  const std::string out = ScratchDir() + "/t.csv";
  const CliResult r = RunGauss("run " + Q(kModel) + " --steps 5 --out " + Q(out) + " --config " +
                               Q(cfg) + " --set solver.iterations=11");
  ASSERT_EQ(r.status, 0) << r.err;
  const Config resolved = LoadConfigFile(out + ".config.yaml");
  Options o;
  ApplyConfig(resolved, o);
  EXPECT_EQ(o.timestep, 0.004);  // from the YAML file
  EXPECT_EQ(o.iterations, 11);   // --set wins over the YAML file
  EXPECT_EQ(o.integrator, "euler");
  // and the trajectory used the YAML timestep
  EXPECT_NEAR(ReadCsvFile(out).At(5, "time"), 5 * 0.004, 1e-12);
}

TEST(CliRun, IntegratorChoiceChangesTrajectory) {
  const std::string start = WriteScratch("start.csv", "ctrl0\n3\n");  // drive it off rest
  const Csv euler = RunTrajectory("--steps 50 --controls " + Q(start), "euler.csv");
  const Csv rk4 = RunTrajectory("--steps 50 --set integrator=rk4 --controls " + Q(start), "rk4.csv");
  ASSERT_EQ(euler.rows.size(), rk4.rows.size());
  EXPECT_NE(euler.At(50, "qpos0"), rk4.At(50, "qpos0"));
  const CliResult r = RunGauss("run " + Q(kModel) + " --steps 1 --set integrator=rk4");
  EXPECT_NE(r.out.find("integrator rk4"), std::string::npos) << r.out;
}

TEST(CliRun, ControlsApplyRowIBeforeStepIAndHoldTheLastRow) {
  const Csv rest = RunTrajectory("--steps 6", "rest.csv");
  // hanging at rest without controls: nothing moves
  EXPECT_NEAR(rest.At(6, "qpos0"), 0, 1e-12);
  EXPECT_NEAR(rest.At(6, "qvel0"), 0, 1e-12);

  const std::string one = WriteScratch("one.csv", "ctrl0\n2\n");
  const Csv held = RunTrajectory("--steps 6 --controls " + Q(one), "held.csv");
  // row 0 acts in step 0, so the shoulder already moves after the first step...
  EXPECT_GT(held.At(1, "qvel0"), 1e-3);
  // ...and the single row keeps acting: the shoulder keeps speeding up
  EXPECT_GT(held.At(6, "qvel0"), held.At(3, "qvel0"));

  // a sequence: push for two steps, then nothing: differs from holding the push
  const std::string two = WriteScratch("two.csv", "ctrl0\n2\n2\n0\n");
  const Csv pulse = RunTrajectory("--steps 6 --controls " + Q(two), "pulse.csv");
  // identical states while the controls agree (row 2's motor force already shows the change)
  for (const char* col : {"time", "qpos0", "qpos1", "qvel0", "qvel1"}) {
    EXPECT_EQ(pulse.At(2, col), held.At(2, col)) << col;
  }
  EXPECT_EQ(pulse.At(2, "sensordata2"), 0);
  EXPECT_EQ(held.At(2, "sensordata2"), 2);
  EXPECT_NE(pulse.At(6, "qvel0"), held.At(6, "qvel0"));
  // each row's sensors describe its own state and the control of the step starting there
  for (int k = 0; k <= 6; ++k) {
    EXPECT_EQ(pulse.At(k, "sensordata0"), pulse.At(k, "qpos0")) << k;
    EXPECT_EQ(pulse.At(k, "sensordata1"), pulse.At(k, "time")) << k;
    EXPECT_EQ(pulse.At(k, "sensordata2"), k < 2 ? 2 : 0) << k;
  }
  EXPECT_NE(pulse.At(6, "sensordata0"), 0);
  // a negative push turns the other way
  const std::string neg = WriteScratch("neg.csv", "ctrl0\n-2\n");
  EXPECT_LT(RunTrajectory("--steps 3 --controls " + Q(neg), "neg_traj.csv").At(3, "qvel0"), 0);
}

TEST(CliForward, QaccColumnsMatchOneEulerStep) {
  // An undamped Euler step gives qvel1 = qvel0 + h * qacc(state 0), so forward must agree
  // with the first step of run from the same state.
  const std::string ctrl = WriteScratch("ctrl.csv", "ctrl0\n1.5\n");
  const Csv traj = RunTrajectory("--steps 1 --controls " + Q(ctrl), "one.csv");
  const std::string states = WriteScratch("states.csv",
                                          "qvel1,qpos0,qpos1,qvel0,ctrl0\n"
                                          "0,0,0,0,1.5\n"
                                          "0.3,0.5,-0.2,-1,0\n");
  const std::string out = ScratchDir() + "/qacc.csv";
  const CliResult r =
      RunGauss("forward " + Q(kModel) + " --states " + Q(states) + " --out " + Q(out));
  ASSERT_EQ(r.status, 0) << r.err;
  const Csv qacc = ReadCsvFile(out);
  EXPECT_EQ(qacc.header, (std::vector<std::string>{"qacc0", "qacc1", "ncon", "nefc",
                                                  "qfrc_constraint0", "qfrc_constraint1",
                                                  "sensordata0", "sensordata1", "sensordata2",
                                                  "solver_iter"}));
  ASSERT_EQ(qacc.rows.size(), 2u);
  for (int j = 0; j < 2; ++j) {
    const std::string v = "qvel" + std::to_string(j);
    EXPECT_NEAR(qacc.At(0, "qacc" + std::to_string(j)), traj.At(1, v) / kTimestep, 1e-9);
  }
  // a displaced state swings back: gravity accelerates the shoulder towards 0
  EXPECT_LT(qacc.At(1, "qacc0"), 0);
  // sensors at each input state: shoulder angle, time (0: no column), motor force = ctrl
  EXPECT_EQ(qacc.At(1, "sensordata0"), 0.5);
  EXPECT_EQ(qacc.At(1, "sensordata1"), 0);
  EXPECT_EQ(qacc.At(0, "sensordata2"), 1.5);
  EXPECT_EQ(qacc.At(1, "sensordata2"), 0);
  EXPECT_TRUE(std::filesystem::exists(out + ".config.yaml"));
}

TEST(CliForward, MissingColumnsKeepDefaults) {
  const std::string partial = WriteScratch("partial.csv", "qpos0\n0.4\n");
  const std::string full = WriteScratch(
      "full.csv", "time,qpos0,qpos1,qvel0,qvel1,ctrl0,qacc_warmstart0,qacc_warmstart1\n"
                  "0,0.4,0,0,0,0,0,0\n");
  const std::string a = ScratchDir() + "/a.csv";
  const std::string b = ScratchDir() + "/b.csv";
  ASSERT_EQ(RunGauss("forward " + Q(kModel) + " --states " + Q(partial) + " --out " + Q(a)).status, 0);
  ASSERT_EQ(RunGauss("forward " + Q(kModel) + " --states " + Q(full) + " --out " + Q(b)).status, 0);
  const Csv qa = ReadCsvFile(a);
  const Csv qb = ReadCsvFile(b);
  ASSERT_EQ(qa.rows.size(), 1u);
  EXPECT_EQ(qa.rows, qb.rows);
  EXPECT_NE(qa.At(0, "qacc0"), 0);
}

TEST(CliBench, KeyValueOutput) {
  const CliResult r = RunGauss("bench " + Q(kModel) + " --steps 200 --repeat 3");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto kv = KeyValues(r.out);
  for (const char* key : {"model", "steps_per_second", "ns_per_step", "steps_per_second_min",
                          "steps_per_second_max", "plugin_integrator", "steps", "repeat"}) {
    EXPECT_EQ(kv.count(key), 1u) << key << " missing in\n" << r.out;
  }
  EXPECT_EQ(kv.at("model"), "apps_pendulum");
  EXPECT_EQ(kv.at("steps"), "200");
  EXPECT_EQ(kv.at("repeat"), "3");
  EXPECT_EQ(kv.at("plugin_integrator").rfind("euler ", 0), 0u) << kv.at("plugin_integrator");
  const double rate = std::stod(kv.at("steps_per_second"));
  const double ns = std::stod(kv.at("ns_per_step"));
  EXPECT_GT(rate, 0);
  // with an odd number of repeats both medians come from the same repeat
  EXPECT_NEAR(rate * ns, 1e9, 1e9 * 1e-4);
  EXPECT_LE(std::stod(kv.at("steps_per_second_min")), rate);
  EXPECT_GE(std::stod(kv.at("steps_per_second_max")), rate);
}

TEST(CliPlugins, ListsBuiltInAndExtraPaths) {
  CliResult r = RunGauss("plugins");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("KIND"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("integrator  euler"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("libgauss_euler.so"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("test_clock"), std::string::npos) << r.out;
  // plugins.paths adds a directory, searched first
  r = RunGauss("plugins --set plugins.paths=" + Q(TestPluginDir() + "/good"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("test_clock"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(TestPluginDir() + "/good"), std::string::npos) << r.out;
}

TEST(CliHelp, EverySubcommandHasHelp) {
  for (const char* cmd : {"run", "forward", "bench", "plugins"}) {
    const CliResult r = RunGauss(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << cmd;
    EXPECT_NE(r.out.find(std::string("usage: gauss ") + cmd), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--set"), std::string::npos) << r.out;
  }
  CliResult r = RunGauss("--help");
  EXPECT_EQ(r.status, 0);
  for (const char* cmd : {"run", "forward", "bench", "plugins"}) {
    EXPECT_NE(r.out.find(cmd), std::string::npos) << r.out;
  }
  r = RunGauss("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("gauss ", 0), 0u) << r.out;
}

}  // namespace
}  // namespace gauss::test
