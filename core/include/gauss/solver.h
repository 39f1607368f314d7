// Constraint-solver plugin interface (the spec's "Constraint solver" section).
//
// The kernel assembles the soft-constraint problem (constraint.h: rows ordered equality,
// friction loss, limit, contact, with J, R, aref and the cones) and hands the solver a
// read-only view of it. The solver returns the acceleration qacc and the constraint forces,
// plus per-iteration statistics so that solvers can be compared on convergence, not only on
// the final answer. Primal solvers share the cost and line search of primal.h.
//
// A solver sees the problem (ConstraintProblem: the rows, the contacts, the unconstrained
// dynamics, timestep and integrator) and scratch memory, never Data: it does not depend on
// Data's layout, and can be run on problems that no Data holds (tests, batches).
//
// Solution sensitivities (optional; capability kCapSolutionSensitivity). A solver may offer
// products with the derivative of its solution w = (qacc, force) with respect to the problem
// data theta = (qfrc_smooth, aref, R, J), by the implicit function theorem (Dojo paper, spec
// 001, eq. 11 and section IV-C): the solution is defined implicitly by a residual
// r(w; theta) = 0, so
//   dw/dtheta = -(dr/dw)^-1 dr/dtheta,
// and the factorization of dr/dw that the solve built is reused, leaving back-substitutions.
// For the soft-constraint problem of this kernel (constraint.h) the residual is the primal
// optimality condition, with jar = J qacc - aref, f = -ds/djar(jar; R), Hs = d^2 s/djar^2
// (the row curvatures of ConstraintCost's zones, elliptic cone blocks included):
//   r(qacc; theta) = M qacc - qfrc_smooth - J' f = 0,     dr/dqacc = M + J' Hs J =: H
// Forward mode (tangents of theta in, tangents of w out):
//   d qacc  = H^-1 (d qfrc_smooth + J' Hs d aref + J' (df/dR) dR + dJ' f - J' Hs dJ qacc)
//   d force = -Hs (J d qacc + dJ qacc - d aref) + (df/dR) dR
// Reverse mode (cotangents g of w in, cotangents of theta out), with
//   gbar = g_qacc - J' Hs g_force  and  lambda = H^-1 gbar  (H is symmetric):
//   g qfrc_smooth = lambda
//   g aref        = Hs (J lambda + g_force)
//   g R           = (df/dR)' (J lambda + g_force)       (diagonal: per row)
//   g J           = f lambda' - Hs (J lambda + g_force) qacc'
// A hard-contact solver (interior point on a complementarity problem at central-path
// parameter kappa, Dojo section IV) uses its own KKT residual r(w; theta) in the same formula;
// its products are smooth for kappa > 0 and informative through contact. Its problem reads the
// row residuals pos (contact distances) and velocities vel instead of aref and R, so its data
// are theta = (qfrc_smooth, pos, vel, J): the tangents of aref and R are ignored (their
// products are zero) and the cotangents written for them are zero. A change of M enters as
// d qfrc_smooth = -dM qacc (r depends on M qacc - qfrc_smooth only), with qacc the point the
// products linearize at (SensitivityPoint).
//
// That point is the solution itself, unless the solver takes its derivatives elsewhere: `ip`
// with gradient_kappa differentiates the same problem solved to a larger central-path kappa
// (smoother gradients, Dojo IV-D) while returning the solution at the simulation's kappa.
// SensitivityPoint gives it, so that a caller can evaluate everything else (dJ' f, the
// integrator) at the same point and obtain the exact derivative of that relaxed step.
#pragma once

#include "gauss/arena.h"
#include "gauss/constraint.h"
#include "gauss/model.h"
#include "gauss/plugin.h"

