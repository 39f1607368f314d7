// The analytic d qacc_smooth / d ctrl and the existing analytic velocity derivative
// (SmoothVelocityDerivative) against TransitionFD's finite differences of an euler step without
// constraints or damping, where qvel' = qvel + h qacc, so that
//   B (qvel rows) / h = d qacc / d ctrl   and   (A (qvel rows, qvel cols) - I) / h = M^-1 D.
#include "gauss/control_derivative.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gauss/derivative.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "gauss/sparse_inertia.h"
#include "gauss/transition_fd.h"

namespace gauss {
namespace {

// A 3-link arm on a slider: a motor (fixed gain), a position servo (fixed gain, affine bias),
// a general actuator with an affine gain and a velocity bias, a force-limited motor and a filter
// actuator (activation dynamics: no direct ctrl dependence).
const char* kArm = R"(
<mujoco>
  <option timestep="0.005"/>
  <worldbody>
    <body name="cart">
      <joint name="slide" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <body name="l1" pos="0 0 0.1">
        <joint name="j1" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.4 0 0.1" size="0.04"/>
        <body name="l2" pos="0.4 0 0.1">
          <joint name="j2" type="hinge" axis="0 1 0"/>
          <geom type="capsule" fromto="0 0 0 0.3 0.1 0" size="0.03"/>
          <body name="l3" pos="0.3 0.1 0">
            <joint name="j3" type="hinge" axis="1 0 0"/>
            <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.03"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="slide" gear="3"/>
    <position joint="j1" kp="20"/>
    <general joint="j2" gaintype="affine" gainprm="2 0.5 0.3" biastype="affine" biasprm="0 -1 -0.5"/>
    <motor joint="j3" gear="2" forcelimited="true" forcerange="-0.5 0.5"/>
    <general joint="j3" dyntype="filter" dynprm="0.1" gainprm="1.5"/>
  </actuator>
</mujoco>)";

struct ArmFixture : ::testing::Test {
  Engine engine{LoadModelFromString(kArm, "arm.xml"), NoConstraints()};
  Data d = engine.MakeData();
  const Model& m = engine.model();
  int nx = 2 * m.nv + m.na;

  static Config NoConstraints() {
    Config config;
    config.flags["constraint"] = false;
    return config;
  }
  void SetState() {
    const double qpos[] = {0.1, 0.4, -0.7, 0.3};
    const double qvel[] = {0.5, -1.2, 0.8, 2.0};
    for (int i = 0; i < m.nv; ++i) d.qpos[i] = qpos[i], d.qvel[i] = qvel[i];
    const double ctrl[] = {0.3, -0.2, 0.7, 0.1, 0.4};
    for (int a = 0; a < m.nu; ++a) d.ctrl[a] = ctrl[a];
    d.act[0] = 0.2;
  }
};

TEST_F(ArmFixture, ControlDerivativeMatchesFiniteDifferences) {
  SetState();
  TransitionFD fd(engine);
  std::vector<double> A(nx * nx), B(nx * m.nu);
  fd.Compute(d, {1e-6, true}, A.data(), B.data(), nullptr, nullptr);
  engine.Forward(d);
  std::vector<double> analytic(m.nv * m.nu);
  ASSERT_TRUE(ControlAccelerationDerivative(m, d, analytic.data()));
  const double h = m.opt.timestep;
  double scale = 0;
  for (double v : analytic) scale = std::max(scale, std::fabs(v));
  ASSERT_GT(scale, 1.0);
  for (int i = 0; i < m.nv; ++i) {
    for (int a = 0; a < m.nu; ++a) {
      const double fd_value = B[(m.nv + i) * m.nu + a] / h;
      EXPECT_NEAR(fd_value, analytic[i * m.nu + a], 1e-6 * scale) << "dof " << i << " ctrl " << a;
    }
  }
  // the filter actuator moves only its activation; the force-limited motor is not clamped here
  EXPECT_EQ(analytic[3 * m.nu + 4], 0.0);
  EXPECT_NEAR(B[2 * m.nv * m.nu + 4], h / 0.1, 1e-6);
  EXPECT_NE(analytic[3 * m.nu + 3], 0.0);
}

TEST_F(ArmFixture, ClampedForceAndControlHaveZeroDerivative) {
  SetState();
  d.ctrl[3] = 5;  // force 10 beyond forcerange 0.5
  engine.Forward(d);
  std::vector<double> analytic(m.nv * m.nu);
  ASSERT_TRUE(ControlAccelerationDerivative(m, d, analytic.data()));
  for (int i = 0; i < m.nv; ++i) EXPECT_EQ(analytic[i * m.nu + 3], 0.0);
  TransitionFD fd(engine);
  std::vector<double> B(nx * m.nu);
  fd.Compute(d, {1e-6, false}, nullptr, B.data(), nullptr, nullptr);
  for (int i = 0; i < nx; ++i) EXPECT_EQ(B[i * m.nu + 3], 0.0);
}

TEST_F(ArmFixture, VelocityDerivativeMatchesFiniteDifferences) {
  SetState();
  TransitionFD fd(engine);
  std::vector<double> A(nx * nx);
  fd.Compute(d, {1e-6, true}, A.data(), nullptr, nullptr, nullptr);
  engine.Forward(d);
  std::vector<double> lower(m.nM), upper(m.nM);
  SmoothVelocityDerivative(engine, d, DerivativeTerms{}, lower.data(), upper.data());
  // M^-1 D column by column: the chain makes every pair of dofs ancestor-related, so D is full
  const double h = m.opt.timestep;
  double worst = 0, scale = 0;
  for (int j = 0; j < m.nv; ++j) {
    std::vector<double> col(m.nv, 0.0);
    for (int i = 0; i < m.nv; ++i) {
      const int lo = std::min(i, j), hi = std::max(i, j);  // hi's ancestor chain reaches lo
      int adr = m.dof_Madr[hi], k = 0;
      for (int p = hi; p != lo; p = m.dof_parentid[p]) ++k;
      col[i] = (i >= j) ? lower[adr + k] : upper[adr + k];
    }
    SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), col.data());
    for (int i = 0; i < m.nv; ++i) {
      const double fd_value = (A[(m.nv + i) * nx + m.nv + j] - (i == j ? 1.0 : 0.0)) / h;
      worst = std::max(worst, std::fabs(fd_value - col[i]));
      scale = std::max(scale, std::fabs(col[i]));
    }
  }
  ASSERT_GT(scale, 0.5);
  EXPECT_LE(worst, 1e-6 * scale);
}

// A 3.x joint actuatorfrcrange clamps the sum of the actuators' forces at the joint: the
// analytic derivative does not model that and says so.
TEST(ControlDerivative, JointActuatorForceRangeMakesItUnavailable) {
  const Engine engine(LoadModelFromString(R"(<mujoco><worldbody><body>
      <joint name="h" axis="0 1 0" actuatorfrcrange="-1 1"/><geom size="0.1" mass="1"/>
      </body></worldbody><actuator><motor joint="h"/></actuator></mujoco>)", "limited.xml"));
  Data d = engine.MakeData();
  engine.Forward(d);
  std::vector<double> out(1);
  EXPECT_FALSE(ControlAccelerationDerivative(engine.model(), d, out.data()));
}

}  // namespace
}  // namespace gauss
