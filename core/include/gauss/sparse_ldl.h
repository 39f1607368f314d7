// Sparse L D L' factorization of a symmetric positive definite matrix, for solvers whose matrix
// pattern changes from call to call (Newton's Hessian M + J' D J on large models). Symbolic
// analysis (elimination tree, column counts) and numeric factorization run on each call, with
// all memory taken from an Arena, so a time step allocates nothing.
//
// Input: the upper triangle (row <= column) of A in compressed-column form; duplicate entries
// within a column are summed. The caller chooses the ordering (Newton uses reverse dof order,
// which factors the tree-structured M without fill).
#pragma once

#include "gauss/arena.h"

namespace gauss {

class SparseLDL {
 public:
  // Factors A. Returns false when a pivot is not positive. Arrays live in `arena` until the
  // caller's ArenaScope ends; Solve must be called before that.
  bool Factor(int n, const int* colptr, const int* rowind, const double* values, Arena& arena);

  // A + sigma w w' (sigma = 1: update, -1: downdate) for a sparse w of nnz entries (indices in
  // the factor's ordering), by modifying L and D in place along the elimination tree. The
  // pattern of w w' must lie in the pattern Factor was given (fill then stays inside L's).
  // Returns false when a pivot would not stay positive; the factor is invalid after that.
  bool Update(int nnz, const int* index, const double* values, double sigma);

  // x <- A^-1 x
  void Solve(double* x) const;

  int nonzeros() const { return n_ > 0 ? Lp_[n_] : 0; }

  // A second factor of `source`'s pattern, for temporary rank-one updates on top of a factor
  // that is kept (Newton's elliptic cone curvature, plugins/solvers/newton/hessian.cc):
  // TakeStorageFor shares source's pattern and takes L's values, D and the update workspace
  // from `arena` (CopyPlan); CopyValues then copies source's L and D into them, as often as
  // needed while source keeps its pattern (Update keeps it; Factor makes a new one).
  void TakeStorageFor(const SparseLDL& source, Arena& arena);
  void CopyValues(const SparseLDL& source);
  static ArenaPlan CopyPlan(int n, std::size_t nnz_L);

  // Scratch of Factor for an n x n matrix whose factor L has at most nnz_L entries below the
  // diagonal (n (n - 1) / 2 always bounds it). Factor carves the same blocks.
  static ArenaPlan Plan(int n, std::size_t nnz_L);

 private:
  int n_ = 0;
  int* Lp_ = nullptr;     // (n+1) column pointers of L (strictly lower part)
  int* Li_ = nullptr;     // row indices of L
  double* Lx_ = nullptr;  // values of L
  double* D_ = nullptr;   // (n) diagonal
  int* parent_ = nullptr;     // (n) elimination tree, -1 at roots
  double* work_ = nullptr;    // (n) zero between calls of Update

  // Factor's arrays: before the symbolic pass (n), and after it (L's nnz entries).
  struct Symbolic {
    int *parent, *flag, *count, *Lp;
    double *work, *D;
    template <class Take>
    void Blocks(Take& take, int n) {
      take(&parent, n, "ldl parent");
      take(&work, n, "ldl work");
      take(&flag, n, "ldl flag");
      take(&count, n, "ldl count");
      take(&Lp, n + 1, "ldl Lp");
      take(&D, n, "ldl D");
    }
  };
  struct Values {
    double *Lx, *D, *work;
    template <class Take>
    void Blocks(Take& take, int n, std::size_t nnz_L) {
      take(&Lx, nnz_L, "ldl copy Lx");
      take(&D, n, "ldl copy D");
      take(&work, n, "ldl copy work");
    }
  };
  struct Numeric {
    int *Li, *pattern;
    double *Lx, *y;
    template <class Take>
    void Blocks(Take& take, int n, std::size_t nnz_L) {
      take(&Li, nnz_L, "ldl Li");
      take(&Lx, nnz_L, "ldl Lx");
      take(&y, n, "ldl y");
      take(&pattern, n, "ldl pattern");
    }
  };
};

}  // namespace gauss
