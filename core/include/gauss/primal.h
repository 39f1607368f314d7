// Shared machinery of the primal constraint solvers (CG, Newton; spec eq. 8): evaluating the
// cost and gradient at an acceleration, choosing the starting point, the exact line search, and
// the scaffolding of the iteration (no rows, one step, statistics and convergence test, the
// result). Third-party primal solvers can build on it.
#pragma once

#include "gauss/arena.h"
#include "gauss/constraint.h"
#include "gauss/solver.h"

namespace gauss {

// Everything known about the primal problem at one acceleration x. Arrays point into arena
// memory owned by the caller (PrimalPoint::Allocate).
struct PrimalPoint {
  double* x = nullptr;      // (nv) acceleration
  double* Mx = nullptr;     // (nv) M x
  double* jar = nullptr;    // (nefc) J x - aref
  double* force = nullptr;  // (nefc) -ds/djar
  int* state = nullptr;     // (nefc) ConstraintState values
  double* grad = nullptr;   // (nv) M x - qfrc_smooth - J' force
  double* qfrc_constraint = nullptr;  // (nv) J' force (MulJT), which grad subtracts
  double cost = 0;

  // The arrays, for nv dofs and nefc rows (gauss/arena.h: sizing and carving).
  template <class Take>
  void Blocks(Take& take, int nv, int nefc) {
    take(&x, nv, "x");
    take(&Mx, nv, "Mx");
    take(&grad, nv, "grad");
    take(&qfrc_constraint, nv, "J' force");
    take(&jar, nefc, "jar");
    take(&force, nefc, "force");
    take(&state, nefc, "state");
  }
  void Allocate(const ConstraintProblem& p, Arena& arena);
};

// pt.x => every other field of pt.
void EvaluatePrimal(const ConstraintProblem& p, PrimalPoint& pt);

// (pt.x, pt.Mx, pt.jar) => pt.cost, pt.force, pt.state, pt.grad: EvaluatePrimal without the
// products with M and J, for a point whose products were updated along a direction.
void EvaluatePrimalFromProducts(const ConstraintProblem& p, PrimalPoint& pt);

// Sets pt.x to the cheaper of qacc_warmstart (when given) and qacc_smooth, and evaluates it.
void StartPrimal(const ConstraintProblem& p, PrimalPoint& pt);

// Exact minimization of cost(x + a dir) over a >= 0 (the cost is convex and piecewise smooth):
// safeguarded one-dimensional Newton iterations on the derivative. `Mdir` = M dir and
// `Jdir` = J dir. Returns the step a; 0 if dir is not a descent direction or |dir| < 1e-15
// (which ends a solve without counting the iteration, as in MuJoCo).
double PrimalLineSearch(const ConstraintProblem& p, const PrimalPoint& pt, const double* dir,
                        const double* Mdir, const double* Jdir, Arena& arena);

// cost(pt.x) - cost(pt.x + step dir), computed row by row from the differences (not as the
// difference of two large costs), so that convergence tests see decreases far below the
// round-off of the cost itself.
double PrimalDecrease(const ConstraintProblem& p, const PrimalPoint& pt, const double* dir,
                      const double* Mdir, const double* Jdir, double step, Arena& arena);

// Scale applied to costs and gradient norms in convergence tests: 1 / (meaninertia max(1,nv)).
double PrimalScale(const ConstraintProblem& p);

// nefc == 0: nothing to solve. qacc = qacc_smooth; converged after 0 iterations.
SolverResult SolveWithoutConstraints(const ConstraintProblem& p, double* qacc);

// Workspace of one primal solve: the current point and a search direction (set by the solver)
// with its products M dir and J dir.
struct PrimalWork {
  PrimalPoint pt;
  double* dir = nullptr;   // (nv)
  double* Mdir = nullptr;  // (nv)
  double* Jdir = nullptr;  // (nefc)

  template <class Take>
  void Blocks(Take& take, int nv, int nefc) {
    pt.Blocks(take, nv, nefc);
    take(&dir, nv, "dir");
    take(&Mdir, nv, "Mdir");
    take(&Jdir, nefc, "Jdir");
  }
  void Allocate(const ConstraintProblem& p, Arena& arena);

  // What each PrimalIterate takes and releases for at most njmax rows (the trial point of the
  // line search and of the decrease): declare it with plan.Within after everything the solver
  // holds during its iterations.
  static ArenaPlan IterationPlan(int njmax);
};

// Iteration `iter` along w.dir: the exact line search, the move (w.pt re-evaluated there) and
// its record: trace[iter] (when given) = (cost, scaled gradient norm, scaled decrease),
// result.iterations = iter + 1. Returns true, with result.converged, when the solve is over:
// the scaled decrease or gradient norm fell below p.tolerance, or the line search found no
// step (then w.pt is unchanged and the iteration does not count, as in MuJoCo).
bool PrimalIterate(const ConstraintProblem& p, PrimalWork& w, int iter, SolverIteration* trace,
                   SolverResult& result, Arena& arena);

// pt => the solver's outputs: qacc (nv) = pt.x, force (nefc) = pt.force.
void CopyPrimalSolution(const ConstraintProblem& p, const PrimalPoint& pt, double* qacc,
                        double* force);

// d^2 s/djar^2 along jar-space direction v at jar (states from ConstraintCost): v' Hs v.
double ConstraintCurvature(const ConstraintProblem& p, const double* jar, const int* state,
                           const double* v);

}  // namespace gauss
