// Velocity derivatives of the smooth forces (core/src/derivative.cc): the analytic D must equal
// a central finite difference of qfrc_passive + qfrc_actuator - qfrc_bias with respect to qvel
// (on M's sparsity pattern), and the no-fill tree LU must solve (M - hD) x = b like a dense LU.
#include "gauss/derivative.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// Smooth generalized force at the engine's current state (forward dynamics stages).
std::vector<double> SmoothForce(const Engine& engine, Data& d) {
  engine.Forward(d);
  const Model& m = engine.model();
  std::vector<double> f(m.nv);
  for (int i = 0; i < m.nv; ++i) f[i] = d.qfrc_passive[i] + d.qfrc_actuator[i] - d.qfrc_bias[i];
  return f;
}

// Dense D from the two tree-sparse arrays; entries outside M's pattern are NaN.
Eigen::MatrixXd Dense(const Model& m, const std::vector<double>& lower,
                      const std::vector<double>& upper) {
  Eigen::MatrixXd out = Eigen::MatrixXd::Constant(m.nv, m.nv, std::nan(""));
  for (int i = 0; i < m.nv; ++i) {
    int adr = m.dof_Madr[i];
    out(i, i) = lower[adr];
    int a = 1;
    for (int j = m.dof_parentid[i]; j >= 0; j = m.dof_parentid[j], ++a) {
      out(i, j) = lower[adr + a];
      out(j, i) = upper[adr + a];
    }
  }
  return out;
}

class Derivative : public ::testing::TestWithParam<std::string> {};

// Model paths: test models by name, or absolute paths (e.g. the Gymnasium swimmer's fluid).
std::string ModelPath(const std::string& name) {
  return name.front() == '/' ? name : test::TestModel(name);
}

TEST_P(Derivative, MatchesFiniteDifferences) {
  Config config;
  config.flags["constraint"] = false;
  Engine engine(LoadModel(ModelPath(GetParam())), config);
  const Model& m = engine.model();
  Data d = engine.MakeData();
  std::mt19937_64 gen(4);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = 2 * nd(gen);
  for (int i = 0; i < m.nq; ++i) d.qpos[i] += 0.2 * nd(gen);
  for (int a = 0; a < m.nu; ++a) d.ctrl[a] = nd(gen);
  engine.Forward(d);  // normalizes nothing in qpos, but sets every stage for the derivative

  std::vector<double> lower(m.nM), upper(m.nM);
  SmoothVelocityDerivative(engine, d, DerivativeTerms{}, lower.data(), upper.data());
  const Eigen::MatrixXd D = Dense(m, lower, upper);

  const double h = 1e-6;
  double worst = 0, scale = 1;
  for (int k = 0; k < m.nv; ++k) {
    Data plus = d, minus = d;
    plus.qvel[k] += h;
    minus.qvel[k] -= h;
    const std::vector<double> fp = SmoothForce(engine, plus), fm = SmoothForce(engine, minus);
    for (int j = 0; j < m.nv; ++j) {
      if (std::isnan(D(j, k))) continue;  // outside M's pattern: not part of D
      const double fd = (fp[j] - fm[j]) / (2 * h);
      scale = std::max(scale, std::fabs(fd));
      worst = std::max(worst, std::fabs(D(j, k) - fd));
    }
  }
  RecordProperty("max_abs_error", std::to_string(worst));
  EXPECT_LE(worst / scale, 1e-6) << GetParam();
}

TEST_P(Derivative, TreeLUSolvesLikeDenseLU) {
  Config config;
  config.flags["constraint"] = false;
  Engine engine(LoadModel(ModelPath(GetParam())), config);
  const Model& m = engine.model();
  Data d = engine.MakeData();
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = std::sin(3.0 * i + 1);
  engine.Forward(d);
  std::vector<double> lower(m.nM), upper(m.nM);
  SmoothVelocityDerivative(engine, d, DerivativeTerms{}, lower.data(), upper.data());
  const double h = 0.01;
  for (int k = 0; k < m.nM; ++k) {
    lower[k] = d.qM[k] - h * lower[k];
    upper[k] = d.qM[k] - h * upper[k];
  }
  Eigen::MatrixXd A = Dense(m, lower, upper);
  A = A.unaryExpr([](double v) { return std::isnan(v) ? 0.0 : v; });
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(m.nv, -1, 2);
  const Eigen::VectorXd expected = A.fullPivLu().solve(b);
  ASSERT_EQ(FactorTreeLU(m, lower.data(), upper.data()), -1);
  SolveTreeLU(m, lower.data(), upper.data(), b.data());
  for (int i = 0; i < m.nv; ++i) EXPECT_NEAR(b[i], expected[i], 1e-10 * (1 + std::fabs(expected[i])));
}

INSTANTIATE_TEST_SUITE_P(Models, Derivative,
                         ::testing::Values("chain_mixed.xml", "free_asymmetric.xml", "pendulum3.xml",
                                           "implicit_damped.xml",
                                           test::SharedModel("gymnasium/swimmer.xml")));

}  // namespace
}  // namespace gauss
