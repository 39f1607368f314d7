// Projected-Newton solver of a box-constrained QP (gauss/box_qp.h).
#include "gauss/box_qp.h"

namespace gauss {
namespace {

double Objective(const Eigen::MatrixXd& H, const Eigen::VectorXd& g, const Eigen::VectorXd& x) {
  return 0.5 * x.dot(H * x) + g.dot(x);
}

// The free variables' submatrix H_ff (rows and columns where `clamped` is false).
Eigen::MatrixXd FreeBlock(const Eigen::MatrixXd& H, const Eigen::Array<bool, Eigen::Dynamic, 1>& clamped) {
  const int n = static_cast<int>(H.rows());
  const int nf = static_cast<int>((!clamped).count());
  Eigen::MatrixXd Hf(nf, nf);
  for (int i = 0, fi = 0; i < n; ++i) {
    if (clamped[i]) continue;
    for (int j = 0, fj = 0; j < n; ++j) {
      if (clamped[j]) continue;
      Hf(fi, fj++) = H(i, j);
    }
    ++fi;
  }
  return Hf;
}

}  // namespace

BoxQpResult SolveBoxQp(const Eigen::MatrixXd& H, const Eigen::VectorXd& g,
                       const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                       const Eigen::VectorXd& x0, double tol, int max_iterations) {
  const int n = static_cast<int>(g.size());
  BoxQpResult r;
  r.x = x0.cwiseMax(lower).cwiseMin(upper);
  r.clamped = Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(n, false);
  double f = Objective(H, g, r.x);
  for (r.iterations = 0; r.iterations < max_iterations; ++r.iterations) {
    const Eigen::VectorXd grad = g + H * r.x;
    // clamped: on a bound with the descent direction leaving the box
    for (int i = 0; i < n; ++i) {
      r.clamped[i] = (r.x[i] <= lower[i] && grad[i] > 0) || (r.x[i] >= upper[i] && grad[i] < 0);
    }
    r.free_factor.compute(FreeBlock(H, r.clamped));
    if (r.free_factor.info() != Eigen::Success) return r;  // ok stays false
    r.ok = true;
    if (r.clamped.all()) break;
    Eigen::VectorXd grad_free((!r.clamped).count());
    for (int i = 0, fi = 0; i < n; ++i) {
      if (!r.clamped[i]) grad_free[fi++] = grad[i];
    }
    if (grad_free.norm() < tol) break;
    // Newton step on the free variables, zero on the clamped ones
    const Eigen::VectorXd step_free = -r.free_factor.solve(grad_free);
    Eigen::VectorXd step = Eigen::VectorXd::Zero(n);
    for (int i = 0, fi = 0; i < n; ++i) {
      if (!r.clamped[i]) step[i] = step_free[fi++];
    }
    const double slope = grad.dot(step);  // < 0: H_ff is positive definite
    // Armijo backtracking along the projected path
    double alpha = 1, f_new = f;
    Eigen::VectorXd x_new;
    for (; alpha > 1e-12; alpha *= 0.5) {
      x_new = (r.x + alpha * step).cwiseMax(lower).cwiseMin(upper);
      f_new = Objective(H, g, x_new);
      if (f_new - f <= 1e-4 * alpha * slope) break;
    }
    if (alpha <= 1e-12) break;  // no progress possible: at the minimizer to round-off
    // the next pass refreshes the clamped set and the factor at x_new (and stops there when
    // its free gradient vanishes), so the result's factor belongs to the returned x
    r.x = x_new;
    f = f_new;
  }
  return r;
}

}  // namespace gauss
