// Dense LU factorization with partial pivoting, for the variational integrator's
// finite-difference Newton matrix (small models only; the matrix lives in Data::arena).
#pragma once

#include <cmath>
#include <utility>

namespace gauss::dense {

// a (n x n, row-major) <- L and U (unit L below the diagonal); pivot[k] = the row swapped
// into row k at elimination step k. Returns the first column without a nonzero pivot, or -1.
inline int FactorLU(double* a, int* pivot, int n) {
  for (int k = 0; k < n; ++k) {
    int best = k;
    for (int i = k + 1; i < n; ++i) {
      if (std::fabs(a[i * n + k]) > std::fabs(a[best * n + k])) best = i;
    }
    pivot[k] = best;
    if (a[best * n + k] == 0) return k;
    if (best != k) {
      for (int j = 0; j < n; ++j) std::swap(a[k * n + j], a[best * n + j]);
    }
    const double inv = 1 / a[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      const double l = a[i * n + k] *= inv;
      if (l == 0) continue;
      for (int j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return -1;
}

// x (n) <- A^-1 x with the factors of FactorLU.
inline void SolveLU(const double* a, const int* pivot, int n, double* x) {
  for (int k = 0; k < n; ++k) std::swap(x[k], x[pivot[k]]);  // P x (rows were swapped whole)
  for (int i = 1; i < n; ++i) {
    for (int k = 0; k < i; ++k) x[i] -= a[i * n + k] * x[k];
  }
  for (int k = n - 1; k >= 0; --k) {
    for (int j = k + 1; j < n; ++j) x[k] -= a[k * n + j] * x[j];
    x[k] /= a[k * n + k];
  }
}

}  // namespace gauss::dense
