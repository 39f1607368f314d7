// Sensitivity products of the `ip` solver (the solver interface's SensitivityForward /
// SensitivityReverse, gauss/solver.h): the implicit function theorem on the relaxed optimality
// conditions of ip_solve.cc at the returned solution, at the kappa it was solved with (or at
// settings.gradient_kappa, below) (Dojo, spec 001, eq. 11 and section IV-C). With
// y = (a, f, s, xi1, eta1) the unknowns, R(y; theta) the residuals and
// theta = (qfrc_smooth, pos, vel, J) the problem data,
//   dy = -K^-1 dR/dtheta dtheta,     K = dR/dy  (the Newton matrix of the iteration).
// The complementarity rows (gamma s = kappa, xi o eta = kappa e) do not depend on theta, so
// only the dynamics and the row residuals change:
//   dR_dyn = -d qfrc_smooth - dJ' force            (qfrc_smooth includes -dM qacc, solver.h)
//   du     = C (d vel + h dJ qacc)                  the rows' velocity change (C: IpRows::Combine)
//   dR_row = dpos/h + du (equality), -(dpos/h + du) (orthant), -du (friction, friction loss)
// and Newton's elimination turns (dR_dyn, dR_row) into dy with one reduced nv x nv solve, the
// same one a Newton step makes.
//
// The state of a solve (the slacks, the cone variables, the factorization) is not part of the
// kernel's solution (qacc, force), so a cache per thread keeps it: the first product at a new
// solution solves the problem again (the iteration is deterministic: same problem, same
// warmstart, same iterates) and keeps the iteration; the products after it reuse its last
// Newton factorization.
//
// With settings.gradient_kappa > 0 the products linearize at another point: after the check,
// the same problem is solved again ending on the central path at gradient_kappa
// (GradientSettings, ip_solve.h), and the products are the implicit gradients of that relaxed
// problem (Dojo section IV-D: informative before contact is made), while the caller's solution
// stays the one at the simulation's kappa; Point gives the gradient point, at which the caller
// evaluates the rest (a change of M in d qfrc_smooth: -dM a at that point).
// Memory comes from the cache's own arena, sized when a larger problem arrives: no heap
// allocation per call after the first at a problem size.
#pragma once

#include <optional>
#include <vector>

#include "ip_iteration.h"

#include "gauss/solver.h"

namespace gauss {
namespace ip {

class IpSensitivity {
 public:
  // d_data (kernel rows, null entries: zero) => d_solution (null entries: not wanted) at the
  // solution (qacc, force) of p that the solver `owner` with `settings` returned.
  void Forward(const void* owner, const ConstraintProblem& p, const IpSettings& settings,
               const double* qacc, const double* force, const ProblemTangent& d_data,
               SolutionTangent& d_solution);
  // g_solution => g_data (aref and R: zero), the transpose of Forward's map.
  void Reverse(const void* owner, const ConstraintProblem& p, const IpSettings& settings,
               const double* qacc, const double* force, const SolutionTangent& g_solution,
               ProblemTangent& g_data);

  // The point the products linearize at (the re-solve's a and kernel forces: the solution, or
  // with settings.gradient_kappa the solution at that kappa) => point_qacc (nv), point_force
  // (nefc).
  void Point(const void* owner, const ConstraintProblem& p, const IpSettings& settings,
             const double* qacc, const double* force, double* point_qacc, double* point_force);

  // The cache of the calling thread.
  static IpSensitivity& ForThisThread();

 private:
  // Solves p again unless the cache holds this solution; throws gauss::Error when the
  // re-solve does not reproduce (qacc, force).
  void Prepare(const void* owner, const ConstraintProblem& p, const IpSettings& settings,
               const double* qacc, const double* force);
  bool Holds(const void* owner, const ConstraintProblem& p, const IpSettings& settings,
             const double* qacc, const double* force) const;
  // (dR_dyn, dR_row) in d_dyn_, d_row_ => the kernel's (d qacc, d force)
  void Solve(double* d_qacc, double* d_force);
  // The sensitivity matrix S (nv + n) x (nv + n): (da, df) per unit (dR_dyn, dR_row)
  void BuildMatrix();

  Arena arena_;
  ConstraintProblem problem_;
  IpSettings settings_;
  IpSettings gradient_settings_;  // the iteration's settings when settings_.gradient_kappa > 0
  const void* owner_ = nullptr;
  std::optional<IpIteration> iteration_;
  std::vector<double> key_;    // (nv + nefc) the (qacc, force) the cache was built for
  std::vector<double> force_;  // (nefc) the re-solve's kernel force
  std::vector<double> matrix_;  // S, column-major (column k: (da, df) for unit input k)
  bool has_matrix_ = false;
  // per-call buffers (arena, taken before the iteration)
  double* d_dyn_ = nullptr;   // (nv)
  double* d_row_ = nullptr;   // (n)
  double* da_ = nullptr;      // (nv)
  double* df_ = nullptr;      // (n)
  double* kernel_ = nullptr;  // (nefc)
  double* rows_ = nullptr;    // (n)
};

}  // namespace ip
}  // namespace gauss
