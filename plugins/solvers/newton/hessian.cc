// Assembly and factorization of Newton's Hessian (hessian.h).
//
// Sparse form: columns are numbered in reverse dof order, so that a dof's descendants come
// before it and the tree-structured M factors without fill; the base factor's constraint part
// adds, for every row on a quadratic piece, D_i J_i' J_i (rows of one constraint share their
// columns and are summed into one dense block first; entries are listed column by column,
// duplicates are summed by the factorization). Every constraint's block is in the pattern, so
// that rank-one changes of it stay inside the factor's: rows changing their piece, and every
// elliptic contact on its cone surface, J_c' Hc J_c = sum_k d_k w_k w_k' from Hc = L diag(d) L'
// and w_k = J_c' L e_k, added to a copy of the base factor.
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

// Hc = L diag(d) L' for the positive semidefinite curvature hc (dim x dim, row-major): the
// unit lower L overwrites hc's strict lower triangle. Hc is singular on the cone surface
// ((T, j_t) is in its null space), so a pivot may be round-off: a pivot at most `tiny` gets
// d = 0 and its column drops out (what it would carry is round-off as well). Reads and writes
// hc, writes d (dim).
void FactorSemidefinite(double* hc, int dim, double* d) {
  double largest = 0;
  for (int k = 0; k < dim; ++k) largest = std::max(largest, hc[k * dim + k]);
  const double tiny = 1e-12 * largest;
  for (int k = 0; k < dim; ++k) {
    double pivot = hc[k * dim + k];
    for (int t = 0; t < k; ++t) pivot -= hc[k * dim + t] * hc[k * dim + t] * d[t];
    d[k] = pivot > tiny ? pivot : 0.0;
    for (int r = k + 1; r < dim; ++r) {
      double v = hc[r * dim + k];
      for (int t = 0; t < k; ++t) v -= hc[r * dim + t] * hc[k * dim + t] * d[t];
      hc[r * dim + k] = d[k] > 0 ? v / d[k] : 0.0;
    }
  }
}

}  // namespace

// (sizes) => the blocks Factor takes
ArenaPlan NewtonHessian::Plan(int nv, int nM, int njmax, int row_nonzeros, bool sparse,
                              Cone cone) {
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
  const std::size_t most_L = static_cast<std::size_t>(nv) * (nv - 1) / 2;
  plan.Append(SparseLDL::Plan(nv, most_L));
  if (cone == Cone::kElliptic) plan.Append(SparseLDL::CopyPlan(nv, most_L));
  // a constraint island below kSparseMinDofs dofs is factored densely (SparseFor)
  ArenaPlan dense;
  h.DenseBlocks(dense, std::min(nv, kSparseMinDofs - 1));
  plan.Append(dense);
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
  if (!FactorSparse(p, state, arena)) return false;
  if (p.cone == Cone::kElliptic) with_cones_.TakeStorageFor(sparse_, arena);
  return AddConeCurvature(p, jar, state);
}

bool NewtonHessian::Update(const ConstraintProblem& p, const double* jar, const int* state) {
  if (!is_sparse_) return false;
  constexpr int kQuadratic = static_cast<int>(ConstraintState::kQuadratic);
  int changed = 0;
  for (int i = 0; i < p.nefc; ++i) {
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
  return AddConeCurvature(p, jar, state);
}

bool NewtonHessian::AddConeCurvature(const ConstraintProblem& p, const double* jar,
                                     const int* state) {
  active_ = &sparse_;
  if (p.cone != Cone::kElliptic) return true;
  for (int i = 0; i < p.nefc; ++i) {
    // a contact on its cone surface has all its rows in that state; i is its first row
    if (state[i] != static_cast<int>(ConstraintState::kCone)) continue;
    if (active_ == &sparse_) {
      with_cones_.CopyValues(sparse_);
      active_ = &with_cones_;
    }
    const Contact& c = p.contact[p.id[i]];
    double hc[kMaxDim * kMaxDim], d[kMaxDim];
    EllipticConeCurvature(p, c, jar + i, hc);
    FactorSemidefinite(hc, c.dim, d);
    // the contact's rows share their columns: w_k = sum_{r >= k} L(r, k) J_r over them
    const int adr = p.J_rowadr[i];
    const int nnz = p.J_rownnz[i];
    for (int q = 0; q < nnz; ++q) update_index_[q] = nv_ - 1 - p.J_colind[adr + q];
    for (int k = 0; k < c.dim; ++k) {
      if (d[k] == 0) continue;
      const double* diagonal_row = p.J_sparse + p.J_rowadr[i + k];  // L(k, k) = 1
      for (int q = 0; q < nnz; ++q) update_value_[q] = diagonal_row[q];
      for (int r = k + 1; r < c.dim; ++r) {
        const double l = hc[r * c.dim + k];
        const double* row = p.J_sparse + p.J_rowadr[i + r];
        for (int q = 0; q < nnz; ++q) update_value_[q] += l * row[q];
      }
      if (!with_cones_.Update(nnz, update_index_, update_value_, d[k])) return false;
    }
    i += c.dim - 1;
  }
  return true;
}

bool NewtonHessian::FactorDense(const ConstraintProblem& p, const double* jar, const int* state,
                                Arena& arena) {
  ArenaCarve carve(arena);
  DenseBlocks(carve, p.nv);
  return FactorDenseInto(p, jar, state, dense_, first_);
}

bool NewtonHessian::FactorDenseInto(const ConstraintProblem& p, const double* jar,
                                    const int* state, double* factor, int* first) {
  const int nv = p.nv;
  UseDense(nv, factor, first);
  // only the lower triangle is written and read (the Hessian's products and
  // DenseCholeskyFactor), so only it is cleared: half the stores of the whole matrix
  for (int i = 0; i < nv; ++i) std::fill(dense_ + i * nv, dense_ + i * nv + i + 1, 0.0);
  p.M->AddToDense(dense_);
  AddConstraintHessian(p, jar, state, dense_);
  // a pivot must be positive (H > 0 in exact arithmetic); the envelope skips H's zero blocks
  return DenseCholeskyFactor(dense_, nv, std::numeric_limits<double>::denorm_min(),
                             SmallPivot::kFail, first_) == kCholeskyComplete;
}

void NewtonHessian::UseDense(int nv, double* factor, int* first) {
  nv_ = nv;
  is_sparse_ = false;
  dense_ = factor;
  first_ = first;
}

bool NewtonHessian::FactorSparse(const ConstraintProblem& p, const int* state, Arena& arena) {
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
    } while (j < p.nefc && same_constraint(i, j));
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
  active_->Solve(x);
  for (int i = 0, j = nv_ - 1; i < j; ++i, --j) std::swap(x[i], x[j]);
}

}  // namespace gauss
