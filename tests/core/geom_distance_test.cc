// The MuJoCo 3.x collision sensors distance, normal and fromto (core/src/geom_distance.cc),
// against closed forms on static scenes: sphere-sphere, sphere-plane (a tilted plane, measured
// from the sphere: the colliders see the pair the other way round) and two skew capsules, each
// separated and penetrating; the cutoff (beyond it: the cutoff, zero normal and points; deeper
// penetration than it: the distance clamped to -cutoff, the points not); cutoff 0; the body form
// (smallest over the bodies' geoms); geoms that never collide (contype 0) still measured. The
// compiler's refusals (both geom1 and body1, a missing side, unknown names, the same object
// twice, pairs MuJoCo 3.12 measures with its native GJK) name the element and its line.
// MuJoCo 3.12.1 cross-check: tests/reference/mjcf3_test.cc (geom_distance.xml).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// A scene of static geoms (nothing moves, no contacts: contype 0) and the sensors `sensors`.
std::string Scene(const std::string& geoms, const std::string& sensors) {
  return "<mujoco><default><geom contype=\"0\" conaffinity=\"0\"/></default><worldbody>" + geoms +
         "</worldbody><sensor>" + sensors + "</sensor></mujoco>";
}

// The values of the sensor named `name` after Forward.
struct Reading {
  const double* values;
  int dim;
  double operator[](int k) const { return values[k]; }
};

class GeomDistanceTest : public ::testing::Test {
 protected:
  void Load(const std::string& xml) {
    engine_ = std::make_unique<Engine>(LoadModelFromString(xml));
    data_ = std::make_unique<Data>(engine_->MakeData());
    engine_->Forward(*data_);
  }
  Reading Sensor(const std::string& name) const {
    const Model& m = engine_->model();
    for (int s = 0; s < m.nsensor; ++s) {
      if (m.sensor_name[s] == name) {
        return {data_->sensordata.data() + m.sensor_adr[s], m.sensor_dim[s]};
      }
    }
    ADD_FAILURE() << "no sensor " << name;
    static const double zeros[6] = {};
    return {zeros, 6};
  }
  void ExpectVector(const std::string& name, const double* want, int n, double tol = 1e-12) {
    const Reading r = Sensor(name);
    ASSERT_EQ(r.dim, n) << name;
    for (int k = 0; k < n; ++k) EXPECT_NEAR(r[k], want[k], tol) << name << "[" << k << "]";
  }
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Data> data_;
};

TEST_F(GeomDistanceTest, SphereSphereSeparatedAndPenetrating) {
  // centers c1, c2, radii 0.1 and 0.2: distance |c2 - c1| - 0.3, points c1 + r1 u, c2 - r2 u
  const double c1[3] = {0.1, -0.2, 1}, c2[3] = {0.5, 0.1, 1.2};
  const double len = std::sqrt(0.4 * 0.4 + 0.3 * 0.3 + 0.2 * 0.2);
  const double u[3] = {0.4 / len, 0.3 / len, 0.2 / len};
  Load(Scene("<geom name=\"a\" size=\".1\" pos=\".1 -.2 1\"/>"
             "<geom name=\"b\" size=\".2\" pos=\".5 .1 1.2\"/>"
             "<geom name=\"c\" size=\".5\" pos=\".5 .1 1.2\"/>",
             "<distance name=\"d\" geom1=\"a\" geom2=\"b\" cutoff=\"1\"/>"
             "<normal name=\"n\" geom1=\"a\" geom2=\"b\" cutoff=\"1\"/>"
             "<fromto name=\"ft\" geom1=\"a\" geom2=\"b\" cutoff=\"1\"/>"
             "<distance name=\"d_in\" geom1=\"a\" geom2=\"c\" cutoff=\"1\"/>"
             "<normal name=\"n_in\" geom1=\"a\" geom2=\"c\" cutoff=\"1\"/>"
             "<fromto name=\"ft_in\" geom1=\"a\" geom2=\"c\" cutoff=\"1\"/>"));
  EXPECT_NEAR(Sensor("d")[0], len - 0.3, 1e-12);
  ExpectVector("n", u, 3);
  const double ft[6] = {c1[0] + 0.1 * u[0], c1[1] + 0.1 * u[1], c1[2] + 0.1 * u[2],
                        c2[0] - 0.2 * u[0], c2[1] - 0.2 * u[1], c2[2] - 0.2 * u[2]};
  ExpectVector("ft", ft, 6);
  // radius 0.5: they overlap by 0.6 - len; the points swap sides, so the normal turns round
  ASSERT_LT(len - 0.6, 0);
  EXPECT_NEAR(Sensor("d_in")[0], len - 0.6, 1e-12);
  const double minus_u[3] = {-u[0], -u[1], -u[2]};
  ExpectVector("n_in", minus_u, 3);
  const double ft_in[6] = {ft[0], ft[1], ft[2], c2[0] - 0.5 * u[0], c2[1] - 0.5 * u[1],
                           c2[2] - 0.5 * u[2]};
  ExpectVector("ft_in", ft_in, 6);
}

