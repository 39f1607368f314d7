// Velocity derivatives of the smooth forces (core/src/derivative.cc): the analytic D must equal
// a central finite difference of qfrc_passive + qfrc_actuator - qfrc_bias with respect to qvel
// (on M's sparsity pattern), and the no-fill tree LU must solve (M - hD) x = b like a dense LU.
#include "gauss/derivative.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <memory>
#include <random>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"
#include "support/tree_sparse.h"

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
  const std::vector<double> dense = test::DenseFromTreeSparse(m, lower.data(), upper.data());
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      dense.data(), m.nv, m.nv);
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

// Random trees whose damped tendons and tendon actuators couple dofs of different branches:
// D(i, j) for such pairs is outside M's pattern and dropped (as in the spec and in MuJoCo 2.2.2
// and 3.12); the pairs on the pattern must still equal the finite differences, and the tree LU
// must solve M - hD like a dense LU of the same (pattern-restricted) matrix.
class RandomTreeDerivative : public ::testing::TestWithParam<unsigned> {
 protected:
  void SetUp() override {
    Config config;
    config.flags["constraint"] = false;
    const unsigned seed = GetParam();
    engine_ = std::make_unique<Engine>(
        LoadModelFromString(test::RandomTreeXml(seed, 3 + static_cast<int>(seed % 10), true)),
        config);
    d_ = engine_->MakeData();
    const Model& m = engine_->model();
    std::mt19937_64 gen(seed);
    std::normal_distribution<double> nd(0, 1);
    for (int i = 0; i < m.nv; ++i) d_.qvel[i] = nd(gen);
    for (int i = 0; i < m.nq; ++i) d_.qpos[i] += 0.3 * nd(gen);
    for (int a = 0; a < m.nu; ++a) d_.ctrl[a] = nd(gen);
    engine_->Forward(d_);
    lower_.assign(m.nM, 0);
    upper_.assign(m.nM, 0);
    SmoothVelocityDerivative(*engine_, d_, DerivativeTerms{}, lower_.data(), upper_.data());
  }
  std::unique_ptr<Engine> engine_;
  Data d_;
  std::vector<double> lower_, upper_;
};

TEST_P(RandomTreeDerivative, MatchesFiniteDifferencesOnThePattern) {
  const Model& m = engine_->model();
  const Eigen::MatrixXd D = Dense(m, lower_, upper_);
  const double h = 1e-6;
  double worst = 0, scale = 1, off_pattern = 0;
  for (int k = 0; k < m.nv; ++k) {
    Data plus = d_, minus = d_;
    plus.qvel[k] += h;
    minus.qvel[k] -= h;
    const std::vector<double> fp = SmoothForce(*engine_, plus), fm = SmoothForce(*engine_, minus);
    for (int j = 0; j < m.nv; ++j) {
      const double fd = (fp[j] - fm[j]) / (2 * h);
      scale = std::max(scale, std::fabs(fd));
      if (std::isnan(D(j, k))) {
        off_pattern = std::max(off_pattern, std::fabs(fd));
      } else {
        worst = std::max(worst, std::fabs(D(j, k) - fd));
      }
    }
  }
  RecordProperty("max_abs_error", std::to_string(worst));
  RecordProperty("largest_dropped_coupling", std::to_string(off_pattern));
  EXPECT_LE(worst / scale, 1e-6);
  if (m.ntendon > 0) {
    EXPECT_GT(off_pattern, 0.1);  // the model does couple across branches
  }
}

TEST_P(RandomTreeDerivative, TreeLUSolvesLikeDenseLU) {
  const Model& m = engine_->model();
  const double h = 0.01;
  for (int k = 0; k < m.nM; ++k) {
    lower_[k] = d_.qM[k] - h * lower_[k];
    upper_[k] = d_.qM[k] - h * upper_[k];
  }
  const Eigen::MatrixXd A =
      Dense(m, lower_, upper_).unaryExpr([](double v) { return std::isnan(v) ? 0.0 : v; });
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(m.nv, -1, 2);
  const Eigen::VectorXd expected = A.fullPivLu().solve(b);
  ASSERT_EQ(FactorTreeLU(m, lower_.data(), upper_.data()), -1);
  SolveTreeLU(m, lower_.data(), upper_.data(), b.data());
  for (int i = 0; i < m.nv; ++i) EXPECT_NEAR(b[i], expected[i], 1e-10 * (1 + std::fabs(expected[i])));
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomTreeDerivative, ::testing::Range(1u, 21u));

INSTANTIATE_TEST_SUITE_P(Models, Derivative,
                         ::testing::Values("chain_mixed.xml", "free_asymmetric.xml", "pendulum3.xml",
                                           "implicit_damped.xml",
                                           test::SharedModel("gymnasium/swimmer.xml")));

}  // namespace
}  // namespace gauss
