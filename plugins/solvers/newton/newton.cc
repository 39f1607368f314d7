// `newton`: Newton's method on the reduced primal problem (spec "Newton"), with the exact
// Hessian H = M + J' s''(jar) J (elliptic cone curvature included), a Cholesky factorization
// of H (dense, or sparse L D L' when the Jacobian is sparse: hessian.h), and the exact line
// search and iteration scaffolding shared with CG (gauss/primal.h). The cost is piecewise
// quadratic for pyramidal cones, so Newton reaches the exact minimizer in a few iterations.
#include <algorithm>

#include "hessian.h"

#include "gauss/error.h"
#include "gauss/model.h"
#include "gauss/primal.h"
#include "gauss/solver.h"

namespace gauss {
namespace {

class NewtonSolver : public ConstraintSolver {
 public:
  // The primal workspace and one Hessian factorization, held through the iterations (a new
  // factorization releases the old one first); each iteration's trial point on top. DoSolve
  // carves the same blocks.
  std::size_t ScratchDoubles(const Model& m) const override {
    const int nj = std::max(m.njmax, 0);
    ArenaPlan plan;
    PrimalWork().Blocks(plan, m.nv, nj);
    plan.Append(NewtonHessian::Plan(m.nv, m.nM, nj, MaxRowNonzeros(m), IsSparse(m)));
    plan.Within("primal iteration", PrimalWork::IterationPlan(nj));
    return plan.doubles();
  }

 protected:
  SolverResult DoSolve(const ConstraintProblem& p, Arena& arena, double* qacc, double* force,
                       SolverIteration* trace) const override {
    if (p.nefc == 0) return SolveWithoutConstraints(p, qacc);
    const int nv = p.nv;
    SolverResult result;
    ArenaScope scope(arena);
    PrimalWork w;
    w.Allocate(p, arena);
    PrimalPoint& pt = w.pt;

    StartPrimal(p, pt);
    // the factorization lives from here on; a new one replaces it (Release), while rows that
    // only entered or left their quadratic piece are rank-one updates of it
    const std::size_t factor_mark = arena.Mark();
    NewtonHessian hessian;
    bool factored = false;
    for (int iter = 0; iter < p.iterations; ++iter) {
      // direction: -H^-1 grad with the exact Hessian at the current point
      if (!factored || !hessian.Update(p, pt.state)) {
        arena.Release(factor_mark);
        factored = hessian.Factor(p, pt.jar, pt.state, arena);
        GAUSS_DEMAND(factored, "the Hessian M + J'Hs J is positive definite (M is)");
      }
      for (int i = 0; i < nv; ++i) w.dir[i] = -pt.grad[i];
      hessian.Solve(w.dir);
      if (PrimalIterate(p, w, iter, trace, result, arena)) break;
    }
    CopyPrimalSolution(p, pt, qacc, force);
    return result;
  }
};

}  // namespace
}  // namespace gauss

GAUSS_SOLVER_PLUGIN(gauss::NewtonSolver, newton, "1.0.0",
                    "Newton's method on the primal problem: exact Hessian, Cholesky, exact line search",
                    gauss::kCapAllSolverFeatures, gauss::kNoParams)
