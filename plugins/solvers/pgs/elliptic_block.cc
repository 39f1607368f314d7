// Exact block minimization for an elliptic contact in the dual problem:
//   minimize q(f) = 1/2 f'A f + g'f  over  K = {f_n >= 0, |f_t / mu| <= f_n}
// with A the contact's diagonal block of J M^-1 J' + R and g its gradient contribution from
// the other constraints. Nested exactly:
//   inner: for a fixed f_n, the best f_t on the ellipse disc {|f_t/mu| <= f_n} solves
//          (A_tt + 2 lambda Q) f_t = -(g_t + A_tn f_n), Q = diag(1/mu^2), with lambda >= 0 the
//          multiplier making the disc constraint tight (a monotone secular equation in lambda);
//   outer: F(f_n) = min over the disc is convex; its derivative (envelope theorem)
//          F'(f_n) = A_nn f_n + A_nt f_t + g_n - 2 lambda f_n  is increasing, and its root is
//          found by bracketing and Illinois/secant steps.
// The cone's tip is optimal when g lies in the dual cone: g_n >= |mu g_t|.
#include "elliptic_block.h"

#include <algorithm>
#include <cmath>

#include "gauss/dense_cholesky.h"

namespace gauss {

void SolveSpd(double* S, int k, double* x, const double* r) {
  DenseCholeskyFactor(S, k, 1e-300, SmallPivot::kClamp);
  std::copy(r, r + k, x);
  DenseCholeskySolve(S, k, nullptr, x);
}

namespace {

constexpr int kMaxDim = 6;

struct Block {
  int dim = 0;
  double A[kMaxDim * kMaxDim] = {};
  double g[kMaxDim] = {};
  double q[kMaxDim] = {};  // 1 / mu_j^2 for the friction rows (index 1..dim-1)
};

// (A_tt + 2 lambda Q) ft = -c
void FrictionAt(const Block& B, const double* c, double lambda, double* ft) {
  const int k = B.dim - 1;
  double S[(kMaxDim - 1) * (kMaxDim - 1)] = {}, r[kMaxDim] = {};
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) S[i * k + j] = B.A[(i + 1) * B.dim + (j + 1)];
    S[i * k + i] += 2 * lambda * B.q[i + 1];
    r[i] = -c[i];
  }
  SolveSpd(S, k, ft, r);
}

double QNorm(const Block& B, const double* ft) {
  double s = 0;
  for (int i = 0; i < B.dim - 1; ++i) s += B.q[i + 1] * ft[i] * ft[i];
  return std::sqrt(s);
}

// Inner problem at normal force fn > 0: writes ft and returns the multiplier lambda.
double InnerFriction(const Block& B, double fn, double* ft) {
  const int k = B.dim - 1;
  double c[kMaxDim] = {};
  for (int i = 0; i < k; ++i) c[i] = B.g[i + 1] + B.A[(i + 1) * B.dim] * fn;
  FrictionAt(B, c, 0, ft);
  if (QNorm(B, ft) <= fn) return 0;
  // psi(lambda) = 1/|ft|_Q - 1/fn is increasing and nearly linear in lambda: Newton steps,
  // safeguarded by a bracket [lo, hi] with psi(lo) < 0 < psi(hi)
  double lo = 0, hi = -1, lambda = 0;
  for (int iter = 0; iter < 100; ++iter) {
    FrictionAt(B, c, lambda, ft);
    const double norm = QNorm(B, ft);
    const double psi = 1 / norm - 1 / fn;
    if (std::fabs(psi) * fn <= 1e-15) break;
    if (psi < 0) lo = lambda; else hi = lambda;
    // d|ft|_Q/dlambda = ft'Q dft / |ft|_Q, with dft = -(A_tt + 2 lambda Q)^-1 2 Q ft
    double rhs[kMaxDim] = {}, dft[kMaxDim] = {};
    for (int i = 0; i < k; ++i) rhs[i] = 2 * B.q[i + 1] * ft[i];
    FrictionAt(B, rhs, lambda, dft);  // solves (A + 2 lambda Q) dft = -rhs
    double dnorm = 0;
    for (int i = 0; i < k; ++i) dnorm += B.q[i + 1] * ft[i] * dft[i];
    dnorm /= norm;
    const double dpsi = -dnorm / (norm * norm);
    double next = dpsi > 0 ? lambda - psi / dpsi : -1;
    const bool inside = next > lo && (hi < 0 || next < hi);
    if (!inside) next = hi < 0 ? std::max(2 * lambda, 1e-12 + lambda * 2 + 1) : 0.5 * (lo + hi);
    if (hi >= 0 && hi - lo <= 1e-16 * hi) break;
    lambda = next;
  }
  return lambda;
}

