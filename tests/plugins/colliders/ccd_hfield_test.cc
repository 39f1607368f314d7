// Height fields in the `ccd` collider (plugins/colliders/ccd/hfield.cc) against closed-form
// geometry: a field is the union of the triangular prisms of its grid cells, so a geom whose
// lowest point lies inside one triangle of a flat field touches it exactly as it would touch a
// plane; on a slope the normal is the slope's; the margin is applied as MuJoCo 2.2.2 does
// (dist = true distance - 1.5 margin); geoms beside or under the field do not touch it; the
// contact count stops at max_contacts.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ccd_fixture.h"

namespace gauss::ccd_test {
namespace {

// A field (world geom 0, grid nrow x ncol over 2 x 2 m, `elevation` as written) and one free
// body with geom `geom` (geom 1).
std::string FieldModel(const std::string& geom, int nrow, int ncol, const std::string& elevation,
                       const std::string& size = "1 1 0.2 0.1") {
  return "<mujoco><compiler meshdir=\"meshes\"/><asset><mesh name=\"box\" file=\"box.stl\"/>"
         "<mesh name=\"oct\" file=\"octagon.stl\"/><mesh name=\"tet\" file=\"tetrahedron.obj\"/>"
         "<hfield name=\"f\" nrow=\"" + std::to_string(nrow) + "\" ncol=\"" +
         std::to_string(ncol) + "\" size=\"" + size + "\"" +
         (elevation.empty() ? "" : " elevation=\"" + elevation + "\"") +
         "/></asset><worldbody><geom type=\"hfield\" hfield=\"f\"/>"
         "<body><freejoint/><geom " + geom + "/></body></worldbody></mujoco>";
}

class CcdHfield : public Ccd {
 protected:
  void LoadField(const std::string& geom, int nrow = 5, int ncol = 5,
                 const std::string& elevation = "", const std::string& size = "1 1 0.2 0.1") {
    model_ = LoadModelFromString(FieldModel(geom, nrow, ncol, elevation, size),
                                 test::TestModel("ccd_virtual.xml"));
    AllocateData(*model_, d_);
    ga_ = 0;
    gb_ = 1;
  }

  // Geom 1 with orientation q, moved so that its lowest point is at (x, y, z).
  void PlaceLowestPoint(const double q[4], double x, double y, double z) {
    const double zero[3] = {0, 0, 0};
    Pose(1, zero, q);
    const double down[3] = {0, 0, -1};
    double low[3];
    RefSupport(*model_, d_, 1, down, low);
    const double p[3] = {x - low[0], y - low[1], z - low[2]};
    Pose(1, p, q);
  }
};

const double kIdentity[4] = {1, 0, 0, 0};
// Angle between a contact normal and the field's on a flat field, for every geom type: MuJoCo
// 2.2.2's smooth-geom rule takes the sphere, capsule, ellipsoid or cylinder normal at MPR's
// point, whose horizontal error (up to 5e-5 here) tilts it (measured up to 4.5e-3 rad).
constexpr double kFlatNormalTol = 6e-3;

// A sphere pressed into a flat field inside one triangle: the contact of a plane at z = 0, to
// MPR's accuracy (measured: depth 1.2e-7, position 5e-5 - MPR's point is not exactly midway
// between the surfaces -, normal 2e-7).
TEST_F(CcdHfield, SphereOnAFlatFieldTouchesAsOnAPlane) {
  LoadField("type=\"sphere\" size=\"0.1\"");
  const double depth = 3e-4;
  // cells are 0.5 wide; (0.13, -0.27) lies inside a triangle, far from its edges
  PlaceLowestPoint(kIdentity, 0.13, -0.27, -depth);
  const std::vector<Contact> c = Collide();
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].dist, -depth, 1e-6);
  EXPECT_NEAR(c[0].pos[0], 0.13, 1e-4);
  EXPECT_NEAR(c[0].pos[1], -0.27, 1e-4);
  EXPECT_NEAR(c[0].pos[2], -depth / 2, 1e-4);
  EXPECT_NEAR(c[0].frame[2], 1, 1e-6);
}

