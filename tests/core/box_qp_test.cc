// SolveBoxQp (core/src/box_qp.cc) on problems whose minimizer is known in closed form: an
// interior minimizer equals the unconstrained Newton point, a bound that cuts it off clamps that
// variable and the others re-minimize given it, and random problems satisfy the KKT conditions
// (free gradient zero, the gradient of a variable at a bound pointing out of the box).
#include "gauss/box_qp.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

namespace gauss {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(BoxQp, InteriorMinimizerIsTheNewtonPoint) {
  Eigen::MatrixXd H(2, 2);
  H << 2, 0.5, 0.5, 1;
  const Eigen::Vector2d g(-1, 0.5);
  const Eigen::VectorXd x_star = -H.ldlt().solve(g);
  const BoxQpResult r = SolveBoxQp(H, g, Eigen::Vector2d(-10, -10), Eigen::Vector2d(10, 10),
                                   Eigen::Vector2d::Zero());
  ASSERT_TRUE(r.ok);
  EXPECT_NEAR((r.x - x_star).norm(), 0, 1e-12);
  EXPECT_FALSE(r.clamped.any());
}

TEST(BoxQp, ABoundClampsOneVariableAndTheOtherReminimizes) {
  // f = (x0 - 3)^2 + (x1 + 1)^2 + x0 x1, unconstrained minimizer (14/3, -10/3): x0 <= 1 cuts it
  // off; with x0 = 1 the best x1 solves 2 (x1 + 1) + 1 = 0, x1 = -1.5, and df/dx0 there is
  // 2 (1 - 3) - 1.5 = -5.5 < 0 (pushing past the upper bound): the clamped minimizer.
  Eigen::MatrixXd H(2, 2);
  H << 2, 1, 1, 2;
  const Eigen::Vector2d g(-6, 2);
  const BoxQpResult r =
      SolveBoxQp(H, g, Eigen::Vector2d(-kInf, -kInf), Eigen::Vector2d(1, kInf), Eigen::Vector2d(0, 0));
  ASSERT_TRUE(r.ok);
  EXPECT_NEAR(r.x[0], 1.0, 1e-14);
  EXPECT_NEAR(r.x[1], -1.5, 1e-12);
  EXPECT_TRUE(r.clamped[0]);
  EXPECT_FALSE(r.clamped[1]);
  // the factor is of the free block: H_11 = 2
  EXPECT_NEAR(r.free_factor.matrixL()(0, 0), std::sqrt(2.0), 1e-14);
}

TEST(BoxQp, RandomProblemsSatisfyKkt) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 1 + trial % 8;
    Eigen::MatrixXd L(n, n);
    for (int i = 0; i < n * n; ++i) L.data()[i] = normal(rng);
    const Eigen::MatrixXd H = L * L.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
    Eigen::VectorXd g(n), lower(n), upper(n);
    for (int i = 0; i < n; ++i) {
      g[i] = 3 * normal(rng);
      lower[i] = -std::fabs(normal(rng));
      upper[i] = std::fabs(normal(rng));
    }
    const BoxQpResult r = SolveBoxQp(H, g, lower, upper, Eigen::VectorXd::Zero(n));
    ASSERT_TRUE(r.ok);
    const Eigen::VectorXd grad = g + H * r.x;
    for (int i = 0; i < n; ++i) {
      ASSERT_GE(r.x[i], lower[i]);
      ASSERT_LE(r.x[i], upper[i]);
      if (r.x[i] <= lower[i]) {
        EXPECT_GE(grad[i], -1e-9) << "trial " << trial;
      } else if (r.x[i] >= upper[i]) {
        EXPECT_LE(grad[i], 1e-9) << "trial " << trial;
      } else {
        EXPECT_NEAR(grad[i], 0, 1e-9) << "trial " << trial;
      }
    }
  }
}

TEST(BoxQp, IndefiniteMatrixIsReported) {
  Eigen::MatrixXd H(2, 2);
  H << 1, 0, 0, -1;
  const BoxQpResult r = SolveBoxQp(H, Eigen::Vector2d(1, 1), Eigen::Vector2d(-1, -1),
                                   Eigen::Vector2d(1, 1), Eigen::Vector2d::Zero());
  EXPECT_FALSE(r.ok);
}

}  // namespace
}  // namespace gauss
