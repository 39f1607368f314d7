// The spec's ray + friction-QCQP update of an elliptic contact in PGS (elliptic_update.h).
#include "elliptic_update.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <string>

#include "gauss/dense_cholesky.h"
#include "gauss/error.h"
#include "gauss/types.h"

namespace gauss {

namespace {

constexpr int kMaxDim = 6;
constexpr double kQpThreshold = 1e-10;  // pivots, constraint residual and Newton steps
constexpr int kQpIterations = 20;
constexpr double kUndoThreshold = 1e-10;  // largest accepted rise of the dual cost

double Dot(const double* a, const double* b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

// EllipseQP for n = N known at compile time: the same operations, in the same order, with
// the loops and the small Cholesky factorizations unrolled.
template <int N>
bool EllipseQPOf(const double* A, const double* b, const double* d, double r, double* x) {
  constexpr int n = N;
  if constexpr (N < 1) return false;
  // in y = x / d: minimize 1/2 y'(Ay)y + y'(by) over |y| <= r
  double Ay[(kMaxDim - 1) * (kMaxDim - 1)], by[kMaxDim - 1], y[kMaxDim - 1] = {};
  for (int i = 0; i < n; ++i) {
    by[i] = b[i] * d[i];
    for (int j = 0; j < n; ++j) Ay[i * n + j] = A[i * n + j] * d[i] * d[j];
  }
  // |y(lambda)|^2 with y(lambda) = -(Ay + lambda I)^-1 by decreases in lambda: Newton on
  // |y|^2 - r^2 from lambda = 0, which is the answer when the unconstrained minimum is inside
  double lambda = 0;
  for (int iter = 0; iter < kQpIterations; ++iter) {
    double L[(kMaxDim - 1) * (kMaxDim - 1)];
    std::copy(Ay, Ay + n * n, L);
    for (int i = 0; i < n; ++i) L[i * n + i] += lambda;
    if (DenseCholeskyFactor(L, n, kQpThreshold, SmallPivot::kFail) != kCholeskyComplete) {
      std::fill(x, x + n, 0.0);
      return false;
    }
    std::copy(by, by + n, y);
    DenseCholeskySolve(L, n, nullptr, y);
    for (int i = 0; i < n; ++i) y[i] = -y[i];
    const double excess = Dot(y, y, n) - r * r;
    if (excess < kQpThreshold) break;
    // d|y|^2/dlambda = -2 y'(Ay + lambda I)^-1 y
    double z[kMaxDim - 1];
    std::copy(y, y + n, z);
    DenseCholeskySolve(L, n, nullptr, z);
    const double slope = -2 * Dot(y, z, n);
    const double step = -excess / slope;
    if (step < kQpThreshold) break;
    lambda += step;
  }
  for (int i = 0; i < n; ++i) x[i] = y[i] * d[i];
  return lambda != 0;
}

// UpdateEllipticContact for contacts of dimension Dim, unrolled as EllipseQPOf.
template <int Dim>
double UpdateOf(const DualProblem& dual, double* f, int a, const Contact& c) {
  constexpr int dim = Dim;
  double A[kMaxDim * kMaxDim], res[kMaxDim], old[kMaxDim];
  dual.ContactBlock<Dim>(a, f, res, A);
  for (int i = 0; i < dim; ++i) old[i] = f[a + i];
  double* fc = f + a;

  // 1. normal update at the tip, else the ray through the current force
  if (fc[0] < kMinVal) {
    fc[0] = std::max(0.0, fc[0] - res[0] * dual.InverseDiagonal(a));
    std::fill(fc + 1, fc + dim, 0.0);
  } else {
    double Av[kMaxDim];
    for (int i = 0; i < dim; ++i) Av[i] = Dot(A + i * dim, old, dim);
    const double curvature = Dot(old, Av, dim);
    if (curvature >= kMinVal) {
      double t = -Dot(old, res, dim) / curvature;
      if (fc[0] + t * old[0] < 0) t = -1;  // not past the tip
      for (int i = 0; i < dim; ++i) fc[i] += t * old[i];
    }
  }

  // 2. friction at the new normal force: linear term from the other forces and the normal
  const int k = dim - 1;
  if (fc[0] < kMinVal) {
    std::fill(fc + 1, fc + dim, 0.0);
  } else {
    double At[(kMaxDim - 1) * (kMaxDim - 1)] = {}, bt[kMaxDim - 1] = {}, ft[kMaxDim - 1] = {};
    for (int i = 0; i < k; ++i) {
      for (int j = 0; j < k; ++j) At[i * k + j] = A[(i + 1) * dim + (j + 1)];
      bt[i] = res[i + 1] - Dot(At + i * k, old + 1, k) + A[(i + 1) * dim] * (fc[0] - old[0]);
    }
    if (EllipseQPOf<Dim - 1>(At, bt, c.friction, fc[0], ft)) {
      // on the ellipse: place the result exactly on it (the QCQP stops short by <= 1e-10)
      double s = 0;
      for (int j = 0; j < k; ++j) s += ft[j] * ft[j] / (c.friction[j] * c.friction[j]);
      const double scale = std::sqrt(fc[0] * fc[0] / std::max(kMinVal, s));
      for (int j = 0; j < k; ++j) ft[j] *= scale;
    }
    std::copy(ft, ft + k, fc + 1);
  }

  // dual cost change 1/2 delta'A delta + delta'res; undo a rise
  double delta[kMaxDim], Adelta[kMaxDim];
  for (int i = 0; i < dim; ++i) delta[i] = fc[i] - old[i];
  for (int i = 0; i < dim; ++i) Adelta[i] = Dot(A + i * dim, delta, dim);
  const double change = 0.5 * Dot(delta, Adelta, dim) + Dot(delta, res, dim);
  if (change > kUndoThreshold) {
    std::copy(old, old + dim, fc);
    return 0;
  }
  return change;
}

}  // namespace

bool EllipseQP(const double* A, const double* b, const double* d, double r, int n, double* x) {
  switch (n) {
    case 1: return EllipseQPOf<1>(A, b, d, r, x);
    case 2: return EllipseQPOf<2>(A, b, d, r, x);
    case 3: return EllipseQPOf<3>(A, b, d, r, x);
    case 4: return EllipseQPOf<4>(A, b, d, r, x);
    case 5: return EllipseQPOf<5>(A, b, d, r, x);
    default: return false;
  }
}

double UpdateEllipticContact(const DualProblem& dual, double* f, int a, const Contact& c) {
  switch (c.dim) {
    case 1: return UpdateOf<1>(dual, f, a, c);
    case 2: return UpdateOf<2>(dual, f, a, c);
    case 3: return UpdateOf<3>(dual, f, a, c);
    case 4: return UpdateOf<4>(dual, f, a, c);
    case 5: return UpdateOf<5>(dual, f, a, c);
    case 6: return UpdateOf<6>(dual, f, a, c);
    default: throw Error("solver 'pgs': an elliptic contact of dimension " +
                         std::to_string(c.dim) + " (expected 1 to 6)");
  }
}

}  // namespace gauss
