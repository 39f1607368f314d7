// `newton`: Newton's method on the reduced primal problem (spec "Newton"), with the exact
// Hessian H = M + J' s''(jar) J (elliptic cone curvature included), a Cholesky factorization
// of H, and the exact line search shared with CG (gauss/primal.h). The cost is piecewise
// quadratic for pyramidal cones, so Newton reaches the exact minimizer in a few iterations.
#include <cmath>

#include "gauss/primal.h"
#include "gauss/solver.h"

namespace gauss {
namespace {

// In-place Cholesky H = L L' of the lower triangle of an n x n row-major matrix. Returns false
// if H is not positive definite.
bool Cholesky(double* H, int n) {
  for (int j = 0; j < n; ++j) {
    double diag = H[j * n + j];
    for (int k = 0; k < j; ++k) diag -= H[j * n + k] * H[j * n + k];
    if (!(diag > 0)) return false;
    const double ljj = std::sqrt(diag);
    H[j * n + j] = ljj;
    for (int i = j + 1; i < n; ++i) {
      double v = H[i * n + j];
      for (int k = 0; k < j; ++k) v -= H[i * n + k] * H[j * n + k];
      H[i * n + j] = v / ljj;
    }
  }
  return true;
}

// x <- (L L')^-1 x
void CholeskySolve(const double* L, int n, double* x) {
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    for (int k = 0; k < i; ++k) v -= L[i * n + k] * x[k];
    x[i] = v / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    double v = x[i];
    for (int k = i + 1; k < n; ++k) v -= L[k * n + i] * x[k];
    x[i] = v / L[i * n + i];
  }
}

class NewtonSolver : public ConstraintSolver {
 public:
  std::size_t ScratchDoubles(const Model& m) const override {
    const std::size_t nv = m.nv, nj = std::max(m.njmax, 0);
    return nv * nv + 12 * nv + 12 * nj + 64;
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
    double* H = arena.Doubles(static_cast<std::size_t>(nv) * nv);
    double* dir = arena.Doubles(nv);
    double* Mdir = arena.Doubles(nv);
    double* Jdir = arena.Doubles(p.nefc);
    const double scale = PrimalScale(p);

    StartPrimal(p, pt);
    for (int iter = 0; iter < p.iterations; ++iter) {
      // Hessian: M plus the constraint curvature
      for (int i = 0; i < nv * nv; ++i) H[i] = 0;
      p.M->AddToDense(H);
      AddConstraintHessian(p, pt.jar, pt.state, H);
      if (!Cholesky(H, nv)) break;  // cannot happen for M > 0; stop rather than diverge
      for (int i = 0; i < nv; ++i) dir[i] = -pt.grad[i];
      CholeskySolve(H, nv, dir);

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
