// Simple bodies (core/src/simple_bodies.cc): which bodies MuJoCo's rule marks simple, that their
// rows of M are diagonal (the general composite-inertia path gives round-off there), and that
// the factorization, solve and product that skip those rows give the general paths' numbers.
// The flags are also compared with MuJoCo 2.2.2's own on every model the reference compiler
// test loads (tests/reference/model_compile_test.cc).
#include "simple_bodies.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "data_alloc.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "gauss/sparse_inertia.h"
#include "pipeline.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// One body per case of the rule, each with the level it must get (0, 1 or 2).
constexpr const char* kBodies = R"(
<mujoco>
  <worldbody>
    <body name="free_centered" pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.2 0.3"/></body>
    <body name="free_offset" pos="1 0 1"><freejoint/><geom size="0.1" pos="0.1 0 0"/></body>
    <body name="free_tilted_inertia" pos="2 0 1"><freejoint/>
      <geom type="box" size="0.1 0.2 0.3" euler="0 0 30"/></body>
    <body name="slider" pos="3 0 1"><joint type="slide" axis="1 0 0"/><geom size="0.1"/></body>
    <body name="slider_tilted" pos="4 0 1"><joint type="slide" axis="1 1 0"/>
      <geom size="0.1"/></body>
    <body name="slide_then_hinge" pos="5 0 1"><joint type="slide" axis="0 1 0"/>
      <joint type="hinge" axis="0 0 1"/><geom type="box" size="0.1 0.2 0.3"/></body>
    <body name="hinge_then_slide" pos="6 0 1"><joint type="hinge" axis="0 0 1"/>
      <joint type="slide" axis="1 0 0"/><geom size="0.1"/></body>
    <body name="anchored" pos="7 0 1"><joint type="hinge" axis="0 1 0" pos="0.1 0 0"/>
      <geom size="0.1"/></body>
    <body name="ball" pos="8 0 1"><joint type="ball"/><geom type="box" size="0.1 0.2 0.3"/></body>
    <body name="parent" pos="9 0 1"><joint type="hinge" axis="1 0 0"/><geom size="0.1"/>
      <body name="child" pos="0 0 -0.5"><joint type="hinge" axis="1 0 0"/><geom size="0.1"/></body>
    </body>
    <body name="mount" pos="10 0 1"><geom size="0.05"/>
      <body name="mounted" pos="0 0 -0.5"><joint type="slide" axis="0 0 1"/><geom size="0.1"/></body>
    </body>
    <body name="free_last" pos="11 0 1"><freejoint/><geom size="0.1"/></body>
  </worldbody>
</mujoco>)";

int Body(const Model& m, const std::string& name) {
  for (int b = 0; b < m.nbody; ++b) {
    if (m.body_name[b] == name) return b;
  }
  ADD_FAILURE() << "no body " << name;
  return 0;
}

TEST(SimpleBodies, FlagsFollowMujocosRule) {
  const auto model = LoadModelFromString(kBodies);
  const Model& m = *model;
  ASSERT_EQ(m.body_simple.size(), static_cast<std::size_t>(m.nbody));
  const std::pair<const char*, int> expected[] = {
      {"free_centered", 1}, {"free_offset", 0},   {"free_tilted_inertia", 0},
      {"slider", 2},        {"slider_tilted", 0}, {"slide_then_hinge", 1},
      {"hinge_then_slide", 0}, {"anchored", 0},   {"ball", 1},
      {"parent", 0},        {"child", 0},         {"mount", 0},
      {"mounted", 2},       {"free_last", 1}};
  for (const auto& [name, level] : expected) {
    EXPECT_EQ(m.body_simple[Body(m, name)], level) << name;
  }
  EXPECT_EQ(m.body_simple[0], 1);  // the world, as in MuJoCo
  // dof_simplenum: the length of the run of simple dofs starting at each dof
  for (int i = 0; i < m.nv; ++i) {
    const bool simple = m.body_simple[m.dof_bodyid[i]] != 0;
    const int next = i + 1 < m.nv ? m.dof_simplenum[i + 1] : 0;
    EXPECT_EQ(m.dof_simplenum[i], simple ? next + 1 : 0) << "dof " << i;
  }
  EXPECT_EQ(m.dof_simplenum[m.body_dofadr[Body(m, "free_last")]], 6);
}

// The model at a random configuration (turned free bodies and balls, moved hinges), through
// the composite inertia.
void PrepareInertia(const Model& m, Data& d, unsigned seed) {
  AllocateData(m, d);
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> nd(0, 0.7);
  for (int j = 0; j < m.njnt; ++j) {
    const int a = m.jnt_qposadr[j];
    switch (m.jnt_type[j]) {
      case JointType::kFree:
      case JointType::kBall: {
        double* q = &d.qpos[a + (m.jnt_type[j] == JointType::kFree ? 3 : 0)];
        for (int k = 0; k < 4; ++k) q[k] = nd(gen);
        const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int k = 0; k < 4; ++k) q[k] /= n;
        break;
      }
      default: d.qpos[a] = nd(gen);
    }
  }
  Kinematics(m, d);
  ComPosition(m, d);
  CompositeInertia(m, d);
}

