// Newton's Hessian H = M + J' s''(jar) J and its factorization: dense Cholesky
// (gauss/dense_cholesky.h) for small models, sparse L D L' (gauss/sparse_ldl.h) in reverse dof
// order when the Jacobian is sparse. The sparse factor is kept in two parts: a base factor of
// M + D_i J_i' J_i over the quadratic rows, brought to new row states by rank-one updates, and,
// with elliptic contacts on their cone surface, a copy of it with their curvature J_c' Hc J_c
// added as rank-one updates (Hc moves with jar, so it is re-added at every point instead of
// being part of the factor that is kept).
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

  // Dense, in storage that outlives the solve (kept_factor.h): factors H at (jar, state) into
  // `factor` (nv x nv) and `first` (nv); or solves with such a factor of the same H made earlier.
  bool FactorDenseInto(const ConstraintProblem& p, const double* jar, const int* state,
                       double* factor, int* first);
  void UseDense(int nv, double* factor, int* first);

  // Whether Newton factors H of problem p sparsely: only a CSR problem (a sparse Jacobian) of
  // at least kSparseMinDofs dofs. Below that a dense Cholesky costs fewer instructions than the
  // sparse L D L' with its symbolic pass and indexed updates (a 27-dof humanoid island: ~28 k
  // against ~55 k per factorization, plus ~35 k for the sparse assembly), also with the
  // refactorization the dense factor needs at every iteration.
  static constexpr int kSparseMinDofs = 60;
  static bool SparseFor(const ConstraintProblem& p) {
    return p.J == nullptr && p.nv >= kSparseMinDofs;
  }

  // Brings the factor from the point it was built or last updated at to (jar, state): rank-one
  // updates of the base factor for the rows that entered or left their quadratic piece, then
  // the cone curvature of the elliptic contacts on their cone surface at jar, as long as that
  // is cheaper and possible (sparse factor, few rows changed, no pivot lost). Returns false
  // otherwise: call Factor.
  bool Update(const ConstraintProblem& p, const double* jar, const int* state);

  // x <- H^-1 x
  void Solve(double* x) const;

  // Scratch Factor takes (and holds until the next Factor) for nv dofs, a mass matrix of nM
  // entries and at most njmax rows of at most `row_nonzeros` entries. Dense: the factor. Sparse:
  // the update arrays, the constraint blocks, H's pattern and the L D L' factor, whose fill is
  // bounded by the full triangle. Factor carves the same blocks (and checks the data-dependent
  // sizes against their bounds); with elliptic cones, the sparse factor's copy as well; and with
  // sparse = true the dense factor of a problem below kSparseMinDofs too (an island's).
  static ArenaPlan Plan(int nv, int nM, int njmax, int row_nonzeros, bool sparse,
                        Cone cone = Cone::kPyramidal);

 private:
  bool FactorDense(const ConstraintProblem& p, const double* jar, const int* state, Arena& arena);
  bool FactorSparse(const ConstraintProblem& p, const int* state, Arena& arena);
  bool AddConeCurvature(const ConstraintProblem& p, const double* jar, const int* state);

  int nv_ = 0;
  double* dense_ = nullptr;  // dense: the Cholesky factor L (lower, row-major)
  int* first_ = nullptr;     // dense: first nonzero column of each row of L
  SparseLDL sparse_;            // sparse: the base factor (quadratic rows only)
  SparseLDL with_cones_;        // sparse, elliptic: sparse_ plus the cone curvature
  const SparseLDL* active_ = nullptr;  // sparse: the factor Solve uses (one of the two)
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
