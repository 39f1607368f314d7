// The thread-parallel commands: `gauss rollout` (trajectories equal to `gauss run`, controls
// from a table or noise, the same bytes for every thread count), `gauss forward/inverse
// --threads` (the same bytes for every thread count) and `gauss bench --threads`.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include "cli_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// Contacts, a joint limit, one motor (the hinge, last dof) and contact sensors.
const std::string kModel = TestModel("sensors_contact.xml");

std::string Q(const std::string& path) { return "'" + path + "'"; }

void ExpectOk(const CliResult& r) { ASSERT_EQ(r.status, 0) << r.out << r.err; }

// Five initial states: the reset state and four with velocities on the free bodies and hinge.
std::string InitialStates() {
  return WriteScratch("initial.csv",
                      "qvel0,qvel2,qvel8,qvel18\n"
                      "0,0,0,0\n"
                      "0.5,1,0,2\n"
                      "-1,2,0.3,-1\n"
                      "0,0,-2,0.5\n"
                      "0.1,-0.2,0.3,-3\n");
}

TEST(CliRollout, OneTrajectoryFromTheResetStateIsByteIdenticalToRun) {
  const std::string dir = ScratchDir();
  const std::string ctrl = WriteScratch("ctrl.csv", "ctrl0\n0.5\n-1\n2\n");
  ExpectOk(RunGauss("run " + Q(kModel) + " --steps 30 --controls " + Q(ctrl) + " --out " +
                    Q(dir + "/run.csv")));
  const std::string initial = WriteScratch("one.csv", "time\n0\n");
  ExpectOk(RunGauss("rollout " + Q(kModel) + " --initial " + Q(initial) + " --controls " +
                    Q(ctrl) + " --steps 30 --out " + Q(dir + "/out")));
  const std::string run = ReadFile(dir + "/run.csv");
  ASSERT_FALSE(run.empty());
  EXPECT_EQ(ReadFile(dir + "/out/rollout_0.csv"), run);
}

