// MuJoCo 3.x <mesh builtin> (core/src/mjcf/builtin_mesh.cc): the generated vertex sets of the
// cone family and the icosphere, their mass properties against closed forms, and the refusals.
// tests/reference/mjcf3_test.cc compares tests/models/mjcf3/builtin_mesh.xml with MuJoCo 3.12.1.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"
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

TEST(BuiltinMesh, BadParametersAndUnmeasuredShapesAreRefused) {
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
  for (const char* shape : {"hemisphere", "supersphere", "supertorus", "wedge", "plate"}) {
    EXPECT_NE(ErrorOf(std::string("<mesh name=\"m\" builtin=\"") + shape + "\" params=\"1\"/>")
                  .find("not supported yet: builtin mesh shape '" + std::string(shape) + "'"),
              std::string::npos) << shape;
  }
}

}  // namespace
}  // namespace gauss
