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
#pragma once

#include "gauss/arena.h"
#include "gauss/constraint.h"
#include "gauss/model.h"
#include "gauss/plugin.h"

namespace gauss {

struct SolverResult {
  int iterations = 0;
  bool converged = false;  // stopped by the tolerance, not by the iteration limit
};

class ConstraintSolver : public Plugin {
 public:
  // problem => (qacc (nv), force (nefc)); trace[0..iterations) filled when not null (capacity
  // problem.iterations). Temporaries come from `scratch` (at least ScratchDoubles(m) doubles
  // free) and are released before returning. Must leave qacc = qacc_smooth and iterations = 0
  // when nefc == 0.
  SolverResult Solve(const ConstraintProblem& problem, Arena& scratch, double* qacc,
                     double* force, SolverIteration* trace) const {
    return DoSolve(problem, scratch, qacc, force, trace);
  }

 protected:
  virtual SolverResult DoSolve(const ConstraintProblem& problem, Arena& scratch, double* qacc,
                               double* force, SolverIteration* trace) const = 0;
};

}  // namespace gauss
