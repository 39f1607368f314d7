// Sleeping islands (core/src/sleep.cc): falling asleep, staying frozen, the wake rules, the
// policies and the options. The trajectory comparison with MuJoCo 3.12 (mjref3 --sleep) is in
// tests/reference/island_reference_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gauss/config.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

using test::Tree;

bool Asleep(const Data& d, int tree) { return d.tree_asleep[tree] >= 0; }

// sleep_piles.xml (sleep on in the file), stepped until every tree sleeps (at most 2 s).
struct Piles {
  Engine engine;
  Data d;
  explicit Piles(const Config& config = Config())
      : engine(LoadModel(test::TestModel("sleep_piles.xml")), config), d(engine.MakeData()) {}
  int StepUntilAsleep() {
    for (int k = 0; k < 1000; ++k) {
      engine.Step(d);
      if (d.ntree_awake == 0) return k + 1;
    }
    return -1;
  }
};

TEST(Sleep, SettledPilesFallAsleepAndStayFrozen) {
  Piles p;
  ASSERT_EQ(p.engine.model().ntree, 5);
  const int steps = p.StepUntilAsleep();
  ASSERT_GT(steps, 0) << "never asleep";
  EXPECT_LT(steps, 200);
  const std::vector<double> qpos = p.d.qpos;
  for (int k = 0; k < 500; ++k) p.engine.Step(p.d);
  EXPECT_EQ(p.d.qpos, qpos);  // bit for bit
  for (double v : p.d.qvel) EXPECT_EQ(v, 0.0);
  for (double a : p.d.qacc) EXPECT_EQ(a, 0.0);
  EXPECT_EQ(p.d.ntree_awake, 0);
}

// A ball thrown onto pile a wakes pile a's island and nothing else.
TEST(Sleep, FallingBallWakesExactlyTheIslandItHits) {
  Piles p;
  ASSERT_GT(p.StepUntilAsleep(), 0);
  const Model& m = p.engine.model();
  const int ball = Tree(m, "ball"), a_box = Tree(m, "a_box"), a_top = Tree(m, "a_top");
  const int b_box = Tree(m, "b_box"), b_top = Tree(m, "b_top");
  const std::vector<double> qpos_asleep = p.d.qpos;
  // the user moves the ball above pile a and throws it down: writing qvel wakes it
  const int q = m.jnt_qposadr[m.body_jntadr[m.tree_bodyadr[ball]]];
  const int v = m.tree_dofadr[ball];
  p.d.qpos[q] = -0.98;
  p.d.qpos[q + 1] = 0.01;
  p.d.qpos[q + 2] = 0.5;
  p.d.qvel[v + 2] = -1;
  p.engine.Step(p.d);
  EXPECT_FALSE(Asleep(p.d, ball));
  EXPECT_TRUE(Asleep(p.d, a_top));
  bool a_woke = false;
  for (int k = 0; k < 300 && !a_woke; ++k) {
    p.engine.Step(p.d);
    a_woke = !Asleep(p.d, a_top);
  }
  ASSERT_TRUE(a_woke) << "the ball never woke pile a";
  EXPECT_FALSE(Asleep(p.d, a_box));  // the island of the top sphere: the box under it
  EXPECT_TRUE(Asleep(p.d, b_box));
  EXPECT_TRUE(Asleep(p.d, b_top));
  // pile b did not move by a single bit; pile a did
  for (int t : {b_box, b_top}) {
    const int adr = m.jnt_qposadr[m.body_jntadr[m.tree_bodyadr[t]]];
    for (int i = adr; i < adr + 7; ++i) EXPECT_EQ(p.d.qpos[i], qpos_asleep[i]);
  }
  const int a_adr = m.jnt_qposadr[m.body_jntadr[m.tree_bodyadr[a_top]]];
  double moved = 0;
  for (int k = 0; k < 50; ++k) p.engine.Step(p.d);
  for (int i = a_adr; i < a_adr + 3; ++i) moved += std::fabs(p.d.qpos[i] - qpos_asleep[i]);
  EXPECT_GT(moved, 1e-6);
}