namespace gauss {

// Tangents or cotangents of the problem data (any pointer may be null: zero in, not wanted
// out). Shapes as in ConstraintProblem.
struct ProblemTangent {
  double* qfrc_smooth = nullptr;  // (nv)
  double* aref = nullptr;         // (nefc)
  double* R = nullptr;            // (nefc)
  double* J = nullptr;            // (nefc x nv) dense, row-major
  double* pos = nullptr;          // (nefc) row residuals (hard-contact solvers)
  double* vel = nullptr;          // (nefc) row velocities (hard-contact solvers)
};

// Tangents or cotangents of the solution.
struct SolutionTangent {
  double* qacc = nullptr;   // (nv)
  double* force = nullptr;  // (nefc)
};

// What a solve may hand back besides (qacc, force), when the caller asks for it through
// ConstraintProblem::byproducts: quantities at the returned solution that the solver holds
// anyway, so that the caller need not compute them again. A solver fills an item only when its
// numbers are the caller's own bit for bit (the same operations in the same order) and then
// sets the item's flag; the caller clears the flags before the solve and computes what is not
// given. A solver that fills nothing (the default) leaves the caller's path as it was.
// Not offered: the row states at the solution. A primal solver holds the states of its final
// jar, which it updated along the line search (jar + a J d), while the caller's come from a
// fresh J qacc - aref: the two can differ at round-off, and so can a state on a boundary.
struct SolveByproducts {
  // (nv) J' force at the returned force, summed as MulJT(problem, force) sums it: for each dof,
  // the rows' terms in increasing row order (exact zeros may be skipped)
  double* qfrc_constraint = nullptr;
  bool qfrc_constraint_given = false;
};

class GAUSS_API ConstraintSolver : public Plugin {
 public:
  // problem => (qacc (nv), force (nefc)); trace[0..iterations) filled when not null (capacity
  // problem.iterations). Temporaries come from `scratch` (at least ScratchDoubles(m) doubles
  // free) and are released before returning. Must leave qacc = qacc_smooth and iterations = 0
  // when nefc == 0.
  SolverResult Solve(const ConstraintProblem& problem, Arena& scratch, double* qacc,
                     double* force, SolverIteration* trace) const {
    return DoSolve(problem, scratch, qacc, force, trace);
  }

  // Doubles of memory the solver keeps between the solves of one Data
  // (ConstraintProblem::solver_memory; the engine allocates them with the Data). None unless
  // overridden.
  virtual std::size_t MemoryDoubles(const Model& m) const {
    (void)m;
    return 0;
  }

  // Sensitivity products at a solution (qacc, force) of `problem` (see the header comment):
  // forward: d_data (read) => d_solution (written); reverse: g_solution (read) => g_data
  // (written). Only for solvers whose entry declares kCapSolutionSensitivity; the others throw
  // gauss::Error saying so.
  void SensitivityForward(const ConstraintProblem& problem, const double* qacc,
                          const double* force, const ProblemTangent& d_data,
                          SolutionTangent& d_solution, Arena& scratch) const {
    DoSensitivityForward(problem, qacc, force, d_data, d_solution, scratch);
  }
  void SensitivityReverse(const ConstraintProblem& problem, const double* qacc,
                          const double* force, const SolutionTangent& g_solution,
                          ProblemTangent& g_data, Arena& scratch) const {
    DoSensitivityReverse(problem, qacc, force, g_solution, g_data, scratch);
  }
  // The point (point_qacc (nv), point_force (nefc)) at which the products above linearize for
  // the solution (qacc, force) of `problem`: (qacc, force) itself unless overridden.
  void SensitivityPoint(const ConstraintProblem& problem, const double* qacc, const double* force,
                        double* point_qacc, double* point_force, Arena& scratch) const {
    DoSensitivityPoint(problem, qacc, force, point_qacc, point_force, scratch);
  }

 protected:
  virtual SolverResult DoSolve(const ConstraintProblem& problem, Arena& scratch, double* qacc,
                               double* force, SolverIteration* trace) const = 0;
  // Both throw gauss::Error unless overridden (with kCapSolutionSensitivity in the entry).
  virtual void DoSensitivityForward(const ConstraintProblem& problem, const double* qacc,
                                    const double* force, const ProblemTangent& d_data,
                                    SolutionTangent& d_solution, Arena& scratch) const;
  virtual void DoSensitivityReverse(const ConstraintProblem& problem, const double* qacc,
                                    const double* force, const SolutionTangent& g_solution,
                                    ProblemTangent& g_data, Arena& scratch) const;
  // Copies (qacc, force) unless overridden.
  virtual void DoSensitivityPoint(const ConstraintProblem& problem, const double* qacc,
                                  const double* force, double* point_qacc, double* point_force,
                                  Arena& scratch) const;
};

}  // namespace gauss
