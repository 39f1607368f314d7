// The implicit-in-velocity integrators (plugins/integrators/implicit) on the spec's cases:
// strong damping and velocity servos at a large timestep (euler's implicit damping does not
// cover actuator damping: it diverges, implicitfast does not), a fast-spinning asymmetric free
// body (gyroscopic forces: implicit keeps the motion bounded), and a conservative pendulum (rk4
// conserves energy, implicit dissipates it); and the step against a dense solve on random trees.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "gauss/derivative.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"
#include "support/tree_sparse.h"

namespace gauss {
namespace {

Engine MakeEngine(const std::string& xml, const std::string& integrator, double timestep) {
  Config config;
  config.integrator = integrator;
  config.timestep = timestep;
  config.flags["energy"] = true;
  return Engine(LoadModelFromString(xml), config);
}

// A heavy velocity servo (kv) on a light hinge: explicit integration of the servo's damping is
// unstable once h kv / M > 2.
const char* kServo = R"(
  <mujoco>
    <option gravity="0 0 0"/>
    <worldbody><body><joint name="j" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="0.1" contype="0" conaffinity="0"/>
    </body></worldbody>
    <actuator><velocity joint="j" kv="50"/></actuator>
  </mujoco>)";

TEST(Implicit, VelocityServoStableWhereEulerDiverges) {
  for (const char* integrator : {"euler", "implicitfast", "implicit"}) {
    Engine engine = MakeEngine(kServo, integrator, 0.02);
    Data d = engine.MakeData();
    d.qvel[0] = 1;
    double worst = 0;
    for (int k = 0; k < 200; ++k) {
      engine.Step(d);
      worst = std::max(worst, std::fabs(d.qvel[0]));
    }
    const int resets = d.warning_count[static_cast<int>(Warning::kBadQacc)] +
                       d.warning_count[static_cast<int>(Warning::kBadQvel)];
    RecordProperty(std::string(integrator) + "_max_abs_qvel", std::to_string(worst));
    if (std::string(integrator) == "euler") {
      EXPECT_TRUE(worst > 1e3 || resets > 0) << "euler should diverge, max |qvel| " << worst;
    } else {
      EXPECT_LE(worst, 1.0) << integrator;  // the servo only brakes
      EXPECT_LT(std::fabs(d.qvel[0]), 1e-6) << integrator;
      EXPECT_EQ(resets, 0) << integrator;
    }
  }
}

// An asymmetric free body spinning fast about its intermediate axis (plus a small tilt):
// gyroscopic forces are large; the kinetic energy of the torque-free motion is constant.
const char* kSpinner = R"(
  <mujoco>
    <option gravity="0 0 0"/>
    <worldbody><body><freejoint/>
      <geom type="box" size="0.3 0.1 0.02" density="1000" contype="0" conaffinity="0"/>
    </body></worldbody>
  </mujoco>)";

double SpinEnergyGrowth(const std::string& integrator, double timestep, double seconds) {
  Engine engine = MakeEngine(kSpinner, integrator, timestep);
  Data d = engine.MakeData();
  d.qvel[3] = 0.5;
  d.qvel[4] = 40;
  d.qvel[5] = 0.5;
  engine.Forward(d);
  const double e0 = d.energy[1];
  double worst = 0;
  for (int k = 0; k < static_cast<int>(seconds / timestep); ++k) {
    engine.Step(d);
    engine.ComputeEnergy(d);
    if (!std::isfinite(d.energy[1])) return INFINITY;
    worst = std::max(worst, d.energy[1] / e0);
  }
  return worst;
}

TEST(Implicit, FastSpinningAsymmetricBodyStaysBounded) {
  const double implicit = SpinEnergyGrowth("implicit", 0.01, 10);
  const double fast = SpinEnergyGrowth("implicitfast", 0.01, 10);
  RecordProperty("implicit_max_energy_ratio", std::to_string(implicit));
  RecordProperty("implicitfast_max_energy_ratio", std::to_string(fast));
  EXPECT_LE(implicit, 1.0 + 1e-9);  // implicit never gains energy here
  EXPECT_GT(fast, 1.5 * implicit);  // without the RNE derivative the spin energy grows
}

