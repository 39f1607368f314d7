// AR, b and the force-to-acceleration map of PGS's dual problem (dual.h).
#include "dual.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "gauss/error.h"
#include "gauss/math.h"
#include "gauss/types.h"

namespace gauss {

namespace {

// The most rows BuildW solves together: a pyramidal contact of condim 6 has 10.
constexpr int kMaxRowGroup = 10;

// W = J L^-1 by rows (values and dofs of each row), with its build's marks, the dofs of a
// group of rows and the work vectors (one per row of a group, interleaved by dof).
struct WBlocks {
  int *rowadr, *rownnz, *dof, *mark, *group_dofs;
  double *values, *work;
  template <class Take>
  void Blocks(Take& take, int n, int nv) {
    take(&rowadr, n, "W rowadr");
    take(&rownnz, n, "W rownnz");
    take(&dof, static_cast<std::size_t>(n) * nv, "W dofs");
    take(&values, static_cast<std::size_t>(n) * nv, "W values");
    take(&mark, nv, "mark");
    take(&group_dofs, nv, "group dofs");
    take(&work, static_cast<std::size_t>(kMaxRowGroup) * nv, "work");
  }
};

// The most rows other than a contact's that BuildDenseW solves together.
constexpr int kMaxOtherRowGroup = 4;

// Rows from row i on that BuildDenseW solves together: the rows of one contact (they share
// their columns, the union of the two bodies' dof chains); else up to kMaxOtherRowGroup
// consecutive rows that are not contact rows (limits, friction loss, equality rows). Those
// usually act on different dofs, but on one tree (the only case with a dense J) their dof
// chains share the root's dofs, and one pass over J's rows and the tree for the group costs
// less than one pass per row (three scans of nv and an ancestor walk per dof each).
int RowGroup(const ConstraintProblem& p, int i) {
  const ConstraintType type = p.type[i];
  int g = 1;
  if (!IsContactRow(type)) {
    while (g < kMaxOtherRowGroup && i + g < p.nefc && !IsContactRow(p.type[i + g])) ++g;
    return g;
  }
  if (!p.id) return 1;
  while (g < kMaxRowGroup && i + g < p.nefc && p.type[i + g] == type &&
         p.id[i + g] == p.id[i]) {
    ++g;
  }
  return g;
}

// W by columns (addresses, rows, values and a fill cursor per dof), with the marks, row list
// and accumulator of AR's build; `entries` bounds W's nonzeros.
struct ColumnBlocks {
  int *coladr, *cursor, *colrow, *mark, *rows;
  double *colval, *accumulator;
  template <class Take>
  void Blocks(Take& take, int n, int nv, std::size_t entries) {
    take(&coladr, static_cast<std::size_t>(nv) + 1, "W column addresses");
    take(&cursor, nv, "W column cursor");
    take(&colrow, entries, "W column rows");
    take(&colval, entries, "W column values");
    take(&mark, n, "AR row marks");
    take(&rows, n, "AR row pattern");
    take(&accumulator, n, "AR row accumulator");
  }
};

}  // namespace

// (nv, njmax) => b, W, then AR's scaled row, diagonal and values at their bound
ArenaPlan DualProblem::Plan(int nv, int njmax) {
  const int n = std::max(njmax, 0);
  ArenaPlan plan;
  double* b = nullptr;
  plan(&b, n, "b");
  WBlocks().Blocks(plan, n, nv);
  ColumnBlocks().Blocks(plan, n, nv, static_cast<std::size_t>(n) * nv);
  plan(&b, n, "AR diagonal");
  plan(&b, n, "AR inverse diagonal");
  // dense: n^2 doubles; sparse (used when at most a third of the pairs overlap, so n >= 3):
  // row addresses, counts and pattern flags, then the pairs' columns and values, at most
  // 1.5 pairs + 1.5 n + 3 <= n^2 + 2n doubles
  plan.Add("AR values", static_cast<std::size_t>(n) * n + 2 * static_cast<std::size_t>(n));
  plan.Add("W dense columns", static_cast<std::size_t>(n) * nv);  // with dense AR only
  return plan;
}

void DualProblem::Build(const ConstraintProblem& p, Arena& arena) {
  if (!p.qLD || !p.qLDiagInv) {
    throw Error("solver 'pgs': the constraint problem carries no factor of M (qLD)");
  }
  n_ = p.nefc;
  double* b = arena.Doubles(n_);
  MulJ(p, p.qacc_smooth, b);
  for (int i = 0; i < n_; ++i) b[i] -= p.aref[i];
  b_ = b;
  BuildW(p, arena);
  BuildAR(p, arena);
  double* inverse = arena.Doubles(n_);
  for (int i = 0; i < n_; ++i) inverse[i] = 1 / std::max(diag_[i], kMinVal);
  diag_inv_ = inverse;
}

void DualProblem::BuildW(const ConstraintProblem& p, Arena& arena) {
  const int nv = p.nv;
  ArenaCarve carve(arena);
  WBlocks w;
  w.Blocks(carve, n_, nv);
  W_rowadr_ = w.rowadr;
  W_rownnz_ = w.rownnz;
  W_dof_ = w.dof;
  W_ = w.values;
  if (p.J) {
    BuildDenseW(p, w.mark, w.group_dofs, w.work);
    return;
  }
  int* mark = w.mark;
  std::fill(mark, mark + nv, -1);
  double* work = w.work;
  std::fill(work, work + nv, 0.0);

  int adr = 0;
  for (int i = 0; i < n_; ++i) {
    // the row's dofs and all their ancestors, leaves first (dofs are numbered parents first)
    int* dofs = W_dof_ + adr;
    int count = 0;
    auto add = [&](int col, double value) {
      for (int k = col; k >= 0 && mark[k] != i; k = p.dof_parentid[k]) {
        mark[k] = i;
        dofs[count++] = k;
      }
      work[col] = value;
    };
    const int jadr = p.J_rowadr[i];
    for (int e = 0; e < p.J_rownnz[i]; ++e) add(p.J_colind[jadr + e], p.J_sparse[jadr + e]);
    std::sort(dofs, dofs + count, std::greater<int>());
    // W_i = L^-T J_i': leaves to root, each dof passing its value on to its ancestors
    for (int t = 0; t < count; ++t) {
      const int k = dofs[t];
      const double xk = work[k];
      if (xk == 0) continue;
      int a = p.dof_Madr[k] + 1;
      for (int anc = p.dof_parentid[k]; anc >= 0; anc = p.dof_parentid[anc]) {
        work[anc] -= p.qLD[a++] * xk;
      }
    }
    for (int t = 0; t < count; ++t) {
      W_[adr + t] = work[dofs[t]];
      work[dofs[t]] = 0;
    }
    W_rowadr_[i] = adr;
    W_rownnz_[i] = count;
    adr += count;
  }
}

namespace {

// Two doubles of one SSE2 register (GCC and Clang vector extension): each lane computes the
// scalar expression, so the bits are the scalar loop's.
typedef double Lanes2 __attribute__((vector_size(16)));

// W_r = L^-T J_r' for the G rows of a group (BuildDenseW), leaves to root: work[k G + r] holds
// row r's value at dof k (J on input), dofs lists the group's dofs decreasing (count). G is a
// constant, so the update of an ancestor compiles to a few straight vector operations.
template <int G>
void SolveRowGroup(const ConstraintProblem& p, const int* dofs, int count, double* work) {
  constexpr int kPairs = G / 2;
  for (int t = 0; t < count; ++t) {
    const int k = dofs[t];
    Lanes2 x[kPairs > 0 ? kPairs : 1];
    for (int q = 0; q < kPairs; ++q) std::memcpy(&x[q], work + k * G + 2 * q, sizeof(Lanes2));
    const double x_last = work[k * G + G - 1];  // the last row, alone when G is odd
    int a = p.dof_Madr[k] + 1;
    for (int anc = p.dof_parentid[k]; anc >= 0; anc = p.dof_parentid[anc]) {
      const double l = p.qLD[a++];
      double* to = work + anc * G;
      for (int q = 0; q < kPairs; ++q) {
        Lanes2 v;
        std::memcpy(&v, to + 2 * q, sizeof(Lanes2));
        v -= l * x[q];
        std::memcpy(to + 2 * q, &v, sizeof(Lanes2));
      }
      if constexpr (G % 2 == 1) to[G - 1] -= l * x_last;
    }
  }
}

// (rows i .. i + G - 1 of the dense J) => work[c G + r] = J(i + r, c) and mark[c] = the rows
// nonzero at dof c (bit r: row i + r)
template <int G>
void LoadRowGroup(const ConstraintProblem& p, int i, int* mark, double* work) {
  const int nv = p.nv;
  const double* rows = p.J + static_cast<std::size_t>(i) * nv;
  for (int c = 0; c < nv; ++c) {
    int nonzero = 0;
    for (int r = 0; r < G; ++r) {
      const double v = rows[r * nv + c];
      work[c * G + r] = v;
      nonzero |= static_cast<int>(v != 0) << r;
    }
    mark[c] = nonzero;
  }
}

// Loads and solves the group of g <= G rows from row i with the code compiled for exactly g
// rows; writes mark (each dof's rows, passed on to its ancestors) and the group's dofs, and
// returns their count.
template <int G>
int LoadAndSolveRowGroup(int g, const ConstraintProblem& p, int i, int* mark, int* dofs,
                         double* work) {
  if constexpr (G > 1) {
    if (g < G) return LoadAndSolveRowGroup<G - 1>(g, p, i, mark, dofs, work);
  }
  LoadRowGroup<G>(p, i, mark, work);
  // each dof's rows passed on to its parent; along a chain of dofs (parent k - 1, as within a
  // free or ball joint and along a limb) the bits stay in a register instead of going through
  // a store and a load per dof
  int from_child = 0;  // the bits of dof k + 1 when k is its parent
  for (int k = p.nv - 1; k >= 0; --k) {
    const int bits = mark[k] | from_child;
    mark[k] = bits;
    const int parent = p.dof_parentid[k];
    from_child = parent == k - 1 ? bits : 0;
    if (parent >= 0 && parent != k - 1) mark[parent] |= bits;
  }
  int count = 0;  // the group's dofs, decreasing (dofs are numbered parents first)
  for (int k = p.nv - 1; k >= 0; --k) {
    dofs[count] = k;
    count += mark[k] != 0;
  }
  SolveRowGroup<G>(p, dofs, count, work);
  return count;
}

}  // namespace

void DualProblem::BuildDenseW(const ConstraintProblem& p, int* mark, int* group_dofs,
                              double* work) {
  int adr = 0;
  for (int i = 0; i < n_;) {
    // The g rows of a group are solved together: one walk up each dof's ancestors serves all
    // of them, and their values sit side by side (work[k g + r]: row i + r at dof k), so the
    // update of one ancestor is a short contiguous multiply-subtract. Bit r of mark[k]: row
    // i + r is nonzero at dof k or at one of its descendants, i.e. k is one of that row's dofs
    // (exactly the dofs a row solved alone gets). No branch depends on the values.
    const int g = RowGroup(p, i);
    // A row solved alone skips a dof whose value is zero; here its zero products are
    // subtracted too, which can change nothing but the sign of a zero in W, and W's zeros only
    // ever add exact zeros to sums that start at +0 (AR, Acceleration): the same bits.
    const int count = LoadAndSolveRowGroup<kMaxRowGroup>(g, p, i, mark, group_dofs, work);
    // each row's own dofs and values
    for (int r = 0; r < g; ++r) {
      int* dofs = W_dof_ + adr;
      double* values = W_ + adr;
      int nnz = 0;
      for (int t = 0; t < count; ++t) {
        const int k = group_dofs[t];
        dofs[nnz] = k;
        values[nnz] = work[k * g + r];
        nnz += mark[k] >> r & 1;
      }
      W_rowadr_[i + r] = adr;
      W_rownnz_[i + r] = nnz;
      adr += nnz;
    }
    i += g;
  }
}

void DualProblem::BuildAR(const ConstraintProblem& p, Arena& arena) {
  const std::size_t n = static_cast<std::size_t>(n_);
  const int nv = p.nv;
  const std::size_t entries = n_ > 0 ? W_rowadr_[n_ - 1] + W_rownnz_[n_ - 1] : 0;
  ArenaCarve carve(arena);
  ColumnBlocks c;
  c.Blocks(carve, n_, nv, entries);
  // W by columns: count each dof's rows (placed below only where the storage needs them)
  std::fill(c.coladr, c.coladr + nv + 1, 0);
  for (std::size_t e = 0; e < entries; ++e) ++c.coladr[W_dof_[e] + 1];
  for (int k = 0; k < nv; ++k) c.coladr[k + 1] += c.coladr[k];
  W_coladr_ = c.coladr;
  W_colrow_ = c.colrow;
  W_colval_ = c.colval;
  dof_parentid_ = p.dof_parentid;
  bool placed = false;
  auto place_columns = [&] {  // each column's rows (increasing) and values
    std::copy(c.coladr, c.coladr + nv, c.cursor);
    for (int i = 0; i < n_; ++i) {
      for (int t = W_rowadr_[i]; t < W_rowadr_[i] + W_rownnz_[i]; ++t) {
        const int e = c.cursor[W_dof_[t]]++;
        c.colrow[e] = i;
        c.colval[e] = W_[t];
      }
    }
    placed = true;
  };

  // AR's pattern: the number of interacting pairs picks the storage. When every row lies on
  // one dof tree, the rows on a tree all interact: pairs = sum over roots of rows^2; else the
  // rows sharing a root with each row are counted.
  std::size_t pairs = 0;
  if (RowsOnOneTreeEach()) {
    for (int k = 0; k < nv; ++k) {
      const std::size_t rows = static_cast<std::size_t>(c.coladr[k + 1] - c.coladr[k]);
      if (p.dof_parentid[k] < 0) pairs += rows * rows;
    }
  } else {
    place_columns();
    std::fill(c.mark, c.mark + n, -1);
    for (int i = 0; i < n_; ++i) pairs += InteractingRows(i, c.mark, c.rows);
  }
  double* diag = arena.Doubles(n);
  diag_ = diag;

  if (3 * pairs > n * n) {
    // mostly coupled (one kinematic tree): dense rows, contiguous dot products in the sweeps;
    // the lower triangle from each row's products, mirrored. W by dense columns
    // (columns[k n + j] = W_jk, zero off row j's dofs) makes each product a contiguous
    // multiply-add over rows 0..i: the same sums in the same order as AddRowProducts, plus
    // exact zeros.
    double* columns = arena.Doubles(static_cast<std::size_t>(nv) * n);
    std::fill(columns, columns + static_cast<std::size_t>(nv) * n, 0.0);
    for (int i = 0; i < n_; ++i) {
      for (int t = W_rowadr_[i]; t < W_rowadr_[i] + W_rownnz_[i]; ++t) {
        columns[static_cast<std::size_t>(W_dof_[t]) * n + i] = W_[t];
      }
    }
    // row i's lower part starts at zero here; its upper part is written by the mirror of the
    // later rows
    double* dense = arena.Doubles(n * n);
    for (int i = 0; i < n_; ++i) {
      double* row = dense + i * n;
      std::fill(row, row + i + 1, 0.0);
      AddScaledColumns(p, columns, n, i, row);
      for (int j = 0; j < i; ++j) dense[j * n + i] = row[j];
      row[i] += p.R[i];
      diag[i] = row[i];
    }
    dense_ = dense;
    return;
  }
  if (!placed) place_columns();
  int* rowadr = arena.Ints(n);
  int* rownnz = arena.Ints(n);
  int* col = arena.Ints(pairs);
  double* val = arena.Doubles(pairs);
  int* same_pattern = arena.Ints(n);
  double* acc = c.accumulator;
  std::fill(c.mark, c.mark + n, -1);
  int adr = 0;
  for (int i = 0; i < n_; ++i) {
    const int count = InteractingRows(i, c.mark, col + adr);
    for (int e = adr; e < adr + count; ++e) acc[col[e]] = 0;
    AddRowProducts(p, i, n_, acc);
    for (int e = adr; e < adr + count; ++e) {
      const int j = col[e];
      val[e] = acc[j] + (j == i ? p.R[i] : 0.0);
      if (j == i) diag[i] = val[e];
    }
    rowadr[i] = adr;
    rownnz[i] = count;
    same_pattern[i] = i > 0 && count == rownnz[i - 1] &&
                      std::equal(col + adr, col + adr + count, col + rowadr[i - 1]);
    adr += count;
  }
  AR_same_pattern_ = same_pattern;
  AR_rowadr_ = rowadr;
  AR_rownnz_ = rownnz;
  AR_col_ = col;
  AR_val_ = val;
}

void DualProblem::AddScaledColumns(const ConstraintProblem& p, const double* columns,
                                   std::size_t n, int i, double* row) const {
  // Four dofs per pass over row[0..i]: each entry still receives its products one by one in
  // the order of W's dofs (the same sums, the same bits), with one load and one store of it
  // per four products instead of one per product.
  const int begin = W_rowadr_[i], end = begin + W_rownnz_[i];
  auto column = [&](int t) { return columns + static_cast<std::size_t>(W_dof_[t]) * n; };
  auto scaled = [&](int t) { return W_[t] * p.qLDiagInv[W_dof_[t]]; };
  int t = begin;
  for (; t + 4 <= end; t += 4) {
    const double *c0 = column(t), *c1 = column(t + 1), *c2 = column(t + 2), *c3 = column(t + 3);
    const double s0 = scaled(t), s1 = scaled(t + 1), s2 = scaled(t + 2), s3 = scaled(t + 3);
    for (int j = 0; j <= i; ++j) {
      row[j] = (((row[j] + c0[j] * s0) + c1[j] * s1) + c2[j] * s2) + c3[j] * s3;
    }
  }
  for (; t < end; ++t) {
    const double* c = column(t);
    const double s = scaled(t);
    for (int j = 0; j <= i; ++j) row[j] += c[j] * s;
  }
}

bool DualProblem::RowsOnOneTreeEach() const {
  for (int i = 0; i < n_; ++i) {
    int roots = 0;
    for (int t = W_rowadr_[i]; t < W_rowadr_[i] + W_rownnz_[i]; ++t) {
      roots += dof_parentid_[W_dof_[t]] < 0;
    }
    if (roots != 1) return false;
  }
  return true;
}

void DualProblem::AddRowProducts(const ConstraintProblem& p, int i, int end,
                                 double* row) const {
  const int* dofs = W_dof_ + W_rowadr_[i];
  const double* wi = W_ + W_rowadr_[i];
  for (int t = 0; t < W_rownnz_[i]; ++t) {
    const int k = dofs[t];
    const double scaled = wi[t] * p.qLDiagInv[k];
    for (int e = W_coladr_[k]; e < W_coladr_[k + 1]; ++e) {
      const int j = W_colrow_[e];
      if (j >= end) break;  // a column's rows are increasing
      row[j] += W_colval_[e] * scaled;
    }
  }
}

int DualProblem::InteractingRows(int i, int* mark, int* rows) const {
  // every row on a dof tree holds its root dof: the rows on i's root dofs
  const int* dofs = W_dof_ + W_rowadr_[i];
  int count = 0, roots = 0;
  for (int t = 0; t < W_rownnz_[i]; ++t) {
    const int k = dofs[t];
    if (dof_parentid_[k] >= 0) continue;
    ++roots;
    for (int e = W_coladr_[k]; e < W_coladr_[k + 1]; ++e) {
      const int j = W_colrow_[e];
      if (mark[j] == i) continue;
      mark[j] = i;
      rows[count++] = j;
    }
  }
  if (count == 0) rows[count++] = i;  // a row on no dof: its diagonal (R) alone
  // one root's rows come increasing already
  if (roots > 1) std::sort(rows, rows + count);
  return count;
}

double DualProblem::Cost(const double* f) const {
  double cost = 0;
  for (int i = 0; i < n_; ++i) {
    if (f[i] != 0) cost += f[i] * (0.5 * (Residual(i, f) - b_[i]) + b_[i]);
  }
  return cost;
}

void DualProblem::Acceleration(const ConstraintProblem& p, const double* force,
                               double* qacc) const {
  const int nv = p.nv;
  // u = W' f, then M^-1 J' f = L^-1 D^-1 u (root to leaves), added to a0
  std::fill(qacc, qacc + nv, 0.0);
  for (int i = 0; i < n_; ++i) {
    if (force[i] == 0) continue;
    for (int t = 0; t < W_rownnz_[i]; ++t) {
      qacc[W_dof_[W_rowadr_[i] + t]] += W_[W_rowadr_[i] + t] * force[i];
    }
  }
  for (int k = 0; k < nv; ++k) qacc[k] *= p.qLDiagInv[k];
  for (int k = 0; k < nv; ++k) {
    double sum = 0;
    int a = p.dof_Madr[k] + 1;
    for (int anc = p.dof_parentid[k]; anc >= 0; anc = p.dof_parentid[anc]) {
      sum += p.qLD[a++] * qacc[anc];
    }
    qacc[k] -= sum;
  }
  for (int k = 0; k < nv; ++k) qacc[k] += p.qacc_smooth[k];
}

}  // namespace gauss
