// Tendons (tendon.cc, wrap.cc): the moment arms ten_J are the gradient of ten_length, checked
// by central finite differences along every dof at random configurations, for fixed tendons
// and spatial tendons through sites, around spheres and cylinders (side sites outside and
// inside the obstacle) and across a pulley; plus wrapping lengths against closed-form geometry.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "data_alloc.h"
#include "dynamics_fixture.h"
#include "gauss/integrate.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "pipeline.h"
#include "support/test_support.h"
#include "tendon.h"

namespace gauss::test {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Position stages up to the tendons.
void TendonStage(const Model& m, Data& d) {
  Kinematics(m, d);
  ComPosition(m, d);
  Tendons(m, d);
}

// Random joint positions around qpos0 (random unit quaternions for ball and free joints).
void RandomPose(const Model& m, Data& d, std::mt19937_64& gen) {
  std::normal_distribution<double> nd(0, 1);
  RandomJointPositions(m, d, gen, nd, 0.3, 0.5);
}

// Largest |ten_J - dL/dq| / (1 + |ten_J|) over every tendon and dof, by central differences
// with step h along each dof (IntegratePosition moves ball/free joints on the manifold).
double WorstJacobianError(const Model& m, Data& d, double h, std::string* where) {
  TendonStage(m, d);
  const std::vector<double> jac = d.ten_J;
  double worst = 0;
  std::vector<double> dir(m.nv, 0.0);
  for (int i = 0; i < m.nv; ++i) {
    std::fill(dir.begin(), dir.end(), 0.0);
    dir[i] = 1;
    Data plus = d, minus = d;
    IntegratePosition(m, plus.qpos.data(), dir.data(), h);
    IntegratePosition(m, minus.qpos.data(), dir.data(), -h);
    TendonStage(m, plus);
    TendonStage(m, minus);
    for (int t = 0; t < m.ntendon; ++t) {
      const double fd = (plus.ten_length[t] - minus.ten_length[t]) / (2 * h);
      const double analytic = jac[t * m.nv + i];
      const double err = std::fabs(fd - analytic) / (1 + std::fabs(analytic));
      if (err > worst) {
        worst = err;
        *where = "tendon " + m.tendon_name[t] + ", dof " + std::to_string(i);
      }
    }
  }
  return worst;
}

// The model named by the parameter (it must have tendons) and a Data for it.
class TendonJacobian : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    model_ = LoadModel(GetParam());
    ASSERT_GT(model_->ntendon, 0);
    AllocateData(*model_, d_);
  }
  std::shared_ptr<const Model> model_;
  Data d_;
};