// Relative change of the total energy of the gyroscopic pendulum (a disc spinning at 200 rad/s
// on a ball-joint pendulum tilted by 0.5 rad) after `seconds`.
double GyroPendulumEnergyChange(const std::string& integrator, double seconds) {
  Config config;
  config.integrator = integrator;
  config.timestep = 0.01;
  config.flags["energy"] = true;
  Engine engine(LoadModel(test::TestModel("gyro_pendulum.xml")), config);
  Data d = engine.MakeData();
  d.qpos[0] = std::cos(0.25);
  d.qpos[1] = std::sin(0.25);
  d.qvel[3] = 200;
  engine.Forward(d);
  const double e0 = d.energy[0] + d.energy[1];
  for (int k = 0; k < static_cast<int>(seconds / 0.01); ++k) engine.Step(d);
  engine.ComputeEnergy(d);
  return (d.energy[0] + d.energy[1] - e0) / e0;
}

TEST(Implicit, GyroscopicPendulumDivergesOnlyWithoutTheRneDerivative) {
  // the spec's pendulum case: explicit treatment of the gyroscopic forces (euler, implicitfast)
  // pumps energy in and diverges; implicit stays bounded; rk4 conserves energy
  const double euler = GyroPendulumEnergyChange("euler", 15);
  const double fast = GyroPendulumEnergyChange("implicitfast", 15);
  const double implicit = GyroPendulumEnergyChange("implicit", 15);
  const double rk4 = GyroPendulumEnergyChange("rk4", 15);
  RecordProperty("euler_relative_energy_change", std::to_string(euler));
  RecordProperty("implicitfast_relative_energy_change", std::to_string(fast));
  RecordProperty("implicit_relative_energy_change", std::to_string(implicit));
  RecordProperty("rk4_relative_energy_change", std::to_string(rk4));
  EXPECT_GT(euler, 100);
  EXPECT_GT(fast, 100);
  EXPECT_LT(std::fabs(implicit), 0.01);
  EXPECT_LT(std::fabs(rk4), 1e-5);
}

// One step on random trees whose damped tendons and tendon actuators couple different branches
// equals v + h A^-1 (qfrc_smooth + qfrc_constraint) solved densely, with A = M - hD for implicit
// and M - h(D + D')/2 without the RNE term for implicitfast, D restricted to M's pattern (the
// couplings outside it dropped, as in the spec): the tree-sparse factorizations solve exactly
// that system.
TEST(Implicit, StepEqualsADenseSolveOfThePatternRestrictedSystem) {
  for (const bool fast : {false, true}) {
    for (unsigned seed = 1; seed <= 8; ++seed) {
      Config config;
      config.integrator = fast ? "implicitfast" : "implicit";
      Engine engine(LoadModelFromString(test::RandomTreeXml(seed, 3 + static_cast<int>(seed), true)),
                    config);
      const Model& m = engine.model();
      Data d = engine.MakeData();
      std::mt19937_64 gen(seed);
      std::normal_distribution<double> nd(0, 1);
      for (int i = 0; i < m.nv; ++i) d.qvel[i] = nd(gen);
      for (int a = 0; a < m.nu; ++a) d.ctrl[a] = nd(gen);
      engine.Forward(d);
      std::vector<double> lower(m.nM), upper(m.nM);
      DerivativeTerms terms;
      terms.rne = !fast;
      SmoothVelocityDerivative(engine, d, terms, lower.data(), upper.data());
      const auto zero_nan = [](double v) { return std::isnan(v) ? 0.0 : v; };
      using Dense = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      const std::vector<double> dm = test::DenseFromTreeSparse(m, d.qM.data(), d.qM.data());
      const std::vector<double> dd = test::DenseFromTreeSparse(m, lower.data(), upper.data());
      const Dense M = Eigen::Map<const Dense>(dm.data(), m.nv, m.nv).unaryExpr(zero_nan);
      Dense D = Eigen::Map<const Dense>(dd.data(), m.nv, m.nv).unaryExpr(zero_nan);
      if (fast) D = Dense(0.5 * (D + D.transpose()));
      const double h = m.opt.timestep;
      Eigen::VectorXd force(m.nv), expected(m.nv);
      for (int i = 0; i < m.nv; ++i) force[i] = d.qfrc_smooth[i] + d.qfrc_constraint[i];
      expected = Eigen::Map<const Eigen::VectorXd>(d.qvel.data(), m.nv) +
                 h * Dense(M - h * D).fullPivLu().solve(force);

      engine.Step(d);
      for (int i = 0; i < m.nv; ++i) {
        EXPECT_NEAR(d.qvel[i], expected[i], 1e-10 * (1 + std::fabs(expected[i])))
            << (fast ? "implicitfast" : "implicit") << ", seed " << seed << ", dof " << i;
      }
    }
  }
}

TEST(Implicit, AcceptsBuiltinActuators) {
  // every builtin actuator provides its derivative: the servo model is accepted
  EXPECT_NO_THROW(MakeEngine(kServo, "implicit", 0.01));
}

}  // namespace
}  // namespace gauss
