// Constraint islands (core/src/island.cc, island_solve.cc): the partition found every step, and
// the per-island solve against the whole-problem solve. The comparison with MuJoCo 3.12 (which
// solves by island) is tests/reference/island_reference_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gauss/config.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

using test::Tree;

// islands_groups.xml settled for 0.5 s (islands off), as a common state.
Data Settled(const Engine& engine) {
  Data d = engine.MakeData();
  for (int k = 0; k < 250; ++k) engine.Step(d);
  return d;
}

TEST(Islands, PartitionOfTheGroupsScene) {
  Config config;
  config.flags["island"] = true;
  const Engine engine(LoadModel(test::TestModel("islands_groups.xml")), config);
  const Model& m = engine.model();
  ASSERT_EQ(m.ntree, 13);
  Data d = Settled(engine);
  engine.Forward(d);
  auto island = [&](const char* body) { return d.tree_island[Tree(m, body)]; };
  // piles, the wheel (friction loss) and the coupled arms are islands; the free body is in none
  for (const char* b : {"a1", "a2", "a3", "b1", "b2", "c1", "c2", "wheel", "e1", "e2"}) {
    EXPECT_GE(island(b), 0) << b;
  }
  EXPECT_EQ(island("free"), -1);
  EXPECT_EQ(island("a1"), island("a2"));  // the ball on the box
  EXPECT_EQ(island("b1"), island("b2"));
  EXPECT_EQ(island("e1"), island("e2"));  // the joint equality
  // the defining property: the two trees of every contact share an island
  int between_trees = 0;
  for (int k = 0; k < d.ncon; ++k) {
    const int t1 = m.body_treeid[m.geom_bodyid[d.contact[k].geom1]];
    const int t2 = m.body_treeid[m.geom_bodyid[d.contact[k].geom2]];
    if (t1 < 0 || t2 < 0) continue;
    ++between_trees;
    EXPECT_EQ(d.tree_island[t1], d.tree_island[t2]) << "contact " << k;
  }
  EXPECT_GE(between_trees, 2);
  const std::vector<int> distinct = {island("a1"), island("b1"), island("c1"), island("wheel"),
                                     island("e1")};
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    for (std::size_t j = i + 1; j < distinct.size(); ++j) EXPECT_NE(distinct[i], distinct[j]);
  }
  // every row in exactly one island, listed once; dofs likewise; the counts add up
  std::vector<int> seen(d.nefc, 0);
  int rows = 0, dofs = 0;
  for (int k = 0; k < d.nisland; ++k) {
    rows += d.island_nefc[k];
    dofs += d.island_nv[k];
    for (int r = d.island_efcadr[k]; r < d.island_efcadr[k] + d.island_nefc[k]; ++r) {
      const int i = d.island_efcind[r];
      ++seen[i];
      EXPECT_EQ(d.efc_island[i], k);
    }
    for (int r = d.island_dofadr[k]; r < d.island_dofadr[k] + d.island_nv[k]; ++r) {
      EXPECT_EQ(d.dof_island[d.island_dofind[r]], k);
    }
  }
  EXPECT_EQ(rows, d.nefc);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), d.nefc);
  EXPECT_EQ(dofs, static_cast<int>(std::count_if(d.dof_island.begin(), d.dof_island.end(),
                                                 [](int k) { return k >= 0; })));
  // the free body falls freely
  const int free_dof = m.tree_dofadr[Tree(m, "free")];
  EXPECT_EQ(d.qacc[free_dof + 2], d.qacc_smooth[free_dof + 2]);
}

TEST(Islands, OffByDefaultAndNothingFound) {
  const Engine engine(LoadModel(test::TestModel("islands_groups.xml")));
  Data d = Settled(engine);
  engine.Forward(d);
  EXPECT_GT(d.nefc, 0);
  EXPECT_EQ(d.nisland, 0);
}

