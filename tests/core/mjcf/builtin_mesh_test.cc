// MuJoCo 3.x <mesh builtin> (core/src/mjcf/builtin_mesh.cc): the generated vertex sets of every
// shape against the surfaces they sample, mass properties against closed forms, and the
// refusals. tests/reference/mjcf3_test.cc compares the vertex sets (builtin_vertices.xml) and
// the motion of bodies made of them (builtin_mesh.xml, builtin_shapes.xml) with MuJoCo 3.12.1.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "mjcf/parser.h"
#include "mjcf/spec.h"
#include "mjcf/xml_tree.h"
#include "support/test_support.h"

namespace gauss {
namespace {

const double kPi = 3.14159265358979323846;

std::shared_ptr<const Model> LoadMesh(const std::string& mesh) {
  return LoadModelFromString("<mujoco><asset>" + mesh +
                                 "</asset><worldbody><body><freejoint/><geom type=\"mesh\" "
                                 "mesh=\"m\"/></body></worldbody></mujoco>",
                             "builtin.xml");
}

std::string ErrorOf(const std::string& mesh) {
  return test::ErrorMessage([&] { LoadMesh(mesh); });
}

TEST(BuiltinMesh, ConesPrismsAndFrustaHaveTheirClosedFormVolumes) {
  // nedge points on the unit circle at z = -1 and at `radius` at z = +1: a regular n-gon of
  // area n/2 sin(2 pi / n) r^2; the solid is a frustum of height 2 (density 1000)
  for (int n : {3, 6, 17}) {
    for (double r : {0.0, 0.5, 1.0}) {
      auto m = LoadMesh("<mesh name=\"m\" builtin=\"cone\" params=\"" + std::to_string(n) + " " +
                        std::to_string(r) + "\"/>");
      const int nvert = r == 0 ? n + 1 : 2 * n;
      EXPECT_EQ(m->mesh_vertnum[0], nvert) << n << " " << r;
      const double a1 = n / 2.0 * std::sin(2 * kPi / n), a2 = a1 * r * r;
      const double volume = 2.0 / 3.0 * (a1 + a2 + std::sqrt(a1 * a2));
      EXPECT_NEAR(m->body_mass[1], 1000 * volume, 1e-5 * volume * 1000) << n << " " << r;
    }
  }
}

TEST(BuiltinMesh, IcospheresSubdivideOnTheUnitSphere) {
  for (int s = 0; s <= 3; ++s) {
    auto m = LoadMesh("<mesh name=\"m\" builtin=\"sphere\" params=\"" + std::to_string(s) +
                      "\" scale=\"2 2 2\"/>");
    const int nvert = 2 + 10 * (1 << (2 * s));
    ASSERT_EQ(m->mesh_vertnum[0], nvert);
    const int adr = m->mesh_vertadr[0];
    for (int v = 0; v < nvert; ++v) {
      const double* p = &m->mesh_vert[3 * (adr + v)];
      EXPECT_NEAR(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), 2, 1e-6);
    }
    // the inscribed polyhedron approaches the ball of radius 2 from below
    const double ball = 1000 * 4.0 / 3.0 * kPi * 8;
    EXPECT_LT(m->body_mass[1], ball);
    EXPECT_GT(m->body_mass[1], ball * (s == 0 ? 0.6 : s == 1 ? 0.87 : s == 2 ? 0.96 : 0.99));
  }
}

TEST(BuiltinMesh, BadParametersAreRefused) {
  EXPECT_NE(ErrorOf("<mesh name=\"m\" builtin=\"cone\" params=\"6\"/>")
                .find("takes 2 parameters, found 1"), std::string::npos);
  EXPECT_NE(ErrorOf("<mesh name=\"m\" builtin=\"cone\" params=\"2 1\"/>")
                .find("number of edges must be a whole number in [3"), std::string::npos);
  EXPECT_NE(ErrorOf("<mesh name=\"m\" builtin=\"cone\" params=\"6 1.5\"/>")
                .find("top radius must be in [0, 1]"), std::string::npos);
  EXPECT_NE(ErrorOf("<mesh name=\"m\" builtin=\"sphere\" params=\"1.5\"/>")
                .find("subdivision must be a whole number in [0, 4]"), std::string::npos);
  EXPECT_NE(ErrorOf("<mesh name=\"m\" builtin=\"sphere\" params=\"1\" vertex=\"0 0 0 1 0 0 "
                    "0 1 0 0 0 1\"/>").find("takes no file or vertex list"),
            std::string::npos);
  // the other shapes' parameter counts and ranges
  const std::pair<const char*, const char*> bad[] = {
      {"builtin=\"hemisphere\" params=\"11\"", "resolution must be a whole number in [0, 10]"},
      {"builtin=\"supersphere\" params=\"2 1 1\"", "resolution must be a whole number in [3"},
      {"builtin=\"supersphere\" params=\"4 -1 1\"", "exponent e must be in [0, inf)"},
      {"builtin=\"supertorus\" params=\"4 1.5 1 1\"", "minor radius must be in (0, 1]"},
      {"builtin=\"supertorus\" params=\"4 .5 0 1\"", "exponent s must be in (0, inf)"},
      {"builtin=\"supertorus\" params=\"4 .5 1\"", "takes 4 parameters, found 3"},
      {"builtin=\"wedge\" params=\"3 3 200 30 0\"", "fov_phi (degrees) must be in (0, 180]"},
      {"builtin=\"wedge\" params=\"3 3 60 90 0\"", "fov_theta (degrees) must be in (0, 90)"},
      {"builtin=\"wedge\" params=\"3 3 60 30 1.5\"", "gamma must be in [0, 1]"},
      {"builtin=\"plate\" params=\"0 2\"", "res_x must be a whole number in [1"}};
  // a plate is flat: its convex hull has no volume, so Gauss refuses it even when no geom uses
  // it (MuJoCo 3.12 refuses it in a geom, but keeps an unused one for tactile sensors)
  for (const char* body : {"<worldbody><body><freejoint/><geom type=\"mesh\" mesh=\"m\"/></body>"
                           "</worldbody>", ""}) {
    const std::string flat = test::ErrorMessage([&] {
      LoadModelFromString(std::string("<mujoco><asset><mesh name=\"m\" builtin=\"plate\" "
                                      "params=\"3 3\"/></asset>") + body + "</mujoco>",
                          "plate.xml");
    });
    EXPECT_NE(flat.find("all vertices lie in a plane"), std::string::npos) << flat;
  }
  for (const auto& [attributes, message] : bad) {
    EXPECT_NE(ErrorOf(std::string("<mesh name=\"m\" ") + attributes + "/>").find(message),
              std::string::npos) << attributes;
  }
}

// The generator's points (before the compiler centres and rotates the mesh).
std::vector<double> Generated(const std::string& shape, const std::string& params) {
  const mjcf::XmlElement root = mjcf::ReadXmlString(
      "<mujoco><asset><mesh name=\"m\" builtin=\"" + shape + "\" params=\"" + params +
          "\"/></asset></mujoco>",
      "generated.xml");
  mjcf::MeshSpec mesh;
  mjcf::ReadBuiltinMesh(root.children.at(0).children.at(0), &mesh);
  return mesh.vertex;
}

double Norm(const double* p) { return std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]); }