TEST(CliRollout, SameBytesForEveryThreadCount) {
  const std::string dir = ScratchDir();
  const std::string initial = InitialStates();
  std::string first;
  for (int threads : {1, 2, 3}) {
    const std::string out = dir + "/t" + std::to_string(threads) + ".csv";
    const CliResult r = RunGauss("rollout " + Q(kModel) + " --initial " + Q(initial) +
                                 " --ctrl-noise 0.5 --seed 3 --steps 40 --threads " +
                                 std::to_string(threads) + " --out " + Q(out));
    ExpectOk(r);
    EXPECT_NE(r.out.find("rollouts: 5 x 40 steps on " + std::to_string(threads) + " thread"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("steps/s"), std::string::npos);
    const std::string text = ReadFile(out);
    if (first.empty()) first = text;
    EXPECT_EQ(text, first) << threads << " threads";
  }
  const Csv all = ReadCsvFile(dir + "/t1.csv");
  ASSERT_EQ(all.rows.size(), 5u * 41);
  EXPECT_EQ(all.header[0], "rollout");
  EXPECT_EQ(all.header[1], "time");
  // each trajectory starts at its initial state
  EXPECT_EQ(all.At(41 * 2, "rollout"), 2);
  EXPECT_EQ(all.At(41 * 2, "qvel2"), 2);
  EXPECT_EQ(all.At(41 * 2, "time"), 0);
}

TEST(CliRollout, NoiseIsTheExperimentsDistributionSeededPerTrajectory) {
  // Trajectory r draws standard normals from mt19937_64(seed + r), times S, nu per step: a
  // trajectory of seed 3 + 1 equals trajectory 1 of seed 3, and the table of those very
  // controls gives the same trajectory.
  const std::string dir = ScratchDir();
  const std::string two = WriteScratch("two.csv", "time\n0\n0\n");
  const std::string one = WriteScratch("one.csv", "time\n0\n");
  ExpectOk(RunGauss("rollout " + Q(kModel) + " --initial " + Q(two) +
                    " --ctrl-noise 0.7 --seed 3 --steps 20 --out " + Q(dir + "/a")));
  ExpectOk(RunGauss("rollout " + Q(kModel) + " --initial " + Q(one) +
                    " --ctrl-noise 0.7 --seed 4 --steps 20 --out " + Q(dir + "/b")));
  EXPECT_EQ(ReadFile(dir + "/a/rollout_1.csv"), ReadFile(dir + "/b/rollout_0.csv"));
  EXPECT_NE(ReadFile(dir + "/a/rollout_0.csv"), ReadFile(dir + "/a/rollout_1.csv"));
  std::mt19937_64 gen(4);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::ostringstream table;
  table.precision(17);
  table << "ctrl0\n";
  for (int t = 0; t < 21; ++t) table << 0.7 * normal(gen) << "\n";
  const std::string ctrl = WriteScratch("ctrl.csv", table.str());
  ExpectOk(RunGauss("rollout " + Q(kModel) + " --initial " + Q(one) + " --controls " + Q(ctrl) +
                    " --steps 20 --out " + Q(dir + "/c")));
  EXPECT_EQ(ReadFile(dir + "/c/rollout_0.csv"), ReadFile(dir + "/b/rollout_0.csv"));
}

TEST(CliRollout, PerTrajectoryControlTable) {
  // rows of the 'rollout' column go to their trajectory: trajectory 1 pushes the hinge, 0 not
  const std::string dir = ScratchDir();
  const std::string two = WriteScratch("two.csv", "time\n0\n0\n");
  const std::string ctrl = WriteScratch("ctrl.csv", "rollout,ctrl0\n1,5\n0,0\n");
  ExpectOk(RunGauss("rollout " + Q(kModel) + " --initial " + Q(two) + " --controls " + Q(ctrl) +
                    " --steps 20 --out " + Q(dir + "/r.csv")));
  const Csv r = ReadCsvFile(dir + "/r.csv");
  ASSERT_EQ(r.rows.size(), 42u);
  EXPECT_EQ(r.At(20, "qvel18"), 0);
  EXPECT_GT(r.At(41, "qvel18"), 0.1);
}

TEST(CliRollout, BadInputIsRefusedWithTheFileAndColumn) {
  const std::string initial = InitialStates();
  const std::string ctrl = WriteScratch("bad.csv", "rollout,ctrl0\n7,1\n");
  CliResult r = RunGauss("rollout " + Q(kModel) + " --initial " + Q(initial) + " --controls " +
                         Q(ctrl) + " --out " + Q(ScratchDir() + "/o"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("bad.csv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rollout"), std::string::npos) << r.err;
  r = RunGauss("rollout " + Q(kModel) + " --initial " + Q(initial) +
               " --controls x.csv --ctrl-noise 1 --out o");
  EXPECT_EQ(r.status, 2) << r.err;
  const std::string bad_state = WriteScratch("bad_state.csv", "qpos99\n1\n");
  r = RunGauss("rollout " + Q(kModel) + " --initial " + Q(bad_state) + " --out o");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("qpos99"), std::string::npos) << r.err;
}

TEST(CliForwardInverse, ThreadsGiveTheSameBytes) {
  // 40 states (positions from a short rollout so that contacts are active), evaluated with 1,
  // 2 and 3 threads.
  const std::string dir = ScratchDir();
  ExpectOk(RunGauss("rollout " + Q(kModel) + " --initial " + Q(InitialStates()) +
                    " --ctrl-noise 1 --steps 7 --out " + Q(dir + "/states.csv")));
  // keep the state columns only
  const Csv traj = ReadCsvFile(dir + "/states.csv");
  std::ostringstream states;
  states.precision(17);
  std::vector<int> keep;
  for (size_t c = 0; c < traj.header.size(); ++c) {
    const std::string& h = traj.header[c];
    if (h.rfind("qpos", 0) == 0 || h.rfind("qvel", 0) == 0) keep.push_back(static_cast<int>(c));
  }
  for (size_t k = 0; k < keep.size(); ++k) states << (k ? "," : "") << traj.header[keep[k]];
  states << ",ctrl0\n";
  for (const auto& row : traj.rows) {
    for (size_t k = 0; k < keep.size(); ++k) states << (k ? "," : "") << row[keep[k]];
    states << "," << std::sin(row[1] * 100) << "\n";
  }
  const std::string in = WriteScratch("in.csv", states.str());
  std::string fwd1, inv1;
  for (int threads : {1, 2, 3}) {
    const std::string t = std::to_string(threads);
    ExpectOk(RunGauss("forward " + Q(kModel) + " --states " + Q(in) + " --threads " + t +
                      " --out " + Q(dir + "/fwd" + t + ".csv")));
    const std::string fwd = ReadFile(dir + "/fwd" + t + ".csv");
    if (threads == 1) fwd1 = fwd;
    EXPECT_EQ(fwd, fwd1) << threads;
    const Csv f = ReadCsvFile(dir + "/fwd" + t + ".csv");
    ASSERT_EQ(f.rows.size(), traj.rows.size());
    double ncon = 0;
    for (size_t r = 0; r < f.rows.size(); ++r) ncon += f.At(static_cast<int>(r), "ncon");
    EXPECT_GT(ncon, 0) << "the states must have contacts";
  }
  // inverse of (state, qacc from forward)
  const Csv f = ReadCsvFile(dir + "/fwd1.csv");
  std::istringstream lines(states.str());
  std::string line;
  std::getline(lines, line);
  std::ostringstream inv;
  inv.precision(17);
  inv << line;
  for (int j = 0; j < 19; ++j) inv << ",qacc" << j;
  inv << "\n";
  for (size_t r = 0; std::getline(lines, line); ++r) {
    inv << line;
    for (int j = 0; j < 19; ++j) inv << "," << f.At(static_cast<int>(r), "qacc" + std::to_string(j));
    inv << "\n";
  }
  const std::string inv_in = WriteScratch("inv_in.csv", inv.str());
  for (int threads : {1, 3}) {
    const std::string t = std::to_string(threads);
    ExpectOk(RunGauss("inverse " + Q(kModel) + " --states " + Q(inv_in) + " --threads " + t +
                      " --out " + Q(dir + "/inv" + t + ".csv")));
    const std::string text = ReadFile(dir + "/inv" + t + ".csv");
    if (threads == 1) inv1 = text;
    EXPECT_EQ(text, inv1) << threads;
  }
  // the inverse returns the motor's force on the hinge (gear 3), up to the solver tolerance
  const Csv q = ReadCsvFile(dir + "/inv1.csv");
  for (size_t r = 0; r < q.rows.size(); ++r) {
    const double ctrl = std::sin(traj.rows[r][1] * 100);
    EXPECT_NEAR(q.At(static_cast<int>(r), "qfrc_inverse18"), 3 * ctrl, 1e-5) << r;
  }
}

TEST(CliBench, ThreadsReportAggregateRateAndScaling) {
  const CliResult r = RunGauss("bench " + Q(kModel) + " --steps 200 --repeat 2 --threads 2");
  ExpectOk(r);
  std::map<std::string, double> kv;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const size_t eq = line.find('=');
    if (eq != std::string::npos) kv[line.substr(0, eq)] = std::atof(line.substr(eq + 1).c_str());
  }
  EXPECT_EQ(kv["threads"], 2);
  EXPECT_GT(kv["steps_per_second"], 0);
  EXPECT_GT(kv["steps_per_second_1thread"], 0);
  // scaling is a ratio of two wall-clock rates: positive and finite, but its size depends on
  // the machine's load (a preempted 1-thread run can make it exceed 2), so no bound is asserted
  EXPECT_GT(kv["scaling"], 0);
  EXPECT_TRUE(std::isfinite(kv["scaling"]));
  EXPECT_GT(kv["cpu_scaling"], 0);
  EXPECT_EQ(kv["warnings"], 0);
}

}  // namespace
}  // namespace gauss::test
