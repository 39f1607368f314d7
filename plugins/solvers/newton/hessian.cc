// Assembly and factorization of Newton's Hessian (hessian.h).
//
// Sparse form: columns are numbered in reverse dof order, so that a dof's descendants come
// before it and the tree-structured M factors without fill; the constraint part adds, for every
// row on a quadratic piece, D_i J_i' J_i, and for every elliptic contact on the cone surface its
// dim x dim curvature block Hc, written as a sum of rank-one rows from the factorization of Hc.
// Entries are listed column by column (duplicates are summed by the factorization).
#include "hessian.h"

#include <algorithm>
#include <cmath>

namespace gauss {

namespace {

constexpr int kMaxDim = 6;

// Dense Cholesky of the lower triangle of an n x n row-major matrix.
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

// The elliptic cone curvature of contact c in its own coordinates (dim x dim), as
// ConstraintCost's cone zone defines it: Dm (grad g grad g' + g hess g), g = N - T.
void ConeCurvature(const ConstraintProblem& p, const Contact& c, const double* j, double* hc) {
  double T2 = 0;
  for (int r = 1; r < c.dim; ++r) T2 += c.friction[r - 1] * c.friction[r - 1] * j[r] * j[r];
  const double T = std::sqrt(T2);
  const double m2 = c.friction[0] * c.friction[0] / p.impratio;
  const double Dm = p.D[c.efc_address] / (1 + m2);
  const double g = j[0] - T;
  double grad[kMaxDim];
  grad[0] = 1;
  for (int r = 1; r < c.dim; ++r) grad[r] = -c.friction[r - 1] * c.friction[r - 1] * j[r] / T;
  for (int a = 0; a < c.dim; ++a) {
    for (int b = 0; b < c.dim; ++b) {
      double hess_g = 0;
      if (a > 0 && b > 0) {
        const double mua2 = c.friction[a - 1] * c.friction[a - 1];
        const double mub2 = c.friction[b - 1] * c.friction[b - 1];
        hess_g = -(a == b ? mua2 / T : 0) + mua2 * j[a] * mub2 * j[b] / (T2 * T);
      }
      hc[a * c.dim + b] = Dm * (grad[a] * grad[b] + g * hess_g);
    }
  }
}

// A row of the constraint part of H in sparse form: weight * u u'.
struct RankOne {
  double weight;
  int nnz;
  const int* cols;
  const double* vals;
};

}  // namespace

std::size_t NewtonHessian::Scratch(int nv, int njmax, int row_nonzeros, bool sparse) {
  if (!sparse) return static_cast<std::size_t>(nv) * nv + 64;
  // entries: M's tree part plus a triangle per row; the factor: as many again; work arrays
  const std::size_t rows = static_cast<std::size_t>(njmax) + 64;
  const std::size_t tri = static_cast<std::size_t>(row_nonzeros) * (row_nonzeros + 1) / 2;
  const std::size_t entries = static_cast<std::size_t>(nv) * 32 + rows * tri;
  return 4 * entries + 16 * static_cast<std::size_t>(nv) + 4 * rows * row_nonzeros + 256;
}

bool NewtonHessian::Factor(const ConstraintProblem& p, const double* jar, const int* state,
                           Arena& arena) {
  nv_ = p.nv;
  is_sparse_ = p.J == nullptr;
  return is_sparse_ ? FactorSparse(p, jar, state, arena) : FactorDense(p, jar, state, arena);
}

bool NewtonHessian::FactorDense(const ConstraintProblem& p, const double* jar, const int* state,
                                Arena& arena) {
  const int nv = p.nv;
  dense_ = arena.Doubles(static_cast<std::size_t>(nv) * nv);
  for (int i = 0; i < nv * nv; ++i) dense_[i] = 0;
  p.M->AddToDense(dense_);
  AddConstraintHessian(p, jar, state, dense_);
  return Cholesky(dense_, nv);
}

bool NewtonHessian::FactorSparse(const ConstraintProblem& p, const double* jar, const int* state,
                                 Arena& arena) {
  const int nv = p.nv;
  // 1. the constraint part as rank-one rows: quadratic rows directly, cone contacts through
  //    Hc = L diag(d) L' (d >= 0): sum_m d_m (L_m' J_c)(L_m' J_c)'
  RankOne* rows = reinterpret_cast<RankOne*>(arena.Doubles(
      (sizeof(RankOne) * (p.nefc + 1) + sizeof(double) - 1) / sizeof(double)));
  int nrows = 0;
  for (int i = 0; i < p.nefc; ++i) {
    if (state[i] != static_cast<int>(ConstraintState::kQuadratic)) continue;
    rows[nrows++] = {p.D[i], p.J_rownnz[i], p.J_colind + p.J_rowadr[i], p.J_sparse + p.J_rowadr[i]};
  }
  int* mark = arena.Ints(nv);
  int* slot = arena.Ints(nv);
  int* union_cols = arena.Ints(nv);
  std::fill(mark, mark + nv, -1);
  for (int k = 0; k < p.ncon; ++k) {
    const Contact& c = p.contact[k];
    const int a = c.efc_address;
    if (a < 0 || state[a] != static_cast<int>(ConstraintState::kCone)) continue;
    double hc[kMaxDim * kMaxDim];
    ConeCurvature(p, c, jar + a, hc);
    // LDL' of the small PSD block (pivots below round-off are dropped)
    double d[kMaxDim] = {};
    for (int j = 0; j < c.dim; ++j) {
      double dj = hc[j * c.dim + j];
      for (int m = 0; m < j; ++m) dj -= hc[j * c.dim + m] * hc[j * c.dim + m] * d[m];
      d[j] = dj > 1e-14 * std::fabs(hc[0]) ? dj : 0;
      for (int i = j + 1; i < c.dim; ++i) {
        double v = hc[i * c.dim + j];
        for (int m = 0; m < j; ++m) v -= hc[i * c.dim + m] * hc[j * c.dim + m] * d[m];
        hc[i * c.dim + j] = d[j] > 0 ? v / d[j] : 0;
      }
      hc[j * c.dim + j] = 1;
    }
    // pattern: union of the contact rows' columns
    int n = 0;
    for (int r = 0; r < c.dim; ++r) {
      for (int q = p.J_rowadr[a + r]; q < p.J_rowadr[a + r] + p.J_rownnz[a + r]; ++q) {
        const int col = p.J_colind[q];
        if (mark[col] != k) {
          mark[col] = k;
          union_cols[n++] = col;
        }
      }
    }
    int* cols = arena.Ints(n);
    std::copy(union_cols, union_cols + n, cols);
    for (int q = 0; q < n; ++q) slot[cols[q]] = q;
    for (int m = 0; m < c.dim; ++m) {
      if (d[m] <= 0) continue;
      double* vals = arena.Doubles(n);
      std::fill(vals, vals + n, 0.0);
      // row m of L' J_c: sum over contact rows r >= m of L(r, m) J_r
      for (int r = m; r < c.dim; ++r) {
        const double l = hc[r * c.dim + m];
        for (int q = p.J_rowadr[a + r]; q < p.J_rowadr[a + r] + p.J_rownnz[a + r]; ++q) {
          vals[slot[p.J_colind[q]]] += l * p.J_sparse[q];
        }
      }
      rows[nrows++] = {d[m], n, cols, vals};
    }
  }

  // 2. count entries per column (reverse dof order: column of dof j is nv-1-j); an entry
  //    between dofs a >= b goes to column nv-1-b, row nv-1-a (upper triangle)
  int* colptr = arena.Ints(nv + 1);
  std::fill(colptr, colptr + nv + 1, 0);
  for (int i = 0; i < nv; ++i) {
    for (int j = i; j >= 0; j = p.dof_parentid[j]) ++colptr[nv - 1 - j + 1];
  }
  for (int r = 0; r < nrows; ++r) {
    for (int q = 0; q < rows[r].nnz; ++q) {
      for (int s = 0; s <= q; ++s) {
        const int lo = std::min(rows[r].cols[q], rows[r].cols[s]);
        ++colptr[nv - 1 - lo + 1];
      }
    }
  }
  for (int c = 0; c < nv; ++c) colptr[c + 1] += colptr[c];
  const int nnz = colptr[nv];
  int* rowind = arena.Ints(nnz);
  double* values = arena.Doubles(nnz);
  int* next = arena.Ints(nv);
  std::copy(colptr, colptr + nv, next);
  auto add = [&](int a, int b, double v) {  // dofs a, b in natural order
    const int hi = std::max(a, b), lo = std::min(a, b);
    const int slot = next[nv - 1 - lo]++;
    rowind[slot] = nv - 1 - hi;
    values[slot] = v;
  };
  for (int i = 0; i < nv; ++i) {
    int adr = p.dof_Madr[i];
    for (int j = i; j >= 0; j = p.dof_parentid[j]) add(i, j, p.qM[adr++]);
  }
  for (int r = 0; r < nrows; ++r) {
    const RankOne& row = rows[r];
    for (int q = 0; q < row.nnz; ++q) {
      for (int s = 0; s <= q; ++s) add(row.cols[q], row.cols[s], row.weight * row.vals[q] * row.vals[s]);
    }
  }
  return sparse_.Factor(nv, colptr, rowind, values, arena);
}

void NewtonHessian::Solve(double* x) const {
  if (!is_sparse_) {
    const int n = nv_;
    const double* L = dense_;
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
    return;
  }
  // the sparse factor works in reverse dof order
  for (int i = 0, j = nv_ - 1; i < j; ++i, --j) std::swap(x[i], x[j]);
  sparse_.Solve(x);
  for (int i = 0, j = nv_ - 1; i < j; ++i, --j) std::swap(x[i], x[j]);
}

}  // namespace gauss