TEST_F(GeomDistanceTest, SpherePlaneEitherOrder) {
  // plane through (0, 0, 0.2) with normal (0, 0.6, 0.8); sphere radius 0.1 at (0.3, 0.5, 1):
  // height h = n.(c - p0) = 0.94, distance h - 0.1, points c - r n and c - h n
  Load(Scene("<geom name=\"p\" type=\"plane\" size=\"5 5 .1\" pos=\"0 0 .2\" "
             "zaxis=\"0 .6 .8\"/><geom name=\"s\" size=\".1\" pos=\".3 .5 1\"/>",
             "<distance name=\"sp\" geom1=\"s\" geom2=\"p\" cutoff=\"2\"/>"
             "<distance name=\"ps\" geom1=\"p\" geom2=\"s\" cutoff=\"2\"/>"
             "<normal name=\"n\" geom1=\"s\" geom2=\"p\" cutoff=\"2\"/>"
             "<fromto name=\"ft\" geom1=\"s\" geom2=\"p\" cutoff=\"2\"/>"
             "<fromto name=\"ft_ps\" geom1=\"p\" geom2=\"s\" cutoff=\"2\"/>"));
  const double n[3] = {0, 0.6, 0.8}, c[3] = {0.3, 0.5, 1};
  const double h = 0.6 * 0.5 + 0.8 * 0.8;
  EXPECT_NEAR(Sensor("sp")[0], h - 0.1, 1e-12);
  EXPECT_NEAR(Sensor("ps")[0], h - 0.1, 1e-12);
  const double down[3] = {0, -0.6, -0.8};
  ExpectVector("n", down, 3);
  const double ft[6] = {c[0] - 0.1 * n[0], c[1] - 0.1 * n[1], c[2] - 0.1 * n[2],
                        c[0] - h * n[0],   c[1] - h * n[1],   c[2] - h * n[2]};
  ExpectVector("ft", ft, 6);
  const double ft_ps[6] = {ft[3], ft[4], ft[5], ft[0], ft[1], ft[2]};
  ExpectVector("ft_ps", ft_ps, 6);
}

TEST_F(GeomDistanceTest, SkewCapsulesAndTheCutoff) {
  // axis A along x at z = 0, axis B along y at x = 0.3, z = 0.5: closest axis points (0.3, 0, 0)
  // and (0.3, 0, 0.5); radii 0.05 and 0.1: distance 0.35
  Load(Scene("<geom name=\"a\" type=\"capsule\" fromto=\"-1 0 0 1 0 0\" size=\".05\"/>"
             "<geom name=\"b\" type=\"capsule\" fromto=\".3 -1 .5 .3 1 .5\" size=\".1\"/>"
             "<geom name=\"fat\" type=\"capsule\" fromto=\".3 -1 .5 .3 1 .5\" size=\".6\"/>",
             "<distance name=\"d\" geom1=\"a\" geom2=\"b\" cutoff=\"1\"/>"
             "<fromto name=\"ft\" geom1=\"b\" geom2=\"a\" cutoff=\"1\"/>"
             "<normal name=\"n\" geom1=\"a\" geom2=\"b\" cutoff=\"1\"/>"
             "<distance name=\"far\" geom1=\"a\" geom2=\"b\" cutoff=\".3\"/>"
             "<normal name=\"far_n\" geom1=\"a\" geom2=\"b\" cutoff=\".3\"/>"
             "<fromto name=\"far_ft\" geom1=\"a\" geom2=\"b\" cutoff=\".3\"/>"
             "<distance name=\"zero\" geom1=\"a\" geom2=\"b\"/>"
             "<distance name=\"deep\" geom1=\"a\" geom2=\"fat\" cutoff=\".1\"/>"
             "<fromto name=\"deep_ft\" geom1=\"a\" geom2=\"fat\" cutoff=\".1\"/>"
             "<distance name=\"deep0\" geom1=\"a\" geom2=\"fat\"/>"));
  EXPECT_NEAR(Sensor("d")[0], 0.35, 1e-12);
  const double ft[6] = {0.3, 0, 0.4, 0.3, 0, 0.05};
  ExpectVector("ft", ft, 6);
  const double up[3] = {0, 0, 1};
  ExpectVector("n", up, 3);
  // beyond the cutoff: the cutoff, a zero normal and zero points
  EXPECT_EQ(Sensor("far")[0], 0.3);
  const double zeros[6] = {};
  ExpectVector("far_n", zeros, 3, 0);
  ExpectVector("far_ft", zeros, 6, 0);
  EXPECT_EQ(Sensor("zero")[0], 0) << "cutoff 0 sees only penetration";
  // overlap 0.15 deeper than the cutoff 0.1: the distance is clamped, the points are not
  EXPECT_EQ(Sensor("deep")[0], -0.1);
  EXPECT_NEAR(Sensor("deep0")[0], -0.15, 1e-12);
  const double deep_ft[6] = {0.3, 0, 0.05, 0.3, 0, -0.1};
  ExpectVector("deep_ft", deep_ft, 6);
}

