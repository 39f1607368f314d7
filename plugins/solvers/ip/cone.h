// Cone algebra of the interior-point solver (Dojo paper, spec 001, section IV-B3/B4): the
// positive orthant and second-order cones Q = {(y1, y~) : |y~| <= y1}, their Jordan product,
// the largest step that keeps a point inside its cone, and the elimination of one friction
// cone's Newton equations.
#pragma once

#include <cmath>
#include <limits>

namespace gauss {
namespace ip {

inline constexpr int kMaxConeDim = 6;  // 1 + at most 5 friction directions (condim 6)
inline constexpr double kInfiniteStep = std::numeric_limits<double>::infinity();

// Largest alpha > 0 with y + alpha dy still >= 0 (positive orthant, eq. 41 without the cap).
inline double OrthantMaxStep(double y, double dy) {
  return dy < 0 ? -y / dy : kInfiniteStep;
}

// Largest alpha > 0 with y + alpha dy still in the second-order cone of dimension n (y strictly
// inside). Exact: the first positive root of (y1 + a dy1)^2 - |y~ + a dy~|^2 = 0 on the branch
// y1 + a dy1 > 0 (the same boundary eq. 42-46 reach through the cone's scaling).
inline double SocMaxStep(const double* y, const double* dy, int n) {
  double nu = y[0] * y[0], zeta = y[0] * dy[0], A = dy[0] * dy[0];
  for (int k = 1; k < n; ++k) {
    nu -= y[k] * y[k];
    zeta -= y[k] * dy[k];
    A -= dy[k] * dy[k];
  }
  double alpha = dy[0] < 0 ? -y[0] / dy[0] : kInfiniteStep;
  // A a^2 + 2 zeta a + nu = 0, nu > 0: smallest positive root, computed without cancellation
  if (A == 0) {
    if (zeta < 0) alpha = std::fmin(alpha, -nu / (2 * zeta));
    return alpha;
  }
  const double disc = zeta * zeta - A * nu;
  if (disc < 0) return alpha;
  const double q = -(zeta + std::copysign(std::sqrt(disc), zeta));
  const double r1 = q / A, r2 = q != 0 ? nu / q : kInfiniteStep;
  if (r1 > 0) alpha = std::fmin(alpha, r1);
  if (r2 > 0) alpha = std::fmin(alpha, r2);
  return alpha;
}

// The Jordan product of two cone points (eq. 37): out = (x'y, x1 y~ + y1 x~).
inline void JordanProduct(const double* x, const double* y, int n, double* out) {
  double dot = 0;
  for (int k = 0; k < n; ++k) dot += x[k] * y[k];
  for (int k = 1; k < n; ++k) out[k] = x[0] * y[k] + y[0] * x[k];
  out[0] = dot;
}

// Elimination of one cone's linearized complementarity Arw(eta) dxi + Arw(xi) deta = -rc for
// (deta1, dxi~) when dxi1 and deta~ are given (the rest of the Newton system fixes them):
//   dxi~ = Ginv (c0 + cxi dxi1 - Q deta~),  G = eta1 I - xi~ eta~'/xi1,
//   Q = xi1 I - xi~ xi~'/xi1,  cxi = xi~ eta1/xi1 - eta~,  c0 = -rc~ + xi~ rc1/xi1,
//   deta1 = (-rc1 - eta1 dxi1 - eta~'dxi~ - xi~'deta~) / xi1.
// Writes GinvQ (d x d, row-major), Ginv cxi (d) and Ginv c0 (d), d = n - 1.
struct ConeElimination {
  int d = 0;
  double GinvQ[(kMaxConeDim - 1) * (kMaxConeDim - 1)];
  double Ginv_cxi[kMaxConeDim - 1];
  double Ginv_c0[kMaxConeDim - 1];
  double Ginv[(kMaxConeDim - 1) * (kMaxConeDim - 1)];

  // xi, eta strictly inside their cones (n = d + 1 entries each); rc the complementarity
  // residual xi o eta - kappa e.
  void Build(const double* xi, const double* eta, const double* rc, int n) {
    d = n - 1;
    const double xi1 = xi[0], eta1 = eta[0];
    const double* xt = xi + 1;
    const double* et = eta + 1;
    // G = eta1 I - u w' with u = xi~/xi1, w = eta~ (Sherman-Morrison; eta1 - w'u > 0 inside)
    double wu = 0;
    for (int k = 0; k < d; ++k) wu += et[k] * xt[k] / xi1;
    const double denom = eta1 - wu;
    for (int i = 0; i < d; ++i) {
      for (int j = 0; j < d; ++j) {
        Ginv[i * d + j] = ((i == j ? 1.0 : 0.0) + (xt[i] / xi1) * et[j] / denom) / eta1;
      }
    }
    for (int i = 0; i < d; ++i) {
      double gc = 0, g0 = 0;
      for (int k = 0; k < d; ++k) {
        const double cxi = xt[k] * eta1 / xi1 - et[k];
        const double c0 = -rc[1 + k] + xt[k] * rc[0] / xi1;
        gc += Ginv[i * d + k] * cxi;
        g0 += Ginv[i * d + k] * c0;
      }
      Ginv_cxi[i] = gc;
      Ginv_c0[i] = g0;
      for (int j = 0; j < d; ++j) {
        double s = 0;
        for (int k = 0; k < d; ++k) {
          const double q = (k == j ? xi1 : 0.0) - xt[k] * xt[j] / xi1;
          s += Ginv[i * d + k] * q;
        }
        GinvQ[i * d + j] = s;
      }
    }
  }
};

}  // namespace ip
}  // namespace gauss
