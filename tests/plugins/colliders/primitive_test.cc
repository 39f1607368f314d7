// The `primitive` collider plugin against closed-form geometry: for every pair it handles, the
// number of contacts, their signed distance, position (midway between the surfaces) and normal
// (from geom 1 to geom 2) in touching, separated-within-margin, penetrating and degenerate
// configurations (parallel capsules, a capsule parallel to a plane, box face/edge/vertex
// contacts, a sphere centre inside a box). Two MuJoCo 2.2.2 conventions that the plugin
// reproduces are asserted explicitly: box-box face contacts report half the penetration, and a
// sphere whose centre is inside a box reports minus its radius. Tolerance 1e-12.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "data_alloc.h"
#include "gauss/collider.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "pipeline.h"

namespace gauss {
namespace {

constexpr double kTol = 1e-12;

class Primitive : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = new PluginRegistry();
    plugin_ = new PluginInstance<Collider>(
        registry_->Create<Collider>(PluginKind::kCollider, "primitive"));
  }
  static void TearDownTestSuite() {
    delete plugin_;
    delete registry_;
  }

  // Contacts between the two world geoms described by MJCF attributes (geom 1 must have the
  // smaller type), with the given margin.
  std::vector<Contact> Collide(const std::string& geom1, const std::string& geom2,
                               double margin = 0) {
    const std::string xml =
        "<mujoco><worldbody><geom " + geom1 + "/><geom " + geom2 + "/></worldbody></mujoco>";
    model_ = LoadModelFromString(xml);
    AllocateData(*model_, d_);
    Kinematics(*model_, d_);
    std::vector<Contact> out(64);
    const int n = plugin_->instance->Collide(*model_, d_, 0, 1, margin, out.data(), 64);
    out.resize(n);
    return out;
  }

  const double* GeomMat(int g) const { return d_.geom_xmat.data() + 9 * g; }

  static PluginRegistry* registry_;
  static PluginInstance<Collider>* plugin_;
  std::shared_ptr<const Model> model_;
  Data d_;
};

PluginRegistry* Primitive::registry_ = nullptr;
PluginInstance<Collider>* Primitive::plugin_ = nullptr;

