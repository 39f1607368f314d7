// Constraint islands against MuJoCo 3.12, whose default is to solve each island on its own.
//
// The reference files in tests/reference/data were written by MuJoCo 3.12 (mjref3, islands
// on; regenerate with scripts/gen_island_reference.sh): states sampled by simulating MuJoCo
// 3.12 (with its warmstart), and its forward dynamics at each of them. Gauss runs the same
// states with the island flag on and must agree:
//   ncon and nefc exactly; qacc and qfrc_constraint to 1e-6 (max |a - b| / max(1, |b|), the
//   tolerance of the 2.2.2 contact reference tests);
// and the states really have several islands (asserted, so that the check means something).
// Models: tests/models/islands_groups.xml (three piles, a limited pendulum, a friction-loss
// hinge, two arms coupled by a joint equality, a free body) and MuJoCo's 22_humanoids, newton
// with pyramidal cones. (MuJoCo 3.12's elliptic-cone and cg solutions differ from 2.2.2's by
// up to 8e-4 with or without islands, so they are no reference for Gauss, which reproduces
// 2.2.2; tests/core/island_test.cc checks that islands do not change Gauss's solutions there.)
// And pgs on MuJoCo's humanoid (one island), both cones: Gauss's pgs by island follows 3.12's
// sweep schedule, so it must also stop after the same number of sweeps in every state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gauss/config.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// A CSV file of numbers with a header row.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;

  // Values of the columns named prefix0, prefix1, ... (in order) of row r.
  std::vector<double> Columns(int r, const std::string& prefix) const {
    std::vector<double> out;
    for (int k = 0;; ++k) {
      const auto it = index.find(prefix + std::to_string(k));
      if (it == index.end()) return out;
      out.push_back(rows[r][it->second]);
    }
  }
  double Value(int r, const std::string& name) const { return rows[r][index.at(name)]; }
  std::map<std::string, int> index;
};

Table ReadTable(const std::string& path) {
  Table t;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::string line;
  if (!std::getline(in, line)) return t;
  std::stringstream header(line);
  for (std::string cell; std::getline(header, cell, ',');) {
    t.index[cell] = static_cast<int>(t.header.size());
    t.header.push_back(cell);
  }
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::vector<double> values;
    for (std::string cell; std::getline(row, cell, ',');) values.push_back(std::stod(cell));
    t.rows.push_back(values);
  }
  return t;
}

struct IslandCase {
  std::string name;   // forward file stem: islands_<name>_forward.csv
  std::string states; // states file stem: islands_<states>_states.csv
  std::string model;  // path
  std::string cone;
  std::string solver;
  int iterations;
  double tolerance;
  int min_islands;    // every state has at least this many islands
  // island 0's iteration count must equal MuJoCo's solver_iter (pgs: sweep for sweep)
  bool same_iterations;
};

std::string DataFile(const std::string& name, const char* kind) {
  return std::string(GAUSS_SOURCE_DIR) + "/tests/reference/data/islands_" + name + "_" + kind +
         ".csv";
}

class IslandReference : public ::testing::TestWithParam<IslandCase> {};

TEST_P(IslandReference, ForwardMatchesMujoco312WithIslands) {
  const IslandCase& c = GetParam();
  const Table states = ReadTable(DataFile(c.states, "states"));
  const Table expected = ReadTable(DataFile(c.name, "forward"));
  ASSERT_FALSE(states.rows.empty());
  ASSERT_EQ(states.rows.size(), expected.rows.size());
  Config config;
  config.flags["island"] = true;
  config.cone = c.cone == "elliptic" ? Cone::kElliptic : Cone::kPyramidal;
  config.solver = c.solver;
  config.iterations = c.iterations;
  config.tolerance = c.tolerance;
  const Engine engine(LoadModel(c.model), config);
  const Model& m = engine.model();
  Data d = engine.MakeData();
  double worst_qacc = 0, worst_frc = 0;
  int fewest_islands = 1 << 30, iteration_mismatches = 0;
  for (std::size_t r = 0; r < states.rows.size(); ++r) {
    const int row = static_cast<int>(r);
    engine.Reset(d);
    const auto qpos = states.Columns(row, "qpos"), qvel = states.Columns(row, "qvel");
    const auto warm = states.Columns(row, "qacc_warmstart"), ctrl = states.Columns(row, "ctrl");
    ASSERT_EQ(qpos.size(), static_cast<std::size_t>(m.nq));
    ASSERT_EQ(warm.size(), static_cast<std::size_t>(m.nv));
    std::copy(qpos.begin(), qpos.end(), d.qpos.begin());
    std::copy(qvel.begin(), qvel.end(), d.qvel.begin());
    std::copy(warm.begin(), warm.end(), d.qacc_warmstart.begin());
    std::copy(ctrl.begin(), ctrl.begin() + std::min<std::size_t>(ctrl.size(), m.nu), d.ctrl.begin());
    engine.Forward(d);
    ASSERT_EQ(d.ncon, static_cast<int>(expected.Value(row, "ncon"))) << "state " << r;
    ASSERT_EQ(d.nefc, static_cast<int>(expected.Value(row, "nefc"))) << "state " << r;
    const auto qacc = expected.Columns(row, "qacc");
    const auto frc = expected.Columns(row, "qfrc_constraint");
    worst_qacc = std::max(worst_qacc, MaxRelError(d.qacc.data(), qacc.data(), m.nv));
    worst_frc = std::max(worst_frc, MaxRelError(d.qfrc_constraint.data(), frc.data(), m.nv));
    fewest_islands = std::min(fewest_islands, d.nisland);
    const int island0_iter = d.nisland > 0 ? d.island_iter[0] : 0;
    if (island0_iter != static_cast<int>(expected.Value(row, "solver_iter"))) {
      ++iteration_mismatches;
      if (c.same_iterations) {
        ADD_FAILURE() << c.name << " state " << r << ": island 0 took " << island0_iter
                      << " iterations, MuJoCo " << expected.Value(row, "solver_iter");
      }
    }
  }
  EXPECT_LE(worst_qacc, 1e-6) << c.name;
  EXPECT_LE(worst_frc, 1e-6) << c.name;
  EXPECT_GE(fewest_islands, c.min_islands) << c.name;
  std::printf("[ islands  ] %s: %zu states, fewest islands %d, max rel error qacc %.1e, "
              "qfrc_constraint %.1e, island 0's iteration count differs in %d states\n",
              c.name.c_str(), states.rows.size(), fewest_islands, worst_qacc, worst_frc,
              iteration_mismatches);
}

