// SolveByIsland (island.h): one sub-problem per constraint island, solved by the plugin.
//
// An island is a union of whole kinematic trees, and M is block-diagonal over trees, so the
// island's block of M is the island's rows of the tree-sparse storage copied one after the
// other (each row keeps its ancestors, all in the same tree). Rows and dofs keep their order.
#include <algorithm>

#include "gauss/solver.h"
#include "gauss/sparse_inertia.h"
#include "island.h"

namespace gauss {
namespace {

// M operations on one island's copy of the tree-sparse M and its factor.
class IslandInertia : public MassMatrixOps {
 public:
  IslandInertia(const TreeSparseLayout& layout, const double* M, const double* LD,
                const double* diag_inv)
      : layout_(layout), M_(M), LD_(LD), diag_inv_(diag_inv) {}
  void MulM(const double* x, double* y) const override { MulTreeSparse(layout_, M_, x, y); }
  void SolveM(double* x) const override { SolveLTDL(layout_, LD_, diag_inv_, x); }
  void AddToDense(double* H) const override { AddTreeSparseToDense(layout_, M_, H); }

 private:
  TreeSparseLayout layout_;
  const double* M_;
  const double* LD_;
  const double* diag_inv_;
};

// Gathers src[index[0..n)] into a fresh arena array.
template <class T>
T* Gather(Arena& arena, const T* src, const int* index, int n);

template <>
double* Gather(Arena& arena, const double* src, const int* index, int n) {
  double* out = arena.Doubles(n);
  for (int i = 0; i < n; ++i) out[i] = src[index[i]];
  return out;
}

template <>
int* Gather(Arena& arena, const int* src, const int* index, int n) {
  int* out = arena.Ints(n);
  for (int i = 0; i < n; ++i) out[i] = src[index[i]];
  return out;
}

// Island k's copy of the problem: rows island_efcind, dofs island_dofind. `local` maps a dof
// to its position in the island (filled for the island's dofs). The contacts go to
// d.island_contact. Everything else comes from the arena.
struct IslandCopy {
  ConstraintProblem p;
  TreeSparseLayout layout;
  double* qM = nullptr;
  double* qLD = nullptr;
  double* qLDiagInv = nullptr;
};

// The columns island k's rows (`rows`) were built over (full.J_dense_*), renumbered as the
// island's dofs (`local`) => p.J_dense_*. A column of another island is left out: the row is an
// exact zero there (islands unite the trees of a row's nonzeros).
void CopyIslandRowColumns(const ConstraintProblem& full, Data& d, int k, const int* rows,
                          int nefc, const int* local, ConstraintProblem& p) {
  int* rownnz = d.arena.Ints(nefc);
  int* rowadr = d.arena.Ints(nefc);
  int most = 0;
  for (int r = 0; r < nefc; ++r) most += full.J_dense_rownnz[rows[r]];
  int* colind = d.arena.Ints(most);
  int nnz = 0;
  for (int r = 0; r < nefc; ++r) {
    const int* cols = full.J_dense_colind + full.J_dense_rowadr[rows[r]];
    rowadr[r] = nnz;
    // in order: local is monotone
    for (int q = 0; q < full.J_dense_rownnz[rows[r]]; ++q) {
      if (d.dof_island[cols[q]] == k) colind[nnz++] = local[cols[q]];
    }
    rownnz[r] = nnz - rowadr[r];
  }
  p.J_dense_rownnz = rownnz;
  p.J_dense_rowadr = rowadr;
  p.J_dense_colind = colind;
}

IslandCopy CopyIsland(const ConstraintProblem& full, Data& d, int k, int* local) {
  Arena& a = d.arena;
  IslandCopy c;
  ConstraintProblem& p = c.p;
  p = full;  // sizes, options and convergence settings
  const int nv = d.island_nv[k], nefc = d.island_nefc[k];
  const int* dofs = d.island_dofind.data() + d.island_dofadr[k];
  const int* rows = d.island_efcind.data() + d.island_efcadr[k];
  p.nv = nv;
  p.nefc = nefc;
  p.by_island = true;
  p.byproducts = nullptr;  // the caller's are for the whole problem (SolveByIsland)
  for (int i = 0; i < nv; ++i) local[dofs[i]] = i;

  // M, its factor and their layout: each dof's stored row, with parents renumbered
  int* madr = a.Ints(nv);
  int* parentid = a.Ints(nv);
  int nM = 0;
  for (int i = 0; i < nv; ++i) {
    const int g = dofs[i];
    madr[i] = nM;
    parentid[i] = full.dof_parentid[g] < 0 ? -1 : local[full.dof_parentid[g]];
    const int end = g + 1 < full.nv ? full.dof_Madr[g + 1] : full.nM;
    nM += end - full.dof_Madr[g];
  }
  c.qM = a.Doubles(nM);
  c.qLD = a.Doubles(nM);
  // the dofs come tree by tree in increasing order, and consecutive dofs' rows are adjacent in
  // both storages: one copy per run of consecutive dofs (a tree) instead of one per dof
  for (int i = 0, run_end; i < nv; i = run_end) {
    run_end = i + 1;
    while (run_end < nv && dofs[run_end] == dofs[run_end - 1] + 1) ++run_end;
    const int last = dofs[run_end - 1];
    const int begin = full.dof_Madr[dofs[i]];
    const int end = last + 1 < full.nv ? full.dof_Madr[last + 1] : full.nM;
    std::copy(full.qM + begin, full.qM + end, c.qM + madr[i]);
    std::copy(full.qLD + begin, full.qLD + end, c.qLD + madr[i]);
  }
  c.qLDiagInv = Gather(a, full.qLDiagInv, dofs, nv);
  int* colind = a.Ints(nM);
  FillTreeSparseColumns(nv, madr, parentid, colind);
  const int* simple = full.dof_simplenum ? Gather(a, full.dof_simplenum, dofs, nv) : nullptr;
  c.layout = TreeSparseLayout{nv, nM, madr, parentid, colind, simple};
  p.dof_simplenum = simple;  // (only whether nonzero counts: the runs are the full model's)
  p.qM = c.qM;
  p.qLD = c.qLD;
  p.qLDiagInv = c.qLDiagInv;
  p.dof_Madr = madr;
  p.dof_parentid = parentid;
  p.nM = nM;

  // the unconstrained dynamics
  p.qvel = Gather(a, full.qvel, dofs, nv);
  p.qacc_smooth = Gather(a, full.qacc_smooth, dofs, nv);
  p.qfrc_smooth = Gather(a, full.qfrc_smooth, dofs, nv);
  p.qacc_warmstart = full.qacc_warmstart ? Gather(a, full.qacc_warmstart, dofs, nv) : nullptr;

  // the Jacobian: the island's columns of its rows (a row has no nonzero elsewhere)
  if (full.J) {
    double* J = a.Doubles(static_cast<std::size_t>(nefc) * nv);
    for (int r = 0; r < nefc; ++r) {
      const double* src = full.J + static_cast<long>(rows[r]) * full.nv;
      for (int i = 0; i < nv; ++i) J[static_cast<long>(r) * nv + i] = src[dofs[i]];
    }
    p.J = J;
    if (full.J_dense_colind) CopyIslandRowColumns(full, d, k, rows, nefc, local, p);
  } else {
    int* rownnz = Gather(a, full.J_rownnz, rows, nefc);
    int* rowadr = a.Ints(nefc);
    int nnz = 0;
    for (int r = 0; r < nefc; ++r) {
      rowadr[r] = nnz;
      nnz += rownnz[r];
    }
    int* colind = a.Ints(nnz);
    double* values = a.Doubles(nnz);
    for (int r = 0; r < nefc; ++r) {
      // locals: through the int pointers the compiler would reload rownnz[r] at every element
      const int src = full.J_rowadr[rows[r]], dst = rowadr[r], count = rownnz[r];
      const int* src_col = full.J_colind + src;
      int* dst_col = colind + dst;
      // order kept: local is monotone
      for (int q = 0; q < count; ++q) dst_col[q] = local[src_col[q]];
      std::copy(full.J_sparse + src, full.J_sparse + src + count, values + dst);
    }
    p.J_rownnz = rownnz;
    p.J_rowadr = rowadr;
    p.J_colind = colind;
    p.J_sparse = values;
  }

  // per-row data; contact rows point to the island's own contact list
  p.pos = Gather(a, full.pos, rows, nefc);
  p.margin = Gather(a, full.margin, rows, nefc);
  p.vel = Gather(a, full.vel, rows, nefc);
  p.R = Gather(a, full.R, rows, nefc);
  p.D = Gather(a, full.D, rows, nefc);
  p.aref = Gather(a, full.aref, rows, nefc);
  p.frictionloss = Gather(a, full.frictionloss, rows, nefc);
  ConstraintType* type = reinterpret_cast<ConstraintType*>(a.Ints(nefc));
  int* id = a.Ints(nefc);
  int ncon = 0;
  for (int r = 0; r < nefc; ++r) {
    const int g = rows[r];
    type[r] = full.type[g];
    id[r] = full.id[g];
    if (!IsContactRow(type[r])) continue;
    const Contact& src = full.contact[id[r]];
    if (src.efc_address == g) {  // the contact's first row: the contact joins the island
      d.island_contact[ncon] = src;
      d.island_contact[ncon].efc_address = r;
      ++ncon;
    }
    id[r] = ncon - 1;
  }
  p.type = type;
  p.id = id;
  p.ncon = ncon;
  p.contact = d.island_contact.data();
  return c;
}

// One island holding every dof and every row (one robot, a stack whose bodies all touch): its
// copy (CopyIsland) would list the dofs and rows in their own order, i.e. be the whole problem,
// so the solver reads the problem in place and writes d.qacc and d.efc_force directly. The
// solver sees the same numbers in the same order as from the copy (the M operations are
// IslandInertia over the whole model's layout, which is what the copy rebuilds; the contacts
// without rows, which the copy leaves out, are skipped by every solver), so the results are
// the copy's bit for bit; only the copying is saved (box_stack: ~30 k instructions per step).
// Reads p (by_island set for the solver, e.g. pgs's sweep schedule); writes d.qacc,
// d.efc_force, d.island_iter[0] and trace[0..iterations).
SolverResult SolveWholeProblemAsIsland(const ConstraintProblem& p, const ConstraintSolver& solver,
                                       Data& d, SolverIteration* trace) {
  ConstraintProblem whole = p;
  whole.by_island = true;
  int* colind = d.arena.Ints(p.nM);
  FillTreeSparseColumns(p.nv, p.dof_Madr, p.dof_parentid, colind);
  const TreeSparseLayout layout{p.nv, p.nM, p.dof_Madr, p.dof_parentid, colind,
                                p.dof_simplenum};
  const IslandInertia ops(layout, p.qM, p.qLD, p.qLDiagInv);
  whole.M = &ops;
  SolverResult r = solver.Solve(whole, d.arena, d.qacc.data(), d.efc_force.data(), trace);
  d.island_iter[0] = r.iterations;
  return r;
}

}  // namespace

SolverResult SolveByIsland(const ConstraintProblem& p, const ConstraintSolver& solver, Data& d,
                           SolverIteration* trace) {
  SolverResult total;
  total.converged = true;
  for (int i = 0; i < p.nv; ++i) {
    if (d.dof_island[i] < 0) d.qacc[i] = p.qacc_smooth[i];
  }
  ArenaScope outer(d.arena);
  if (d.nisland == 1 && d.island_nv[0] == p.nv && d.island_nefc[0] == p.nefc) {
    return SolveWholeProblemAsIsland(p, solver, d, trace);
  }
  int* local = d.arena.Ints(p.nv);
  // J' force is the islands' own, each at its dofs (a row is zero outside its island), when
  // every island's solver gives it; +0 at the dofs of no island (no row reaches them)
  SolveByproducts* whole = p.byproducts;
  const bool want_qfrc = whole && whole->qfrc_constraint;
  bool all_qfrc = want_qfrc;
  if (want_qfrc) {
    for (int i = 0; i < p.nv; ++i) {
      if (d.dof_island[i] < 0) whole->qfrc_constraint[i] = 0;
    }
  }
  for (int k = 0; k < d.nisland; ++k) {
    ArenaScope scope(d.arena);
    IslandCopy copy = CopyIsland(p, d, k, local);
    const IslandInertia ops(copy.layout, copy.qM, copy.qLD, copy.qLDiagInv);
    copy.p.M = &ops;
    double* qacc = d.arena.Doubles(copy.p.nv);
    double* force = d.arena.Doubles(copy.p.nefc);
    SolveByproducts island;
    if (all_qfrc) {
      island.qfrc_constraint = d.arena.Doubles(copy.p.nv);
      copy.p.byproducts = &island;
    }
    // island k's statistics go to its own stretch of the trace (gauss/data.h)
    SolverIteration* island_trace = trace ? trace + static_cast<std::size_t>(k) * p.iterations
                                          : nullptr;
    const SolverResult r = solver.Solve(copy.p, d.arena, qacc, force, island_trace);
    d.island_iter[k] = r.iterations;
    total.iterations = std::max(total.iterations, r.iterations);
    total.converged = total.converged && r.converged;
    const int* dofs = d.island_dofind.data() + d.island_dofadr[k];
    const int* rows = d.island_efcind.data() + d.island_efcadr[k];
    for (int i = 0; i < copy.p.nv; ++i) d.qacc[dofs[i]] = qacc[i];
    for (int r = 0; r < copy.p.nefc; ++r) d.efc_force[rows[r]] = force[r];
    all_qfrc = all_qfrc && island.qfrc_constraint_given;
    if (all_qfrc) {
      for (int i = 0; i < copy.p.nv; ++i) {
        whole->qfrc_constraint[dofs[i]] = island.qfrc_constraint[i];
      }
    }
  }
  if (want_qfrc) whole->qfrc_constraint_given = all_qfrc;
  // rows without nonzeros (no island): their force is the penalty's at jar = -aref
  bool orphan = false;
  for (int i = 0; i < p.nefc; ++i) orphan = orphan || d.efc_island[i] < 0;
  if (orphan) {
    double* jar = d.arena.Doubles(p.nefc);
    double* force = d.arena.Doubles(p.nefc);
    MulJ(p, d.qacc.data(), jar);
    for (int i = 0; i < p.nefc; ++i) jar[i] -= p.aref[i];
    ConstraintCost(p, jar, force, nullptr);
    for (int i = 0; i < p.nefc; ++i) {
      if (d.efc_island[i] < 0) d.efc_force[i] = force[i];
    }
  }
  return total;
}

SolverIteration FinalSolverIteration(const Model& m, const Data& d) {
  SolverIteration out;
  if (d.solver_iter <= 0) return out;
  if (!UsesIslands(m)) return d.solver_trace[d.solver_iter - 1];
  const std::size_t stride = static_cast<std::size_t>(std::max(m.opt.iterations, 1));
  for (int k = 0; k < d.nisland; ++k) {
    if (d.island_iter[k] <= 0) continue;
    const SolverIteration& last = d.solver_trace[k * stride + d.island_iter[k] - 1];
    out.cost += last.cost;  // the problem separates by island: its cost is their sum
    out.gradient = std::max(out.gradient, last.gradient);
    out.improvement = std::max(out.improvement, last.improvement);
    out.residual = std::max(out.residual, last.residual);
    out.complementarity = std::max(out.complementarity, last.complementarity);
    out.step = std::max(out.step, last.step);
    out.condition = std::max(out.condition, last.condition);
  }
  return out;
}

}  // namespace gauss