// On a slope (elevation rising 0.2 over 2 m along x) the normal is the slope's.
TEST_F(CcdHfield, SphereOnASlopeTakesTheSlopeNormal) {
  LoadField("type=\"sphere\" size=\"0.1\"", 2, 2, "0 1 0 1");
  const double slope = 0.2 / 2;
  double n[3] = {-slope, 0, 1};
  Normalize3(n);
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> ud(-0.6, 0.6);
  int away_from_wall = 0;
  for (int k = 0; k < 50; ++k) {
    const double x = ud(gen), y = ud(gen), depth = 1e-4 + 3e-4 * (k % 4) / 3;
    // a surface point and the sphere centre along its normal, `depth` closer than the radius
    const double touch[3] = {x, y, 0.1 + slope * x};
    const double centre[3] = {touch[0] + (0.1 - depth) * n[0], touch[1] + (0.1 - depth) * n[1],
                              touch[2] + (0.1 - depth) * n[2]};
    Pose(1, centre, kIdentity);
    const std::vector<Contact> c = Collide();
    ASSERT_GE(c.size(), 1u) << k;
    // the deepest contact is the slope's, to MPR's accuracy (measured: depth 2e-5, normal
    // 2.3e-3); a second one comes from the neighbouring prism when the footprint crosses the
    // cell diagonal (from sample (0, 0) to (1, 1), the line y = x): shallower, through the prisms'
    // shared wall (MuJoCo 2.2.2 does the same)
    const Contact* deepest = &c[0];
    for (const Contact& con : c) {
      if (con.dist < deepest->dist) deepest = &con;
    }
    EXPECT_NEAR(deepest->dist, -depth, 5e-5) << k;
    // near the diagonal wall between the cell's two prisms MPR may leave through the wall (a
    // tilted normal): the normal is checked 2 cm away from it (the footprint is < 1 cm wide)
    if (std::fabs(x - y) / std::sqrt(2.0) < 0.02) continue;
    ++away_from_wall;
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(deepest->frame[i], n[i], kNormalTol) << k << " at " << x << ", " << y << ", "
                                                       << c.size() << " contacts";
    }
  }
  EXPECT_GT(away_from_wall, 40);
}

// Every convex type, randomly oriented, with its lowest point pressed 0.2 mm into a flat field
// at a triangle's centroid: one contact, the penetration's depth, normal up.
TEST_F(CcdHfield, EveryConvexTypeRestsOnAFlatField) {
  const std::vector<std::string> geoms = {
      "type=\"sphere\" size=\"0.1\"",          "type=\"capsule\" size=\"0.05 0.1\"",
      "type=\"ellipsoid\" size=\"0.1 0.07 0.05\"", "type=\"cylinder\" size=\"0.08 0.06\"",
      "type=\"box\" size=\"0.1 0.07 0.05\"",   "type=\"mesh\" mesh=\"oct\"",
      "type=\"mesh\" mesh=\"tet\""};
  std::mt19937_64 gen(5);
  std::normal_distribution<double> nd(0, 1);
  const double depth = 2e-4;
  for (const std::string& geom : geoms) {
    LoadField(geom);
    for (int k = 0; k < 40; ++k) {
      double q[4] = {nd(gen), nd(gen), nd(gen), nd(gen)};
      NormalizeQuat(q);
      // centroid of the first triangle of cell (1, 2): corners (r+1,c), (r,c), (r+1,c+1)
      const double x = -1 + 0.5 * (2 + 1.0 / 3), y = -1 + 0.5 * (1 + 2.0 / 3);
      PlaceLowestPoint(q, x, y, -depth);
      const std::vector<Contact> c = Collide();
      ASSERT_EQ(c.size(), 1u) << geom << " " << k;
      EXPECT_NEAR(c[0].dist, -depth, 1e-6) << geom << " " << k;
      EXPECT_GT(c[0].frame[2], std::cos(kFlatNormalTol)) << geom << " " << k;
      EXPECT_NEAR(c[0].pos[0], x, 1e-3) << geom;
      EXPECT_NEAR(c[0].pos[1], y, 1e-3) << geom;
    }
  }
}

// MuJoCo 2.2.2's margin: the prisms are raised by the margin and the geom inflated by half of
// it, and dist = -(MPR depth): a sphere 1 cm above the field with margin 5 cm reports
// 0.01 - 1.5 x 0.05. A prism whose raised top stays below the geom is skipped, so a geom within
// 1.5 margins but farther than one margin gets no contact.
TEST_F(CcdHfield, MarginShiftsTheDistanceByOneAndAHalfMargins) {
  LoadField("type=\"sphere\" size=\"0.1\"");
  PlaceLowestPoint(kIdentity, 0.13, -0.27, 0.01);
  EXPECT_TRUE(Collide(0).empty());
  EXPECT_TRUE(Collide(0.0099).empty());  // raised top 0.0099 < 0.01
  for (double margin : {0.0101, 0.05}) {
    // (with the large margin the inflated footprint also reaches the neighbouring prism)
    const std::vector<Contact> c = Collide(margin);
    ASSERT_GE(c.size(), 1u) << margin;
    EXPECT_NEAR(c[0].dist, 0.01 - 1.5 * margin, 1e-6) << margin;
    EXPECT_NEAR(c[0].frame[2], 1, 1e-6) << margin;
  }
}

