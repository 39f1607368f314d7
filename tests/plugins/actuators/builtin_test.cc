// The builtin actuator plugin (plugins/actuators/builtin): filterexact stays exact (and stable)
// for a time constant below the timestep where Euler's filter diverges; muscle activation
// dynamics (with MuJoCo 3.x's tausmooth blend), active (FLV) and passive force curves against their closed forms at the curves'
// knots and mid-points; activation limits and control clamping as MuJoCo 2.2.2.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"

namespace gauss::test {
namespace {

// A slide joint along x (mass 2), so that actuator_length = qpos and velocity = qvel.
std::shared_ptr<const Model> Slide(const std::string& actuators,
                                   const std::string& option = "") {
  const std::string xml = R"(<mujoco><option gravity="0 0 0" )" + option + R"(/><worldbody>
      <body><joint name="x" type="slide" axis="1 0 0"/><geom type="sphere" size=".1" mass="2"/>
      </body></worldbody><actuator>)" + actuators + R"(</actuator></mujoco>)";
  return LoadModelFromString(xml, "builtin.xml");
}

TEST(Filter, ExactFilterIsStableWhereEulerDiverges) {
  // tau = h / 4: Euler multiplies the error by (1 - h/tau) = -3 each step; the exact update
  // multiplies it by e^(-4). Zero gains keep the activations from moving the joint.
  const auto model = Slide(R"(<general joint="x" dyntype="filter" dynprm="0.0005" gainprm="0"/>
      <general joint="x" dyntype="filterexact" dynprm="0.0005" gainprm="0"/>)",
                           R"(timestep="0.002")");
  Engine engine(model);
  Data d = engine.MakeData();
  d.ctrl[0] = d.ctrl[1] = 1;
  engine.Step(d);
  EXPECT_NEAR(d.act[0], 4.0, 1e-12);                // 0 + h (1 - 0) / tau
  EXPECT_NEAR(d.act[1], 1 - std::exp(-4.0), 1e-15);  // exact first-order response
  for (int k = 1; k < 40; ++k) engine.Step(d);
  EXPECT_GT(std::fabs(d.act[0] - 1), 1e15);  // |1 - act| grows as 3^n
  EXPECT_NEAR(d.act[1], 1, 1e-15);
}

TEST(Muscle, ActivationTimeConstantsDependOnActivation) {
  // tau_act (0.5 + 1.5 a) when activating, tau_deact / (0.5 + 1.5 a) when deactivating; the
  // control is clamped to [0, 1]
  const auto model = Slide(R"(<muscle joint="x" lengthrange="0 1" timeconst="0.01 0.04"/>)");
  Engine engine(model);
  Data d = engine.MakeData();
  d.act[0] = 0.2;
  d.ctrl[0] = 1.7;
  engine.Forward(d);
  EXPECT_NEAR(d.act_dot[0], (1 - 0.2) / (0.01 * (0.5 + 1.5 * 0.2)), 1e-12);
  d.act[0] = 0.6;
  d.ctrl[0] = -3;
  engine.Forward(d);
  EXPECT_NEAR(d.act_dot[0], (0 - 0.6) / (0.04 / (0.5 + 1.5 * 0.6)), 1e-12);
}

TEST(Muscle, TausmoothBlendsTheTimeConstantsAcrossTheSwitch) {
  // MuJoCo 3.x tausmooth w = 0.4 (dynprm[2]): with du = u - act, tau = tau_d + (tau_a - tau_d)
  // S(du / w + 1/2), S the quintic smoothstep: tau_d below du = -w/2, tau_a above w/2, the
  // mean at du = 0, and act_dot continuous across du = 0 (no switch)
  const auto model =
      Slide(R"(<muscle joint="x" lengthrange="0 1" timeconst="0.01 0.04" tausmooth="0.4"/>)");
  EXPECT_EQ(model->actuator_dynprm[2], 0.4);
  Engine engine(model);
  Data d = engine.MakeData();
  const double act = 0.5;
  const double tau_a = 0.01 * (0.5 + 1.5 * act), tau_d = 0.04 / (0.5 + 1.5 * act);
  auto rate = [&](double ctrl) {
    d.act[0] = act;
    d.ctrl[0] = ctrl;
    engine.Forward(d);
    return d.act_dot[0];
  };
  EXPECT_NEAR(rate(0.75), 0.25 / tau_a, 1e-12);                 // du = w / 2 + 0.05
  EXPECT_NEAR(rate(0.2), -0.3 / tau_d, 1e-12);                  // du = -w / 2 - 0.1
  EXPECT_NEAR(rate(0.6), 0.1 / (tau_d + (tau_a - tau_d) * 0.896484375), 1e-12);  // S(3/4)
  EXPECT_NEAR(rate(0.5 + 1e-9) / 1e-9, 2 / (tau_a + tau_d), 1e-5);  // S(1/2) = 1/2
  EXPECT_NEAR(rate(0.5 + 1e-9), -rate(0.5 - 1e-9), 1e-12);
  // MuJoCo 3.12.1 refuses a negative width
  EXPECT_THROW(Slide(R"(<muscle joint="x" lengthrange="0 1" tausmooth="-0.1"/>)"), Error);
}