TEST_F(GeomDistanceTest, BodyFormTakesTheClosestGeomPair) {
  // body b holds a far sphere and a near box; the world side is a geom
  Load(Scene("<geom name=\"floor\" type=\"plane\" size=\"5 5 .1\"/>"
             "<body name=\"b\" pos=\"0 0 1\"><geom size=\".1\" pos=\"0 0 .5\"/>"
             "<geom name=\"box\" type=\"box\" size=\".1 .2 .3\" euler=\"0 0 30\"/></body>",
             "<distance name=\"d\" body1=\"b\" geom2=\"floor\" cutoff=\"5\"/>"
             "<distance name=\"w\" body1=\"world\" body2=\"b\" cutoff=\"5\"/>"
             "<normal name=\"n\" body1=\"b\" body2=\"world\" cutoff=\"5\"/>"));
  EXPECT_NEAR(Sensor("d")[0], 0.7, 1e-12);  // box bottom at z = 1 - 0.3
  EXPECT_NEAR(Sensor("w")[0], 0.7, 1e-12);
  const double down[3] = {0, 0, -1};
  ExpectVector("n", down, 3);
}

TEST_F(GeomDistanceTest, ModelCompiledWithItsOwnStageTypeAndPlugin) {
  Load(Scene("<geom name=\"a\" size=\".1\"/><geom name=\"b\" size=\".1\" pos=\"1 0 0\"/>",
             "<distance geom1=\"a\" geom2=\"b\"/><normal geom1=\"a\" geom2=\"b\"/>"
             "<fromto geom1=\"a\" geom2=\"b\"/>"));
  const Model& m = engine_->model();
  ASSERT_EQ(m.nsensor, 3);
  const int dims[3] = {1, 3, 6};
  for (int s = 0; s < 3; ++s) {
    EXPECT_EQ(m.sensor_dim[s], dims[s]);
    EXPECT_EQ(m.sensor_needstage[s], Stage::kPosition);
    EXPECT_EQ(m.sensor_plugin[s], "geomdistance");
    EXPECT_EQ(m.sensor_objtype[s], ObjType::kGeom);
    EXPECT_EQ(m.sensor_refid[s], 1);
  }
  EXPECT_EQ(m.sensor_datatype[1], SensorDataType::kAxis);
  EXPECT_EQ(m.sensor_datatype[2], SensorDataType::kReal);
}

TEST(GeomDistanceErrors, RefusedWhereWritten) {
  const std::string geoms = "<geom name=\"a\" size=\".1\"/><body name=\"b\">"
                            "<geom name=\"c\" type=\"cylinder\" size=\".1 .1\" pos=\"1 0 0\"/>"
                            "<geom name=\"e\" type=\"ellipsoid\" size=\".1 .2 .3\"/></body>"
                            "<geom name=\"k\" type=\"capsule\" size=\".1 .2\" pos=\"0 2 0\"/>";
  const struct {
    const char* sensor;
    const char* expected;
  } cases[] = {
      {"<distance geom1=\"a\" body1=\"b\" geom2=\"a\"/>",
       "attribute 'body1': at most one of geom1, body1 can be given"},
      {"<normal geom1=\"a\"/>", "element 'normal': one of geom2, body2 is required"},
      {"<fromto geom2=\"a\"/>", "element 'fromto': one of geom1, body1 is required"},
      {"<distance geom1=\"zz\" geom2=\"a\"/>", "attribute 'geom1': unknown geom 'zz'"},
      {"<distance geom1=\"a\" body2=\"nobody\"/>", "attribute 'body2': unknown body 'nobody'"},
      {"<distance geom1=\"a\" geom2=\"a\"/>", "the second geom must differ from the first"},
      {"<fromto body1=\"b\" body2=\"b\"/>", "the second body must differ from the first"},
      {"<distance geom1=\"k\" geom2=\"c\"/>",
       "element 'distance': not supported yet: distance sensor between capsule and cylinder "
       "geoms beyond contact (MuJoCo 3.12 measures it with its native GJK"},
      {"<normal geom1=\"a\" geom2=\"c\"/>",
       "not supported yet: normal sensor between sphere and cylinder geoms beyond contact "
       "(MuJoCo 3.12 has an analytic sphere-cylinder collider"},
      {"<fromto geom1=\"k\" body2=\"b\"/>", "between capsule and cylinder geoms"},
  };
  for (const auto& c : cases) {
    const std::string xml = "<mujoco><worldbody>" + geoms + "</worldbody>\n<sensor>" + c.sensor +
                            "</sensor></mujoco>";
    try {
      LoadModelFromString(xml);
      ADD_FAILURE() << c.sensor << " loaded";
    } catch (const Error& e) {
      const std::string text = e.what();
      EXPECT_NE(text.find(c.expected), std::string::npos) << c.sensor << "\n  gave: " << text;
      EXPECT_EQ(e.where().line, 2) << text;  // the <sensor> line
      const std::string sensor = c.sensor;
      EXPECT_EQ(e.where().element, sensor.substr(1, sensor.find(' ') - 1)) << text;
    }
  }
}

}  // namespace
}  // namespace gauss