TEST(Sleep, UserForceOrVelocityWakesOnlyItsIsland) {
  Piles p;
  ASSERT_GT(p.StepUntilAsleep(), 0);
  const Model& m = p.engine.model();
  const int b_top = Tree(m, "b_top"), b_box = Tree(m, "b_box"), a_box = Tree(m, "a_box");
  const int body = m.tree_bodyadr[b_top];
  p.d.xfrc_applied[6 * body + 0] = 0.5;  // a push on pile b's sphere
  p.engine.Step(p.d);
  EXPECT_FALSE(Asleep(p.d, b_top));
  EXPECT_TRUE(Asleep(p.d, a_box));
  p.d.xfrc_applied[6 * body + 0] = 0;
  // -0.0 written into a sleeping tree's qvel wakes it too (bitwise test, as the spec says)
  ASSERT_TRUE(Asleep(p.d, a_box));
  p.d.qvel[m.tree_dofadr[a_box]] = -0.0;
  p.engine.Step(p.d);
  EXPECT_FALSE(Asleep(p.d, a_box));
  (void)b_box;
}

// Writing the qpos of a sleeping tree wakes its island, as in MuJoCo 3.12 (checked there with
// libmujoco 3.12.1 on this scene: the same value written back or a quaternion scaled by 2 does
// not wake; 1e-3 or one ulp on a coordinate, or a negated quaternion, wakes the whole island).
TEST(Sleep, WritingQposOfASleepingTreeWakesItsIsland) {
  Piles p;
  ASSERT_GT(p.StepUntilAsleep(), 0);
  const Model& m = p.engine.model();
  const int a_box = Tree(m, "a_box"), a_top = Tree(m, "a_top"), b_box = Tree(m, "b_box");
  const int q_box = m.jnt_qposadr[m.body_jntadr[m.tree_bodyadr[a_box]]];
  const int q_top = m.jnt_qposadr[m.body_jntadr[m.tree_bodyadr[a_top]]];
  const Data settled = p.d;
  // no change: the same value, or a quaternion scaled by 2 (the same rotation)
  p.d.qpos[q_box] = settled.qpos[q_box];
  for (int k = 3; k < 7; ++k) p.d.qpos[q_top + k] *= 2;
  p.engine.Step(p.d);
  EXPECT_EQ(p.d.ntree_awake, 0);
  // a changed coordinate: one ulp on pile a's box; a negated quaternion on pile b's box
  p.d = settled;
  p.d.qpos[q_box] = std::nextafter(p.d.qpos[q_box], 10.0);
  const int q_b = m.jnt_qposadr[m.body_jntadr[m.tree_bodyadr[b_box]]];
  p.engine.Step(p.d);
  EXPECT_FALSE(Asleep(p.d, a_box));
  EXPECT_FALSE(Asleep(p.d, a_top));  // the whole island
  EXPECT_TRUE(Asleep(p.d, b_box));
  for (int k = 3; k < 7; ++k) p.d.qpos[q_b + k] = -p.d.qpos[q_b + k];
  p.engine.Forward(p.d);  // a forward evaluation wakes it as well
  EXPECT_FALSE(Asleep(p.d, b_box));
  EXPECT_FALSE(Asleep(p.d, Tree(m, "b_top")));
  EXPECT_TRUE(Asleep(p.d, Tree(m, "ball")));
}

// A force applied to a tree at rest keeps it awake (it would wake it at once otherwise).
TEST(Sleep, AppliedForceKeepsATreeFromSleeping) {
  Piles p;
  const Model& m = p.engine.model();
  const int ball = Tree(m, "ball");
  p.d.xfrc_applied[6 * m.tree_bodyadr[ball] + 2] = -0.1;  // pressed into the floor: at rest
  for (int k = 0; k < 400; ++k) p.engine.Step(p.d);
  EXPECT_FALSE(Asleep(p.d, ball));
  EXPECT_EQ(p.d.ntree_awake, 1);
  double speed = 0;
  for (int i = m.tree_dofadr[ball]; i < m.tree_dofadr[ball] + 6; ++i) {
    speed = std::max(speed, std::fabs(p.d.qvel[i]));
  }
  EXPECT_LT(speed, m.opt.sleep_tolerance);  // at rest all the same
}