// One tree (a planar chain, its coupler connected to the world, a limited hinge): FindIslands
// takes the one-tree path there. Its answer must be the union-find's: the rows with a nonzero
// form island 0 with every dof, in order; a row without one (the connect's out-of-plane row)
// belongs to no island. The same checks read straight from efc_J.
TEST(Islands, OneTreeIsTheIslandOfItsRowsWithNonzeros) {
  const std::string xml = R"(
<mujoco>
  <default><geom contype="0" conaffinity="0" type="capsule" size="0.04"/>
    <joint axis="0 1 0"/></default>
  <worldbody>
    <body name="crank" pos="0 0 1">
      <joint name="crank_h" limited="true" range="-0.01 0.01" margin="0.05"/>
      <geom fromto="0 0 0 0.4 0 0"/>
      <body name="coupler" pos="0.4 0 0">
        <joint name="coupler_h"/>
        <geom fromto="0 0 0 0 0 -0.4"/>
      </body>
    </body>
  </worldbody>
  <equality><connect body1="coupler" anchor="0 0 -0.4"/></equality>
</mujoco>)";
  Config config;
  config.flags["island"] = true;
  const Engine engine(LoadModelFromString(xml), config);
  const Model& m = engine.model();
  ASSERT_EQ(m.ntree, 1);
  Data d = engine.MakeData();
  engine.Forward(d);
  ASSERT_GE(d.nefc, 4);  // the connect's 3 rows and the hinge's limit
  std::vector<int> expected_rows;
  for (int i = 0; i < d.nefc; ++i) {
    const double* row = d.efc_J.data() + static_cast<std::size_t>(i) * m.nv;
    const bool nonzero = std::any_of(row, row + m.nv, [](double v) { return v != 0; });
    EXPECT_EQ(d.efc_island[i], nonzero ? 0 : -1) << "row " << i;
    if (nonzero) expected_rows.push_back(i);
  }
  ASSERT_LT(static_cast<int>(expected_rows.size()), d.nefc);  // the all-zero row
  ASSERT_EQ(d.nisland, 1);
  EXPECT_EQ(d.tree_island[0], 0);
  EXPECT_EQ(d.island_ntree[0], 1);
  EXPECT_EQ(d.island_nv[0], m.nv);
  EXPECT_EQ(d.island_dofadr[0], 0);
  EXPECT_EQ(d.island_efcadr[0], 0);
  ASSERT_EQ(d.island_nefc[0], static_cast<int>(expected_rows.size()));
  for (int k = 0; k < d.island_nefc[0]; ++k) EXPECT_EQ(d.island_efcind[k], expected_rows[k]);
  for (int i = 0; i < m.nv; ++i) {
    EXPECT_EQ(d.dof_island[i], 0);
    EXPECT_EQ(d.island_dofind[i], i);
  }
  // the island's solve (a copy: it lacks the zero row) gives the zero row the force of its
  // penalty alone, as the solve without islands does with a zero Jacobian row
  Config off = config;
  off.flags["island"] = false;
  const Engine whole(LoadModelFromString(xml), off);
  Data w = whole.MakeData();
  whole.Forward(w);
  ASSERT_EQ(w.nefc, d.nefc);
  for (int i = 0; i < d.nefc; ++i) {
    if (d.efc_island[i] < 0) {
      EXPECT_NEAR(d.efc_force[i], w.efc_force[i], 1e-12) << "row " << i;
    }
  }
}

struct SolverCase {
  const char* solver;
  Cone cone;
  int iterations;
  double tolerance;
  double agreement;  // max |a - b| / max(1, |b|) of qacc and qfrc_constraint
};

// Each island solved on its own reaches the whole problem's solution (the problem separates),
// with every solver plugin and both cones, on 20 states of the groups scene (newton on 22
// humanoids). Iterative solvers agree to what their stopping rule leaves.
TEST(Islands, PerIslandSolveEqualsWholeSolve) {
  const SolverCase cases[] = {{"newton", Cone::kPyramidal, 100, 1e-10, 1e-9},
                              {"newton", Cone::kElliptic, 200, 1e-12, 1e-6},
                              {"cg", Cone::kPyramidal, 5000, 1e-15, 1e-4},
                              {"pgs", Cone::kPyramidal, 5000, 1e-15, 1e-4}};
  for (const std::string& model : {test::TestModel("islands_groups.xml"),
                                  test::TestModel("mujoco/humanoid/22_humanoids.xml")}) {
    for (const SolverCase& c : cases) {
      // (22 humanoids: newton only, for the test's time)
      if (model.find("22_") != std::string::npos && std::string(c.solver) != "newton") continue;
      Config whole;
      whole.solver = c.solver;
      whole.cone = c.cone;
      whole.iterations = c.iterations;
      whole.tolerance = c.tolerance;
      Config split = whole;
      split.flags["island"] = true;
      const auto loaded = LoadModel(model);
      const Engine a(loaded, whole), b(loaded, split);
      Data da = a.MakeData(), db = b.MakeData();
      double worst = 0;
      int islands = 0;
      for (int s = 0; s < 20; ++s) {
        for (int k = 0; k < 10; ++k) a.Step(da);
        db.qpos = da.qpos;
        db.qvel = da.qvel;
        db.qacc_warmstart = da.qacc_warmstart;
        a.Forward(da);
        b.Forward(db);
        worst = std::max(worst, test::MaxRelError(db.qacc.data(), da.qacc.data(), a.model().nv));
        worst = std::max(worst, test::MaxRelError(db.qfrc_constraint.data(),
                                                   da.qfrc_constraint.data(), a.model().nv));
        islands = std::max(islands, db.nisland);
      }
      EXPECT_LE(worst, c.agreement) << model << " " << c.solver;
      EXPECT_GE(islands, 3) << model;
      std::printf("[ islands  ] %s %s %s: up to %d islands, max rel difference %.1e\n",
                  model.substr(model.rfind('/') + 1).c_str(), c.solver,
                  c.cone == Cone::kElliptic ? "elliptic" : "pyramidal", islands, worst);
    }
  }
}

