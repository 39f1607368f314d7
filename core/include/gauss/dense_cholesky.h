// Dense Cholesky factorization A = L L' of a symmetric positive definite matrix, and the solve
// with its factor: the one routine every solver plugin uses (Newton's Hessian on models with a
// dense Jacobian, plugins/solvers/newton/hessian.cc; PGS's blocks of one contact or equality
// constraint, plugins/solvers/pgs/). Header-only so that PGS's tiny blocks (at most 6 x 6,
// factored in its innermost loops) are inlined where they are used. Large sparse matrices go
// to gauss/sparse_ldl.h instead.
//
// Storage: row-major n x n; only the lower triangle is read, and L overwrites it (the strict
// upper triangle is left as it was). Optionally, each row's leading zeros (its "envelope") are
// found once and skipped: they stay zero in L, so a block-diagonal or banded matrix (bodies that
// touch nothing but the world give a block-diagonal Hessian) factors at the cost of its blocks.
#pragma once

#include <algorithm>
#include <cmath>

#include "gauss/math.h"

namespace gauss {

// What DenseCholeskyFactor does with a pivot p_j = A_jj - sum_k L_jk^2 below its min_pivot.
enum class SmallPivot {
  kFail,   // stop: the matrix is not (numerically) positive definite
  kClamp,  // use min_pivot instead and go on: L L' = A + a nonnegative diagonal; a semidefinite
           // block still gets a usable factor (PGS's friction blocks at a cone's tip)
};

// Returned by DenseCholeskyFactor when every pivot was >= min_pivot.
constexpr int kCholeskyComplete = -1;

namespace detail {

// The factorization proper; kSkip: skip each row's leading zeros given by envelope (not null),
// else read every row from column 0 (envelope unused). The loops are compiled once for each:
// the per-entry envelope tests and the unknown start of each dot product cost about as much as
// the arithmetic itself in a 27 x 27 factorization (13 k of 33 k instructions).
template <bool kSkip>
int CholeskyRows(double* A, int n, double min_pivot, SmallPivot on_small, const int* envelope) {
  int first_small = kCholeskyComplete;
  for (int j = 0; j < n; ++j) {
    double* Lj = A + j * n;
    const int fj = kSkip ? envelope[j] : 0;
    double pivot = Lj[j] - math::DotN(Lj + fj, Lj + fj, j - fj);
    if (!(pivot >= min_pivot)) {
      if (first_small == kCholeskyComplete) first_small = j;
      if (on_small == SmallPivot::kFail) return j;
      pivot = min_pivot;
    }
    const double ljj = std::sqrt(pivot);
    Lj[j] = ljj;
    for (int i = j + 1; i < n; ++i) {
      const int fi = kSkip ? envelope[i] : 0;
      if (fi > j) continue;  // L_ij stays zero
      double* Li = A + i * n;
      const int f = std::max(fi, fj);
      Li[j] = (Li[j] - math::DotN(Li + f, Lj + f, j - f)) / ljj;
    }
  }
  return first_small;
}

}  // namespace detail

// Reads and writes A (n x n, lower triangle): A <- L. Writes envelope (n) when it is not null:
// envelope[i] = the first nonzero column of row i of A (<= i), and the factorization then skips
// the zeros before it; pass the same array to DenseCholeskySolve. When no row has leading zeros
// (a humanoid's Hessian: its free root couples every dof), the rows are factored by the loops
// without the envelope: every f above is 0 either way, so the result is the same bits.
// A pivot counts as small when !(p_j >= min_pivot) (so a NaN pivot is small too).
// Returns kCholeskyComplete, or the column j of the first small pivot. With SmallPivot::kFail
// the factorization stops at that column: rows 0..j-1 of A hold L's rows, the rest is partly
// reduced and must not be used to solve. With SmallPivot::kClamp every small pivot is raised to
// min_pivot (min_pivot > 0 keeps L finite) and the factor is complete.
inline int DenseCholeskyFactor(double* A, int n, double min_pivot, SmallPivot on_small,
                               int* envelope = nullptr) {
  bool leading_zeros = false;
  if (envelope) {
    for (int i = 0; i < n; ++i) {
      int f = 0;
      while (f < i && A[i * n + f] == 0) ++f;
      envelope[i] = f;
      leading_zeros = leading_zeros || f > 0;
    }
  }
  return leading_zeros ? detail::CholeskyRows<true>(A, n, min_pivot, on_small, envelope)
                       : detail::CholeskyRows<false>(A, n, min_pivot, on_small, nullptr);
}

// Reads L and envelope (null iff it was null for DenseCholeskyFactor) of a complete factor;
// reads and writes x (n): x <- (L L')^-1 x.
inline void DenseCholeskySolve(const double* L, int n, const int* envelope, double* x) {
  // L y = x by rows
  for (int i = 0; i < n; ++i) {
    const double* Li = L + i * n;
    const int f = envelope ? envelope[i] : 0;
    x[i] = (x[i] - math::DotN(Li + f, x + f, i - f)) / Li[i];
  }
  // L' x = y by rows of L: once x[i] is known, remove its share from the earlier unknowns
  for (int i = n - 1; i >= 0; --i) {
    const double* Li = L + i * n;
    x[i] /= Li[i];
    const double xi = x[i];
    for (int k = envelope ? envelope[i] : 0; k < i; ++k) x[k] -= Li[k] * xi;
  }
}

}  // namespace gauss
