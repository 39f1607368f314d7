// Composite skins (core/src/mjcf/composite_skin.cc): sizes and bones of the 2D and 3D skins,
// and the bicubic subgrid: its patches reproduce a flat, evenly spaced sheet exactly (cubic
// Hermite patches with finite-difference slopes reproduce linear functions), and a vertex at a
// grid point follows that point's body alone. MuJoCo's skin arrays are compared element by
// element by tests/reference/composite_test.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "data_alloc.h"
#include "gauss/mjcf.h"
#include "gauss/visual.h"
#include "pipeline.h"

namespace gauss {
namespace {

std::shared_ptr<const Model> Load(const std::string& worldbody) {
  return LoadModelFromString("<mujoco><worldbody>" + worldbody + "</worldbody></mujoco>",
                             "composite_skin_test.xml");
}

// Skin k's vertices with the bodies at the given qpos.
std::vector<double> PosedVertices(const Model& m, int k, const std::vector<double>& qpos) {
  Data d;
  AllocateData(m, d);
  ResetData(m, d);
  d.qpos = qpos;
  Kinematics(m, d);
  std::vector<double> vert(3 * m.skin_vertnum[k]);
  SkinVertices(m, k, d.xpos.data(), d.xquat.data(), vert.data());
  return vert;
}

TEST(CompositeSkin, TwoSidedSheetOneVertexPerBodyAndSide) {
  auto m = Load(R"(<composite type="grid" count="3 4 1" spacing="0.1">
                     <geom size="0.01"/><skin inflate="0.01"/></composite>)");
  ASSERT_EQ(m->nskin, 1);
  EXPECT_EQ(m->skin_name[0], "Skin");
  EXPECT_EQ(m->skin_vertnum[0], 2 * 12);
  // two triangles per cell and side, two per border segment
  EXPECT_EQ(m->skin_facenum[0], 2 * 2 * 6 + 2 * (2 + 2 + 3 + 3));
  EXPECT_EQ(m->skin_bonenum[0], 12);
  EXPECT_EQ(m->nskinbonevert, 24);
  // with a skin, grid geoms are hidden in group 3
  EXPECT_EQ(m->geom_group[0], 3);
}

TEST(CompositeSkin, SubgridPatchesReproduceTheFlatSheet) {
  const int sub = 2;
  auto m = Load(R"(<composite type="grid" count="4 5 1" spacing="0.06" offset="0.1 0.2 1">
                     <geom size="0.01"/><skin subgrid="2"/></composite>)");
  ASSERT_EQ(m->nskin, 1);
  const int n0 = 4 + 3 * sub, n1 = 5 + 4 * sub;
  ASSERT_EQ(m->skin_vertnum[0], 2 * n0 * n1);
  std::vector<double> vert = PosedVertices(*m, 0, m->qpos0);
  // body B0_0 sits at offset + spacing (0 - count / 2)
  const double x0 = 0.1 - 0.06 * 2, y0 = 0.2 - 0.06 * 2.5;
  const double step = 0.06 / (1 + sub);
  double worst = 0;
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < n0; ++i) {
      for (int j = 0; j < n1; ++j) {
        const double* v = &vert[3 * (side * n0 * n1 + i * n1 + j)];
        worst = std::max({worst, std::fabs(v[0] - (x0 + i * step)),
                          std::fabs(v[1] - (y0 + j * step)), std::fabs(v[2] - 1)});
      }
    }
  }
  EXPECT_LT(worst, 1e-6);  // vertices and weights are single precision
}

TEST(CompositeSkin, SubgridVertexAtAGridPointFollowsItsBody) {
  auto m = Load(R"(<composite type="grid" count="3 3 1" spacing="0.1">
                     <geom size="0.01"/><skin subgrid="1"/></composite>)");
  // lift the centre body B1_1 (joints J0_1_1, J1_1_1, J2_1_1: its z slide is the 15th dof)
  std::vector<double> q = m->qpos0;
  q[3 * 4 + 2] += 0.05;
  const std::vector<double> rest = PosedVertices(*m, 0, m->qpos0);
  const std::vector<double> lifted = PosedVertices(*m, 0, q);
  const int n1 = 3 + 2;
  const int centre = 2 * n1 + 2;  // subgrid vertex (2, 2) = grid point (1, 1)
  EXPECT_NEAR(lifted[3 * centre + 2] - rest[3 * centre + 2], 0.05, 1e-7);
  // the corners do not move; the vertices between move part of the way
  EXPECT_NEAR(lifted[2] - rest[2], 0, 1e-7);
  const int between = 1 * n1 + 2;
  const double dz = lifted[3 * between + 2] - rest[3 * between + 2];
  EXPECT_GT(dz, 0.01);
  EXPECT_LT(dz, 0.05);
}

TEST(CompositeSkin, BoxSkinHasAVertexPerFacePointCylinderAndEllipsoidShareThem) {
  const std::string geom = R"(<geom size="0.01"/><skin/>)";
  auto box = Load(R"(<body><composite type="box" count="3 4 5" spacing="0.1">)" + geom +
                  "</composite></body>");
  // each face its own grid: 2 (3x4 + 3x5 + 4x5) vertices, one bone each
  EXPECT_EQ(box->skin_vertnum[0], 2 * (12 + 15 + 20));
  EXPECT_EQ(box->skin_bonenum[0], box->skin_vertnum[0]);
  auto ell = Load(R"(<body><composite type="ellipsoid" count="3 4 5" spacing="0.1">)" + geom +
                  "</composite></body>");
  // one vertex per outer body, a bone per face point
  EXPECT_EQ(ell->skin_vertnum[0], 3 * 4 * 5 - 1 * 2 * 3);
  EXPECT_EQ(ell->skin_bonenum[0], 2 * (12 + 15 + 20));
  auto cyl = Load(R"(<body><composite type="cylinder" count="3 4 5" spacing="0.1">)" + geom +
                  "</composite></body>");
  // shared side vertices (5 rings of 10), flat ends as box faces
  EXPECT_EQ(cyl->skin_vertnum[0], 5 * 10 + 2 * 12);
}

}  // namespace
}  // namespace gauss