// Muscle on the slide with lengthrange [0, 1], range [0.75, 1.05] => optimal length
// L0 = 1 / 0.3 and normalized length L = 0.75 + 0.3 q; vmax 1.5 => V = v / 5.
// lmin 0.5, lmax 1.6 => FL knots a = 0.75, b = 1.3; fvmax 1.2, fpmax 1.3; force F = 100.
class MuscleCurves : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = Slide(R"(<muscle joint="x" lengthrange="0 1" force="100"/>)");
    engine_ = std::make_unique<Engine>(model_);
    d_ = engine_->MakeData();
  }
  // actuator_force at normalized length L, normalized velocity V and activation act
  double Force(double L, double V, double act) {
    d_.qpos[0] = (L - 0.75) / 0.3;
    d_.qvel[0] = V * 5;
    d_.act[0] = act;
    engine_->Forward(d_);
    return d_.actuator_force[0];
  }
  std::shared_ptr<const Model> model_;
  std::unique_ptr<Engine> engine_;
  Data d_;
};

TEST_F(MuscleCurves, ActiveForceLengthCurve) {
  // FL: half quadratics through (lmin, 0), (a, 1/2), (1, 1), (b, 1/2), (lmax, 0); lmin itself
  // is not sampled: a length that rounds below it falls into the branch described below
  const double cases[][2] = {{0.55, 0.02},  {0.625, 0.125}, {0.75, 0.5}, {0.875, 0.875},
                             {1.0, 1},     {1.15, 0.875},  {1.3, 0.5},  {1.45, 0.125},
                             {1.6, 0},     {1.9, 0}};
  for (const auto& c : cases) {
    // at V = 0, FV = 1; below L = 1 the passive force is zero
    const double passive = c[0] <= 1 ? 0 : Force(c[0], 0, 0);
    EXPECT_NEAR(Force(c[0], 0, 1) - passive, -100 * c[1], 1e-9) << "L = " << c[0];
  }
  // MuJoCo 2.2.2 continues the second quadratic below lmin instead of returning 0:
  // FL(0.25) = 1 - ((1 - 0.25) / 0.25)^2 / 2 = -3.5 (kept: it is the reference's behaviour)
  EXPECT_NEAR(Force(0.25, 0, 1), 350, 1e-9);
}

TEST_F(MuscleCurves, ActiveForceVelocityCurve) {
  // FV: 0 at V <= -1, (V + 1)^2 shortening, fvmax - (fvmax - 1 - V)^2 / (fvmax - 1) up to
  // fvmax - 1, then fvmax; at L = 1 (FL = 1, no passive force), activation 0.5
  const double cases[][2] = {{-1.5, 0}, {-1, 0},    {-0.5, 0.25}, {0, 1},
                             {0.1, 1.15}, {0.2, 1.2}, {0.7, 1.2}};
  for (const auto& c : cases) {
    EXPECT_NEAR(Force(1.0, c[0], 0.5), -100 * 0.5 * c[1], 1e-9) << "V = " << c[0];
  }
}

