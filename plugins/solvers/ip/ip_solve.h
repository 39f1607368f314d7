// The interior-point iteration of the `ip` solver (ip.cc; formulation in docs/solvers.md).
#pragma once

#include "gauss/arena.h"
#include "gauss/constraint.h"
#include "gauss/model.h"

namespace gauss {
namespace ip {

struct IpSettings {
  double r_tol = 1e-8;       // on r_vio (m/s)
  double kappa_tol = 1e-8;   // on kappa_vio (N m/s)
  double kappa_init = 1e4;     // complementarity of the starting point
  double kappa_floor = 0;      // smallest central-path target; 0: kappa_tol / 5 (Algorithm 2)
  int max_iterations = 100;
  double tau_soc_max = 0.99;  // Algorithm 2's parameters
  double tau_min = 0.95;
  double backtrack = 0.5;
  // the central-path parameter at which the sensitivity products linearize (ip_sensitivity.h);
  // 0: the solve's own. Does not change the solve.
  double gradient_kappa = 0;
};

// The settings of the problem the sensitivities are taken from when gradient_kappa > 0: the same
// solve ending on the central path at gradient_kappa (kappa_floor = gradient_kappa, kappa_tol
// 1e-9 relative above it), the other settings as given.
IpSettings GradientSettings(const IpSettings& settings);

// Doubles of arena one solve takes on model m.
std::size_t IpScratch(const Model& m);
// ... on a problem of nv dofs, nefc rows of at most row_nnz nonzeros, nM entries of M.
std::size_t IpScratch(int nv, int nefc, int row_nnz, int nM, bool sparse);

// Solves p (nefc > 0) => qacc = (v+ - qvel)/h, the kernel's per-row forces, trace (capacity
// p.iterations). Converged when r_vio < r_tol and kappa_vio < kappa_tol.
SolverResult SolveInteriorPoint(const ConstraintProblem& p, const IpSettings& settings,
                                Arena& arena, double* qacc, double* force,
                                SolverIteration* trace);

}  // namespace ip
}  // namespace gauss
