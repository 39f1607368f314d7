// `gauss run` from a chosen state: --keyframe (name or index), --initial (first row of a state
// CSV), and the seeded noise of --qvel-noise / --ctrl-noise, which must reproduce the
// trajectory of an experiment run exactly (gauss experiment --only prints the command).
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "cli_harness.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

std::string Q(const std::string& path) { return "'" + path + "'"; }

// `gauss run <args> --out <scratch>/<name>`; fails the test on a bad exit.
Csv RunTo(const std::string& args, const std::string& name) {
  const std::string out = ScratchDir() + "/" + name;
  const CliResult r = RunGauss("run " + args + " --out " + Q(out));
  EXPECT_EQ(r.status, 0) << r.err;
  return ReadCsvFile(out);
}

TEST(CliRunStart, KeyframeByNameAndByIndexStartsFromTheKeyframe) {
  const std::string model = RepoModel("sliding_box.xml");
  const auto m = LoadModel(model);
  ASSERT_EQ(m->nkey, 1);
  const Csv by_name = RunTo(Q(model) + " --steps 3 --keyframe launch", "name.csv");
  const Csv by_index = RunTo(Q(model) + " --steps 3 --keyframe 0", "index.csv");
  ASSERT_EQ(by_name.rows.size(), 4u);
  for (int i = 0; i < m->nq; ++i) {
    EXPECT_EQ(by_name.At(0, "qpos" + std::to_string(i)), m->key_qpos[i]);
  }
  for (int i = 0; i < m->nv; ++i) {
    EXPECT_EQ(by_name.At(0, "qvel" + std::to_string(i)), m->key_qvel[i]);
  }
  // the whole trajectory, bit for bit
  EXPECT_EQ(ReadFile(ScratchDir() + "/name.csv"), ReadFile(ScratchDir() + "/index.csv"));
  const CliResult missing = RunGauss("run " + Q(model) + " --steps 1 --keyframe land");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("no keyframe 'land'; the model's keyframes: 0 (launch)"),
            std::string::npos) << missing.err;
  EXPECT_EQ(RunGauss("run " + Q(model) + " --steps 1 --keyframe 1").status, 1);
}

TEST(CliRunStart, InitialStateFromTheFirstRowOfACsv) {
  const std::string model = TestModel("apps_pendulum.xml");  // nq = nv = 2, nu = 1
  const std::string states = WriteScratch("state.csv",
                                          "qvel1,time,qpos0\n"
                                          "0.25,3.5,0.4\n"
                                          "9,9,9\n");  // only the first row is used
  const Csv c = RunTo(Q(model) + " --steps 2 --initial " + Q(states), "initial.csv");
  EXPECT_EQ(c.At(0, "time"), 3.5);
  EXPECT_EQ(c.At(0, "qpos0"), 0.4);
  EXPECT_EQ(c.At(0, "qpos1"), 0.0);  // absent: qpos0 of the model
  EXPECT_EQ(c.At(0, "qvel0"), 0.0);
  EXPECT_EQ(c.At(0, "qvel1"), 0.25);
  EXPECT_NEAR(c.At(2, "time"), 3.52, 1e-12);
  // --initial after --keyframe: the CSV's columns override the keyframe's
  const std::string box = RepoModel("sliding_box.xml");
  const Csv k = RunTo(Q(box) + " --steps 0 --keyframe launch --initial " +
                        Q(WriteScratch("vx.csv", "qvel0\n0.5\n")),
                    "box.csv");
  EXPECT_EQ(k.At(0, "qvel0"), 0.5);
  EXPECT_EQ(k.At(0, "qvel1"), 1.0);  // from the keyframe
  const CliResult bad = RunGauss("run " + Q(model) + " --initial " +
                                 Q(WriteScratch("bad.csv", "qpos7\n1\n")));
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("qpos7"), std::string::npos) << bad.err;
}