// Every stage skips frozen sleeping trees. The reference is the same Data with nothing frozen
// (every stage then computes every tree): the awake trees' results must be bit-identical, and
// the frozen trees' skipped values must equal what the stages compute at their rest state.
// Scene: the piles, plus two 3-link hinge chains hanging at rest (multi-dof trees for the
// tree-sparse crb, factor and solve), one of them swinging again.
TEST(Sleep, StagesSkipFrozenTreesAndLeaveAwakeResultsBitIdentical) {
  const std::string xml = R"(<mujoco><option><flag sleep="enable"/></option>
    <default><joint type="hinge" axis="0 1 0" damping="0.05"/><geom type="capsule" size=".03"/></default>
    <worldbody><geom type="plane" size="4 4 .1"/>
    <body name="c1" pos="0 2 2"><joint/><geom fromto="0 0 0 0 0 -.3"/>
      <body pos="0 0 -.3"><joint/><geom fromto="0 0 0 0 0 -.3"/>
        <body pos="0 0 -.3"><joint axis="1 0 0"/><geom fromto="0 0 0 0 0 -.3"/></body></body></body>
    <body name="c2" pos="1 2 2"><joint/><geom fromto="0 0 0 0 0 -.3"/>
      <body pos="0 0 -.3"><joint/><geom fromto="0 0 0 0 0 -.3"/>
        <body pos="0 0 -.3"><joint axis="1 0 0"/><geom fromto="0 0 0 0 0 -.3"/></body></body></body>
    <body name="box" pos="-1 0 0.051"><freejoint/><geom type="box" size="0.1 0.1 0.05"/></body>
    <body name="top" pos="-0.98 0.01 0.162"><freejoint/><geom type="sphere" size="0.06"/></body>
    <body name="ball" pos="0 1 0.052"><freejoint/><geom type="sphere" size="0.05"/></body>
    </worldbody></mujoco>)";
  const Engine engine(LoadModelFromString(xml, "chains"));
  const Model& m = engine.model();
  Data d = engine.MakeData();
  for (int k = 0; k < 1000 && d.ntree_awake > 0; ++k) engine.Step(d);
  ASSERT_EQ(d.ntree_awake, 0);
  engine.Step(d);
  for (int t = 0; t < m.ntree; ++t) ASSERT_EQ(d.tree_frozen[t], 1);
  // chain 1 swings, the ball is thrown: both wake; chain 2 and the pile stay frozen
  d.qvel[m.tree_dofadr[Tree(m, "c1")]] = 1.5;
  d.qvel[m.tree_dofadr[Tree(m, "ball")] + 2] = 2;
  for (int k = 0; k < 20; ++k) engine.Step(d);
  ASSERT_EQ(d.ntree_awake, 2);
  EXPECT_EQ(d.tree_frozen[Tree(m, "c2")], 1);
  Data skipped = d, computed = d;
  std::fill(computed.tree_frozen.begin(), computed.tree_frozen.end(), 0);
  engine.Forward(skipped);
  engine.Forward(computed);
  auto same = [](const std::vector<double>& a, const std::vector<double>& b, const char* what) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i], b[i]) << what << "[" << i << "]";
    }
  };
  same(skipped.xpos, computed.xpos, "xpos");
  same(skipped.xquat, computed.xquat, "xquat");
  same(skipped.geom_xpos, computed.geom_xpos, "geom_xpos");
  same(skipped.subtree_com, computed.subtree_com, "subtree_com");
  same(skipped.cinert, computed.cinert, "cinert");
  same(skipped.cdof, computed.cdof, "cdof");
  same(skipped.crb, computed.crb, "crb");
  same(skipped.qM, computed.qM, "qM");
  same(skipped.qLD, computed.qLD, "qLD");
  same(skipped.qLDiagInv, computed.qLDiagInv, "qLDiagInv");
  same(skipped.qLDiagSqrtInv, computed.qLDiagSqrtInv, "qLDiagSqrtInv");
  same(skipped.cvel, computed.cvel, "cvel");
  same(skipped.cdof_dot, computed.cdof_dot, "cdof_dot");
  same(skipped.qfrc_bias, computed.qfrc_bias, "qfrc_bias");
  same(skipped.qfrc_passive, computed.qfrc_passive, "qfrc_passive");
  same(skipped.qfrc_smooth, computed.qfrc_smooth, "qfrc_smooth");
  same(skipped.qacc_smooth, computed.qacc_smooth, "qacc_smooth");
  same(skipped.qacc, computed.qacc, "qacc");
  same(skipped.qfrc_constraint, computed.qfrc_constraint, "qfrc_constraint");
  // frozen at rest: zero velocity terms, the bias is gravity alone (chain 2 hangs at rest)
  const int c2 = Tree(m, "c2");
  for (int b = m.tree_bodyadr[c2]; b < m.tree_bodyadr[c2] + m.tree_bodynum[c2]; ++b) {
    for (int c = 0; c < 6; ++c) EXPECT_EQ(skipped.cvel[6 * b + c], 0.0);
  }
  // and the trajectory with skipping is the trajectory without it (20 more steps)
  for (int k = 0; k < 20; ++k) {
    engine.Step(skipped);
    std::fill(computed.tree_frozen.begin(), computed.tree_frozen.end(), 0);
    engine.Step(computed);
  }
  same(skipped.qpos, computed.qpos, "qpos after 20 steps");
  same(skipped.qvel, computed.qvel, "qvel after 20 steps");
}

