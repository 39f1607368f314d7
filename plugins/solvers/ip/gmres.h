// Right-preconditioned restarted GMRES for the interior-point solver's Newton systems H x = b.
// H (the reduced Newton matrix, nv x nv) is not symmetric: the friction cone's bound follows
// the normal force (Dojo eq. 21), so the friction rows depend on the normal rows but not the
// other way round. The preconditioner is a symmetric positive definite approximation of H
// (its symmetric row weights, factored by Cholesky / sparse L D L'); GMRES removes the rest in
// a few products. All memory comes from the caller's arena: no heap allocation.
#pragma once

#include <cmath>

#include "gauss/arena.h"

namespace gauss {
namespace ip {

// apply_h(x, y): y = H x; apply_pinv(x): x <- P^-1 x. x (n) holds the start on entry (zeros
// are fine) and the solution on exit. Stops when |b - H x| <= rel_tol |b| (or |b| == 0), after
// at most max_products products with H. Returns the number of products used.
template <class ApplyH, class ApplyPinv>
int Gmres(int n, const double* b, double* x, double rel_tol, int restart, int max_products,
          const ApplyH& apply_h, const ApplyPinv& apply_pinv, Arena& arena) {
  ArenaScope scope(arena);
  const int m = restart;
  double* V = arena.Doubles(static_cast<std::size_t>(m + 1) * n);  // Krylov basis, by rows
  double* Hh = arena.Doubles(static_cast<std::size_t>(m + 1) * m); // Hessenberg, (m+1) x m
  double* cs = arena.Doubles(m);
  double* sn = arena.Doubles(m);
  double* g = arena.Doubles(m + 1);
  double* w = arena.Doubles(n);
  double* tmp = arena.Doubles(n);
  auto norm = [n](const double* v) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += v[i] * v[i];
    return std::sqrt(s);
  };
  const double bnorm = norm(b);
  if (bnorm == 0) {
    for (int i = 0; i < n; ++i) x[i] = 0;
    return 0;
  }
  const double target = rel_tol * bnorm;
  int products = 0;
  while (products < max_products) {
    // r = b - H x into V[0]
    apply_h(x, w);
    ++products;
    for (int i = 0; i < n; ++i) V[i] = b[i] - w[i];
    const double beta = norm(V);
    if (beta <= target) break;
    for (int i = 0; i < n; ++i) V[i] /= beta;
    for (int k = 0; k <= m; ++k) g[k] = 0;
    g[0] = beta;
    int j = 0;
    for (; j < m && products < max_products; ++j) {
      // w = H P^-1 v_j, orthogonalized against the basis (modified Gram-Schmidt)
      for (int i = 0; i < n; ++i) tmp[i] = V[j * n + i];
      apply_pinv(tmp);
      apply_h(tmp, w);
      ++products;
      for (int k = 0; k <= j; ++k) {
        double h = 0;
        for (int i = 0; i < n; ++i) h += w[i] * V[k * n + i];
        Hh[k * m + j] = h;
        for (int i = 0; i < n; ++i) w[i] -= h * V[k * n + i];
      }
      const double hn = norm(w);
      Hh[(j + 1) * m + j] = hn;
      if (hn > 0) {
        for (int i = 0; i < n; ++i) V[(j + 1) * n + i] = w[i] / hn;
      }
      // earlier rotations on the new column, then the rotation that zeroes its subdiagonal
      for (int k = 0; k < j; ++k) {
        const double a = Hh[k * m + j], c = Hh[(k + 1) * m + j];
        Hh[k * m + j] = cs[k] * a + sn[k] * c;
        Hh[(k + 1) * m + j] = -sn[k] * a + cs[k] * c;
      }
      const double a = Hh[j * m + j], c = Hh[(j + 1) * m + j];
      const double r = std::hypot(a, c);
      cs[j] = r > 0 ? a / r : 1;
      sn[j] = r > 0 ? c / r : 0;
      Hh[j * m + j] = r;
      Hh[(j + 1) * m + j] = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      if (std::fabs(g[j + 1]) <= target || hn == 0) {
        ++j;
        break;
      }
    }
    // y = R^-1 g (upper triangular, j x j), x += P^-1 (V' y)
    for (int k = j - 1; k >= 0; --k) {
      double s = g[k];
      for (int l = k + 1; l < j; ++l) s -= Hh[k * m + l] * g[l];
      g[k] = Hh[k * m + k] != 0 ? s / Hh[k * m + k] : 0;
    }
    for (int i = 0; i < n; ++i) tmp[i] = 0;
    for (int k = 0; k < j; ++k) {
      for (int i = 0; i < n; ++i) tmp[i] += g[k] * V[k * n + i];
    }
    apply_pinv(tmp);
    for (int i = 0; i < n; ++i) x[i] += tmp[i];
  }
  return products;
}

}  // namespace ip
}  // namespace gauss
