// Up-looking sparse L D L' factorization (gauss/sparse_ldl.h).
//
// Symbolic: the elimination tree of A (parent[k] = the first row index > k in column k of L),
// found column by column by walking from each entry A(i,k), i < k, up the partial tree; the same
// walks count the entries of each column of L.
// Numeric: row k of L is the solution of a sparse triangular system whose pattern is the set
// of tree nodes reached from the entries of column k of A; rows are computed in order k = 0..n-1
// and their entries appended to the columns of L.
#include "gauss/sparse_ldl.h"

#include <algorithm>

namespace gauss {

// (n, bound on L's entries) => Factor's blocks
ArenaPlan SparseLDL::Plan(int n, std::size_t nnz_L) {
  ArenaPlan plan;
  Symbolic().Blocks(plan, n);
  Numeric().Blocks(plan, n, nnz_L);
  return plan;
}

bool SparseLDL::Factor(int n, const int* colptr, const int* rowind, const double* values,
                       Arena& arena) {
  n_ = n;
  ArenaCarve carve(arena);
  Symbolic sym;
  sym.Blocks(carve, n);
  int* parent = sym.parent;
  parent_ = parent;
  work_ = sym.work;
  std::fill(work_, work_ + n, 0.0);
  int* flag = sym.flag;
  int* count = sym.count;
  Lp_ = sym.Lp;
  D_ = sym.D;

  // 1. elimination tree and column counts of L
  for (int k = 0; k < n; ++k) {
    parent[k] = -1;
    flag[k] = k;
    count[k] = 0;
    for (int p = colptr[k]; p < colptr[k + 1]; ++p) {
      for (int i = rowind[p]; i < k && flag[i] != k; i = parent[i]) {
        if (parent[i] == -1) parent[i] = k;
        ++count[i];  // L(k, i) is nonzero
        flag[i] = k;
      }
    }
  }
  Lp_[0] = 0;
  for (int k = 0; k < n; ++k) Lp_[k + 1] = Lp_[k] + count[k];
  Numeric num;
  num.Blocks(carve, n, static_cast<std::size_t>(Lp_[n]));
  Li_ = num.Li;
  Lx_ = num.Lx;

  // 2. numeric: row k of L by a sparse triangular solve
  double* y = num.y;
  int* pattern = num.pattern;
  int* next = count;  // reused: next free slot of each column of L
  for (int k = 0; k < n; ++k) {
    next[k] = Lp_[k];
    y[k] = 0;
  }
  for (int k = 0; k < n; ++k) {
    // scatter column k of A and find the pattern of row k of L (tree nodes reached from it),
    // stacked so that it is in topological order
    int top = n;
    flag[k] = k;
    for (int p = colptr[k]; p < colptr[k + 1]; ++p) {
      int i = rowind[p];
      if (i > k) continue;
      y[i] += values[p];
      int len = 0;
      for (; flag[i] != k; i = parent[i]) {
        pattern[len++] = i;
        flag[i] = k;
      }
      while (len > 0) pattern[--top] = pattern[--len];
    }
    // eliminate: D(k) = A(k,k) - sum L(k,i)^2 D(i); L(k,i) = y_i / D(i)
    double dk = y[k];
    y[k] = 0;
    for (; top < n; ++top) {
      const int i = pattern[top];
      const double yi = y[i];
      y[i] = 0;
      for (int p = Lp_[i]; p < next[i]; ++p) y[Li_[p]] -= Lx_[p] * yi;
      const double lki = yi / D_[i];
      dk -= lki * yi;
      Li_[next[i]] = k;
      Lx_[next[i]] = lki;
      ++next[i];
    }
    if (!(dk > 0)) return false;
    D_[k] = dk;
  }
  return true;
}

// Rank-one modification of L D L' (Gill, Golub, Murray and Saunders, method C1), visiting only
// the columns on the elimination-tree path from w's first entry: every other entry of w is an
// ancestor there, because w w' is part of the factored pattern.
bool SparseLDL::Update(int nnz, const int* index, const double* values, double sigma) {
  int start = n_;
  for (int e = 0; e < nnz; ++e) {
    work_[index[e]] = values[e];
    start = std::min(start, index[e]);
  }
  double alpha = sigma;
  bool ok = true;
  for (int j = start; j >= 0 && j < n_; j = parent_[j]) {
    const double pj = work_[j];
    work_[j] = 0;
    if (pj == 0 || !ok) continue;  // after a failure: only clear the path
    const double d = D_[j];
    const double dnew = d + alpha * pj * pj;
    if (!(dnew > 0)) {
      ok = false;
      continue;
    }
    const double beta = pj * alpha / dnew;
    alpha *= d / dnew;
    D_[j] = dnew;
    for (int q = Lp_[j]; q < Lp_[j + 1]; ++q) {
      double& wi = work_[Li_[q]];
      wi -= pj * Lx_[q];
      Lx_[q] += beta * wi;
    }
  }
  for (int e = 0; e < nnz; ++e) work_[index[e]] = 0;  // (already zero when the pattern holds)
  return ok;
}

// (n, bound on L's entries) => TakeStorageFor's blocks
ArenaPlan SparseLDL::CopyPlan(int n, std::size_t nnz_L) {
  ArenaPlan plan;
  Values().Blocks(plan, n, nnz_L);
  return plan;
}

void SparseLDL::TakeStorageFor(const SparseLDL& source, Arena& arena) {
  n_ = source.n_;
  Lp_ = source.Lp_;
  Li_ = source.Li_;
  parent_ = source.parent_;
  ArenaCarve carve(arena);
  Values values;
  values.Blocks(carve, n_, static_cast<std::size_t>(source.nonzeros()));
  Lx_ = values.Lx;
  D_ = values.D;
  work_ = values.work;
  std::fill(work_, work_ + n_, 0.0);
}

void SparseLDL::CopyValues(const SparseLDL& source) {
  std::copy(source.Lx_, source.Lx_ + source.nonzeros(), Lx_);
  std::copy(source.D_, source.D_ + n_, D_);
}

void SparseLDL::Solve(double* x) const {
  // L z = x, then D w = z, then L' x = w
  for (int j = 0; j < n_; ++j) {
    for (int p = Lp_[j]; p < Lp_[j + 1]; ++p) x[Li_[p]] -= Lx_[p] * x[j];
  }
  for (int j = 0; j < n_; ++j) x[j] /= D_[j];
  for (int j = n_ - 1; j >= 0; --j) {
    for (int p = Lp_[j]; p < Lp_[j + 1]; ++p) x[j] -= Lx_[p] * x[Li_[p]];
  }
}

}  // namespace gauss
