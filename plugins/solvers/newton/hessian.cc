// Assembly and factorization of Newton's Hessian (hessian.h).
//
// Sparse form: columns are numbered in reverse dof order, so that a dof's descendants come
// before it and the tree-structured M factors without fill; the constraint part adds, for every
// row on a quadratic piece, D_i J_i' J_i, and for every elliptic contact on the cone surface
// J_c' Hc J_c with Hc its curvature block; rows of one constraint share their columns and are
// summed into one dense block first. Entries are listed column by column (duplicates are summed
// by the factorization).
#include "hessian.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gauss/dense_cholesky.h"
#include "gauss/math.h"

namespace gauss {

namespace {

constexpr int kMaxDim = 6;

// A dense block of the constraint part of H over n increasing columns (lower triangle used).
struct Block {
  int n;
  const int* cols;
  double* values;  // n x n, row-major
};

}  // namespace

namespace {

// H's pattern in compressed columns: column pointers, row indices, values and the fill cursor.
// (Columns are counted before the entries can be taken: two block functions.)
struct Pattern {
  int *colptr, *rowind, *next;
  double* values;
  template <class Take>
  void ColumnBlocks(Take& take, int nv) {
    take(&colptr, nv + 1, "H colptr");
  }
  template <class Take>
  void EntryBlocks(Take& take, int nv, std::size_t nnz) {
    take(&rowind, nnz, "H rowind");
    take(&values, nnz, "H values");
    take(&next, nv, "H next");
  }
};

// Bounds of the sparse factorization's data-dependent sizes: every constraint has one block of
// at most row_nonzeros columns (no Jacobian row has more: its storage is sized by it); H has
// M's tree entries plus each block's lower triangle.
std::size_t MaxBlockValues(int njmax, int row_nonzeros) {
  return static_cast<std::size_t>(njmax) * row_nonzeros * row_nonzeros;
}
std::size_t MaxPatternEntries(int nM, int njmax, int row_nonzeros) {
  return static_cast<std::size_t>(nM) +
         static_cast<std::size_t>(njmax) * row_nonzeros * (row_nonzeros + 1) / 2;
}

}  // namespace

// (sizes) => the blocks Factor takes
ArenaPlan NewtonHessian::Plan(int nv, int nM, int njmax, int row_nonzeros, bool sparse) {
  ArenaPlan plan;
  NewtonHessian h;
  if (!sparse) {
    h.DenseBlocks(plan, nv);
    return plan;
  }
  h.UpdateBlocks(plan, nv, njmax);
  Block* blocks = nullptr;
  plan(&blocks, static_cast<std::size_t>(njmax) + 1, "constraint blocks");
  plan.Add("constraint block values", MaxBlockValues(njmax, row_nonzeros));
  Pattern pattern;
  pattern.ColumnBlocks(plan, nv);
  pattern.EntryBlocks(plan, nv, MaxPatternEntries(nM, njmax, row_nonzeros));
  plan.Append(SparseLDL::Plan(nv, static_cast<std::size_t>(nv) * (nv - 1) / 2));
  return plan;
}

bool NewtonHessian::Factor(const ConstraintProblem& p, const double* jar, const int* state,
                           Arena& arena, bool sparse) {
  nv_ = p.nv;
  is_sparse_ = sparse;
  if (!is_sparse_) return FactorDense(p, jar, state, arena);
  ArenaCarve carve(arena);
  UpdateBlocks(carve, p.nv, p.nefc);
  std::copy(state, state + p.nefc, factored_state_);
  return FactorSparse(p, jar, state, arena);
}

bool NewtonHessian::Update(const ConstraintProblem& p, const int* state) {
  if (!is_sparse_) return false;
  constexpr int kQuadratic = static_cast<int>(ConstraintState::kQuadratic);
  constexpr int kCone = static_cast<int>(ConstraintState::kCone);
  int changed = 0;
  for (int i = 0; i < p.nefc; ++i) {
    // the cone curvature moves with jar: not a rank-one change
    if (state[i] == kCone || factored_state_[i] == kCone) return false;
    if ((state[i] == kQuadratic) != (factored_state_[i] == kQuadratic)) ++changed;
  }
  // many changes: a new factorization costs less than as many rank-one updates
  if (4 * changed > p.nefc) return false;
  for (int i = 0; i < p.nefc && changed > 0; ++i) {
    const bool now = state[i] == kQuadratic;
    if (now == (factored_state_[i] == kQuadratic)) continue;
    // +-D_i J_i' J_i = +-w w' with w = sqrt(D_i) J_i, in the factor's reverse dof order
    const double scale = std::sqrt(p.D[i]);
    const int adr = p.J_rowadr[i];
    const int nnz = p.J_rownnz[i];
    for (int k = 0; k < nnz; ++k) {
      update_index_[k] = nv_ - 1 - p.J_colind[adr + k];
      update_value_[k] = scale * p.J_sparse[adr + k];
    }
    if (!sparse_.Update(nnz, update_index_, update_value_, now ? 1.0 : -1.0)) return false;
    factored_state_[i] = state[i];
    --changed;
  }
  return true;
}

bool NewtonHessian::FactorDense(const ConstraintProblem& p, const double* jar, const int* state,
                                Arena& arena) {
  const int nv = p.nv;
  ArenaCarve carve(arena);
  DenseBlocks(carve, nv);
  for (int i = 0; i < nv * nv; ++i) dense_[i] = 0;
  p.M->AddToDense(dense_);
  AddConstraintHessian(p, jar, state, dense_);
  // a pivot must be positive (H > 0 in exact arithmetic); the envelope skips H's zero blocks
  return DenseCholeskyFactor(dense_, nv, std::numeric_limits<double>::denorm_min(),
                             SmallPivot::kFail, first_) == kCholeskyComplete;
}

bool NewtonHessian::FactorSparse(const ConstraintProblem& p, const double* jar, const int* state,
                                 Arena& arena) {
  const int nv = p.nv;
  // 1. the constraint part as dense blocks over each constraint's columns: the rows of one
  //    contact share their columns (the union of the two bodies' dof chains), so their terms
  //    are summed into one n x n block before they enter the sparse matrix (a pyramidal contact
  //    has 2(condim-1) rows: far fewer entries than row by row)
  ArenaCarve carve(arena);
  Block* blocks = nullptr;
  carve(&blocks, static_cast<std::size_t>(p.nefc) + 1, "constraint blocks");
  int nblocks = 0;
  auto new_block = [&](int row) -> Block& {
    Block& b = blocks[nblocks++];
    b.n = p.J_rownnz[row];
    b.cols = p.J_colind + p.J_rowadr[row];
    b.values = arena.Doubles(static_cast<std::size_t>(b.n) * b.n);
    std::fill(b.values, b.values + b.n * b.n, 0.0);
    return b;
  };
  auto same_constraint = [&](int i, int j) {
    return p.id[i] == p.id[j] && p.type[i] == p.type[j] && p.J_rownnz[i] == p.J_rownnz[j] &&
           p.type[i] >= ConstraintType::kContactFrictionless;
  };
  for (int i = 0; i < p.nefc;) {
    if (state[i] == static_cast<int>(ConstraintState::kCone)) {
      // elliptic contact on the cone surface: J_c' Hc J_c with its rows' common columns
      const Contact& c = p.contact[p.id[i]];
      double hc[kMaxDim * kMaxDim];
      EllipticConeCurvature(p, c, jar + i, hc);
      Block& b = new_block(i);
      // G = Hc J_c (dim x n), then the block += J_c' G: dim n^2/2 products instead of
      // dim^2 n^2/2. G fits the plan: the contact's dim rows have dim blocks' worth of space
      // (MaxBlockValues) but use one, and dim n <= (dim - 1) n^2 for dim >= 2, n >= 2
      double* G = arena.Doubles(static_cast<std::size_t>(c.dim) * b.n);
      for (int r1 = 0; r1 < c.dim; ++r1) {
        double* g = G + r1 * b.n;
        for (int q = 0; q < b.n; ++q) g[q] = 0;
        for (int r2 = 0; r2 < c.dim; ++r2) {
          const double w = hc[r1 * c.dim + r2];
          const double* v = p.J_sparse + p.J_rowadr[i + r2];
          for (int q = 0; q < b.n; ++q) g[q] += w * v[q];
        }
      }
      for (int r1 = 0; r1 < c.dim; ++r1) {
        const double* u = p.J_sparse + p.J_rowadr[i + r1];
        const double* g = G + r1 * b.n;
        for (int q = 0; q < b.n; ++q) {
          const double uq = u[q];
          double* out = b.values + q * b.n;
          for (int t = 0; t <= q; ++t) out[t] += uq * g[t];
        }
      }
      i += c.dim;
      continue;
    }
    // every constraint gets its block, zero where no row is quadratic: the factor's pattern
    // then holds every row's J_i' J_i, so rows entering or leaving their quadratic piece later
    // are rank-one updates inside it (Update)
    Block& b = new_block(i);
    int j = i;
    do {
      if (state[j] == static_cast<int>(ConstraintState::kQuadratic)) {
        const double* u = p.J_sparse + p.J_rowadr[j];
        const double D = p.D[j];
        for (int q = 0; q < b.n; ++q) {
          const double du = D * u[q];
          for (int t = 0; t <= q; ++t) b.values[q * b.n + t] += du * u[t];
        }
      }
      ++j;
    } while (j < p.nefc && same_constraint(i, j) &&
             state[j] != static_cast<int>(ConstraintState::kCone));
    i = j;
  }

  // 2. count entries per column (reverse dof order: column of dof j is nv-1-j); an entry
  //    between dofs a >= b goes to column nv-1-b, row nv-1-a (upper triangle)
  Pattern pattern;
  pattern.ColumnBlocks(carve, nv);
  int* colptr = pattern.colptr;
  std::fill(colptr, colptr + nv + 1, 0);
  for (int i = 0; i < nv; ++i) {
    for (int j = i; j >= 0; j = p.dof_parentid[j]) ++colptr[nv - 1 - j + 1];
  }
  for (int k = 0; k < nblocks; ++k) {
    // block columns are increasing: the entry (q, t), t <= q, belongs to column cols[t]
    for (int t = 0; t < blocks[k].n; ++t) colptr[nv - 1 - blocks[k].cols[t] + 1] += blocks[k].n - t;
  }
  for (int c = 0; c < nv; ++c) colptr[c + 1] += colptr[c];
  const int nnz = colptr[nv];
  pattern.EntryBlocks(carve, nv, static_cast<std::size_t>(nnz));
  int* rowind = pattern.rowind;
  double* values = pattern.values;
  int* next = pattern.next;
  std::copy(colptr, colptr + nv, next);
  auto add = [&](int hi, int lo, double v) {  // dofs hi >= lo in natural order
    const int slot = next[nv - 1 - lo]++;
    rowind[slot] = nv - 1 - hi;
    values[slot] = v;
  };
  for (int i = 0; i < nv; ++i) {
    int adr = p.dof_Madr[i];
    for (int j = i; j >= 0; j = p.dof_parentid[j]) add(i, j, p.qM[adr++]);
  }
  for (int k = 0; k < nblocks; ++k) {
    const Block& b = blocks[k];
    for (int q = 0; q < b.n; ++q) {
      for (int t = 0; t <= q; ++t) add(b.cols[q], b.cols[t], b.values[q * b.n + t]);
    }
  }
  return sparse_.Factor(nv, colptr, rowind, values, arena);
}

void NewtonHessian::Solve(double* x) const {
  if (!is_sparse_) {
    DenseCholeskySolve(dense_, nv_, first_, x);
    return;
  }
  // the sparse factor works in reverse dof order
  for (int i = 0, j = nv_ - 1; i < j; ++i, --j) std::swap(x[i], x[j]);
  sparse_.Solve(x);
  for (int i = 0, j = nv_ - 1; i < j; ++i, --j) std::swap(x[i], x[j]);
}

}  // namespace gauss
