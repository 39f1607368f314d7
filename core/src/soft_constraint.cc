// The soft-constraint penalty s(jar) of the reduced primal problem, its gradient (the
// constraint force) and its Hessian, shared by every solver plugin and the inverse dynamics.
//
// Elliptic contacts: with the regularizer coupled as the kernel builds it (R of the first
// friction row = R_normal / impratio, and R_j mu_j^2 equal over the friction rows), the
// R^-1-metric distance to the dual cone reduces to the three zones of elliptic_zone.h.
#include <algorithm>
#include <cmath>

#include "constraint_assembly.h"
#include "elliptic_zone.h"
#include "row_penalty.h"
#include "gauss/constraint.h"

namespace gauss {

namespace {

// One Jacobian row as its nonzeros: n (column, value) pairs with increasing columns. Sparse rows
// point into the CSR arrays; dense rows are gathered into the caller's buffers.
struct SparseRow {
  int n = 0;
  const int* cols = nullptr;
  const double* values = nullptr;
};

// Rows of a dense Jacobian wider than this are walked column by column instead of gathered.
constexpr int kMaxGather = 256;

SparseRow RowNonzeros(const ConstraintProblem& p, int row, int* cols, double* values) {
  SparseRow r;
  if (!p.J) {
    const int adr = p.J_rowadr[row];
    r.n = p.J_rownnz[row];
    r.cols = p.J_colind + adr;
    r.values = p.J_sparse + adr;
    return r;
  }
  const double* dense = p.J + static_cast<long>(row) * p.nv;
  for (int c = 0; c < p.nv; ++c) {
    if (dense[c] == 0) continue;
    cols[r.n] = c;
    values[r.n++] = dense[c];
  }
  r.cols = cols;
  r.values = values;
  return r;
}

// H (lower triangle) += w u' v for two rows u, v of J; u and v are the same row or rows of one
// constraint. Dense rows are gathered first (a row of a 27-dof humanoid has ~10 nonzeros), so
// the work is n_u n_v instead of nv^2 tests.
void AddRowProduct(const ConstraintProblem& p, int row_u, int row_v, double w, double* H) {
  const int nv = p.nv;
  if (p.J && nv > kMaxGather) {
    const double* u = p.J + static_cast<long>(row_u) * nv;
    const double* v = p.J + static_cast<long>(row_v) * nv;
    for (int a = 0; a < nv; ++a) {
      if (u[a] == 0) continue;
      const double wu = w * u[a];
      for (int b = 0; b <= a; ++b) H[a * nv + b] += wu * v[b];
    }
    return;
  }
  int cols_u[kMaxGather], cols_v[kMaxGather];
  double values_u[kMaxGather], values_v[kMaxGather];
  const SparseRow u = RowNonzeros(p, row_u, cols_u, values_u);
  const SparseRow v = row_v == row_u ? u : RowNonzeros(p, row_v, cols_v, values_v);
  for (int q = 0; q < u.n; ++q) {
    const int a = u.cols[q];
    const double wu = w * u.values[q];
    double* Ha = H + static_cast<long>(a) * nv;
    for (int t = 0; t < v.n && v.cols[t] <= a; ++t) Ha[v.cols[t]] += wu * v.values[t];
  }
}

// The longest run of rows AddQuadraticRun takes at once; longer runs go row by row.
constexpr int kMaxHessianRun = 16;

// The lower triangle of one run's block of H += sum_r (D_r v_r) v_r' for the m rows r of
// values[r] (n entries each, at the columns cols), their weights D_r in D. Each entry takes
// its m terms in row order. Kept < 0: m is known only at run time; Kept = m: the compiler
// unrolls the rows (a pyramidal contact's 4, or fewer while some rows are not quadratic) and
// holds their weights and row pointers in registers, for the same sums bit for bit.
// Two entries t, t + 1 of the run whose columns are adjacent (a body's dofs are) are added as a
// pair: each still takes its own terms in row order, and the compiler can do both in one vector
// operation per row.
template <int Kept>
void AddRunBlock(int m, int n, const int* cols, const double* const* values, const double* D,
                 int nv, double* H) {
  const int rows = Kept < 0 ? m : Kept;
  for (int q = 0; q < n; ++q) {
    double* Ha = H + static_cast<long>(cols[q]) * nv;
    double wu[kMaxHessianRun];
    for (int r = 0; r < rows; ++r) wu[r] = D[r] * values[r][q];
    auto add_one = [&](int t) {
      double h = Ha[cols[t]];
      for (int r = 0; r < rows; ++r) h += wu[r] * values[r][t];
      Ha[cols[t]] = h;
    };
    int t = 0;
    for (; t < q; t += 2) {  // t + 1 <= q
      if (cols[t + 1] != cols[t] + 1) {
        add_one(t);
        add_one(t + 1);
        continue;
      }
      double* h = Ha + cols[t];
      double h0 = h[0], h1 = h[1];
      for (int r = 0; r < rows; ++r) {
        h0 += wu[r] * values[r][t];
        h1 += wu[r] * values[r][t + 1];
      }
      h[0] = h0;
      h[1] = h1;
    }
    if (t == q) add_one(t);
  }
}

// H (lower triangle) += D_i J_i' J_i for the rows i of the run first .. first + count - 1
// (rows sharing their columns: J_rowrun, CSR) whose penalty is quadratic. Each entry of H is
// read and written once per run and takes the rows' terms (D_i J_ia) J_ib in row order, exactly
// as AddRowProduct row by row adds them: the same sums bit for bit, without walking the
// columns and H once per row (a pyramidal contact's 4 rows share 6 or 12 columns).
void AddQuadraticRun(const ConstraintProblem& p, int first, int count, const int* state,
                     double* H) {
  const double* values[kMaxHessianRun];
  double D[kMaxHessianRun];
  int m = 0;
  for (int i = first; i < first + count; ++i) {
    if (state[i] != static_cast<int>(ConstraintState::kQuadratic)) continue;
    values[m] = p.J_sparse + p.J_rowadr[i];
    D[m++] = p.D[i];
  }
  const int n = p.J_rownnz[first];
  const int* cols = p.J_colind + p.J_rowadr[first];
  switch (m) {
    case 0: return;
    case 1: return AddRunBlock<1>(m, n, cols, values, D, p.nv, H);
    case 2: return AddRunBlock<2>(m, n, cols, values, D, p.nv, H);
    case 3: return AddRunBlock<3>(m, n, cols, values, D, p.nv, H);
    case 4: return AddRunBlock<4>(m, n, cols, values, D, p.nv, H);
    default: return AddRunBlock<-1>(m, n, cols, values, D, p.nv, H);
  }
}

// H (lower triangle) += J_c' Hc J_c for the k rows adr.. of one constraint (Hc k x k, k <= 6):
// the rows are gathered once over the union of their columns (n), then Hc J_c (k x n) and the
// n x n product, instead of k^2 row products.
void AddBlockProduct(const ConstraintProblem& p, int adr, int k, const double* Hc, double* H) {
  const int nv = p.nv;
  if (p.J && nv > kMaxGather) {
    for (int a = 0; a < k; ++a) {
      for (int b = 0; b < k; ++b) AddRowProduct(p, adr + a, adr + b, Hc[a * k + b], H);
    }
    return;
  }
  // union of the rows' columns, increasing
  int cols[kMaxGather];
  int n = 0;
  if (p.J) {
    for (int col = 0; col < nv; ++col) {
      for (int r = 0; r < k; ++r) {
        if (p.J[static_cast<long>(adr + r) * nv + col] != 0) {
          cols[n++] = col;
          break;
        }
      }
    }
  } else {
    int next[6];
    for (int r = 0; r < k; ++r) next[r] = 0;
    for (;;) {
      int col = nv;
      for (int r = 0; r < k; ++r) {
        const int row = adr + r;
        if (next[r] < p.J_rownnz[row]) col = std::min(col, p.J_colind[p.J_rowadr[row] + next[r]]);
      }
      if (col == nv || n == kMaxGather) break;
      cols[n++] = col;
      for (int r = 0; r < k; ++r) {
        const int row = adr + r;
        if (next[r] < p.J_rownnz[row] && p.J_colind[p.J_rowadr[row] + next[r]] == col) ++next[r];
      }
    }
    if (n == kMaxGather) {  // a wider union than the buffers: row products
      for (int a = 0; a < k; ++a) {
        for (int b = 0; b < k; ++b) AddRowProduct(p, adr + a, adr + b, Hc[a * k + b], H);
      }
      return;
    }
  }
  // Jc (k x n) on the union, then G = Hc Jc
  double Jc[6 * kMaxGather], G[6 * kMaxGather];
  for (int r = 0; r < k; ++r) {
    const int row = adr + r;
    double* out = Jc + r * n;
    if (p.J) {
      for (int q = 0; q < n; ++q) out[q] = p.J[static_cast<long>(row) * nv + cols[q]];
    } else {
      for (int q = 0; q < n; ++q) out[q] = 0;
      const int a = p.J_rowadr[row];
      for (int e = 0, q = 0; e < p.J_rownnz[row]; ++e) {
        while (cols[q] != p.J_colind[a + e]) ++q;
        out[q] = p.J_sparse[a + e];
      }
    }
  }
  for (int r = 0; r < k; ++r) {
    for (int q = 0; q < n; ++q) {
      double sum = 0;
      for (int t = 0; t < k; ++t) sum += Hc[r * k + t] * Jc[t * n + q];
      G[r * n + q] = sum;
    }
  }
  for (int q = 0; q < n; ++q) {
    double* Hq = H + static_cast<long>(cols[q]) * nv;
    for (int t = 0; t <= q; ++t) {
      double sum = 0;
      for (int r = 0; r < k; ++r) sum += Jc[r * n + q] * G[r * n + t];
      Hq[cols[t]] += sum;
    }
  }
}

// y[i .. i+G) = rows i .. i+G of the CSR J (one run: the same n columns, values row after row)
// times x; each row's sum over its columns in order, as row by row.
template <int G>
void MulRun(const ConstraintProblem& p, int i, const double* x, double* y) {
  const int n = p.J_rownnz[i];
  const int* cols = p.J_colind + p.J_rowadr[i];
  const double* v = p.J_sparse + p.J_rowadr[i];
  double sum[G] = {};
  for (int k = 0; k < n; ++k) {
    const double xc = x[cols[k]];
    for (int r = 0; r < G; ++r) sum[r] += v[r * n + k] * xc;
  }
  for (int r = 0; r < G; ++r) y[i + r] = sum[r];
}

// y += rows i .. i+G of the CSR J (one run) transposed times f, rows with f = 0 skipped; every
// y[c] receives its terms in row order, as row by row.
template <int G>
void MulRunT(const ConstraintProblem& p, int i, const double* f, double* y) {
  const int n = p.J_rownnz[i];
  const int* cols = p.J_colind + p.J_rowadr[i];
  const double* v = p.J_sparse + p.J_rowadr[i];
  // the run's forces in locals: y's stores could alias f as far as the compiler knows, which
  // would reload every f at every column
  int active[G];
  double fa[G];
  int na = 0;
  for (int r = 0; r < G; ++r) {
    if (f[i + r] == 0) continue;
    active[na] = r;
    fa[na++] = f[i + r];
  }
  if (na == 0) return;
  if (na == G) {
    for (int k = 0; k < n; ++k) {
      double yc = y[cols[k]];
      for (int r = 0; r < G; ++r) yc += v[r * n + k] * fa[r];
      y[cols[k]] = yc;
    }
    return;
  }
  for (int k = 0; k < n; ++k) {
    double yc = y[cols[k]];
    for (int a = 0; a < na; ++a) yc += v[active[a] * n + k] * fa[a];
    y[cols[k]] = yc;
  }
}

// The longest run the products unroll; longer runs are split (still the same sums).
constexpr int kMaxRun = 6;

// One part of a run: G of its rows from `row` on.
template <bool kTransposed, int G>
void MulPart(const ConstraintProblem& p, int row, const double* in, double* out) {
  if constexpr (kTransposed) {
    MulRunT<G>(p, row, in, out);
  } else {
    MulRun<G>(p, row, in, out);
  }
}

// MulJ (in = x, out = y) or MulJT (in = f, out = y, zeroed by the caller) run by run.
template <bool kTransposed>
void MulRuns(const ConstraintProblem& p, const double* in, double* out) {
  for (int i = 0; i < p.nefc;) {
    const int g = p.J_rowrun[i];
    int done = 0;
    while (done < g) {
      const int part = std::min(kMaxRun, g - done);
      const int row = i + done;
      switch (part) {
        case 1: MulPart<kTransposed, 1>(p, row, in, out); break;
        case 2: MulPart<kTransposed, 2>(p, row, in, out); break;
        case 3: MulPart<kTransposed, 3>(p, row, in, out); break;
        case 4: MulPart<kTransposed, 4>(p, row, in, out); break;
        case 5: MulPart<kTransposed, 5>(p, row, in, out); break;
        default: MulPart<kTransposed, kMaxRun>(p, row, in, out); break;
      }
      done += part;
    }
    i += g;
  }
}

}  // namespace

namespace {

// y[i .. i + R) = rows i .. i + R - 1 of the dense matrix A (ncols columns) times x. Each row's
// sum runs over the columns in order, as one row at a time would (the same bits), but the R
// chains of additions are independent, so they overlap instead of each waiting for the
// previous addition, and x is read once for all R rows.
template <int R>
void MulDenseRowBlock(const double* A, int ncols, int i, const double* x, double* y) {
  const double* rows = A + static_cast<long>(i) * ncols;
  double sum[R] = {};
  for (int c = 0; c < ncols; ++c) {
    const double xc = x[c];
    for (int r = 0; r < R; ++r) sum[r] += rows[static_cast<long>(r) * ncols + c] * xc;
  }
  for (int r = 0; r < R; ++r) y[i + r] = sum[r];
}

// y (ncols) += rows i .. i + R - 1 of A times f[i .. i + R): each y[c] takes the rows' terms in
// row order, as one row at a time would (the same bits), with one load and store of y[c].
template <int R>
void AddDenseRowBlockT(const double* A, int ncols, int i, const double* f, double* y) {
  const double* rows = A + static_cast<long>(i) * ncols;
  for (int c = 0; c < ncols; ++c) {
    double yc = y[c];
    for (int r = 0; r < R; ++r) yc += rows[static_cast<long>(r) * ncols + c] * f[i + r];
    y[c] = yc;
  }
}

}  // namespace

void MulDenseRows(const double* A, int nrows, int ncols, const double* x, double* y) {
  int i = 0;
  for (; i + 4 <= nrows; i += 4) MulDenseRowBlock<4>(A, ncols, i, x, y);
  for (; i < nrows; ++i) MulDenseRowBlock<1>(A, ncols, i, x, y);
}

namespace {

// The rows i .. i + G - 1 from i on that share row i's column list (the same address: the rows
// of one contact, AddRow), at most G.
template <int G>
int SharedColumnsRun(int nrows, const int* rownnz, const int* rowadr, int i) {
  int g = 1;
  while (g < G && i + g < nrows && rowadr[i + g] == rowadr[i] && rownnz[i + g] == rownnz[i]) {
    ++g;
  }
  return g;
}

// y[i .. i + G) = rows i .. i + G - 1 of A over their shared columns cols[0..n) times x: each
// row's sum over the columns in order, x read once for the G rows.
template <int G>
void MulRowsOver(const double* A, int ncols, int i, const int* cols, int n, const double* x,
                 double* y) {
  // the rows' starts in locals: one indexed load per entry
  const double* row[G];
  for (int r = 0; r < G; ++r) row[r] = A + static_cast<long>(i + r) * ncols;
  double sum[G] = {};
  for (int k = 0; k < n; ++k) {
    const int c = cols[k];
    const double xc = x[c];
    for (int r = 0; r < G; ++r) sum[r] += row[r][c] * xc;
  }
  for (int r = 0; r < G; ++r) y[i + r] = sum[r];
}

// y += rows i .. i + G - 1 of A over their shared columns cols[0..n), transposed, times f:
// every y[c] takes the rows' terms in row order (the rows with f = 0 add nothing: skipped).
template <int G>
void AddRowsOverT(const double* A, int ncols, int i, const int* cols, int n, const double* f,
                  double* y) {
  // the rows with a force, their starts and forces in locals (y's stores could alias them)
  const double* row[G];
  double fa[G];
  int na = 0;
  for (int r = 0; r < G; ++r) {
    if (f[i + r] == 0) continue;
    row[na] = A + static_cast<long>(i + r) * ncols;
    fa[na++] = f[i + r];
  }
  if (na == 0) return;
  if (na == G) {  // the usual case: the loop over the rows unrolled
    for (int k = 0; k < n; ++k) {
      const int c = cols[k];
      double yc = y[c];
      for (int a = 0; a < G; ++a) yc += row[a][c] * fa[a];
      y[c] = yc;
    }
    return;
  }
  for (int k = 0; k < n; ++k) {
    const int c = cols[k];
    double yc = y[c];
    for (int a = 0; a < na; ++a) yc += row[a][c] * fa[a];
    y[c] = yc;
  }
}

constexpr int kMaxRowsOver = 4;  // a pyramidal condim-3 contact's rows

// The G rows from row i on over their shared columns: MulRowsOver (kTransposed false) or
// AddRowsOverT (true).
template <bool kTransposed, int G>
void RowsOver(const double* A, int ncols, int i, const int* cols, int n, const double* in,
              double* out) {
  if (kTransposed) {
    AddRowsOverT<G>(A, ncols, i, cols, n, in, out);
  } else {
    MulRowsOver<G>(A, ncols, i, cols, n, in, out);
  }
}

// A dense J's rows over the columns each was built over (MulDenseRowsOver's arrays), in runs of
// the rows that share one column list (SharedColumnsRun: a product reads the list, and x or
// y, once per run; G a compile-time constant, so that the loop over a run's rows unrolls):
// out (nrows) = A in, or out (ncols, zeroed by the caller) += A' in when kTransposed.
template <bool kTransposed>
void DenseRowsOver(const double* A, int nrows, int ncols, const int* rownnz, const int* rowadr,
                   const int* colind, const double* in, double* out) {
  for (int i = 0; i < nrows;) {
    const int g = SharedColumnsRun<kMaxRowsOver>(nrows, rownnz, rowadr, i);
    const int* cols = colind + rowadr[i];
    const int n = rownnz[i];
    switch (g) {
      case 1: RowsOver<kTransposed, 1>(A, ncols, i, cols, n, in, out); break;
      case 2: RowsOver<kTransposed, 2>(A, ncols, i, cols, n, in, out); break;
      case 3: RowsOver<kTransposed, 3>(A, ncols, i, cols, n, in, out); break;
      default: RowsOver<kTransposed, kMaxRowsOver>(A, ncols, i, cols, n, in, out); break;
    }
    i += g;
  }
}

}  // namespace

void MulDenseRowsOver(const double* A, int nrows, int ncols, const int* rownnz,
                      const int* rowadr, const int* colind, const double* x, double* y) {
  DenseRowsOver<false>(A, nrows, ncols, rownnz, rowadr, colind, x, y);
}

void MulJ(const ConstraintProblem& p, const double* x, double* y) {
  if (p.J && p.J_dense_colind) {
    MulDenseRowsOver(p.J, p.nefc, p.nv, p.J_dense_rownnz, p.J_dense_rowadr, p.J_dense_colind, x,
                     y);
    return;
  }
  if (p.J) {
    MulDenseRows(p.J, p.nefc, p.nv, x, y);
    return;
  }
  if (p.J_rowrun) {
    MulRuns<false>(p, x, y);
    return;
  }
  for (int i = 0; i < p.nefc; ++i) {
    const int adr = p.J_rowadr[i];
    double sum = 0;
    for (int k = 0; k < p.J_rownnz[i]; ++k) sum += p.J_sparse[adr + k] * x[p.J_colind[adr + k]];
    y[i] = sum;
  }
}

void MulJT(const ConstraintProblem& p, const double* f, double* y) {
  for (int c = 0; c < p.nv; ++c) y[c] = 0;
  if (!p.J && p.J_rowrun) {
    MulRuns<true>(p, f, y);
    return;
  }
  if (p.J && p.J_dense_colind) {
    // each row over the columns it was built over: every y[c] takes the rows' terms in row
    // order, as below, without the exact zeros (y starts at +0, so skipping them keeps the bits)
    DenseRowsOver<true>(p.J, p.nefc, p.nv, p.J_dense_rownnz, p.J_dense_rowadr, p.J_dense_colind,
                        f, y);
    return;
  }
  if (p.J) {
    // four rows at a time unless all four forces are zero; a zero force among them adds exact
    // zeros to y, which starts at +0: the same bits as skipping its row
    int i = 0;
    for (; i + 4 <= p.nefc; i += 4) {
      if (f[i] == 0 && f[i + 1] == 0 && f[i + 2] == 0 && f[i + 3] == 0) continue;
      AddDenseRowBlockT<4>(p.J, p.nv, i, f, y);
    }
    for (; i < p.nefc; ++i) {
      if (f[i] != 0) AddDenseRowBlockT<1>(p.J, p.nv, i, f, y);
    }
    return;
  }
  for (int i = 0; i < p.nefc; ++i) {
    if (f[i] == 0) continue;
    const double fi = f[i];
    const int adr = p.J_rowadr[i];
    for (int k = 0; k < p.J_rownnz[i]; ++k) y[p.J_colind[adr + k]] += p.J_sparse[adr + k] * fi;
  }
}

// (m) => the runs of rows (njmax) and, for a dense J, the CSR blocks for njmax rows of at most
// MaxRowNonzeros(m) nonzeros
ArenaPlan CompressedJacobian::Plan(const Model& m) {
  ArenaPlan plan;
  const int rows = std::max(m.njmax, 0);
  plan.Add("J row runs", ArenaDoubles<int>(rows));
  if (IsSparse(m)) return plan;
  CompressedJacobian().Blocks(plan, rows, static_cast<std::size_t>(rows) * MaxRowNonzeros(m));
  return plan;
}

namespace {

// visit(column, value) for every nonzero of row i of p's dense J, columns increasing: over
// the columns the row was built over when p has them, else over all columns
template <class Visit>
void ForEachNonzeroOfDenseRow(const ConstraintProblem& p, int i, Visit&& visit) {
  const double* row = p.J + static_cast<long>(i) * p.nv;
  if (p.J_dense_colind) {
    const int* cols = p.J_dense_colind + p.J_dense_rowadr[i];
    for (int k = 0; k < p.J_dense_rownnz[i]; ++k) {
      if (row[cols[k]] != 0) visit(cols[k], row[cols[k]]);
    }
  } else {
    for (int col = 0; col < p.nv; ++col) {
      if (row[col] != 0) visit(col, row[col]);
    }
  }
}

// (CSR arrays of p) => run[i] for the first row of each run of rows with the same columns
void FindRowRuns(const ConstraintProblem& p, int* run) {
  int first = 0;
  for (int i = 1; i <= p.nefc; ++i) {
    bool same = i < p.nefc && p.J_rownnz[i] == p.J_rownnz[first];
    if (same) {
      const int* a = p.J_colind + p.J_rowadr[first];
      const int* b = p.J_colind + p.J_rowadr[i];
      // a run's values are read with stride n from its first row: rows must be contiguous
      same = p.J_rowadr[i] == p.J_rowadr[i - 1] + p.J_rownnz[first] &&
             std::equal(a, a + p.J_rownnz[first], b);
    }
    if (!same) {
      run[first] = i - first;
      first = i;
    }
  }
}

}  // namespace

ConstraintProblem WithCompressedJacobian(const ConstraintProblem& p, Arena& arena) {
  ConstraintProblem sparse = p;
  int* run = arena.Ints(p.nefc);
  if (p.J) {
    // the nonzeros among the columns each row was built over (all columns when unknown)
    std::size_t nnz = 0;
    for (int i = 0; i < p.nefc; ++i) ForEachNonzeroOfDenseRow(p, i, [&nnz](int, double) { ++nnz; });
    CompressedJacobian c;
    ArenaCarve carve(arena);
    c.Blocks(carve, p.nefc, nnz);
    int adr = 0;
    for (int i = 0; i < p.nefc; ++i) {
      c.rowadr[i] = adr;
      ForEachNonzeroOfDenseRow(p, i, [&](int col, double value) {
        c.colind[adr] = col;
        c.values[adr++] = value;
      });
      c.rownnz[i] = adr - c.rowadr[i];
    }
    sparse.J = nullptr;
    sparse.J_dense_rownnz = sparse.J_dense_rowadr = sparse.J_dense_colind = nullptr;
    sparse.J_rownnz = c.rownnz;
    sparse.J_rowadr = c.rowadr;
    sparse.J_colind = c.colind;
    sparse.J_sparse = c.values;
  }
  FindRowRuns(sparse, run);
  sparse.J_rowrun = run;
  return sparse;
}

double ConstraintCost(const ConstraintProblem& p, const double* jar, double* force, int* state) {
  double cost = 0;
  auto set = [&](int i, double f, ConstraintState s) {
    if (force) force[i] = f;
    if (state) state[i] = static_cast<int>(s);
  };
  for (int i = 0; i < p.nefc; ++i) {
    if (p.type[i] == ConstraintType::kContactElliptic) continue;  // per contact below
    double f = 0;
    ConstraintState s = ConstraintState::kSatisfied;
    RowPenalty(p, i, jar[i], cost, f, s);
    set(i, f, s);
  }

  for (int k = 0; k < p.ncon; ++k) {
    const Contact& c = p.contact[k];
    const int adr = c.efc_address;
    if (adr < 0 || p.type[adr] != ConstraintType::kContactElliptic) continue;
    const EllipticZone z = ClassifyElliptic(c, p.impratio, jar + adr);
    const double Dm = z.state == ConstraintState::kCone ? ConeWeight(p, c, z.m2) : 0;
    EllipticPenalty(p, c, z, Dm, jar + adr, cost, force ? force + adr : nullptr,
                    state ? state + adr : nullptr);
  }
  return cost;
}

void EllipticConeCurvature(const ConstraintProblem& p, const Contact& c, const double* j,
                           double* hc) {
  const EllipticZone z = ClassifyElliptic(c, p.impratio, j);
  const double Dm = p.D[c.efc_address] / (1 + z.m2);
  const double g = j[0] - z.T;
  double grad[6];
  grad[0] = 1;
  for (int r = 1; r < c.dim; ++r) {
    const double mu = c.friction[r - 1];
    grad[r] = -mu * mu * j[r] / z.T;
  }
  for (int a = 0; a < c.dim; ++a) {
    for (int b = 0; b < c.dim; ++b) {
      double hess_g = 0;
      if (a > 0 && b > 0) {
        const double mua2 = c.friction[a - 1] * c.friction[a - 1];
        const double mub2 = c.friction[b - 1] * c.friction[b - 1];
        hess_g = -(a == b ? mua2 / z.T : 0) + mua2 * j[a] * mub2 * j[b] / (z.T * z.T * z.T);
      }
      hc[a * c.dim + b] = Dm * (grad[a] * grad[b] + g * hess_g);
    }
  }
}

void AddConstraintHessian(const ConstraintProblem& p, const double* jar, const int* state,
                          double* H) {
  // rows with a quadratic penalty: D J_i' J_i (elliptic bottom zone included); by runs of rows
  // that share their columns when the problem has them (WithCompressedJacobian)
  for (int i = 0; i < p.nefc;) {
    const int run = p.J_rowrun && !p.J ? p.J_rowrun[i] : 1;
    if (run > 1 && run <= kMaxHessianRun) {
      AddQuadraticRun(p, i, run, state, H);
    } else {
      for (int k = i; k < i + run; ++k) {
        if (state[k] == static_cast<int>(ConstraintState::kQuadratic)) {
          AddRowProduct(p, k, k, p.D[k], H);
        }
      }
    }
    i += run;
  }

  // elliptic contacts on the cone surface: Hc = Dm (grad g grad g' + g hess g) in contact
  // coordinates, then J_c' Hc J_c
  for (int k = 0; k < p.ncon; ++k) {
    const Contact& c = p.contact[k];
    const int adr = c.efc_address;
    if (adr < 0 || state[adr] != static_cast<int>(ConstraintState::kCone)) continue;
    double hc[36];
    EllipticConeCurvature(p, c, jar + adr, hc);
    AddBlockProduct(p, adr, c.dim, hc, H);
  }
}

}  // namespace gauss
