// Rays against meshes and height fields (core/src/ray_mesh.cc) against closed-form geometry: a
// box-shaped mesh is hit exactly where the box primitive is; a height field is hit on its
// surface triangles (split along the (r, c)-(r+1, c+1) diagonal), on its sides below the
// boundary's height, on its base and, from inside, on the plane z = 0; Ray picks the nearest.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "data_alloc.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "gauss/sensor_support.h"
#include "pipeline.h"
#include "support/test_support.h"

namespace gauss {
namespace {

using namespace math;

// A single-cell field (corner (row 0, col 1) raised to 0.4) over [-1, 1] x [-1, 1], base 0.2
// deep, turned and moved; and a box mesh beside it.
const char* kModel = R"(<mujoco><compiler meshdir="meshes"/><asset>
  <hfield name="f" nrow="2" ncol="2" size="1 1 0.4 0.2" elevation="0 0 0 1"/>
  <mesh name="box" file="box.stl"/></asset>
  <worldbody>
    <geom name="field" type="hfield" hfield="f" pos="0.3 -0.2 0.1" euler="10 -5 30"/>
    <body pos="3 0 0.5" euler="20 30 40"><geom name="mesh" type="mesh" mesh="box"/></body>
  </worldbody></mujoco>)";

class RayMeshTest : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = LoadModelFromString(kModel, test::TestModel("ray_virtual.xml"));
    AllocateData(*model_, d_);
    Kinematics(*model_, d_);
  }

  // Local point / direction of geom g to world.
  void ToWorld(int g, const double local[3], double world[3], bool point) const {
    MulMatVec3(world, d_.geom_xmat.data() + 9 * g, local);
    if (point) AddTo3(world, d_.geom_xpos.data() + 3 * g);
  }

  // Distance from the local point p along local direction v of the field (geom 0).
  double FieldRay(const double p[3], const double v[3]) const {
    double wp[3], wv[3];
    ToWorld(0, p, wp, true);
    ToWorld(0, v, wv, false);
    return RayHfield(*model_, d_, 0, wp, wv);
  }

  std::shared_ptr<const Model> model_;
  Data d_;
};

// Elevation of the single cell at (x, y): the grid's row 1 (y = +1) is the written first row
// "0 0", row 0 is "0 1": sample (r 0, c 1) at (1, -1) is raised to 0.4. The diagonal from
// (-1, -1) to (1, 1) splits the cell: below it (x > y) the plane through (-1,-1,0), (1,-1,0.4),
// (1,1,0); above it the flat triangle.
double Height(double x, double y) { return x > y ? 0.2 * (x - y) : 0; }

TEST_F(RayMeshTest, DownwardRaysHitTheSurfaceTriangles) {
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<double> ud(-0.99, 0.99);
  for (int k = 0; k < 200; ++k) {
    const double x = ud(gen), y = ud(gen);
    const double p[3] = {x, y, 2}, v[3] = {0, 0, -0.5};  // |v| = 0.5: distances in units of |v|
    EXPECT_NEAR(FieldRay(p, v), (2 - Height(x, y)) / 0.5, 1e-12) << x << " " << y;
  }
}

TEST_F(RayMeshTest, SidesHitBelowTheBoundaryAndBaseFromBelow) {
  const double right[3] = {-1, 0, 0};
  // side x = +1: its top edge rises from 0 (y = 1) to 0.4 (y = -1)
  const double low[3] = {3, -0.5, 0.1};  // boundary height at y = -0.5: 0.3
  EXPECT_NEAR(FieldRay(low, right), 2, 1e-12);
  // above the side's edge the ray crosses into the cell and meets the sloped triangle, where
  // 0.2 (x - y) = 0.35 with y = -0.5, so x = 1.25: never; the flat part is at 0: it misses
  const double high[3] = {3, -0.5, 0.35};
  EXPECT_LT(FieldRay(high, right), 0);
  // from below, straight up: the base at z = -0.2
  const double under[3] = {0.2, 0.4, -1}, up[3] = {0, 0, 1};
  EXPECT_NEAR(FieldRay(under, up), 0.8, 1e-12);
  // from inside the solid above z = 0, down: MuJoCo's base box ends at z = 0, a surface
  const double inside[3] = {0.5, -0.5, 0.1}, down[3] = {0, 0, -1};
  EXPECT_NEAR(FieldRay(inside, down), 0.1, 1e-12);
  // beside the field, pointing away
  const double away[3] = {1.5, 0, 0}, out[3] = {1, 0.2, 0};
  EXPECT_LT(FieldRay(away, out), 0);
}

// A box-shaped mesh is hit where the box primitive of its size is hit, from any outside point
// (to 1e-7: its vertices are single precision after the turn into its principal frame).
TEST_F(RayMeshTest, BoxMeshIsHitLikeTheBoxPrimitive) {
  const int g = 1;
  std::mt19937_64 gen(2);
  std::normal_distribution<double> nd(0, 1);
  int hits = 0;
  for (int k = 0; k < 500; ++k) {
    double pnt[3] = {nd(gen), nd(gen), nd(gen)}, vec[3];
    Scale3(pnt, pnt, 3 / Norm3(pnt));
    AddTo3(pnt, d_.geom_xpos.data() + 3 * g);
    // aim near the box centre so that about half of the rays hit
    const double spread = 0.6 * Norm3(model_->geom_size.data() + 3 * g);
    for (int i = 0; i < 3; ++i) vec[i] = d_.geom_xpos[3 * g + i] + spread * nd(gen) - pnt[i];
    const double want = RayGeom(d_.geom_xpos.data() + 3 * g, d_.geom_xmat.data() + 9 * g,
                                model_->geom_size.data() + 3 * g, pnt, vec, GeomType::kBox);
    const double got = RayMesh(*model_, d_, g, pnt, vec);
    if (want < 0) {
      EXPECT_LT(got, 0) << k;
    } else {
      ++hits;
      EXPECT_NEAR(got, want, 1e-7) << k;  // the mesh's float vertices: ~3e-8 off the box
    }
  }
  EXPECT_GT(hits, 100);
  EXPECT_LT(hits, 450);
}

TEST_F(RayMeshTest, RayPicksTheNearestMeshOrField) {
  // from between the two, towards the mesh, then towards the field
  const double start[3] = {1.8, 0, 0.5};
  const double to_mesh[3] = {1, 0, 0};
  int geom = -2;
  const double dm = Ray(*model_, d_, start, to_mesh, nullptr, true, -1, &geom);
  EXPECT_EQ(geom, 1);
  EXPECT_NEAR(dm, RayMesh(*model_, d_, 1, start, to_mesh), 0);
  double to_field[3];
  Sub3(to_field, d_.geom_xpos.data(), start);
  const double df = Ray(*model_, d_, start, to_field, nullptr, true, -1, &geom);
  EXPECT_EQ(geom, 0);
  EXPECT_GT(df, 0);
}

}  // namespace
}  // namespace gauss