TEST_F(MuscleCurves, PassiveForceLengthCurve) {
  // FP: 0 up to L = 1, half quadratic to b = 1.3 (1/2 there), then linear with slope 1/(b-1)
  const double cases[][2] = {{0.8, 0}, {1.0, 0}, {1.15, 0.125}, {1.3, 0.5}, {1.6, 1.5}};
  for (const auto& c : cases) {
    EXPECT_NEAR(Force(c[0], 0, 0), -100 * 1.3 * c[1], 1e-9) << "L = " << c[0];
  }
}

TEST(Muscle, NegativeForceScalesWithAcc0) {
  // force -1: F = scale / acc0, acc0 = gear / mass for the slide
  const auto model = Slide(R"(<muscle joint="x" lengthrange="0 1" scale="50" gear="2"/>)");
  EXPECT_NEAR(model->actuator_acc0[0], 1.0, 1e-14);
  Engine engine(model);
  Data d = engine.MakeData();
  d.qpos[0] = 0.125;  // length gear q = 0.25, L = 0.75 + 0.25 / L0 = 0.825 (L0 = 1 / 0.3)
  d.act[0] = 1;
  engine.Forward(d);
  const double L = 0.75 + 0.25 * 0.3, x = (1 - L) / 0.25;
  EXPECT_NEAR(d.actuator_force[0], -50.0 * (1 - 0.5 * x * x), 1e-9);
}

TEST(ActivationLimits, ActrangeClampsTheIntegratedActivationOnly) {
  // MuJoCo 2.2.2: the force uses the activation as it is; the integrated activation is clamped
  const auto model = Slide(R"(<general joint="x" dyntype="integrator" actlimited="true"
      actrange="-0.5 0.5" ctrllimited="true" ctrlrange="-1 1" gainprm="2"/>)");
  Engine engine(model);
  Data d = engine.MakeData();
  d.act[0] = 2;
  d.ctrl[0] = 7;
  engine.Forward(d);
  EXPECT_EQ(d.act_dot[0], 1);         // the clamped control
  EXPECT_EQ(d.actuator_force[0], 4);  // 2 * act, act outside actrange
  EXPECT_EQ(d.ctrl[0], 7);            // the user's control is left alone
  engine.Step(d);
  EXPECT_EQ(d.act[0], 0.5);
}

TEST(VelocityDerivative, MatchesFiniteDifferencesOfTheForce) {
  // d actuator_force / d actuator_velocity for affine gains (damper: gain -kv v, input ctrl),
  // affine biases (velocity servo) and the muscle FV curve (input act), on the slide where
  // actuator_velocity = gear * qvel
  const auto model = Slide(R"(<velocity joint="x" kv="3" gear="2"/>
      <damper joint="x" kv="1.5" ctrlrange="0 2"/>
      <muscle joint="x" lengthrange="0 1" force="80"/>
      <muscle joint="x" lengthrange="-1 2" force="40" gear="-1.5"/>)");
  Engine engine(model);
  Data d = engine.MakeData();
  const double gear[4] = {2, 1, 1, -1.5};
  for (double v : {-2.0, -0.4, 0.05, 0.3, 1.0}) {
    d.qpos[0] = 0.4;
    d.qvel[0] = v;
    d.ctrl[0] = 0.2;
    d.ctrl[1] = 3;  // clamped to 2
    d.act[0] = 0.7;
    d.act[1] = 0.9;
    engine.Forward(d);
    double dfdv[4];
    ASSERT_TRUE(engine.ActuatorForceVelocityDerivative(d, dfdv));
    const double h = 1e-7;
    Data plus = d, minus = d;
    plus.qvel[0] += h;
    minus.qvel[0] -= h;
    engine.Forward(plus);
    engine.Forward(minus);
    for (int a = 0; a < 4; ++a) {
      const double fd = (plus.actuator_force[a] - minus.actuator_force[a]) / (2 * h * gear[a]);
      EXPECT_NEAR(dfdv[a], fd, 1e-6 * (1 + std::fabs(fd))) << "actuator " << a << ", v " << v;
    }
  }
  EXPECT_NEAR(d.actuator_velocity[1], d.qvel[0], 0);
}

TEST(UserTypes, AreRefusedWithAHint) {
  const auto model = Slide(R"(<general joint="x" gaintype="user"/>)");
  try {
    Engine engine(model);
    FAIL() << "the builtin plugin has no user gain";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("user gain"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gauss::test