// Full precision for numbers spliced into MJCF.
std::string Num(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

void ExpectVec(const double* v, double x, double y, double z, const char* what) {
  EXPECT_NEAR(v[0], x, kTol) << what;
  EXPECT_NEAR(v[1], y, kTol) << what;
  EXPECT_NEAR(v[2], z, kTol) << what;
}

// The contact nearest to point p (contacts come in an implementation order).
const Contact& Near(const std::vector<Contact>& cs, double x, double y, double z) {
  auto d = [&](const Contact& c) { return std::hypot(c.pos[0] - x, c.pos[1] - y, c.pos[2] - z); };
  return *std::min_element(cs.begin(), cs.end(),
                           [&](const Contact& a, const Contact& b) { return d(a) < d(b); });
}

TEST_F(Primitive, DeclaresTheAnalyticPairs) {
  using T = GeomType;
  std::vector<std::pair<T, T>> pairs = plugin_->instance->Pairs();
  std::sort(pairs.begin(), pairs.end());
  const std::vector<std::pair<T, T>> expected = {
      {T::kPlane, T::kSphere},   {T::kPlane, T::kCapsule}, {T::kPlane, T::kEllipsoid},
      {T::kPlane, T::kCylinder}, {T::kPlane, T::kBox},     {T::kSphere, T::kSphere},
      {T::kSphere, T::kCapsule}, {T::kSphere, T::kBox},    {T::kCapsule, T::kCapsule},
      {T::kCapsule, T::kBox},    {T::kBox, T::kBox}};
  EXPECT_EQ(pairs, expected);
}

// ---------------------------------------------------------------- plane

TEST_F(Primitive, PlaneSphereTouchingSeparatedPenetrating) {
  const std::string plane = "type='plane' size='0 0 1'";
  auto cs = Collide(plane, "type='sphere' size='0.1' pos='0.3 -0.2 0.1'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, 0, kTol);
  ExpectVec(cs[0].pos, 0.3, -0.2, 0, "touching pos");
  ExpectVec(cs[0].frame, 0, 0, 1, "normal");
  ExpectVec(cs[0].frame + 3, 0, 0, 0, "no tangent hint");

  cs = Collide(plane, "type='sphere' size='0.1' pos='0 0 0.11'", 0.02);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, 0.01, kTol);
  ExpectVec(cs[0].pos, 0, 0, 0.005, "separated pos");
  EXPECT_TRUE(Collide(plane, "type='sphere' size='0.1' pos='0 0 0.13'", 0.02).empty());

  cs = Collide(plane, "type='sphere' size='0.1' pos='0 0 0.07'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.03, kTol);
  ExpectVec(cs[0].pos, 0, 0, -0.015, "penetrating pos");
}

TEST_F(Primitive, PlaneNormalIsThePlaneZAxis) {
  // plane tilted 30 degrees about x: normal (0, -sin 30, cos 30)
  auto cs = Collide("type='plane' size='0 0 1' euler='30 0 0'",
                    "type='sphere' size='0.1' pos='0 -0.05 0.08'");
  ASSERT_EQ(cs.size(), 1u);
  const double s = std::sin(M_PI / 6), c = std::cos(M_PI / 6);
  ExpectVec(cs[0].frame, 0, -s, c, "normal");
  const double height = -0.05 * -s + 0.08 * c;
  EXPECT_NEAR(cs[0].dist, height - 0.1, kTol);
}

TEST_F(Primitive, PlaneCapsuleParallelGivesTwoContactsWithAxisHint) {
  const std::string plane = "type='plane' size='0 0 1'";
  auto cs = Collide(plane, "type='capsule' size='0.05 0.2' pos='0 0 0.04' euler='0 90 0'");
  ASSERT_EQ(cs.size(), 2u);
  for (double x : {0.2, -0.2}) {
    const Contact& c = Near(cs, x, 0, -0.005);
    EXPECT_NEAR(c.dist, -0.01, kTol);
    ExpectVec(c.pos, x, 0, -0.005, "end contact");
    EXPECT_NEAR(std::fabs(c.frame[3]), 1, kTol) << "hint along the capsule axis (x)";
  }
  // tilted 60 degrees: only the lower end reaches the plane
  cs = Collide(plane, "type='capsule' size='0.05 0.2' pos='0 0 0.14' euler='0 60 0'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, 0.14 - 0.2 * std::cos(M_PI / 3) - 0.05, kTol);
}

TEST_F(Primitive, PlaneBoxFaceEdgeVertex) {
  const std::string plane = "type='plane' size='0 0 1'";
  // flat: the four bottom corners
  auto cs = Collide(plane, "type='box' size='0.1 0.2 0.3' pos='0 0 0.29'");
  ASSERT_EQ(cs.size(), 4u);
  for (double x : {-0.1, 0.1}) {
    for (double y : {-0.2, 0.2}) {
      const Contact& c = Near(cs, x, y, -0.005);
      EXPECT_NEAR(c.dist, -0.01, kTol);
      ExpectVec(c.pos, x, y, -0.005, "corner");
    }
  }
  // on an edge (45 degrees about x): the two corners of the lowest edge
  const double h = 0.2 * std::sqrt(0.5) + 0.3 * std::sqrt(0.5);
  cs = Collide(plane,
               "type='box' size='0.1 0.2 0.3' pos='0 0 " + Num(h - 0.02) + "' euler='45 0 0'");
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_NEAR(cs[0].dist, -0.02, 1e-9);
  EXPECT_NEAR(cs[1].dist, -0.02, 1e-9);
  EXPECT_NEAR(std::fabs(cs[0].pos[0] - cs[1].pos[0]), 0.2, 1e-9);
  // on a vertex: a cube rotated so that a diagonal is vertical
  cs = Collide(
      plane, "type='box' size='0.1 0.1 0.1' pos='0 0 0.17' axisangle='1 -1 0 54.735610317245346'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, 0.17 - 0.1 * std::sqrt(3.0), 1e-9);
  ExpectVec(cs[0].pos, 0, 0, cs[0].dist / 2, "vertex");
}

TEST_F(Primitive, PlaneCylinderOnCapAndOnSide) {
  const std::string plane = "type='plane' size='0 0 1'";
  // standing on its cap: three rim points 120 degrees apart (from the cylinder's x axis)
  auto cs = Collide(plane, "type='cylinder' size='0.1 0.2' pos='0 0 0.19'");
  ASSERT_EQ(cs.size(), 3u);
  for (double angle : {0.0, 120.0, -120.0}) {
    const double x = 0.1 * std::cos(angle * M_PI / 180), y = 0.1 * std::sin(angle * M_PI / 180);
    const Contact& c = Near(cs, x, y, -0.005);
    EXPECT_NEAR(c.dist, -0.01, kTol);
    ExpectVec(c.pos, x, y, -0.005, "rim point");
  }
  // lying on its side: the lowest line, at both caps
  cs = Collide(plane, "type='cylinder' size='0.1 0.2' pos='0 0 0.09' euler='90 0 0'");
  ASSERT_EQ(cs.size(), 2u);
  for (double y : {0.2, -0.2}) {
    const Contact& c = Near(cs, 0, y, -0.005);
    EXPECT_NEAR(c.dist, -0.01, kTol);
    ExpectVec(c.pos, 0, y, -0.005, "side line");
  }
}

TEST_F(Primitive, PlaneEllipsoidSupportPoint) {
  const std::string plane = "type='plane' size='0 0 1'";
  auto cs = Collide(plane, "type='ellipsoid' size='0.1 0.2 0.3' pos='0.5 0 0.25'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.05, kTol);
  ExpectVec(cs[0].pos, 0.5, 0, -0.025, "axis-aligned support");
  // rotated 30 degrees about x: lowest height = centre - sqrt(b^2 sin^2 + c^2 cos^2)
  cs = Collide(plane, "type='ellipsoid' size='0.1 0.2 0.3' pos='0 0 0.25' euler='30 0 0'");
  ASSERT_EQ(cs.size(), 1u);
  const double s = std::sin(M_PI / 6), c = std::cos(M_PI / 6);
  const double reach = std::sqrt(0.04 * s * s + 0.09 * c * c);
  EXPECT_NEAR(cs[0].dist, 0.25 - reach, kTol);
  // the support point lies on the ellipsoid surface
  const double* mat = GeomMat(1);
  double p[3] = {cs[0].pos[0], cs[0].pos[1], cs[0].pos[2] + cs[0].dist / 2 - 0.25}, l[3];
  for (int i = 0; i < 3; ++i) l[i] = mat[i] * p[0] + mat[3 + i] * p[1] + mat[6 + i] * p[2];
  EXPECT_NEAR(l[0] * l[0] / 0.01 + l[1] * l[1] / 0.04 + l[2] * l[2] / 0.09, 1, 1e-12);
}

// ---------------------------------------------------------------- spheres and capsules

TEST_F(Primitive, SphereSphere) {
  auto cs =
      Collide("type='sphere' size='0.1' pos='0 0 0'", "type='sphere' size='0.2' pos='0.18 0.24 0'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, 0.3 - 0.3, kTol);
  ExpectVec(cs[0].frame, 0.6, 0.8, 0, "normal towards geom 2");
  ExpectVec(cs[0].pos, 0.06, 0.08, 0, "touching point");
  cs = Collide("type='sphere' size='0.1'", "type='sphere' size='0.2' pos='0 0.25 0'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.05, kTol);
  ExpectVec(cs[0].pos, 0, 0.075, 0, "midway between the surfaces");
  EXPECT_TRUE(
      Collide("type='sphere' size='0.1'", "type='sphere' size='0.2' pos='0 0.35 0'", 0.04).empty());
  EXPECT_EQ(
      Collide("type='sphere' size='0.1'", "type='sphere' size='0.2' pos='0 0.33 0'", 0.04).size(),
      1u);
  // coincident centres: normal = z1 x z2 = (0, 0, 1) x (0, -1, 0) (geom 2 turned about x)
  cs = Collide("type='sphere' size='0.1'", "type='sphere' size='0.2' euler='90 0 0'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.3, kTol);
  ExpectVec(cs[0].frame, 1, 0, 0, "z1 x z2");
}

TEST_F(Primitive, SphereCapsuleMiddleAndEnd) {
  // capsule along x, half-length 0.2: a sphere above the middle and one beyond the end
  const std::string capsule = "type='capsule' size='0.05 0.2' euler='0 90 0'";
  auto cs = Collide("type='sphere' size='0.1' pos='0.1 0 0.14'", capsule);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.01, kTol);
  ExpectVec(cs[0].frame, 0, 0, -1, "normal from sphere to capsule");
  ExpectVec(cs[0].pos, 0.1, 0, 0.045, "midway");
  cs = Collide("type='sphere' size='0.1' pos='0.32 0 0.05'", capsule);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, std::hypot(0.12, 0.05) - 0.15, kTol);
  ExpectVec(cs[0].frame, -0.12 / 0.13, 0, -0.05 / 0.13, "towards the end ball");
}

TEST_F(Primitive, CapsuleCapsuleCrossedAndParallel) {
  // crossed at right angles, 0.14 apart: closest points at both centres
  auto cs = Collide("type='capsule' size='0.05 0.2' euler='0 90 0'",
                    "type='capsule' size='0.1 0.3' pos='0 0 0.14' euler='90 0 0'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.01, kTol);
  ExpectVec(cs[0].frame, 0, 0, 1, "normal");
  ExpectVec(cs[0].pos, 0, 0, 0.045, "pos");
  // parallel and overlapping along x: a line contact, two points at the overlap ends
  cs = Collide("type='capsule' size='0.05 0.2' euler='0 90 0'",
               "type='capsule' size='0.05 0.2' pos='0.1 0 0.09' euler='0 90 0'");
  ASSERT_EQ(cs.size(), 2u);
  for (double x : {0.2, -0.1}) {
    const Contact& c = Near(cs, x, 0, 0.045);
    EXPECT_NEAR(c.dist, -0.01, kTol);
    ExpectVec(c.pos, x, 0, 0.045, "overlap end");
    ExpectVec(c.frame, 0, 0, 1, "normal");
  }
  // parallel, end to end on one line: the facing end balls, found from both segments' ends
  // (two identical contacts, as MuJoCo 2.2.2 gives)
  cs = Collide("type='capsule' size='0.05 0.2' euler='0 90 0'",
               "type='capsule' size='0.05 0.2' pos='0.49 0 0' euler='0 90 0'");
  ASSERT_EQ(cs.size(), 2u);
  for (const Contact& c : cs) {
    EXPECT_NEAR(c.dist, -0.01, kTol);
    ExpectVec(c.pos, 0.245, 0, 0, "end to end");
  }
}

// ---------------------------------------------------------------- boxes

TEST_F(Primitive, SphereBoxFaceEdgeVertexAndInside) {
  const std::string box = "type='box' size='0.1 0.2 0.3'";
  auto cs = Collide("type='sphere' size='0.05' pos='0.14 0 0'", box);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.01, kTol);
  ExpectVec(cs[0].frame, -1, 0, 0, "face normal, from sphere into box");
  ExpectVec(cs[0].pos, 0.095, 0, 0, "face");
  cs = Collide("type='sphere' size='0.05' pos='0.13 0.24 0'", box);  // edge region
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, 0.0, kTol);
  ExpectVec(cs[0].frame, -0.6, -0.8, 0, "edge normal");
  cs = Collide("type='sphere' size='0.05' pos='0.12 0.22 0.32'", box, 0.1);  // vertex region
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, std::sqrt(3 * 0.0004) - 0.05, kTol);
  // centre inside, nearest the +y face: pushed out through it; the distance is -radius
  // whatever the depth (MuJoCo 2.2.2's convention)
  cs = Collide("type='sphere' size='0.05' pos='0.01 0.17 0.02'", box);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.05, kTol);
  ExpectVec(cs[0].frame, 0, -1, 0, "inside: normal through the nearest face");
  ExpectVec(cs[0].pos, 0.01, 0.17 - 0.5 * (0.05 - 0.03), 0.02, "inside pos");
}

TEST_F(Primitive, CapsuleBoxLyingOnFaceCrossingEdgeAndUpright) {
  const std::string box = "type='box' size='0.3 0.2 0.1'";
  // lying on the top face along x, fully over it: both ends
  auto cs = Collide("type='capsule' size='0.05 0.1' pos='0 0 0.14' euler='0 90 0'", box);
  ASSERT_EQ(cs.size(), 2u);
  for (double x : {0.1, -0.1}) {
    const Contact& c = Near(cs, x, 0, 0.095);
    EXPECT_NEAR(c.dist, -0.01, kTol);
    ExpectVec(c.frame, 0, 0, -1, "into the box");
    ExpectVec(c.pos, x, 0, 0.095, "end over the face");
  }
  // hanging over the +x edge: the inner end, and where the axis leaves the face region
  cs = Collide("type='capsule' size='0.05 0.2' pos='0.3 0 0.14' euler='0 90 0'", box);
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_NEAR(Near(cs, 0.1, 0, 0.095).pos[0], 0.1, kTol);
  EXPECT_NEAR(Near(cs, 0.3, 0, 0.095).pos[0], 0.3, kTol);
  EXPECT_NEAR(cs[0].dist, -0.01, kTol);
  EXPECT_NEAR(cs[1].dist, -0.01, kTol);
  // upright on the face: one contact under the lower end
  cs = Collide("type='capsule' size='0.05 0.2' pos='0.1 0.1 0.33'", box);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.02, kTol);
  ExpectVec(cs[0].pos, 0.1, 0.1, 0.09, "under the end");
  // across the +y top edge, perpendicular to it: one contact at the edge
  cs = Collide("type='capsule' size='0.03 0.2' pos='0 0.2 0.12' euler='45 0 0'", box, 0.01);
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, 0.02 * std::sqrt(0.5) - 0.03, kTol);
}

TEST_F(Primitive, BoxBoxStackedFaceContactsReportHalfThePenetration) {
  // a small box resting 0.01 deep on a large one: its four bottom corners; MuJoCo 2.2.2 reports
  // face contacts with half the penetration as distance, and so does the plugin
  auto cs =
      Collide("type='box' size='0.5 0.5 0.1'", "type='box' size='0.1 0.2 0.05' pos='0.1 0 0.14'");
  ASSERT_EQ(cs.size(), 4u);
  for (double x : {0.0, 0.2}) {
    for (double y : {-0.2, 0.2}) {
      const Contact& c = Near(cs, x, y, 0.095);
      EXPECT_NEAR(c.dist, -0.005, kTol);
      ExpectVec(c.pos, x, y, 0.095, "corner, midway");
      ExpectVec(c.frame, 0, 0, 1, "normal from box 1 to box 2");
    }
  }
  EXPECT_TRUE(Collide("type='box' size='0.5 0.5 0.1'",
                      "type='box' size='0.1 0.2 0.05' pos='0.1 0 0.2'", 0.04)
                  .empty());
  EXPECT_EQ(Collide("type='box' size='0.5 0.5 0.1'",
                    "type='box' size='0.1 0.2 0.05' pos='0.1 0 0.18'", 0.04)
                .size(),
            4u);
}

TEST_F(Primitive, BoxBoxTwistedSquaresGiveTheOctagon) {
  // equal cubes, the upper one turned 45 degrees about z: the overlap of the faces is a regular
  // octagon; the upper cube's deepest corner (first of four equally deep) is kept as well
  // although it lies outside the lower face, as MuJoCo 2.2.2 does
  auto cs = Collide("type='box' size='0.1 0.1 0.1'",
                    "type='box' size='0.1 0.1 0.1' pos='0 0 0.19' euler='0 0 45'");
  ASSERT_EQ(cs.size(), 9u);
  const double t = 0.1 * (std::sqrt(2.0) - 1);  // half side of the octagon
  int octagon = 0;
  for (const Contact& c : cs) {
    EXPECT_NEAR(c.dist, -0.005, kTol);
    EXPECT_NEAR(c.pos[2], 0.095, kTol);
    const double ax = std::fabs(c.pos[0]), ay = std::fabs(c.pos[1]);
    if (std::fabs(std::max(ax, ay) - 0.1) < 1e-12 && std::fabs(std::min(ax, ay) - t) < 1e-12) {
      ++octagon;
    } else {
      EXPECT_NEAR(std::hypot(ax, ay), 0.1 * std::sqrt(2.0), 1e-12) << "the corner";
    }
  }
  EXPECT_EQ(octagon, 8);
}

TEST_F(Primitive, BoxBoxCrossedEdgesAndVertexOnFace) {
  // box 2 turned 45 degrees about x and lowered onto box 1 turned 45 degrees about y: their
  // edges cross at right angles above the origin; the contact is at the crossing, full depth
  const double r = 0.1 * std::sqrt(2.0);
  auto cs =
      Collide("type='box' size='0.1 0.1 0.1' euler='0 45 0'",
              "type='box' size='0.1 0.1 0.1' pos='0 0 " + Num(2 * r - 0.02) + "' euler='45 0 0'");
  ASSERT_EQ(cs.size(), 1u);
  const Contact& c = Near(cs, 0, 0, r - 0.01);
  EXPECT_NEAR(c.dist, -0.02, 1e-9);
  ExpectVec(c.pos, 0, 0, r - 0.01, "edge crossing");
  ExpectVec(c.frame, 0, 0, 1, "normal");
  // a cube standing on a vertex above the other's top face: one contact at the vertex
  cs =
      Collide("type='box' size='0.3 0.3 0.1'",
              "type='box' size='0.1 0.1 0.1' pos='0 0 0.26' axisangle='1 -1 0 54.735610317245346'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, 0.5 * (0.16 - 0.1 * std::sqrt(3.0)), 1e-9);  // half (face axis)
  EXPECT_NEAR(cs[0].pos[0], 0, 1e-9);
  EXPECT_NEAR(cs[0].pos[1], 0, 1e-9);
}

}  // namespace
}  // namespace gauss