// What the general composite-inertia path computes on the simple rows: round-off off the
// diagonal, and the same diagonal bit for bit; every other row identical.
TEST(SimpleBodies, SimpleRowsAreTheGeneralRowsWithoutTheirRoundOff) {
  for (const std::string& file :
       {std::string("inline"), test::MujocoSampleModel("humanoid100/humanoid100.xml")}) {
    const auto model = file == "inline" ? LoadModelFromString(kBodies) : LoadModel(file);
    const Model& m = *model;
    Model general = m;
    general.dof_simplenum.clear();  // no flags: every entry computed
    Data d, g;
    PrepareInertia(m, d, 11);
    PrepareInertia(general, g, 11);
    int simple_rows = 0, roundoff = 0;
    for (int i = 0; i < m.nv; ++i) {
      const int adr = m.dof_Madr[i];
      const int end = i + 1 < m.nv ? m.dof_Madr[i + 1] : m.nM;
      EXPECT_EQ(d.qM[adr], g.qM[adr]) << file << " dof " << i;
      if (!m.dof_simplenum[i]) {
        for (int a = adr; a < end; ++a) EXPECT_EQ(d.qM[a], g.qM[a]) << file << " dof " << i;
        continue;
      }
      ++simple_rows;
      int j = m.dof_parentid[i];
      for (int a = adr + 1; a < end; ++a, j = m.dof_parentid[j]) {
        EXPECT_EQ(d.qM[a], 0.0) << file << " dof " << i;
        const double scale = std::sqrt(g.qM[adr] * g.qM[m.dof_Madr[j]]);
        EXPECT_LE(std::fabs(g.qM[a]), 1e-13 * scale) << file << " dof " << i << " column " << j;
        roundoff += g.qM[a] != 0;
      }
    }
    EXPECT_GT(simple_rows, 0) << file;
    RecordProperty(file == "inline" ? "inline_roundoff" : "humanoid100_roundoff", roundoff);
  }
}

// With M's simple rows zero off the diagonal, the paths that skip them give the general
// paths' results: the factor entry for entry, the solve and the product value for value (a
// skipped x - 0 y can only differ from the computed one in the sign of a zero).
TEST(SimpleBodies, FactorSolveAndProductSkippingSimpleRowsGiveTheGeneralResults) {
  for (const std::string& file :
       {std::string("inline"), test::MujocoSampleModel("humanoid100/humanoid100.xml")}) {
    const auto model = file == "inline" ? LoadModelFromString(kBodies) : LoadModel(file);
    const Model& m = *model;
    Data d;
    PrepareInertia(m, d, 5);
    std::vector<int> colind(m.nM);
    FillTreeSparseColumns(m.nv, m.dof_Madr.data(), m.dof_parentid.data(), colind.data());
    TreeSparseLayout general = LayoutOf(m), fast = InertiaLayoutOf(m);
    ASSERT_EQ(general.simple, nullptr);
    ASSERT_NE(fast.simple, nullptr);
    const int* indexed = colind.data();
    for (const int* columns : {static_cast<const int*>(nullptr), indexed}) {
      general.colind = fast.colind = columns;
      std::vector<double> ld_g = d.qM, ld_f = d.qM, inv_g(m.nv), inv_f(m.nv);
      ASSERT_EQ(FactorLTDL(general, ld_g.data(), inv_g.data(), 0, m.nv), -1);
      ASSERT_EQ(FactorLTDL(fast, ld_f.data(), inv_f.data(), 0, m.nv), -1);
      for (int a = 0; a < m.nM; ++a) ASSERT_EQ(ld_f[a], ld_g[a]) << file << " entry " << a;
      for (int i = 0; i < m.nv; ++i) ASSERT_EQ(inv_f[i], inv_g[i]) << file << " dof " << i;

      std::mt19937_64 gen(3);
      std::normal_distribution<double> nd(0, 1);
      std::vector<double> y(m.nv);
      for (int i = 0; i < m.nv; ++i) y[i] = i % 5 == 0 ? 0.0 : nd(gen);  // some zeros
      std::vector<double> x_g = y, x_f = y;
      SolveLTDL(general, ld_g.data(), inv_g.data(), x_g.data());
      SolveLTDL(fast, ld_f.data(), inv_f.data(), x_f.data());
      for (int i = 0; i < m.nv; ++i) EXPECT_EQ(x_f[i], x_g[i]) << file << " dof " << i;

      std::vector<double> p_g(m.nv), p_f(m.nv);
      MulTreeSparse(general, d.qM.data(), x_g.data(), p_g.data());
      MulTreeSparse(fast, d.qM.data(), x_f.data(), p_f.data());
      for (int i = 0; i < m.nv; ++i) {
        EXPECT_EQ(p_f[i], p_g[i]) << file << " dof " << i;
        EXPECT_NEAR(p_f[i], y[i], 1e-9 * (1 + std::fabs(y[i]))) << file << " M M^-1 y, dof " << i;
      }
    }
  }
}

// A model built without CompileTrees carries no flags: the general paths throughout.
TEST(SimpleBodies, ModelsWithoutFlagsUseTheGeneralPaths) {
  Model m = *LoadModelFromString(kBodies);
  m.dof_simplenum.clear();
  EXPECT_FALSE(HasSimpleFlags(m));
  EXPECT_EQ(InertiaLayoutOf(m).simple, nullptr);
}

}  // namespace
}  // namespace gauss