// Over 10 s the sleeping run stays where the awake run goes: body positions to 2 cm, potential
// energy to 1e-3 relative. (Awake, the spheres keep creeping: rolling at speeds below the sleep
// tolerance, 1.3 cm in 10 s; asleep they stay put - the spec's intended difference.)
TEST(Sleep, SettledSceneMatchesTheAwakeRunOver10Seconds) {
  Config awake;
  awake.flags["sleep"] = false;
  awake.flags["energy"] = true;
  Config asleep = awake;
  asleep.flags["sleep"] = true;
  Piles a(awake), s(asleep);
  for (int k = 0; k < 5000; ++k) {
    a.engine.Step(a.d);
    s.engine.Step(s.d);
  }
  EXPECT_EQ(s.d.ntree_awake, 0);
  EXPECT_GT(a.d.ntree_awake, 0);
  a.engine.Forward(a.d);
  s.engine.Forward(s.d);
  double worst = 0;
  for (int i = 3; i < 3 * a.engine.model().nbody; ++i) {
    worst = std::max(worst, std::fabs(a.d.xpos[i] - s.d.xpos[i]));
  }
  EXPECT_LT(worst, 2e-2);
  a.engine.ComputeEnergy(a.d);
  s.engine.ComputeEnergy(s.d);
  EXPECT_NEAR(s.d.energy[0], a.d.energy[0], 1e-3 * std::fabs(a.d.energy[0]));
  EXPECT_EQ(s.d.energy[1], 0.0);
  EXPECT_LT(a.d.energy[1], 1e-4);
  std::printf("[ sleep    ] after 10 s: max |body position difference| %.1e, potential energy %.9g vs %.9g\n",
              worst, s.d.energy[0], a.d.energy[0]);
}

TEST(Sleep, DisabledLeavesEveryTreeAwake) {
  // sleep_piles.xml uses MuJoCo 3.x features, so its islands are on by default (islands.md):
  // they are still found without sleep, and not at all with the island flag off too
  for (const bool island : {true, false}) {
    Config config;
    config.flags["sleep"] = false;
    if (!island) config.flags["island"] = false;
    Piles p(config);
    for (int k = 0; k < 500; ++k) p.engine.Step(p.d);
    for (int t = 0; t < p.engine.model().ntree; ++t) EXPECT_LT(p.d.tree_asleep[t], 0);
    if (island) {
      EXPECT_GT(p.d.nisland, 0);
    } else {
      EXPECT_EQ(p.d.nisland, 0);
    }
  }
}