// A stack of boxes resting on each other is one island holding every dof and every row:
// SolveByIsland then hands the solver the whole problem in place instead of a copy. Newton and
// cg do not depend on by_island, so the solution is the whole-problem solve's bit for bit (on
// the same state: the first steps, before every box touches, have more islands).
TEST(Islands, OneIslandOfEverythingIsTheWholeSolveBitForBit) {
  for (const char* solver : {"newton", "cg"}) {
    for (const Cone cone : {Cone::kPyramidal, Cone::kElliptic}) {
      Config whole;
      whole.solver = solver;
      whole.cone = cone;
      Config split = whole;
      split.flags["island"] = true;
      const auto loaded = LoadModel(test::RepoModel("small/box_stack.xml"));
      const Engine a(loaded, whole), b(loaded, split);
      Data da = a.MakeData(), db = b.MakeData();
      const int nv = a.model().nv;
      int one_island = 0;
      for (int k = 0; k < 200; ++k) {
        a.Step(da);
        db.qpos = da.qpos;
        db.qvel = da.qvel;
        db.qacc_warmstart = da.qacc_warmstart;
        a.Forward(da);
        b.Forward(db);
        ASSERT_GT(db.nefc, 0);
        if (db.nisland != 1 || db.island_nv[0] != nv || db.island_nefc[0] != db.nefc) continue;
        ++one_island;
        // the same accelerations, row forces and iterations, exactly
        ASSERT_EQ(0, std::memcmp(da.qacc.data(), db.qacc.data(), sizeof(double) * nv))
            << solver << " step " << k;
        ASSERT_EQ(0, std::memcmp(da.efc_force.data(), db.efc_force.data(),
                                 sizeof(double) * da.nefc))
            << solver << " step " << k;
        ASSERT_EQ(db.island_iter[0], da.solver_iter);
      }
      EXPECT_GE(one_island, 150) << solver;
    }
  }
}

// With islands every island's solve is recorded (solver_trace, gauss/data.h): the islands'
// last iterations, combined by FinalSolverIteration, give the whole problem's final cost (the
// problem separates by island; newton with pyramidal cones is exact), which island 0 alone
// does not.
TEST(Islands, SolverTraceRecordsEveryIsland) {
  Config whole;
  whole.tolerance = 1e-12;
  Config split = whole;
  split.flags["island"] = true;
  const auto loaded = LoadModel(test::TestModel("islands_groups.xml"));
  const Engine a(loaded, whole), b(loaded, split);
  const Model& m = b.model();
  Data da = a.MakeData(), db = b.MakeData();
  ASSERT_EQ(db.solver_trace.size(), static_cast<std::size_t>(m.opt.iterations * m.ntree));
  int checked = 0;
  for (int s = 0; s < 10; ++s) {
    for (int k = 0; k < 25; ++k) a.Step(da);
    db.qpos = da.qpos;
    db.qvel = da.qvel;
    db.qacc_warmstart = da.qacc_warmstart;
    a.Forward(da);
    b.Forward(db);
    if (db.nisland < 2) continue;
    const double cost = FinalSolverIteration(a.model(), da).cost;
    EXPECT_NEAR(FinalSolverIteration(m, db).cost, cost, 1e-9 * std::max(1.0, std::fabs(cost)));
    double sum = 0;
    int largest = 0, idle = 0, with_cost = 0;
    for (int k = 0; k < db.nisland; ++k) {
      if (db.island_iter[k] == 0) ++idle;  // solved at its warmstart: nothing recorded
      if (db.island_iter[k] == 0) continue;
      largest = std::max(largest, db.island_iter[k]);
      const SolverIteration& last = db.solver_trace[k * m.opt.iterations + db.island_iter[k] - 1];
      // Gauss term plus penalty: never negative; exactly 0 for an island whose rows all end
      // inactive at its unconstrained acceleration
      EXPECT_GE(last.cost, 0.0) << "island " << k;
      if (last.cost > 0) ++with_cost;
      sum += last.cost;
    }
    EXPECT_GE(with_cost, 2) << "the trace holds more than one island's solve";
    EXPECT_EQ(FinalSolverIteration(m, db).cost, sum);
    EXPECT_EQ(db.solver_iter, largest);
    std::printf("[ islands  ] state %d: %d islands (%d idle), final cost %.9g (whole problem %.9g)\n", s,
                db.nisland, idle, FinalSolverIteration(m, db).cost, cost);
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(Islands, StepWithIslandsAndSleepPerformsNoHeapAllocation) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  for (const char* flag : {"island", "sleep"}) {
    Config config;
    config.flags[flag] = true;
    const Engine engine(LoadModel(test::TestModel("islands_groups.xml")), config);
    Data d = engine.MakeData();
    engine.Step(d);  // warm up
    const long before = test::AllocationCount();
    for (int k = 0; k < 200; ++k) engine.Step(d);
    EXPECT_EQ(test::AllocationCount() - before, 0) << flag;
    EXPECT_LE(d.arena.peak(), d.arena.capacity());
  }
}

}  // namespace
}  // namespace gauss
