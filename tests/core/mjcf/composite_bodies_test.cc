// Composite expansion (core/src/mjcf/composite_bodies.cc), one test per type: the structure
// MuJoCo 2.2.2 generates (counts, tree, names, joint kinds and axes, tendons, constraints) and
// a cheap physical property of the result. The compiled arrays are compared element by element
// with MuJoCo by tests/reference/composite_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "data_alloc.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "pipeline.h"

namespace gauss {
namespace {

std::shared_ptr<const Model> Load(const std::string& worldbody, const std::string& options = "") {
  return LoadModelFromString("<mujoco>" + options + "<worldbody>" + worldbody +
                                 "</worldbody></mujoco>",
                             "composite_test.xml");
}

int Index(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// Poses and tendon lengths at qpos0: the kernel's position stages (no plugins needed).
Data PositionsAtQpos0(const std::shared_ptr<const Model>& m) {
  Data d;
  AllocateData(*m, d);
  ResetData(*m, d);
  Kinematics(*m, d);
  ComPosition(*m, d);
  Tendons(*m, d);
  return d;
}

TEST(CompositeBodies, ParticleIsAGridOfFrictionlessSpheresOnSlideJoints) {
  auto m = Load(R"(<composite type="particle" count="3 2 2" spacing="0.1" offset="0 0 1">
                     <geom type="capsule" size="0.02 0.01"/></composite>)");
  ASSERT_EQ(m->nbody, 1 + 12);
  ASSERT_EQ(m->njnt, 36);
  for (int j = 0; j < m->njnt; ++j) {
    EXPECT_EQ(m->jnt_type[j], JointType::kSlide);
    EXPECT_EQ(m->jnt_axis[3 * j + j % 3], 1);  // x, y, z in turn
    EXPECT_EQ(m->jnt_name[j], "");
    EXPECT_EQ(m->jnt_group[j], 3);
  }
  for (int g = 0; g < m->ngeom; ++g) {
    EXPECT_EQ(m->geom_type[g], GeomType::kSphere);  // any geom type becomes a sphere
    EXPECT_EQ(m->geom_condim[g], 1);
    EXPECT_EQ(m->geom_priority[g], 1);
    EXPECT_EQ(m->body_parentid[m->geom_bodyid[g]], 0);
  }
  // offset + spacing (i - count / 2): point (1, 1, 0) of count (3, 2, 2) is body 1 + 4 + 2
  EXPECT_NEAR(m->body_pos[3 * 7 + 0], 0.1 * (1 - 1.5), 1e-15);
  EXPECT_NEAR(m->body_pos[3 * 7 + 1], 0.0, 1e-15);
  EXPECT_NEAR(m->body_pos[3 * 7 + 2], 1 - 0.1, 1e-15);
}

TEST(CompositeBodies, GridTendonsHoldTheSpacingAndPinsHaveNoJoints) {
  auto m = Load(R"(<composite type="grid" prefix="g" count="3 4 1" spacing="0.05">
                     <pin coord="0 0"/><pin coord="2 3"/>
                     <geom size="0.01"/><tendon kind="shear"/></composite>)");
  EXPECT_EQ(m->nbody, 1 + 12);
  EXPECT_EQ(m->njnt, 3 * 10);  // two of twelve points pinned
  EXPECT_EQ(m->body_jntnum[Index(m->body_name, "gB0_0")], 0);
  EXPECT_EQ(m->body_jntnum[Index(m->body_name, "gB1_0")], 3);
  EXPECT_GE(Index(m->jnt_name, "gJ2_1_0"), 0);  // axis z of point (1, 0)
  // along x: 2 x 4, along y: 3 x 3, shear: 2 x 3
  ASSERT_EQ(m->ntendon, 8 + 9 + 6);
  EXPECT_EQ(m->tendon_name[0], "gT0_0_0");
  EXPECT_EQ(m->tendon_name[17], "gTS0_0");
  ASSERT_EQ(m->neq, m->ntendon);
  Data d = PositionsAtQpos0(m);
  for (int t = 0; t < m->ntendon; ++t) {
    EXPECT_EQ(m->eq_type[t], EqType::kTendon);
    EXPECT_EQ(m->eq_obj1id[t], t);
    const double rest = t < 17 ? 0.05 : 0.05 * std::sqrt(2.0);
    EXPECT_NEAR(d.ten_length[t], rest, 1e-12) << m->tendon_name[t];
  }
  // hard tendon constraints: solref 0.01, solimp 0.99 0.99 (grid); shear keeps the defaults
  EXPECT_EQ(m->eq_solref[0], 0.01);
  EXPECT_EQ(m->eq_solimp[0], 0.99);
  EXPECT_EQ(m->eq_solref[2 * 17], 0.02);
}

TEST(CompositeBodies, RopeGrowsBothWaysFromItsHolderAndLoopCloses) {
  auto rope = Load(R"(<body name="B2"><freejoint/>
                        <composite type="rope" count="5 1 1" spacing="0.1">
                          <joint kind="twist"/><geom type="capsule" size="0.01 0.04"/>
                        </composite></body>)");
  // B2 holds the chain: B3 -> B4 to the right, B1 -> B0 to the left
  ASSERT_EQ(rope->nbody, 6);
  EXPECT_EQ(rope->body_name, (std::vector<std::string>{"world", "B2", "B3", "B4", "B1", "B0"}));
  EXPECT_EQ(rope->body_parentid, (std::vector<int>{0, 0, 1, 2, 1, 4}));
  // every link: hinges about y and z at the joint between the links, then the twist (x)
  const int b0 = Index(rope->body_name, "B0");
  ASSERT_EQ(rope->body_jntnum[b0], 3);
  const int j = rope->body_jntadr[b0];
  EXPECT_EQ(rope->jnt_name[j], "J0_0");
  EXPECT_EQ(rope->jnt_axis[3 * j + 1], 1);
  EXPECT_EQ(rope->jnt_axis[3 * (j + 1) + 2], 1);
  EXPECT_EQ(rope->jnt_axis[3 * (j + 2) + 0], 1);
  EXPECT_NEAR(rope->jnt_pos[3 * j], 0.05, 1e-15);  // half a link towards the parent
  EXPECT_EQ(rope->neq, 4);  // one twist fix per link

  auto loop = Load(R"(<body name="B0"><freejoint/>
                        <composite type="loop" count="12 1 1" spacing="0.1">
                          <geom type="capsule" size="0.01 0.04"/></composite></body>)");
  ASSERT_EQ(loop->neq, 1);
  EXPECT_EQ(loop->eq_type[0], EqType::kConnect);
  EXPECT_EQ(loop->nexclude, 1);
  // the chain is bent into a closed ring: B0's rear end meets B11's front end
  Data d = PositionsAtQpos0(loop);
  const int first = Index(loop->body_name, "B0"), last = Index(loop->body_name, "B11");
  double a[3], b[3];
  const double rear[3] = {-0.05, 0, 0}, front[3] = {0.05, 0, 0};
  math::MulMatVec3(a, &d.xmat[9 * first], rear);
  math::MulMatVec3(b, &d.xmat[9 * last], front);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(d.xpos[3 * first + i] + a[i], d.xpos[3 * last + i] + b[i], 1e-12);
  }
}

TEST(CompositeBodies, ClothIsATreeWithTendonsAcrossItsRowsAndFlatInertia) {
  auto m = Load(R"(<body name="B1_1"><freejoint/>
                     <composite type="cloth" count="3 4 1" spacing="0.1" flatinertia="0.01">
                       <geom type="capsule" size="0.01 0.02" mass="0.5"/>
                       <tendon kind="shear"/></composite></body>)");
  ASSERT_EQ(m->nbody, 1 + 12);
  EXPECT_EQ(m->njnt, 1 + 2 * 11);  // the holder's free joint, two hinges per other point
  // the column of the holder first: B1_2, B1_3, then B1_0
  EXPECT_EQ(m->body_name[2], "B1_2");
  EXPECT_EQ(m->body_name[3], "B1_3");
  EXPECT_EQ(m->body_name[4], "B1_0");
  // tendons along x in every row but the holder's: 2 x 3, shear 2 x 3
  EXPECT_EQ(m->ntendon, 6 + 6);
  EXPECT_EQ(m->neq, 12);
  // flat inertia: the geom's mass as a 0.1 x 0.1 x 0.001 box
  const int b = Index(m->body_name, "B2_3");
  EXPECT_EQ(m->body_mass[b], 0.5);
  const double s = 0.05, t = 0.05 * 0.01;
  EXPECT_NEAR(m->body_inertia[3 * b + 2], 0.5 * (s * s + s * s) / 3, 1e-15);
  EXPECT_NEAR(m->body_inertia[3 * b + 0] + m->body_inertia[3 * b + 1],
              2 * 0.5 * (s * s + t * t) / 3, 1e-15);
}

// The shells: outer grid points only, each on a slide joint along its outward z axis.
void CheckShell(const std::string& type, const std::string& surface) {
  SCOPED_TRACE(type);
  auto m = Load("<body><freejoint/><composite type=\"" + type +
                "\" count=\"4 5 6\" spacing=\"0.1\"><geom size=\"0.01\"/></composite></body>");
  const int shell = 4 * 5 * 6 - 2 * 3 * 4;
  ASSERT_EQ(m->nbody, 2 + shell);
  ASSERT_EQ(m->njnt, 1 + shell);
  // one fix per joint, a smoothing constraint per shell neighbour, one volume constraint
  ASSERT_EQ(m->ntendon, 1);
  EXPECT_EQ(m->tendon_num[0], shell);
  EXPECT_EQ(m->eq_type[m->neq - 1], EqType::kTendon);
  EXPECT_EQ(m->geom_name[0], "Gcenter");
  EXPECT_EQ(m->geom_contype[1], 0);  // no self-collision
  Data d = PositionsAtQpos0(m);
  const double half[3] = {0.15, 0.2, 0.25};
  for (int b = 2; b < m->nbody; ++b) {
    ASSERT_EQ(m->jnt_type[m->body_jntadr[b]], JointType::kSlide);
    const double* p = &m->body_pos[3 * b];
    const double* z = &d.xmat[9 * b];  // column 2: z axis
    // z axis along the body's position from the centre
    const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(z[3 * i + 2], p[i] / n, 1e-12) << m->body_name[b];
    double r2 = 0, rxy = 0;
    for (int i = 0; i < 3; ++i) r2 += p[i] * p[i] / (half[i] * half[i]);
    for (int i = 0; i < 2; ++i) rxy += p[i] * p[i] / (half[i] * half[i]);
    if (surface == "ellipsoid") {
      EXPECT_NEAR(r2, 1, 1e-12) << m->body_name[b];
    } else if (surface == "box") {
      const double m3 = std::max({std::fabs(p[0]) / half[0], std::fabs(p[1]) / half[1],
                                  std::fabs(p[2]) / half[2]});
      EXPECT_NEAR(m3, 1, 1e-12) << m->body_name[b];
    } else {  // cylinder: on the side or on a flat end
      EXPECT_TRUE(std::fabs(rxy - 1) < 1e-12 || std::fabs(std::fabs(p[2]) - half[2]) < 1e-12)
          << m->body_name[b];
    }
  }
}

TEST(CompositeBodies, BoxCylinderAndEllipsoidShells) {
  CheckShell("box", "box");
  CheckShell("cylinder", "cylinder");
  CheckShell("ellipsoid", "ellipsoid");
}

}  // namespace
}  // namespace gauss
