// Newton's Hessian H = M + J' s''(jar) J and its factorization: dense Cholesky
// (gauss/dense_cholesky.h) for small models, sparse L D L' (gauss/sparse_ldl.h) in reverse dof
// order when the Jacobian is sparse.
#pragma once

#include "gauss/arena.h"
#include "gauss/constraint.h"
#include "gauss/sparse_ldl.h"

namespace gauss {

class NewtonHessian {
 public:
  // Factors H at (jar, state). Returns false if H is not positive definite (it always is in
  // exact arithmetic: M > 0 and s'' >= 0). Memory from `arena`, valid until the caller's scope.
  bool Factor(const ConstraintProblem& p, const double* jar, const int* state, Arena& arena) {
    return Factor(p, jar, state, arena, p.J == nullptr);
  }
  // The same with the storage chosen by the caller: sparse = false factors densely also when
  // p's rows are CSR (newton's CSR view of a dense Jacobian, newton.cc).
  bool Factor(const ConstraintProblem& p, const double* jar, const int* state, Arena& arena,
              bool sparse);

  // Brings the factor from the row states it was built at to `state` (same point of the line
  // search's path, jar aside) by rank-one updates for the rows that entered or left their
  // quadratic piece, as long as that is cheaper and possible (sparse factor, no elliptic
  // contact on its cone surface, no pivot lost). Returns false otherwise: call Factor.
  bool Update(const ConstraintProblem& p, const int* state);

  // x <- H^-1 x
  void Solve(double* x) const;

  // Scratch Factor takes (and holds until the next Factor) for nv dofs, a mass matrix of nM
  // entries and at most njmax rows of at most `row_nonzeros` entries. Dense: the factor. Sparse:
  // the update arrays, the constraint blocks, H's pattern and the L D L' factor, whose fill is
  // bounded by the full triangle. Factor carves the same blocks (and checks the data-dependent
  // sizes against their bounds).
  static ArenaPlan Plan(int nv, int nM, int njmax, int row_nonzeros, bool sparse);

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

  template <class Take>
  void DenseBlocks(Take& take, int nv) {
    take(&dense_, static_cast<std::size_t>(nv) * nv, "dense factor");
    take(&first_, nv, "first nonzero column");
  }
  template <class Take>
  void UpdateBlocks(Take& take, int nv, int nefc) {
    take(&factored_state_, nefc, "factored row states");
    take(&update_index_, nv, "update index");
    take(&update_value_, nv, "update value");
  }
};

}  // namespace gauss
