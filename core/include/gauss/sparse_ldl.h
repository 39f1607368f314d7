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

 private:
  int n_ = 0;
  int* Lp_ = nullptr;     // (n+1) column pointers of L (strictly lower part)
  int* Li_ = nullptr;     // row indices of L
  double* Lx_ = nullptr;  // values of L
  double* D_ = nullptr;   // (n) diagonal
  int* parent_ = nullptr;     // (n) elimination tree, -1 at roots
  double* work_ = nullptr;    // (n) zero between calls of Update
};

}  // namespace gauss
