// The shared dense Cholesky (core/include/gauss/dense_cholesky.h) against known factors and
// against Eigen: factor and solve of SPD matrices with and without the envelope, and the
// documented results on matrices that are not positive definite (the failing column, the
// rows factored before it, the clamped factor).
#include "gauss/dense_cholesky.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace gauss {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// A = L L' with L = [2 0 0; 1 3 0; -1 2 4] (integers: every step of the factorization is exact)
constexpr double kL[9] = {2, 0, 0, 1, 3, 0, -1, 2, 4};
constexpr double kA[9] = {4, 2, -2, 2, 10, 5, -2, 5, 21};

TEST(DenseCholesky, FactorsAKnownMatrixExactly) {
  for (bool with_envelope : {false, true}) {
    double A[9];
    std::copy(kA, kA + 9, A);
    A[1] = A[2] = A[5] = 99;  // the strict upper triangle is neither read nor written
    int envelope[3];
    EXPECT_EQ(DenseCholeskyFactor(A, 3, 1e-12, SmallPivot::kFail,
                                  with_envelope ? envelope : nullptr),
              kCholeskyComplete);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j <= i; ++j) EXPECT_EQ(A[i * 3 + j], kL[i * 3 + j]) << i << "," << j;
    }
    EXPECT_EQ(A[1], 99);
    EXPECT_EQ(A[2], 99);
    EXPECT_EQ(A[5], 99);
    // A x = b with x = (1, -2, 3): b = A x = (-6, -3, 51)
    Eigen::VectorXd x = Eigen::Vector3d(-6, -3, 51);
    DenseCholeskySolve(A, 3, with_envelope ? envelope : nullptr, x.data());
    EXPECT_NEAR(x[0], 1, 1e-14);
    EXPECT_NEAR(x[1], -2, 1e-14);
    EXPECT_NEAR(x[2], 3, 1e-14);
  }
}

// A random SPD matrix with zero blocks in its rows' leading parts (as Newton's Hessian has for
// bodies touching only the world), solved with and without the envelope against Eigen's LLT.
TEST(DenseCholesky, SolvesRandomSpdMatricesWithAndWithoutEnvelope) {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n : {1, 2, 5, 6, 13, 27}) {
    RowMatrix B = RowMatrix::Zero(n, n);
    for (int i = 0; i < n; ++i) {
      const int first = (i % 4 == 0) ? i : std::max(0, i - 3);  // banded, with block breaks
      for (int j = first; j <= i; ++j) B(i, j) = u(gen);
      B(i, i) = 1 + std::fabs(B(i, i));
    }
    const RowMatrix A = B * B.transpose();
    Eigen::VectorXd b(n);
    for (int i = 0; i < n; ++i) b(i) = u(gen);
    const Eigen::VectorXd expected = A.llt().solve(b);
    for (bool with_envelope : {false, true}) {
      RowMatrix L = A;
      std::vector<int> envelope(n);
      int* env = with_envelope ? envelope.data() : nullptr;
      ASSERT_EQ(DenseCholeskyFactor(L.data(), n, 1e-12, SmallPivot::kFail, env),
                kCholeskyComplete);
      if (with_envelope) {
        for (int i = 0; i < n; ++i) {
          int first = 0;
          while (first < i && A(i, first) == 0) ++first;
          EXPECT_EQ(envelope[i], first) << "row " << i;
        }
      }
      const RowMatrix lower = L.triangularView<Eigen::Lower>();
      EXPECT_LT((lower * lower.transpose() - A).cwiseAbs().maxCoeff(), 1e-13 * A.norm()) << n;
      Eigen::VectorXd x = b;
      DenseCholeskySolve(L.data(), n, env, x.data());
      EXPECT_LT((x - expected).norm(), 1e-11 * (1 + expected.norm())) << n;
    }
  }
}