INSTANTIATE_TEST_SUITE_P(
    Models, IslandReference,
    ::testing::Values(
        IslandCase{"groups_pyramidal", "groups_pyramidal", TestModel("islands_groups.xml"),
                   "pyramidal", "newton", 100, 1e-8, 4, false},
        IslandCase{"humanoids22", "humanoids22", MujocoSampleModel("humanoid/22_humanoids.xml"),
                   "pyramidal", "newton", 100, 1e-8, 2, false},
        // pgs by island follows MuJoCo 3.12's shuffled sweeps with momentum sweep for sweep
        // (plugins/solvers/pgs/shuffled_sweeps.h), so it also stops where 3.12 does. One island
        // (MuJoCo's humanoid, states sampled by 3.12's pgs): on many islands 3.12 scales each
        // island's stopping test by the whole model's nv, Gauss by the island's.
        IslandCase{"humanoid_pgs_pyramidal", "humanoid_pgs_pyramidal",
                   MujocoSampleModel("humanoid/humanoid.xml"), "pyramidal", "pgs", 100, 1e-8, 0,
                   true},
        IslandCase{"humanoid_pgs_elliptic", "humanoid_pgs_elliptic",
                   MujocoSampleModel("humanoid/humanoid.xml"), "elliptic", "pgs", 100, 1e-8, 0,
                   true}),
    [](const ::testing::TestParamInfo<IslandCase>& info) { return info.param.name; });

// Sleeping against MuJoCo 3.12: tests/models/sleep_piles.xml (sleep on) for 300 steps from
// qpos0, written by `mjref3 run --sleep` (tests/reference/data/sleep_piles_mjref3.csv, see
// scripts/gen_island_reference.sh). The piles and the ball settle and fall asleep; Gauss must
// follow the trajectory (qpos and qvel to 1e-12: 2.1e-15 measured, an island falling asleep
// keeps its qpos from before the step as in MuJoCo) and every tree must fall asleep (its qvel
// becoming exactly 0) at the same step as in MuJoCo.
TEST(SleepReference, TrajectoryAndSleepStepsMatchMujoco312) {
  const Table expected = ReadTable(std::string(GAUSS_SOURCE_DIR) +
                                   "/tests/reference/data/sleep_piles_mjref3.csv");
  ASSERT_EQ(expected.rows.size(), 301u);
  const Engine engine(LoadModel(TestModel("sleep_piles.xml")));
  const Model& m = engine.model();
  Data d = engine.MakeData();
  std::vector<int> asleep_at(m.ntree, -1), mujoco_asleep_at(m.ntree, -1);
  double worst = 0;
  for (int r = 0; r < 301; ++r) {
    const auto qpos = expected.Columns(r, "qpos"), qvel = expected.Columns(r, "qvel");
    worst = std::max(worst, MaxRelError(d.qpos.data(), qpos.data(), m.nq));
    worst = std::max(worst, MaxRelError(d.qvel.data(), qvel.data(), m.nv));
    for (int t = 0; t < m.ntree; ++t) {
      auto zero = [&](const double* v) {
        for (int i = m.tree_dofadr[t]; i < m.tree_dofadr[t] + m.tree_dofnum[t]; ++i) {
          if (v[i] != 0) return false;
        }
        return true;
      };
      if (r > 0 && asleep_at[t] < 0 && zero(d.qvel.data())) asleep_at[t] = r;
      if (r > 0 && mujoco_asleep_at[t] < 0 && zero(qvel.data())) mujoco_asleep_at[t] = r;
    }
    engine.Step(d);
  }
  EXPECT_LE(worst, 1e-12);
  EXPECT_EQ(asleep_at, mujoco_asleep_at);
  EXPECT_EQ(d.ntree_awake, 0);
  for (int t = 0; t < m.ntree; ++t) EXPECT_GT(asleep_at[t], 0) << "tree " << t;
  std::printf("[ sleep    ] 300 steps: max rel error qpos, qvel %.1e; trees asleep at steps", worst);
  for (int s : asleep_at) std::printf(" %d", s);
  std::printf(" (MuJoCo 3.12:");
  for (int s : mujoco_asleep_at) std::printf(" %d", s);
  std::printf(")\n");
}

}  // namespace
}  // namespace gauss::test
