// The interior-point iteration's state and steps (ip_solve.cc), shared with the sensitivity
// products (ip_sensitivity.cc), which linearize the same Newton system at the returned solution.
#pragma once

#include <algorithm>

#include "block_lu.h"
#include "cone.h"
#include "hessian.h"
#include "ip_rows.h"
#include "ip_solve.h"

namespace gauss {
namespace ip {


// One point of the iteration.
struct Point {
  double* a;     // (nv)
  double* f;     // (n)
  double* s;     // (n)
  double* xi1;   // (ncone)
  double* eta1;  // (ncone)

  void Allocate(int nv, int n, int nc, Arena& arena) {
    a = arena.Doubles(std::max(nv, 1));
    f = arena.Doubles(std::max(n, 1));
    s = arena.Doubles(std::max(n, 1));
    xi1 = arena.Doubles(std::max(nc, 1));
    eta1 = arena.Doubles(std::max(nc, 1));
  }
  void CopyFrom(const Point& o, int nv, int n, int nc) {
    std::copy(o.a, o.a + nv, a);
    std::copy(o.f, o.f + n, f);
    std::copy(o.s, o.s + n, s);
    std::copy(o.xi1, o.xi1 + nc, xi1);
    std::copy(o.eta1, o.eta1 + nc, eta1);
  }
  // this = x + alpha dx
  void Step(const Point& x, const Point& dx, double alpha, int nv, int n, int nc) {
    for (int i = 0; i < nv; ++i) a[i] = x.a[i] + alpha * dx.a[i];
    for (int i = 0; i < n; ++i) f[i] = x.f[i] + alpha * dx.f[i];
    for (int i = 0; i < n; ++i) s[i] = x.s[i] + alpha * dx.s[i];
    for (int i = 0; i < nc; ++i) xi1[i] = x.xi1[i] + alpha * dx.xi1[i];
    for (int i = 0; i < nc; ++i) eta1[i] = x.eta1[i] + alpha * dx.eta1[i];
  }
};

// Gathers a cone's xi = (xi1, f of its friction rows) and eta = (eta1, s of its rows).
inline void GatherCone(const Point& x, const Cone& c, int j, double* xi, double* eta) {
  xi[0] = x.xi1[j];
  eta[0] = x.eta1[j];
  for (int k = 0; k < c.d; ++k) {
    xi[1 + k] = x.f[c.first + k];
    eta[1 + k] = x.s[c.first + k];
  }
}

class IpIteration {
 public:
  // Builds the rows of p and takes every array from `arena` (valid while the caller's scope
  // holds it).
  IpIteration(const ConstraintProblem& p, const IpSettings& settings, Arena& arena);

  SolverResult Run(double* qacc, double* force, SolverIteration* trace);

  // ---- sensitivities (ip_sensitivity.cc), at the point Run returned
  // (d_dyn (nv), d_row (n)): the change of the residuals R_dyn and R_row with the problem data
  // at fixed unknowns => (da (nv), df (n)) = the solution's tangent by the implicit function
  // theorem, -K^-1 (d_dyn, d_row, 0, 0) with K the Newton matrix at the solution. Reuses the
  // last factorization as GMRES's preconditioner; refactors at the solution once if that is
  // too far from K (then keeps the new factor).
  void SolutionTangent(const double* d_dyn, const double* d_row, double* da, double* df);
  const IpRows& rows() const { return rows_; }
  const Point& point() const { return x_; }

 private:
  void Start();
  // Residuals at x; returns (r_vio, kappa_vio).
  void Evaluate(const Point& x, double* r_vio, double* kappa_vio);
  double Complementarity(const Point& x) const;  // sum of gamma s and xi'eta
  // Whether every pair's complementarity is at least kCentrality times the mean (a wide
  // neighbourhood of the central path; cones measured by sqrt(det xi det eta)): iterates
  // that leave it jam at the cones' boundaries.
  bool Centered(const Point& x, double kappa) const;
  // The Newton direction dx_ toward complementarity kappa at x_ (residuals of x_ in rdyn_,
  // rrow_, rxi_); `factor` once per iteration. Without `complementarity` the complementarity
  // residual is taken as zero (sensitivities: only the data-dependent residuals change).
  // Returns false when GMRES stopped at its product limit (the factorization is too far from
  // H at x_ to precondition it).
  bool Direction(double kappa, bool factor, bool complementarity = true);
  double MaxStep(const Point& x, const Point& dx, double tau_ort, double tau_soc) const;
  void FactorPreconditioner();
  void FactorDense();
  void FactorBlocks();
  // add(a, b, c) for every term H += c J_a' J_b of the constraint part of H
  template <class Add>
  void ForEachRowPair(const Add& add) const;
  void SolveExact(double* x) const;  // x <- H^-1 x with the dense or block LU
  void ApplyH(const double* v, double* out);
  double ConditionEstimate() const;

  const ConstraintProblem& p_;
  const IpSettings& set_;
  Arena& arena_;
  double h_;
  int nv_, n_ = 0, nc_ = 0;
  IpRows rows_;
  Point x_, trial_, dx_;
  double *rdyn_, *rxi_, *rrow_, *k_, *z_, *y_, *rhs_, *tmp_;
  double* coef_;  // (n) equality and orthant rows: their exact weight in H (h/eps, h gamma/s)
  ConeElimination* elim_;
  NewtonHessian precond_;
  double velocity_scale_;
  std::size_t factor_mark_ = 0;  // the arena above it holds the preconditioner's factor
  int degree_ = 1;               // deg K (eq. 51): orthant rows + cones
  double* lu_ = nullptr;       // dense models: LU factors of H (nv x nv)
  int* piv_ = nullptr;         //   its row exchanges
  BlockLu blocks_;            // sparse models: exact block LU of H when blocks are small
  bool use_blocks_ = false;
  int* nonzero_count_ = nullptr;  // dense models: nonzero columns of each row (n)
  int* nonzero_cols_ = nullptr;   //   and their indices (n x nv)
  bool has_factor_ = false;            // Direction has factored once
  bool factored_at_solution_ = false;  // SolutionTangent has refactored at x_
};

}  // namespace ip
}  // namespace gauss