TEST(Sleep, PoliciesFromTheBodyAttribute) {
  const std::string xml = R"(<mujoco><option><flag sleep="enable"/></option><worldbody>
    <geom type="plane" size="2 2 .1"/>
    <body name="never" pos="0 0 .05" sleep="never"><freejoint/><geom type="sphere" size=".05"/></body>
    <body name="init" pos="1 0 1" sleep="init"><freejoint/><geom type="sphere" size=".05"/></body>
    <body name="driven" pos="-1 0 .05"><joint name="slide" type="slide"/><geom type="sphere" size=".05"/></body>
    <body name="auto" pos="0 1 .05"><freejoint/><geom type="sphere" size=".05"/></body>
    </worldbody><actuator><motor joint="slide"/></actuator></mujoco>)";
  const Engine engine(LoadModelFromString(xml, "policies"));
  const Model& m = engine.model();
  EXPECT_EQ(m.tree_sleep_policy[Tree(m, "never")], kSleepNever);
  EXPECT_EQ(m.tree_sleep_policy[Tree(m, "init")], kSleepInit);
  EXPECT_EQ(m.tree_sleep_policy[Tree(m, "driven")], kSleepNever);  // actuated: auto is never
  EXPECT_EQ(m.tree_sleep_policy[Tree(m, "auto")], kSleepAllowed);
  Data d = engine.MakeData();
  EXPECT_TRUE(Asleep(d, Tree(m, "init")));  // asleep in the air from the start
  for (int k = 0; k < 500; ++k) engine.Step(d);
  EXPECT_TRUE(Asleep(d, Tree(m, "init")));
  EXPECT_EQ(d.qpos[m.jnt_qposadr[m.body_jntadr[m.tree_bodyadr[Tree(m, "init")]]] + 2], 1.0);
  EXPECT_FALSE(Asleep(d, Tree(m, "never")));
  EXPECT_FALSE(Asleep(d, Tree(m, "driven")));
  EXPECT_TRUE(Asleep(d, Tree(m, "auto")));
}

TEST(Sleep, OptionsAndRefusals) {
  const auto model = LoadModelFromString(
      R"(<mujoco><option sleep_tolerance="0.05"><flag sleep="enable" island="enable"/></option>
         <worldbody><body><freejoint/><geom size=".1"/></body></worldbody></mujoco>)",
      "options");
  EXPECT_EQ(model->opt.sleep_tolerance, 0.05);
  EXPECT_TRUE(model->opt.Enabled(kEnableSleep));
  EXPECT_TRUE(model->opt.Enabled(kEnableIsland));
  EXPECT_THROW(LoadModelFromString(
                   R"(<mujoco><option sleep_tolerance="-1"/><worldbody/></mujoco>)", "bad"),
               Error);
  EXPECT_THROW(LoadModelFromString(
                   R"(<mujoco><worldbody><body sleep="often"><freejoint/><geom size=".1"/></body>
                      </worldbody></mujoco>)", "bad"),
               Error);
  Config rk4;
  rk4.integrator = "rk4";
  EXPECT_THROW(Engine(model, rk4), Error);  // the spec does not support RK4 with sleep
  Config yaml = ParseConfig("flags: {sleep: false, island: true}\nsleep_tolerance: 0.2\n", "test");
  const Engine engine(model, yaml);
  EXPECT_FALSE(engine.options().Enabled(kEnableSleep));
  EXPECT_TRUE(engine.options().Enabled(kEnableIsland));
  EXPECT_EQ(engine.options().sleep_tolerance, 0.2);
  EXPECT_THROW(ParseConfig("sleep_tolerance: -1\n", "test"), Error);
  Config set;
  ApplySetting(set, "sleep_tolerance=0.01");
  EXPECT_EQ(*set.sleep_tolerance, 0.01);
}

}  // namespace
}  // namespace gauss