// A matrix without leading zeros in any row (a humanoid's Hessian: the free root couples every
// dof) takes the factorization without the envelope: the factor and the solve are the same bits
// as without an envelope array, and the envelope written is all zeros. With a single leading
// zero the envelope is used and the factor still agrees with the dense one to round-off.
TEST(DenseCholesky, FullRowsFactorTheSameBitsWithAndWithoutEnvelope) {
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n : {1, 3, 8, 27, 40}) {
    RowMatrix B(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) B(i, j) = u(gen);
    }
    RowMatrix A = B * B.transpose() + n * RowMatrix::Identity(n, n);
    RowMatrix plain = A, with = A;
    std::vector<int> envelope(n, -1);
    ASSERT_EQ(DenseCholeskyFactor(plain.data(), n, 1e-12, SmallPivot::kFail), kCholeskyComplete);
    ASSERT_EQ(DenseCholeskyFactor(with.data(), n, 1e-12, SmallPivot::kFail, envelope.data()),
              kCholeskyComplete);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(envelope[i], 0) << i;
      for (int j = 0; j <= i; ++j) EXPECT_EQ(with(i, j), plain(i, j)) << n << ": " << i << "," << j;
    }
    Eigen::VectorXd b(n);
    for (int i = 0; i < n; ++i) b(i) = u(gen);
    Eigen::VectorXd x_plain = b, x_with = b;
    DenseCholeskySolve(plain.data(), n, nullptr, x_plain.data());
    DenseCholeskySolve(with.data(), n, envelope.data(), x_with.data());
    for (int i = 0; i < n; ++i) EXPECT_EQ(x_with[i], x_plain[i]) << n << ": " << i;

    if (n < 3) continue;
    // one leading zero (row n-1, column 0; A stays SPD: every entry of B B' is below n in
    // magnitude, and the n I shift keeps the eigenvalues above n - |A(n-1,0)| > 0): the
    // envelope path, still the factor of A
    A(n - 1, 0) = A(0, n - 1) = 0;
    RowMatrix skipped = A;
    ASSERT_EQ(DenseCholeskyFactor(skipped.data(), n, 1e-12, SmallPivot::kFail, envelope.data()),
              kCholeskyComplete);
    EXPECT_EQ(envelope[n - 1], 1);
    const RowMatrix lower = skipped.triangularView<Eigen::Lower>();
    EXPECT_LT((lower * lower.transpose() - A).cwiseAbs().maxCoeff(), 1e-13 * A.norm()) << n;
  }
}

// Not positive definite: kFail reports the first small pivot's column and leaves the rows
// before it factored; a NaN entry is reported, not propagated as a "success".
TEST(DenseCholesky, FailsAtTheFirstNonPositivePivot) {
  // leading 2x2 minor SPD, the 3x3 matrix indefinite: pivot 2 = 1 - 1 - 1 < 0
  double A[9] = {4, 0, 0, 2, 2, 0, 2, 2, 1};
  EXPECT_EQ(DenseCholeskyFactor(A, 3, 1e-12, SmallPivot::kFail), 2);
  EXPECT_EQ(A[0], 2);
  EXPECT_EQ(A[3], 1);
  EXPECT_EQ(A[4], 1);
  // semidefinite: the zero pivot is below any positive threshold, also the smallest one
  double S[4] = {1, 0, 1, 1};
  EXPECT_EQ(DenseCholeskyFactor(S, 2, std::numeric_limits<double>::denorm_min(),
                                SmallPivot::kFail),
            1);
  double N[4] = {1, 0, std::nan(""), 1};
  EXPECT_EQ(DenseCholeskyFactor(N, 2, 1e-12, SmallPivot::kFail), 1);
  double Z[1] = {-1};
  EXPECT_EQ(DenseCholeskyFactor(Z, 1, 1e-12, SmallPivot::kFail), 0);
}

// kClamp: the small pivot is raised to min_pivot and the factor is complete and finite, equal
// to the exact factor of A + (min_pivot - pivot) e_j e_j'.
TEST(DenseCholesky, ClampRaisesSmallPivotsAndCompletes) {
  const double min_pivot = 0.25;
  double A[9] = {4, 0, 0, 2, 2, 0, 2, 2, 1};  // pivot 2 is -1
  EXPECT_EQ(DenseCholeskyFactor(A, 3, min_pivot, SmallPivot::kClamp), 2);
  EXPECT_EQ(A[8], 0.5);  // sqrt(min_pivot)
  // the factor solves (A + 1.25 e_2 e_2') x = b
  const RowMatrix fixed = (RowMatrix(3, 3) << 4, 2, 2, 2, 2, 2, 2, 2, 1 + 1.25).finished();
  Eigen::Vector3d x(1, 2, 3);
  const Eigen::Vector3d expected = fixed.llt().solve(x);
  DenseCholeskySolve(A, 3, nullptr, x.data());
  EXPECT_LT((x - expected).norm(), 1e-14 * expected.norm());
  // a semidefinite friction block at a cone's tip (PGS's use): zero matrix, clamped at 1e-300
  double Z[4] = {0, 0, 0, 0};
  EXPECT_EQ(DenseCholeskyFactor(Z, 2, 1e-300, SmallPivot::kClamp), 0);
  double z[2] = {0, 0};
  DenseCholeskySolve(Z, 2, nullptr, z);
  EXPECT_TRUE(std::isfinite(Z[0]) && std::isfinite(Z[3]) && z[0] == 0 && z[1] == 0);
}

}  // namespace
}  // namespace gauss