TEST(CliRunStart, NoiseFollowsTheSeed) {
  const std::string model = Q(TestModel("apps_pendulum.xml"));
  const Csv a = RunTo(model + " --steps 20 --seed 7 --qvel-noise 0.3 --ctrl-noise 2", "a.csv");
  const Csv b = RunTo(model + " --steps 20 --seed 7 --qvel-noise 0.3 --ctrl-noise 2", "b.csv");
  const Csv c = RunTo(model + " --steps 20 --seed 8 --qvel-noise 0.3 --ctrl-noise 2", "c.csv");
  EXPECT_EQ(ReadFile(ScratchDir() + "/a.csv"), ReadFile(ScratchDir() + "/b.csv"));
  EXPECT_NE(a.At(0, "qvel0"), c.At(0, "qvel0"));
  EXPECT_NE(a.At(0, "qvel0"), 0.0);
  // the motor force sensor reads the control of each step: random, not zero
  EXPECT_NE(a.At(5, "sensordata2"), 0.0);
  EXPECT_NE(a.At(5, "sensordata2"), a.At(6, "sensordata2"));
  EXPECT_EQ(RunGauss("run " + model + " --ctrl-noise -1").status, 2);
  EXPECT_EQ(RunGauss("run " + model + " --ctrl-noise 1 --controls " +
                     Q(WriteScratch("u.csv", "ctrl0\n1\n"))).status, 2);
}

// The acceptance test of reproducibility: a row of an experiment with seeded initial and control
// noise, re-run with `gauss experiment --only` and with the `gauss run` command it prints,
// gives the same states as the experiment's trace.
TEST(CliRunStart, GaussRunReproducesAnExperimentRun) {
  const std::string exp = WriteScratch(
      "exp.yaml", "models: [" + TestModel("apps_pendulum.xml") + "]\n"
                  "sweep: {integrator: [euler, rk4]}\nsteps: 40\nrepeats: 2\nseed: 11\n"
                  "initial: {qvel_noise: 0.5}\n"
                  "controls: {source: noise, sigma: 3}\ntraces: {every: 4}\n");
  const std::string out = ScratchDir() + "/exp";
  const CliResult full = RunGauss("experiment " + Q(exp) + " --out " + Q(out) + " --jobs 2");
  ASSERT_EQ(full.status, 0) << full.err;
  const std::string trace_text = ReadFile(out + "/traces/run_3.csv");
  const Csv trace = ReadCsvFile(out + "/traces/run_3.csv");  // rk4, seed 12
  ASSERT_EQ(trace.rows.size(), 10u);

  const CliResult only = RunGauss("experiment " + Q(exp) + " --out " + Q(out) + " --only 3");
  ASSERT_EQ(only.status, 0) << only.err;
  EXPECT_NE(only.out.find("run 3: model=apps_pendulum integrator=rk4 seed=12 status=ok"),
            std::string::npos) << only.out;
  // rewritten, identical but for the wall-clock step_rate
  EXPECT_EQ(DropCsvColumn(ReadFile(out + "/traces/run_3.csv"), "step_rate"),
            DropCsvColumn(trace_text, "step_rate"));

  std::smatch match;
  ASSERT_TRUE(std::regex_search(only.out, match, std::regex("same trajectory: gauss run (.*)\n")))
      << only.out;
  std::string command = match[1];
  EXPECT_NE(command.find("--seed 12 --qvel-noise 0.5 --ctrl-noise 3"), std::string::npos) << command;
  command = std::regex_replace(command, std::regex("--out run_3.csv"), "--out " + Q(ScratchDir() + "/rerun.csv"));
  const CliResult rerun = RunGauss("run " + command);
  ASSERT_EQ(rerun.status, 0) << rerun.err;
  const Csv traj = ReadCsvFile(ScratchDir() + "/rerun.csv");
  // trace row r is the state before step 4r; trajectory row r the state after step 4r (row 0:
  // the initial state), so trajectory row r matches trace row r
  ASSERT_GE(traj.rows.size(), trace.rows.size());
  for (std::size_t r = 0; r < trace.rows.size(); ++r) {
    for (const char* q : {"qpos0", "qpos1"}) {
      const double want = trace.At(static_cast<int>(r), q), got = traj.At(static_cast<int>(r), q);
      EXPECT_NEAR(got, want, 1e-11 * std::max(1.0, std::fabs(want))) << "row " << r << " " << q;
    }
  }
  EXPECT_NE(trace.At(9, "qpos0"), 0.0);
}

}  // namespace
}  // namespace gauss::test