// F'(fn) for fn > 0; writes the optimal friction for this fn.
double OuterSlope(const Block& B, double fn, double* ft) {
  const double lambda = InnerFriction(B, fn, ft);
  double slope = B.A[0] * fn + B.g[0] - 2 * lambda * fn;
  for (int i = 0; i < B.dim - 1; ++i) slope += B.A[i + 1] * ft[i];
  return slope;
}

}  // namespace

double MinimizeEllipticBlock(const DualProblem& dual, double* f, int a, const Contact& c) {
  Block B;
  B.dim = c.dim;
  const int k = c.dim;
  // block of AR and the gradient from the other constraints: g = b_c + (AR f)_c - A f_c
  for (int i = 0; i < k; ++i) {
    double grad = dual.Residual(a + i, f);
    for (int j = 0; j < k; ++j) {
      B.A[i * k + j] = dual.At(a + i, a + j);
      grad -= B.A[i * k + j] * f[a + j];
    }
    B.g[i] = grad;
    if (i > 0) B.q[i] = 1 / (c.friction[i - 1] * c.friction[i - 1]);
  }

  double old_f[kMaxDim] = {}, new_f[kMaxDim] = {};
  for (int i = 0; i < k; ++i) old_f[i] = f[a + i];
  // cost change q(new) - q(old) = step'(A old + g) + 1/2 step'A step
  auto change = [&]() {
    double total = 0;
    for (int i = 0; i < k; ++i) {
      const double step = new_f[i] - old_f[i];
      double grad = B.g[i], astep = 0;
      for (int j = 0; j < k; ++j) {
        grad += B.A[i * k + j] * old_f[j];
        astep += B.A[i * k + j] * (new_f[j] - old_f[j]);
      }
      total += step * (grad + 0.5 * astep);
    }
    return total;
  };

  // tip of the cone: optimal when g is in the dual cone, g_n >= |mu g_t|
  double mu_g = 0;
  for (int i = 1; i < k; ++i) mu_g += B.g[i] * B.g[i] / B.q[i];
  if (B.g[0] >= std::sqrt(mu_g)) {
    for (int i = 0; i < k; ++i) f[a + i] = 0;
    return change();
  }

  // bracket the root of the increasing F' on (0, hi]
  double ft[kMaxDim] = {};
  double lo = 0, slope_lo = B.g[0] - std::sqrt(mu_g);  // right derivative at the tip (< 0)
  double hi = std::max(std::fabs(f[a]), (std::fabs(B.g[0]) + std::sqrt(mu_g)) / B.A[0]);
  if (!(hi > 0)) hi = 1;
  double slope_hi = OuterSlope(B, hi, ft);
  for (int iter = 0; iter < 200 && slope_hi < 0; ++iter) {
    lo = hi;
    slope_lo = slope_hi;
    hi *= 2;
    slope_hi = OuterSlope(B, hi, ft);
  }

  // Illinois regula falsi on F'(fn) = 0
  double fn = hi;
  int side = 0;
  for (int iter = 0; iter < 200; ++iter) {
    fn = (lo * slope_hi - hi * slope_lo) / (slope_hi - slope_lo);
    if (!(fn > lo && fn < hi)) fn = 0.5 * (lo + hi);
    const double slope = OuterSlope(B, fn, ft);
    if (slope == 0 || hi - lo <= 1e-15 * hi) break;
    if (slope < 0) {
      lo = fn;
      slope_lo = slope;
      if (side == -1) slope_hi *= 0.5;
      side = -1;
    } else {
      hi = fn;
      slope_hi = slope;
      if (side == 1) slope_lo *= 0.5;
      side = 1;
    }
  }
  OuterSlope(B, fn, ft);
  new_f[0] = fn;
  for (int i = 1; i < k; ++i) new_f[i] = ft[i - 1];
  for (int i = 0; i < k; ++i) f[a + i] = new_f[i];
  return change();
}

}  // namespace gauss
