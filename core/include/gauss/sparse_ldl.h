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

  // x <- A^-1 x
  void Solve(double* x) const;

  int nonzeros() const { return n_ > 0 ? Lp_[n_] : 0; }

 private:
  int n_ = 0;
  int* Lp_ = nullptr;     // (n+1) column pointers of L (strictly lower part)
  int* Li_ = nullptr;     // row indices of L
  double* Lx_ = nullptr;  // values of L
  double* D_ = nullptr;   // (n) diagonal
};

}  // namespace gauss