// Outside the field's rectangle, under its base, or above its highest point: no contact; a
// sphere pushed into a side wall gets a horizontal normal.
TEST_F(CcdHfield, BesideUnderAndAboveTheFieldNoContactSideWallHorizontal) {
  LoadField("type=\"sphere\" size=\"0.1\"", 3, 3, "0 0 0 0 1 0 0 0 0");
  const double beside[3] = {1.11, 0, 0}, under[3] = {0.2, 0.1, -0.21}, above[3] = {0, 0, 0.31};
  for (const double* p : {beside, under, above}) {
    Pose(1, p, kIdentity);
    EXPECT_TRUE(Collide().empty()) << p[0] << " " << p[1] << " " << p[2];
  }
  const double wall[3] = {1.0995, 0.3, -0.03};  // 0.5 mm into the side x = 1, below the top
  Pose(1, wall, kIdentity);
  const std::vector<Contact> c = Collide();
  ASSERT_GE(c.size(), 1u);
  for (const Contact& con : c) {
    EXPECT_NEAR(con.dist, -5e-4, 1e-6);
    EXPECT_NEAR(con.frame[0], 1, 1e-6);  // from the field (geom 1) to the sphere
  }
}

// A large box lying across many cells of a bumpy field: one contact per touching prism, cut
// off at max_contacts.
TEST_F(CcdHfield, ContactCountStopsAtMaxContacts) {
  LoadField("type=\"box\" size=\"0.6 0.6 0.05\"", 6, 6,
            "0 1 0 1 0 1  1 0 1 0 1 0  0 1 0 1 0 1  1 0 1 0 1 0  0 1 0 1 0 1  1 0 1 0 1 0");
  const double p[3] = {0.05, 0.02, 0.2 + 0.04};
  Pose(1, p, kIdentity);
  std::vector<Contact> all(50);
  const int n = plugin_->instance->Collide(*model_, d_, 0, 1, 0, all.data(), 50);
  EXPECT_GT(n, 5);
  std::vector<Contact> few(5);
  EXPECT_EQ(plugin_->instance->Collide(*model_, d_, 0, 1, 0, few.data(), 5), 5);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(few[k].dist, all[k].dist);  // the same first contacts
}

}  // namespace
}  // namespace gauss::ccd_test

namespace gauss::ccd_test {
namespace {

// A zero field filled by a program (a copy of the Model, hfield_data written): the collider
// sees the new elevations. Here the two grid rows of a 2 x 2 field become a ramp along y.
TEST_F(CcdHfield, FieldFilledByAProgramIsCollidedWithItsNewData) {
  LoadField("type=\"sphere\" size=\"0.1\"", 2, 2, "");
  auto filled = std::make_shared<Model>(*model_);
  const int adr = filled->hfield_adr[0];
  filled->hfield_data[adr + 2] = filled->hfield_data[adr + 3] = 1;  // row 1 (y = +1) at 0.2
  model_ = filled;
  const double depth = 2e-4, y = 0.4, top = 0.2 * (y + 1) / 2;  // surface height at y
  PlaceLowestPoint(kIdentity, 0.5, y, top - depth);
  const std::vector<Contact> c = Collide();
  ASSERT_GE(c.size(), 1u);
  // the ramp rises 0.1 per metre: the sphere's centre, r - depth above the surface point under
  // it, is (r - depth) cos(theta) from the ramp's plane; normal (0, -0.1, 1) / |.|
  const double cos_theta = 1 / std::sqrt(1.01);
  EXPECT_NEAR(c[0].dist, -(0.1 - (0.1 - depth) * cos_theta), 5e-5);
  EXPECT_NEAR(c[0].frame[1], -0.1 * cos_theta, kNormalTol);
  EXPECT_NEAR(c[0].frame[2], cos_theta, kNormalTol);
}

}  // namespace
}  // namespace gauss::ccd_test