TEST(BuiltinMesh, HemispheresAreRingsOnTheUpperUnitSphereAroundAFlatBase) {
  for (int r : {0, 3, 10}) {
    const std::vector<double> v = Generated("hemisphere", std::to_string(r));
    const int rings = r + 1, n = static_cast<int>(v.size() / 3);
    ASSERT_EQ(n, 2 + 2 * rings * (rings + 1)) << r;
    int equator = 0;
    for (int i = 0; i + 1 < n; ++i) {
      EXPECT_NEAR(Norm(&v[3 * i]), 1, 1e-15);
      EXPECT_GE(v[3 * i + 2], 0);
      equator += v[3 * i + 2] == 0;
    }
    EXPECT_EQ(equator, 4 * rings);
    EXPECT_EQ(Norm(&v[3 * (n - 1)]), 0);  // the centre of the base
  }
  // the solid approaches the half ball (volume 2 pi / 3, density 1000) from below
  auto m = LoadMesh("<mesh name=\"m\" builtin=\"hemisphere\" params=\"10\"/>");
  EXPECT_LT(m->body_mass[1], 1000 * 2 * kPi / 3);
  EXPECT_GT(m->body_mass[1], 0.98 * 1000 * 2 * kPi / 3);
}

TEST(BuiltinMesh, SuperspheresAndSupertoriMeetTheirImplicitSurfaces) {
  // e = n = 1: the unit sphere; exponents 2: |x| + |y| + |z| = 1 (an octahedron's surface)
  for (const char* params : {"7 1 1", "6 2 2"}) {
    const std::vector<double> v = Generated("supersphere", params);
    ASSERT_EQ(v.size() / 3, params[0] == '7' ? 2u + 6 * 7 : 2u + 5 * 6);
    for (std::size_t i = 0; i < v.size(); i += 3) {
      const double f = params[2] == '1' ? Norm(&v[i])
                                        : std::fabs(v[i]) + std::fabs(v[i + 1]) + std::fabs(v[i + 2]);
      EXPECT_NEAR(f, 1, 1e-15) << params << " vertex " << i / 3;
    }
  }
  // s = t = 1: the torus of major radius 1 and minor radius 0.4
  const std::vector<double> t = Generated("supertorus", "9 .4 1 1");
  ASSERT_EQ(t.size() / 3, 81u);
  for (std::size_t i = 0; i < t.size(); i += 3) {
    const double ring = std::hypot(t[i], t[i + 1]) - 1;
    EXPECT_NEAR(ring * ring + t[i + 2] * t[i + 2], 0.16, 1e-15);
  }
}

