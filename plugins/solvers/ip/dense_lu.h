// Dense LU factorization with partial pivoting, for the interior-point solver's exact Newton
// matrix on models with a dense Jacobian (nv < 60): H = M + J' Y J is not symmetric (per cone, Y
// couples the friction rows to the normal row through Ginv cxi (h gamma/s); ip_solve.cc), so the
// shared Cholesky (gauss/dense_cholesky.h) does not apply to it; and its complementarity weights
// spread its scale over many orders of magnitude, which row pivoting tolerates where a Cholesky
// of a symmetrized approximation would lose pivots. (ip's symmetric preconditioner M + J' W J
// is factored as Newton's Hessian is.)
#pragma once

#include <cmath>
#include <utility>

namespace gauss {
namespace ip {

// A (n x n, row-major) <- its L U factors (unit L below the diagonal), piv (n) the row
// exchanges. Returns false when a column has no nonzero pivot.
inline bool LuFactor(double* A, int n, int* piv) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i) {
      if (std::fabs(A[i * n + k]) > std::fabs(A[p * n + k])) p = i;
    }
    piv[k] = p;
    if (A[p * n + k] == 0) return false;
    if (p != k) {
      for (int j = 0; j < n; ++j) std::swap(A[k * n + j], A[p * n + j]);
    }
    const double inv = 1 / A[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      double& l = A[i * n + k];
      if (l == 0) continue;
      l *= inv;
      for (int j = k + 1; j < n; ++j) A[i * n + j] -= l * A[k * n + j];
    }
  }
  return true;
}

// x (n) <- A^-1 x with the factors of LuFactor.
inline void LuSolve(const double* A, int n, const int* piv, double* x) {
  for (int k = 0; k < n; ++k) {
    if (piv[k] != k) std::swap(x[k], x[piv[k]]);
  }
  for (int i = 0; i < n; ++i) {
    double s = x[i];
    for (int j = 0; j < i; ++j) s -= A[i * n + j] * x[j];
    x[i] = s;
  }
  for (int i = n - 1; i >= 0; --i) {
    double s = x[i];
    for (int j = i + 1; j < n; ++j) s -= A[i * n + j] * x[j];
    x[i] = s / A[i * n + i];
  }
}

}  // namespace ip
}  // namespace gauss