TEST_P(TendonJacobian, MatchesFiniteDifferencesOfLengths) {
  const Model& m = *model_;
  Data& d = d_;
  std::mt19937_64 gen(3);
  double worst = 0;
  std::string where;
  for (int s = 0; s < 20; ++s) {
    RandomPose(m, d, gen);
    std::string here;
    // the inside-wrap contact point comes from an iteration stopped at 1e-6, so its segment
    // directions (and the Jacobian) carry that error; every other path is exact
    const double err = WorstJacobianError(m, d, 1e-6, &here);
    if (err > worst) {
      worst = err;
      where = here + ", state " + std::to_string(s);
    }
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g", worst);
  RecordProperty("max_jacobian_error", buf);
  EXPECT_LE(worst, 1e-5) << where;
}

// Tendons clears and writes each row of ten_J only within TendonDofSpan (the rest stays zero
// from the reset): every nonzero lies in the span, and a Data that has computed other poses
// before holds bit for bit the rows of a freshly made one.
TEST_P(TendonJacobian, RowsStayWithinTheirDofSpans) {
  const Model& m = *model_;
  Data& d = d_;
  std::mt19937_64 gen(5);
  int outside = 0, narrow_rows = 0;
  for (int s = 0; s < 10; ++s) {
    RandomPose(m, d, gen);
    TendonStage(m, d);
    Data fresh;
    AllocateData(m, fresh);
    fresh.qpos = d.qpos;
    TendonStage(m, fresh);
    for (int t = 0; t < m.ntendon; ++t) {
      int begin, end;
      TendonDofSpan(m, t, &begin, &end);
      ASSERT_LE(0, begin);
      ASSERT_LE(begin, end);
      ASSERT_LE(end, m.nv);
      if (end - begin < m.nv) ++narrow_rows;
      for (int i = 0; i < m.nv; ++i) {
        const double value = d.ten_J[t * m.nv + i];
        if (value != 0 && (i < begin || i >= end)) ++outside;
        EXPECT_EQ(std::memcmp(&value, &fresh.ten_J[t * m.nv + i], sizeof(double)), 0)
            << "tendon " << t << ", dof " << i << ", pose " << s;
      }
      EXPECT_EQ(d.ten_length[t], fresh.ten_length[t]);
    }
  }
  EXPECT_EQ(outside, 0);
  RecordProperty("rows_with_a_span_narrower_than_nv", std::to_string(narrow_rows));
  // above tendon.cc's kWholeRowDofs (32) the spans are the tendons' own: tendon_grid.xml's
  // (nv = 60) must take that path, else this test would not exercise it
  if (m.nv > 32) {
    EXPECT_GT(narrow_rows, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Models, TendonJacobian,
                         ::testing::Values(TestModel("actuation_zoo.xml"),
                                           TestModel("mujoco/tendon_arm/arm26.xml"),
                                           TestModel("tendon_grid.xml")));

TEST(Tendon, FixedTendonIsLinearInJointPositions) {
  const std::shared_ptr<const Model> model = LoadModel(TestModel("actuation_zoo.xml"));
  const Model& m = *model;
  Data d;
  AllocateData(m, d);
  const int elbow = m.JointId("elbow"), slider = m.JointId("slider");
  d.qpos[m.jnt_qposadr[elbow]] = 0.4;
  d.qpos[m.jnt_qposadr[slider]] = -0.03;
  TendonStage(m, d);
  EXPECT_NEAR(d.ten_length[0], 0.7 * 0.4 - 1.5 * -0.03, 1e-15);
  EXPECT_EQ(d.ten_J[m.jnt_dofadr[elbow]], 0.7);
  EXPECT_EQ(d.ten_J[m.jnt_dofadr[slider]], -1.5);
}

TEST(Tendon, PulleyDividesTheSecondBranch) {
  // site path: anchor -> arm_tip, then (divisor 2) arm_tip -> fore_top -> free_hook
  const std::shared_ptr<const Model> model = LoadModel(TestModel("actuation_zoo.xml"));
  const Model& m = *model;
  Data d;
  AllocateData(m, d);
  std::mt19937_64 gen(8);
  RandomPose(m, d, gen);
  TendonStage(m, d);
  auto dist = [&](const char* a, const char* b) {
    double dif[3];
    math::Sub3(dif, d.site_xpos.data() + 3 * m.SiteId(a), d.site_xpos.data() + 3 * m.SiteId(b));
    return math::Norm3(dif);
  };
  const double expected = dist("anchor", "arm_tip") +
                          (dist("arm_tip", "fore_top") + dist("fore_top", "free_hook")) / 2;
  EXPECT_NEAR(d.ten_length[5], expected, 1e-14);
}

TEST(Wrap, SphereWrapMatchesClosedForm) {
  // end points at distance 2 on either side of a sphere of radius r: tangent points at angle
  // acos(r / 2) from each end direction, so the arc spans pi - 2 acos(r / 2)
  const double r = 0.5, x0[3] = {-2, 0, 0}, x1[3] = {2, 0, 0}, pos[3] = {0, 0, 0};
  const double mat[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double side[3] = {0, 0, 3};
  double points[6];
  const double arc = WrapPath(points, x0, x1, pos, mat, r, WrapType::kSphere, side);
  EXPECT_NEAR(arc, r * (kPi - 2 * std::acos(r / 2)), 1e-14);
  // the tangent points are on the side-site side, on the sphere, perpendicular to the tangents
  for (int k = 0; k < 2; ++k) {
    const double* p = points + 3 * k;
    EXPECT_NEAR(math::Norm3(p), r, 1e-14);
    EXPECT_GT(p[2], 0);
    double to_end[3];
    math::Sub3(to_end, k == 0 ? x0 : x1, p);
    EXPECT_NEAR(math::Dot3(to_end, p), 0, 1e-14);
  }
  // a segment that misses the sphere does not wrap
  const double high0[3] = {-2, 0, 1}, high1[3] = {2, 0, 1};
  EXPECT_EQ(WrapPath(points, high0, high1, pos, mat, r, WrapType::kSphere, nullptr), -1);
}

TEST(Wrap, CylinderWrapIsAHelix) {
  // ends at height 0 and 1 on opposite sides of a cylinder along z: the unrolled path is a
  // straight line, so the wrapped length is sqrt(planar^2 + rise^2) for the planar path
  const double r = 0.3, x0[3] = {-1, 0.1, 0}, x1[3] = {1, -0.1, 1}, pos[3] = {0, 0, 0};
  const double mat[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double points[6];
  const double arc = WrapPath(points, x0, x1, pos, mat, r, WrapType::kCylinder, nullptr);
  ASSERT_GT(arc, 0);
  const double l0 = std::hypot(x0[0] - points[0], x0[1] - points[1]);
  const double l1 = std::hypot(x1[0] - points[3], x1[1] - points[4]);
  const double planar_arc = std::sqrt(arc * arc - std::pow(points[5] - points[2], 2));
  const double planar = l0 + planar_arc + l1;
  double seg0[3], seg1[3];
  math::Sub3(seg0, points, x0);
  math::Sub3(seg1, x1, points + 3);
  const double total = math::Norm3(seg0) + arc + math::Norm3(seg1);
  EXPECT_NEAR(total, std::sqrt(planar * planar + 1), 1e-12);
  // tangent points on the surface
  EXPECT_NEAR(std::hypot(points[0], points[1]), r, 1e-14);
  EXPECT_NEAR(std::hypot(points[3], points[4]), r, 1e-14);
}

TEST(Wrap, InsideSideSiteTouchesTheSurfaceOnce) {
  // a side site inside the sphere: the straight segment passes beside the sphere and the path
  // is pulled onto it, touching the surface at one point where both segments make equal
  // angles with the normal (a reflection)
  const double r = 0.5, x0[3] = {-2, 1, 0}, x1[3] = {1.5, 1.2, 0}, pos[3] = {0, 0, 0};
  const double mat[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double side[3] = {0, 0.1, 0};
  double points[6];
  const double arc = WrapPath(points, x0, x1, pos, mat, r, WrapType::kSphere, side);
  ASSERT_EQ(arc, 0);
  const double* p = points;
  EXPECT_NEAR(math::Norm3(p), r, 1e-12);
  EXPECT_EQ(points[0], points[3]);
  double u0[3], u1[3], n[3];
  math::Sub3(u0, x0, p);
  math::Sub3(u1, x1, p);
  math::Normalize3(u0);
  math::Normalize3(u1);
  math::Copy3(n, p);
  math::Normalize3(n);
  EXPECT_NEAR(math::Dot3(u0, n), math::Dot3(u1, n), 1e-5);  // Newton tolerance 1e-6 on angles
}

}  // namespace
}  // namespace gauss::test
