// `newton`: Newton's method on the reduced primal problem (spec "Newton"), with the exact
// Hessian H = M + J' s''(jar) J (elliptic cone curvature included), a Cholesky factorization
// of H (dense, or sparse L D L' when the Jacobian is sparse: hessian.h), and the exact line
// search and iteration scaffolding shared with CG (gauss/primal.h). The cost is piecewise
// quadratic for pyramidal cones, so Newton reaches the exact minimizer in a few iterations.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "hessian.h"
#include "kept_factor.h"

#include "gauss/constraint.h"
#include "gauss/error.h"
#include "gauss/model.h"
#include "gauss/primal.h"
#include "gauss/solver.h"

namespace gauss {
namespace {

// True when a[0] and a[1] are both zero (+0 or -0): one test for two entries of J.
inline bool BothZero(const double* a) {
  std::uint64_t u, v;
  std::memcpy(&u, a, sizeof u);
  std::memcpy(&v, a + 1, sizeof v);
  return ((u | v) << 1) == 0;  // the sign bits shifted out
}

// Every entry of a dense J (nefc x nv) scanned for its nonzeros => CSR rows (columns
// increasing): for a problem that does not say which columns its rows were built over.
void ScanDenseRows(const double* J, int nv, int nefc, int* rownnz, int* rowadr, int* colind,
                   double* values) {
  int nnz = 0;
  for (int i = 0; i < nefc; ++i) {
    const double* row = J + static_cast<long>(i) * nv;
    rowadr[i] = nnz;
    // pairs of zeros are skipped with one test (a contact row is zero outside its bodies'
    // dofs: whole blocks of 6 for free bodies)
    int c = 0;
    for (; c + 2 <= nv; c += 2) {
      if (BothZero(row + c)) continue;
      for (int k = c; k < c + 2; ++k) {
        if (row[k] == 0) continue;
        colind[nnz] = k;
        values[nnz++] = row[k];
      }
    }
    if (c < nv && row[c] != 0) {
      colind[nnz] = c;
      values[nnz++] = row[c];
    }
    rownnz[i] = nnz - rowadr[i];
  }
}

// A dense Jacobian's nonzeros as CSR rows (columns increasing) taken from `arena`: the
// products with J and the Hessian's row products then touch only them (a contact row of a
// stack of free boxes has 6 or 12 of 30 columns, a humanoid's about 12 of 27). The sums are
// the dense loops' without their zero terms.
ConstraintProblem SparseRowsView(const ConstraintProblem& p, Arena& arena) {
  ConstraintProblem view = p;
  // sizes and J in locals: the stores below may alias p's fields as far as the compiler knows
  const int nv = p.nv, nefc = p.nefc;
  const double* J = p.J;
  int* rownnz = arena.Ints(nefc);
  int* rowadr = arena.Ints(nefc);
  const std::size_t most = static_cast<std::size_t>(nefc) * nv;
  int* colind = arena.Ints(most);
  double* values = arena.Doubles(most);
  int nnz = 0;
  if (p.J_dense_colind) {
    // the columns each row was built over are known: only those are read (a box_stack row:
    // 6 or 12 of 30), the zeros among them dropped as below (the same view)
    const int *built_nnz = p.J_dense_rownnz, *built_adr = p.J_dense_rowadr;
    const int* built_cols = p.J_dense_colind;
    for (int i = 0; i < nefc; ++i) {
      const double* row = J + static_cast<long>(i) * nv;
      const int* cols = built_cols + built_adr[i];
      const int n = built_nnz[i];
      rowadr[i] = nnz;
      for (int k = 0; k < n; ++k) {
        const double value = row[cols[k]];
        if (value == 0) continue;
        colind[nnz] = cols[k];
        values[nnz++] = value;
      }
      rownnz[i] = nnz - rowadr[i];
    }
  } else {
    ScanDenseRows(J, nv, nefc, rownnz, rowadr, colind, values);
  }
  view.J = nullptr;
  view.J_dense_rownnz = view.J_dense_rowadr = view.J_dense_colind = nullptr;
  view.J_rownnz = rownnz;
  view.J_rowadr = rowadr;
  view.J_colind = colind;
  view.J_sparse = values;
  return view;
}

// What SparseRowsView takes for at most njmax rows of nv columns.
ArenaPlan SparseRowsPlan(int nv, int njmax) {
  ArenaPlan plan;
  const std::size_t most = static_cast<std::size_t>(njmax) * nv;
  plan.Add("CSR view rownnz", ArenaDoubles<int>(njmax));
  plan.Add("CSR view rowadr", ArenaDoubles<int>(njmax));
  plan.Add("CSR view colind", ArenaDoubles<int>(most));
  plan.Add("CSR view values", most);
  return plan;
}

inline constexpr ParamSpec kNewtonParams[] = {
    {"keep_factor", ParamType::kBool, "true",
     "keep the dense Hessian factor between solves and use it again for the same matrices and "
     "quadratic rows (the same numbers; false factors anew, for comparisons)"},
    {"converged_start", ParamType::kBool, "false",
     "stop before the first iteration when the start point (the warmstart or qacc_smooth) "
     "already passes the gradient test (scaled |gradient| < tolerance), as MuJoCo 3.x does "
     "(not for finite differences: a perturbed solve would stop at the nominal solution); "
     "false always iterates at least once, as MuJoCo 2.2.2 does"}};

// True when the start point passes the gradient half of the iterations' convergence test
// (PrimalIterate: scaled |grad| < tolerance). The Hessian is not needed to know it, so such a
// solve costs no factorization and no line search.
bool StartConverged(const ConstraintProblem& p, const PrimalPoint& pt) {
  double gnorm = 0;
  for (int i = 0; i < p.nv; ++i) gnorm += pt.grad[i] * pt.grad[i];
  return PrimalScale(p) * std::sqrt(gnorm) < p.tolerance;
}

class NewtonSolver : public ConstraintSolver {
 public:
  void Configure(const Params& params) override {
    keep_factor_ = params.GetBool("keep_factor");
    converged_start_ = params.GetBool("converged_start");
  }

