// A small dense quadratic program with box bounds, solved by projected Newton (Bertsekas 1982;
// the form iLQR with control limits uses, Tassa et al. 2014):
//
//   minimize  1/2 x' H x + g' x   subject to  lower <= x <= upper   (H symmetric positive definite)
//
// Each iteration fixes the variables that sit on a bound with the gradient pushing outward
// ("clamped"), takes the Newton step of the remaining ("free") variables, and backtracks along
// the projection onto the box until the objective decreases enough (Armijo). At the solution the
// free variables satisfy H_ff x_f = -(g_f + H_fc x_c) and the clamped ones are at their bounds.
//
// gauss::Ilqr (gauss/trajopt.h) uses it for the feedforward control step of each time step: the
// feedback gains of the clamped controls are zero, the free ones come from the factor of H_ff.
#pragma once

#include <Eigen/Dense>

namespace gauss {

struct BoxQpResult {
  Eigen::VectorXd x;                  // the minimizer (within the bounds)
  Eigen::Array<bool, Eigen::Dynamic, 1> clamped;  // variables held at a bound at the minimizer
  Eigen::LLT<Eigen::MatrixXd> free_factor;         // Cholesky factor of H over the free variables
  int iterations = 0;
  bool ok = false;  // false: H (or H_ff) not positive definite; x is then unchanged from x0
};

// (H (n x n), g, lower, upper (n; +-infinity for unbounded), x0: start, clamped into the box)
// => the minimizer. Stops when the free gradient's norm is below tol or after max_iterations.
BoxQpResult SolveBoxQp(const Eigen::MatrixXd& H, const Eigen::VectorXd& g,
                       const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                       const Eigen::VectorXd& x0, double tol = 1e-10, int max_iterations = 100);

}  // namespace gauss
