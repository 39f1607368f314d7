// `newton`: Newton's method on the reduced primal problem (spec "Newton"), with the exact
// Hessian H = M + J' s''(jar) J (elliptic cone curvature included), a Cholesky factorization
// of H (dense, or sparse L D L' when the Jacobian is sparse: hessian.h), and the exact line search shared with CG (gauss/primal.h). The cost is piecewise
// quadratic for pyramidal cones, so Newton reaches the exact minimizer in a few iterations.
#include <cmath>

#include "hessian.h"

#include "gauss/model.h"
#include "gauss/primal.h"
#include "gauss/solver.h"

namespace gauss {
namespace {

class NewtonSolver : public ConstraintSolver {
 public:
  std::size_t ScratchDoubles(const Model& m) const override {
    const std::size_t nv = m.nv, nj = std::max(m.njmax, 0);
    return NewtonHessian::Scratch(m.nv, m.njmax, MaxRowNonzeros(m), IsSparse(m)) + 12 * nv +
           12 * nj + 64;
  }

 protected:
  SolverResult DoSolve(const ConstraintProblem& p, Data& d, double* qacc, double* force,
                       SolverIteration* trace) const override {
    const int nv = p.nv;
    SolverResult result;
    if (p.nefc == 0) {
      std::copy(p.qacc_smooth, p.qacc_smooth + nv, qacc);
      result.converged = true;
      return result;
    }
    Arena& arena = d.arena;
    ArenaScope scope(arena);
    PrimalPoint pt;
    pt.Allocate(p, arena);
    double* dir = arena.Doubles(nv);
    double* Mdir = arena.Doubles(nv);
    double* Jdir = arena.Doubles(p.nefc);
    const double scale = PrimalScale(p);

    StartPrimal(p, pt);
    for (int iter = 0; iter < p.iterations; ++iter) {
      // direction: -H^-1 grad with the exact Hessian at the current point
      ArenaScope factor_scope(arena);
      NewtonHessian hessian;
      if (!hessian.Factor(p, pt.jar, pt.state, arena)) break;  // impossible for M > 0
      for (int i = 0; i < nv; ++i) dir[i] = -pt.grad[i];
      hessian.Solve(dir);

      p.M->MulM(dir, Mdir);
      MulJ(p, dir, Jdir);
      const double step = PrimalLineSearch(p, pt, dir, Mdir, Jdir, arena);
      const double decrease = PrimalDecrease(p, pt, dir, Mdir, Jdir, step, arena);
      for (int i = 0; i < nv; ++i) pt.x[i] += step * dir[i];
      EvaluatePrimal(p, pt);

      double gnorm = 0;
      for (int i = 0; i < nv; ++i) gnorm += pt.grad[i] * pt.grad[i];
      const SolverIteration it{pt.cost, scale * std::sqrt(gnorm), scale * decrease};
      if (trace) trace[iter] = it;
      result.iterations = iter + 1;
      if (it.improvement < p.tolerance || it.gradient < p.tolerance) {
        result.converged = true;
        break;
      }
    }
    std::copy(pt.x, pt.x + nv, qacc);
    std::copy(pt.force, pt.force + p.nefc, force);
    return result;
  }
};

}  // namespace
}  // namespace gauss

GAUSS_SOLVER_PLUGIN(gauss::NewtonSolver, newton, "1.0.0",
                    "Newton's method on the primal problem: exact Hessian, Cholesky, exact line search")