  // the dense factor and its rows' states (the sparse factor is not kept)
  std::size_t MemoryDoubles(const Model& m) const override {
    if (IsSparse(m) && m.nv >= NewtonHessian::kSparseMinDofs) return 0;
    return KeptFactor::Doubles(m.nv, std::max(m.njmax, 0));
  }

  // The primal workspace and one Hessian factorization, held through the iterations (a new
  // factorization releases the old one first); each iteration's trial point on top. DoSolve
  // carves the same blocks.
  std::size_t ScratchDoubles(const Model& m) const override {
    const int nj = std::max(m.njmax, 0);
    ArenaPlan plan;
    if (!IsSparse(m)) plan.Append(SparseRowsPlan(m.nv, nj));
    plan.Add("J row runs", ArenaDoubles<int>(nj));  // WithCompressedJacobian (view or island)
    PrimalWork().Blocks(plan, m.nv, nj);
    plan.Append(NewtonHessian::Plan(m.nv, m.nM, nj, MaxRowNonzeros(m), IsSparse(m), m.opt.cone));
    plan.Within("primal iteration", PrimalWork::IterationPlan(nj));
    return plan.doubles();
  }

 protected:
  SolverResult DoSolve(const ConstraintProblem& problem, Arena& arena, double* qacc,
                       double* force, SolverIteration* trace) const override {
    if (problem.nefc == 0) return SolveWithoutConstraints(problem, qacc);
    const int nv = problem.nv;
    SolverResult result;
    ArenaScope scope(arena);
    // a dense Jacobian is read through its nonzeros, in runs of rows that share their columns
    // (a contact's rows; WithCompressedJacobian on a CSR problem only finds the runs): the
    // products with J and the Hessian's row products read each run's columns once, with the
    // same sums bit for bit. H is sparse only for a CSR problem of many dofs: a small one (a
    // constraint island of a large model: one humanoid of 22) factors faster densely.
    const bool sparse_hessian = NewtonHessian::SparseFor(problem);
    const ConstraintProblem p =
        sparse_hessian        ? problem
        : problem.J != nullptr ? WithCompressedJacobian(SparseRowsView(problem, arena), arena)
                               : WithCompressedJacobian(problem, arena);
    PrimalWork w;
    w.Allocate(p, arena);
    PrimalPoint& pt = w.pt;

    StartPrimal(p, pt);
    // with converged_start, a start point that already passes the gradient test is the
    // solution (0 iterations; docs/solvers.md "Stopping")
    const bool start_converged = converged_start_ && StartConverged(p, pt);
    if (start_converged) result.converged = true;
    // the factorization lives from here on; a new one replaces it (Release), while rows that
    // only entered or left their quadratic piece (and the elliptic cone curvature, added to a
    // copy) are rank-one updates of it
    const std::size_t factor_mark = arena.Mark();
    NewtonHessian hessian;
    bool factored = false;
    // a dense factor is made in the solver's memory, where a later solve with the same
    // matrices and quadratic rows finds it (kept_factor.h)
    KeptFactor kept(p, !sparse_hessian && keep_factor_);
    for (int iter = 0; iter < (start_converged ? 0 : p.iterations); ++iter) {
      // direction: -H^-1 grad with the exact Hessian at the current point
      if (!factored || !hessian.Update(p, pt.jar, pt.state)) {
        arena.Release(factor_mark);
        if (kept.Matches(p, pt.state)) {
          hessian.UseDense(nv, kept.factor(), kept.first());  // the numbers Factor would make
          factored = true;
        } else if (kept.enabled()) {
          kept.Forget();
          factored = hessian.FactorDenseInto(p, pt.jar, pt.state, kept.factor(), kept.first());
          GAUSS_DEMAND(factored, "the Hessian M + J'Hs J is positive definite (M is)");
          kept.Remember(p, pt.state);
        } else {
          factored = hessian.Factor(p, pt.jar, pt.state, arena, sparse_hessian);
          GAUSS_DEMAND(factored, "the Hessian M + J'Hs J is positive definite (M is)");
        }
      }
      for (int i = 0; i < nv; ++i) w.dir[i] = -pt.grad[i];
      hessian.Solve(w.dir);
      if (PrimalIterate(p, w, iter, trace, result, arena)) break;
    }
    CopyPrimalSolution(p, pt, qacc, force);
    // J' force at the returned force, summed per dof over the rows in order as the caller's
    // MulJT sums it (the runs and the skipped zeros do not change a sum)
    if (SolveByproducts* out = problem.byproducts; out && out->qfrc_constraint) {
      std::copy(pt.qfrc_constraint, pt.qfrc_constraint + nv, out->qfrc_constraint);
      out->qfrc_constraint_given = true;
    }
    return result;
  }

 private:
  bool keep_factor_ = true;
  bool converged_start_ = false;
};

}  // namespace
}  // namespace gauss

GAUSS_SOLVER_PLUGIN(gauss::NewtonSolver, newton, "1.0.0",
                    "Newton's method on the primal problem: exact Hessian, Cholesky, exact line search",
                    gauss::kCapAllSolverFeatures, gauss::kNewtonParams)