TEST(BuiltinMesh, WedgesSampleTheSphereAndPlatesAFlatGrid) {
  // gamma 0: cell centres, fov_phi 60 -> phi = -40, 0, 40 degrees; fov_theta 30, 2 cells -> +-15
  const std::vector<double> w = Generated("wedge", "3 2 60 30 0");
  ASSERT_EQ(w.size(), 3u * 6);
  for (std::size_t i = 0; i < w.size(); i += 3) EXPECT_NEAR(Norm(&w[i]), 1, 1e-15);
  EXPECT_NEAR(std::asin(w[1]), -15 * kPi / 180, 1e-15);
  EXPECT_NEAR(std::atan2(w[0], -w[2]), -40 * kPi / 180, 1e-15);
  // gamma 1 bends the cell edges x -> x^5: the outer cell of 2 spans [0, 1] -> angle fov / 2,
  // the outer of 3 spans [1/3, 1] -> fov ((1/3)^5 + 1) / 2
  const std::vector<double> f = Generated("wedge", "3 2 60 30 1");
  EXPECT_NEAR(std::asin(f[1]), -15 * kPi / 180, 1e-15);
  EXPECT_NEAR(std::atan2(f[0], -f[2]), -60 * (1 + std::pow(1.0 / 3, 5)) / 2 * kPi / 180, 1e-15);
  const std::vector<double> p = Generated("plate", "2 3");
  const double want[] = {-.5, -2. / 3, -1, -.5, 0, -1, -.5, 2. / 3, -1,
                         .5,  -2. / 3, -1, .5,  0, -1, .5,  2. / 3, -1};
  ASSERT_EQ(p.size(), 18u);
  for (int i = 0; i < 18; ++i) EXPECT_NEAR(p[i], want[i], 1e-15) << i;
}

}  // namespace
}  // namespace gauss
