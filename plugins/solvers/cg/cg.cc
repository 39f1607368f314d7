// `cg`: nonlinear conjugate gradient on the reduced primal problem (spec "CG"): search
// directions from the M^-1-preconditioned gradient with the Polak-Ribiere-plus formula, and the
// exact line search and iteration scaffolding of gauss/primal.h. Cheaper per iteration than
// Newton (no factorization of the Hessian), usually more iterations.
#include <algorithm>
#include <utility>

#include "gauss/primal.h"
#include "gauss/solver.h"

namespace gauss {
namespace {

// CG's own arrays besides the primal workspace.
struct CgWork {
  double* pgrad = nullptr;      // (nv) M^-1 grad at the current point
  double* pgrad_old = nullptr;  // (nv) ... at the previous point (the two swap roles)

  template <class Take>
  void Blocks(Take& take, int nv) {
    take(&pgrad, nv, "pgrad");
    take(&pgrad_old, nv, "pgrad_old");
  }
};

class CgSolver : public ConstraintSolver {
 public:
  // A dense J's compressed copy, the primal workspace and CG's arrays, held through the
  // solve; each iteration's trial point on top. DoSolve carves the same blocks.
  std::size_t ScratchDoubles(const Model& m) const override {
    const int nj = std::max(m.njmax, 0);
    ArenaPlan plan = CompressedJacobian::Plan(m);
    PrimalWork().Blocks(plan, m.nv, nj);
    CgWork().Blocks(plan, m.nv);
    plan.Within("primal iteration", PrimalWork::IterationPlan(nj));
    return plan.doubles();
  }

 protected:
  SolverResult DoSolve(const ConstraintProblem& dense_or_sparse, Arena& arena, double* qacc,
                       double* force, SolverIteration* trace) const override {
    if (dense_or_sparse.nefc == 0) return SolveWithoutConstraints(dense_or_sparse, qacc);
    ArenaScope scope(arena);
    // every iteration multiplies by J and J': skip the zeros of a dense J (same sums)
    const ConstraintProblem p = WithCompressedJacobian(dense_or_sparse, arena);
    const int nv = p.nv;
    SolverResult result;
    PrimalWork w;
    w.Allocate(p, arena);
    PrimalPoint& pt = w.pt;
    double* dir = w.dir;
    CgWork cg;
    ArenaCarve carve(arena);
    cg.Blocks(carve, nv);
    double* pgrad = cg.pgrad;
    double* pgrad_old = cg.pgrad_old;

    StartPrimal(p, pt);
    std::copy(pt.grad, pt.grad + nv, pgrad);
    p.M->SolveM(pgrad);
    for (int i = 0; i < nv; ++i) dir[i] = -pgrad[i];

    for (int iter = 0; iter < p.iterations; ++iter) {
      // Polak-Ribiere-plus in the M^-1 metric: beta = g'(Pg - Pg_old) / g_old'Pg_old, >= 0. The
      // denominator from the point before the move (no copy of g_old); Pg_old is the buffer
      // Pg was in (pointers swapped, no copy)
      double den = 0;
      for (int i = 0; i < nv; ++i) den += pt.grad[i] * pgrad[i];
      std::swap(pgrad, pgrad_old);
      if (PrimalIterate(p, w, iter, trace, result, arena)) break;

      std::copy(pt.grad, pt.grad + nv, pgrad);
      p.M->SolveM(pgrad);
      double num = 0;
      for (int i = 0; i < nv; ++i) num += pt.grad[i] * (pgrad[i] - pgrad_old[i]);
      const double beta = den > 0 ? std::max(0.0, num / den) : 0;
      for (int i = 0; i < nv; ++i) dir[i] = -pgrad[i] + beta * dir[i];
    }
    CopyPrimalSolution(p, pt, qacc, force);
    return result;
  }
};

}  // namespace
}  // namespace gauss

GAUSS_SOLVER_PLUGIN(gauss::CgSolver, cg, "1.0.0",
                    "nonlinear conjugate gradient (Polak-Ribiere+, M^-1 preconditioned) on the primal problem",
                    gauss::kCapAllSolverFeatures, gauss::kNoParams)
