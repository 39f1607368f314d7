// gauss/visual.h: the colour rule (own rgba unless it is the default and a material is named)
// and skinning (core/src/visual.cc). Skinning is checked by its geometry: a skin bound to one
// body moves rigidly with it, a vertex shared half-and-half by two bones lies midway between
// where each bone alone would put it, and inflate moves each vertex by exactly `inflate` along
// its unit normal. (Both are compared with MuJoCo 2.2.2 in tests/reference/visual_test.cc.)
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "gauss/visual.h"
#include "support/test_support.h"

namespace gauss {
namespace {

TEST(Visual, OwnRgbaUnlessDefaultWithMaterial) {
  auto m = LoadModel(test::TestModel("compile_skin.xml"));
  double rgba[4];
  GeomRgba(*m, m->GeomId("floor"), rgba);  // default rgba, material blue
  EXPECT_EQ(std::vector<double>(rgba, rgba + 4), (std::vector<double>{0.1, 0.2, 0.9, 1}));
  GeomRgba(*m, m->GeomId("upper_green"), rgba);  // own rgba beats material blue
  EXPECT_EQ(std::vector<double>(rgba, rgba + 4), (std::vector<double>{0, 1, 0, 1}));
  SiteRgba(*m, m->SiteId("plain"), rgba);  // no material
  EXPECT_EQ(std::vector<double>(rgba, rgba + 4), (std::vector<double>{0, 0, 1, 1}));
  SiteRgba(*m, m->SiteId("tip"), rgba);  // material yellow
  EXPECT_NEAR(rgba[0], 0.95, 1e-12);
  SkinRgba(*m, 0, rgba);  // the sleeve: material sleeve_red (rgba from its default class)
  EXPECT_EQ(std::vector<double>(rgba, rgba + 4), (std::vector<double>{0.9, 0.1, 0.1, 1}));
  SkinRgba(*m, 1, rgba);  // the tag: own rgba, no material
  EXPECT_EQ(std::vector<double>(rgba, rgba + 4), (std::vector<double>{0.2, 0.8, 0.3, 1}));
}

// Body poses with body b at (pos, quat) and the others at the identity.
struct Poses {
  std::vector<double> xpos, xquat;
  explicit Poses(int nbody) : xpos(3 * nbody, 0.0), xquat(4 * nbody, 0.0) {
    for (int b = 0; b < nbody; ++b) xquat[4 * b] = 1;
  }
  void Set(int b, const double pos[3], const double quat[4]) {
    for (int i = 0; i < 3; ++i) xpos[3 * b + i] = pos[i];
    for (int i = 0; i < 4; ++i) xquat[4 * b + i] = quat[i];
  }
};

TEST(Visual, SkinBoundToOneBodyMovesRigidly) {
  auto m = LoadModel(test::TestModel("compile_skin.xml"));
  const int lower = m->BodyId("lower"), tag = 1, bone = m->skin_boneadr[tag];
  Poses p(m->nbody);
  const double pos[3] = {0.3, -0.2, 1.7};
  double quat[4] = {0.9, 0.1, -0.3, 0.2};
  math::NormalizeQuat(quat);
  p.Set(lower, pos, quat);
  std::vector<double> vert(3 * m->skin_vertnum[tag]);
  SkinVertices(*m, tag, p.xpos.data(), p.xquat.data(), vert.data());
  for (int v = 0; v < m->skin_vertnum[tag]; ++v) {
    // bind quaternion identity: the vertex's offset from the bind position, turned and moved
    double offset[3], want[3];
    for (int i = 0; i < 3; ++i) {
      offset[i] = m->skin_vert[3 * (m->skin_vertadr[tag] + v) + i] - m->skin_bonebindpos[3 * bone + i];
    }
    math::RotVecQuat(want, offset, quat);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(vert[3 * v + i], want[i] + pos[i], 1e-12) << v;
  }
}

TEST(Visual, SharedVertexLiesMidwayAndInflateIsExact) {
  auto m = LoadModel(test::TestModel("compile_skin.xml"));
  const int upper = m->BodyId("upper"), lower = m->BodyId("lower"), sleeve = 0;
  Poses p(m->nbody);
  // the upper link at its bind pose, the lower one bent by 90 degrees about y at its bind place
  const double upper_pos[3] = {0, 0, 1}, identity[4] = {1, 0, 0, 0};
  const double lower_pos[3] = {0.5, 0, 1}, bent[4] = {std::sqrt(0.5), 0, std::sqrt(0.5), 0};
  p.Set(upper, upper_pos, identity);
  p.Set(lower, lower_pos, bent);
  std::vector<double> vert(3 * m->skin_vertnum[sleeve]);
  SkinVertices(*m, sleeve, p.xpos.data(), p.xquat.data(), vert.data());
  // without inflate: vertex 4 (x = 0.5, y = -0.08, z = 0.92; half upper, half lower) is the
  // mean of its unmoved bind position and its position turned about the elbow
  Model flat = *m;
  flat.skin_inflate[sleeve] = 0;
  std::vector<double> plain(vert.size());
  SkinVertices(flat, sleeve, p.xpos.data(), p.xquat.data(), plain.data());
  const double* bind = &m->skin_vert[3 * 4];
  double offset[3] = {bind[0] - 0.5, bind[1], bind[2] - 1}, turned[3];
  math::RotVecQuat(turned, offset, bent);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(plain[3 * 4 + i], 0.5 * (bind[i] + turned[i] + lower_pos[i]), 1e-7) << i;
  }
  // with inflate: every vertex moved by exactly skin_inflate (along its normal, unit length)
  for (int v = 0; v < m->skin_vertnum[sleeve]; ++v) {
    const double d = std::hypot(vert[3 * v] - plain[3 * v], vert[3 * v + 1] - plain[3 * v + 1],
                                vert[3 * v + 2] - plain[3 * v + 2]);
    EXPECT_NEAR(d, m->skin_inflate[sleeve], 1e-9) << v;
  }
  // and outwards: the sleeve's first ring (upper bone only, unmoved) grows away from the axis
  for (int v = 0; v < 4; ++v) {
    EXPECT_GT(std::hypot(vert[3 * v + 1], vert[3 * v + 2] - 1),
              std::hypot(plain[3 * v + 1], plain[3 * v + 2] - 1)) << v;
  }
}

}  // namespace
}  // namespace gauss
