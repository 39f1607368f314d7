// Dense Cholesky factorization and solve for PGS's small blocks (a contact's or an equality
// constraint's rows: at most 6).
#pragma once

#include <algorithm>
#include <cmath>

namespace gauss {

// S = L L' in place (n x n row-major, lower triangle used). A pivot below min_pivot makes it
// return false; with `clamp`, the pivot is raised to min_pivot instead and the factorization
// goes on (a semidefinite block still yields a solution).
inline bool SmallCholesky(double* S, int n, double min_pivot, bool clamp) {
  for (int j = 0; j < n; ++j) {
    double diag = S[j * n + j];
    for (int k = 0; k < j; ++k) diag -= S[j * n + k] * S[j * n + k];
    if (!(diag >= min_pivot)) {
      if (!clamp) return false;
      diag = min_pivot;
    }
    const double l = std::sqrt(diag);
    S[j * n + j] = l;
    for (int i = j + 1; i < n; ++i) {
      double v = S[i * n + j];
      for (int k = 0; k < j; ++k) v -= S[i * n + k] * S[j * n + k];
      S[i * n + j] = v / l;
    }
  }
  return true;
}

// x = (L L')^-1 r for the factor of SmallCholesky (x and r may not alias).
inline void SmallCholeskySolve(const double* L, int n, const double* r, double* x) {
  for (int i = 0; i < n; ++i) {
    double v = r[i];
    for (int k = 0; k < i; ++k) v -= L[i * n + k] * x[k];
    x[i] = v / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    double v = x[i];
    for (int k = i + 1; k < n; ++k) v -= L[k * n + i] * x[k];
    x[i] = v / L[i * n + i];
  }
}

}  // namespace gauss
