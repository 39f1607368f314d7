// Newton's Hessian H = M + J' s''(jar) J and its factorization: dense Cholesky for small
// models, sparse L D L' (gauss/sparse_ldl.h) in reverse dof order when the Jacobian is sparse.
#pragma once

#include "gauss/arena.h"
#include "gauss/constraint.h"
#include "gauss/sparse_ldl.h"

namespace gauss {

class NewtonHessian {
 public:
  // Factors H at (jar, state). Returns false if H is not positive definite (it always is in
  // exact arithmetic: M > 0 and s'' >= 0). Memory from `arena`, valid until the caller's scope.
  bool Factor(const ConstraintProblem& p, const double* jar, const int* state, Arena& arena);

  // Brings the factor from the row states it was built at to `state` (same point of the line
  // search's path, jar aside) by rank-one updates for the rows that entered or left their
  // quadratic piece, as long as that is cheaper and possible (sparse factor, no elliptic
  // contact on its cone surface, no pivot lost). Returns false otherwise: call Factor.
  bool Update(const ConstraintProblem& p, const int* state);

  // x <- H^-1 x
  void Solve(double* x) const;

  // Doubles of arena the factorization may take for a problem of nv dofs, njmax rows of at
  // most `row_nonzeros` entries.
  static std::size_t Scratch(int nv, int njmax, int row_nonzeros, bool sparse);

 private:
  bool FactorDense(const ConstraintProblem& p, const double* jar, const int* state, Arena& arena);
  bool FactorSparse(const ConstraintProblem& p, const double* jar, const int* state, Arena& arena);

  int nv_ = 0;
  double* dense_ = nullptr;  // dense: the Cholesky factor L (lower, row-major)
  int* first_ = nullptr;     // dense: first nonzero column of each row of L
  SparseLDL sparse_;
  bool is_sparse_ = false;
  int* factored_state_ = nullptr;  // sparse: row states the factor holds (nefc)
  int* update_index_ = nullptr;    // sparse: one row for Update (nv)
  double* update_value_ = nullptr;
};

}  // namespace gauss
