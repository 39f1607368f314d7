// GJK and EPA (plugins/colliders/ccd/native_ccd.h, the nativeccd flag) against closed forms:
// distances and nearest points of separated geoms (spheres, boxes, cylinders, an ellipsoid, a
// mesh), penetration depths and normals of overlapping ones (shallow sphere contacts through the
// cores, deep ones through EPA, boxes), and no heap allocation per call. Agreement with MuJoCo
// 3.12's own contacts is tests/reference/native_ccd_reference_test.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "data_alloc.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "native_ccd.h"
#include "pipeline.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss::ccd {
namespace {

using namespace math;

// Two world geoms "a" and "b" given by MJCF attributes, posed by kinematics.
struct GeomPair {
  std::shared_ptr<const Model> model;
  Data d;
  explicit GeomPair(const std::string& a, const std::string& b) {
    model = LoadModelFromString(
        "<mujoco><asset><mesh name='tet' vertex='0 0 0  .2 0 0  0 .2 0  0 0 .2'/></asset>"
        "<worldbody><geom name='a' " + a + "/><geom name='b' " + b + "/></worldbody></mujoco>");
    AllocateData(*model, d);
    Kinematics(*model, d);
  }
  // signed distance below `cutoff` (and the nearest points)
  double Distance(double fromto[6], double cutoff = 1) const {
    return GeomDistance(*model, d, 0, 1, cutoff, fromto);
  }
  // the nativeccd contact with the pair's margin
  int Touch(Contact* c, double margin = 0) const {
    ConvexGeom a, b;
    MakeConvexGeom(*model, d, 0, margin, &a);
    MakeConvexGeom(*model, d, 1, margin, &b);
    return NativeContact(*model, a, b, margin, c);
  }
};

TEST(NativeCcdDistance, SpheresAreTheirCentresLessTheRadii) {
  const GeomPair p("type='sphere' size='.1' pos='.1 .2 .3'", "type='sphere' size='.2' pos='.5 -.1 .9'");
  double ft[6];
  const double centres = std::sqrt(0.4 * 0.4 + 0.3 * 0.3 + 0.6 * 0.6);
  EXPECT_NEAR(p.Distance(ft), centres - 0.3, 1e-15);
  // nearest points on the spheres, on the line of centres
  EXPECT_NEAR(ft[0], 0.1 + 0.1 * 0.4 / centres, 1e-15);
  EXPECT_NEAR(ft[5], 0.9 - 0.2 * 0.6 / centres, 1e-15);
}

TEST(NativeCcdDistance, BoxesFaceToFaceAreExactAndBeyondTheCutoffReportTheCutoff) {
  // two boxes, the second turned about x (its face towards the first stays at x = 0.3 - 0.1)
  const GeomPair p("type='box' size='.1 .2 .3'",
                   "type='box' size='.1 .05 .05' pos='.3 .05 0' euler='30 0 0'");
  double ft[6];
  EXPECT_NEAR(p.Distance(ft), 0.1, 1e-15);
  EXPECT_NEAR(ft[0], 0.1, 1e-15);
  EXPECT_NEAR(ft[3], 0.2, 1e-15);
  EXPECT_EQ(p.Distance(ft, 0.05), 0.05);  // farther than the cutoff
}

TEST(NativeCcdDistance, TurnedEllipsoidAgainstABoxFaceIsItsSupportHeight) {
  // ellipsoid turned 40 degrees about z: extent along x is sqrt((a cos)^2 + (b sin)^2)
  const GeomPair p("type='box' size='.1 .5 .5'",
                   "type='ellipsoid' size='.2 .1 .15' pos='.5 0 0' euler='0 0 40'");
  const double c = std::cos(40 * M_PI / 180), s = std::sin(40 * M_PI / 180);
  const double extent = std::hypot(0.2 * c, 0.1 * s);
  double ft[6];
  EXPECT_NEAR(p.Distance(ft), 0.5 - 0.1 - extent, 1e-9);
  EXPECT_NEAR(ft[3], 0.5 - extent, 1e-6);
}

TEST(NativeCcdDistance, ParallelCylindersSideBySide) {
  const GeomPair p("type='cylinder' size='.1 .2'", "type='cylinder' size='.05 .3' pos='.2 .3 .1'");
  double ft[6];
  EXPECT_NEAR(p.Distance(ft), std::hypot(0.2, 0.3) - 0.15, 1e-9);
}

TEST(NativeCcdDistance, MeshFaceAboveABox) {
  // the tetrahedron's face z = 0 (mesh coordinates) lies at z = 0.3: 0.2 above the box; the
  // compiled vertices are rounded to single precision about the mesh's centre, as MuJoCo's
  const GeomPair p("type='box' size='.3 .3 .1'", "type='mesh' mesh='tet' pos='0 0 .3'");
  double ft[6];
  EXPECT_NEAR(p.Distance(ft), 0.2, 1e-8);
  EXPECT_NEAR(ft[5], 0.3, 1e-8);
}

TEST(NativeCcdPenetration, OverlappingBoxesGiveTheOverlapAlongTheShallowAxis) {
  const GeomPair p("type='box' size='.5 .5 .5'", "type='box' size='.2 .3 .4' pos='.6 0 .1'");
  Contact c;
  ASSERT_EQ(p.Touch(&c), 1);
  EXPECT_NEAR(c.dist, -0.1, 1e-12);
  EXPECT_NEAR(c.frame[0], 1, 1e-12);
  EXPECT_NEAR(c.pos[0], 0.45, 1e-12);  // midway between the two faces
  double ft[6];
  EXPECT_NEAR(p.Distance(ft), -0.1, 1e-12);
}

TEST(NativeCcdPenetration, ShallowSpheresAreExactThroughTheirCores) {
  const GeomPair p("type='sphere' size='.1'", "type='sphere' size='.15' pos='0 .2 0'");
  Contact c;
  ASSERT_EQ(p.Touch(&c, 0.01), 1);
  EXPECT_NEAR(c.dist, 0.2 - 0.25, 1e-15);  // margin - depth with the margin's inflation
  EXPECT_NEAR(c.frame[1], 1, 1e-15);
  EXPECT_NEAR(c.pos[1], 0.5 * (0.1 + 0.05), 1e-15);
}

TEST(NativeCcdPenetration, SphereCentreInsideABoxGoesThroughEpa) {
  // centre 0.05 inside the +x face: depth radius + 0.05
  const GeomPair p("type='box' size='.5 .5 .5'", "type='sphere' size='.1' pos='.45 .1 0'");
  Contact c;
  ASSERT_EQ(p.Touch(&c), 1);
  EXPECT_NEAR(c.dist, -0.15, 1e-6);
  EXPECT_NEAR(c.frame[0], 1, 1e-6);
}

TEST(NativeCcdPenetration, SeparatedGeomsBeyondTheMarginGiveNoContact) {
  const GeomPair p("type='cylinder' size='.1 .1'", "type='ellipsoid' size='.1 .2 .1' pos='.25 0 0'");
  Contact c;
  EXPECT_EQ(p.Touch(&c, 0.04), 0);
  ASSERT_EQ(p.Touch(&c, 0.06), 1);  // 5 cm apart: within a 6 cm margin
  EXPECT_NEAR(c.dist, 0.05, 1e-6);
}

TEST(NativeCcdAllocation, NoHeapAllocationPerCall) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  const GeomPair p("type='box' size='.5 .5 .5'", "type='ellipsoid' size='.1 .2 .3' pos='.5 .1 0'");
  Contact c;
  double ft[6];
  const long before = test::AllocationCount();
  int hits = 0;
  for (int i = 0; i < 10; ++i) hits += p.Touch(&c, 0.01) + (p.Distance(ft) < 0);
  EXPECT_EQ(test::AllocationCount(), before);
  EXPECT_EQ(hits, 20);
}

}  // namespace
}  // namespace gauss::ccd
