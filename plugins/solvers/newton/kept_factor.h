// Newton's dense Hessian factor kept between solves in the solver's memory
// (ConstraintProblem::solver_memory). H = M + sum over the quadratic rows of D_i J_i' J_i (plus
// the curvature of elliptic contacts on their cone surface, which moves with jar): for the
// same matrices (M, J, D: the same matrices_id) and the same quadratic rows, with no contact on
// its cone surface, a new factorization would compute the same numbers as the kept one, so the
// kept one is used instead. This is what a finite-difference column perturbing only
// velocities or controls meets: its positions are the nominal ones, it starts from the
// nominal solution, and its rows mostly keep the nominal active set.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gauss/constraint.h"

namespace gauss {

class KeptFactor {
 public:
  // Doubles of solver memory for nv dofs and at most njmax rows.
  static std::size_t Doubles(int nv, int njmax);

  // A view of p's solver memory; keeps nothing when p has none or no matrices id, or when
  // `dense` is false (the sparse factor is not kept).
  KeptFactor(const ConstraintProblem& p, bool dense);

  bool enabled() const { return factor_ != nullptr; }
  // Whether the kept factor is H at row states `state` of p (see the header comment).
  bool Matches(const ConstraintProblem& p, const int* state) const;
  // The storage a new factorization goes to (Forget first: it overwrites the kept factor).
  double* factor() const { return factor_; }
  int* first() const { return first_; }
  void Forget();
  // After factoring H at `state` into factor() and first(): keep it for p's matrices (not
  // when a contact is on its cone surface).
  void Remember(const ConstraintProblem& p, const int* state);

 private:
  // in this order in the memory (the offsets depend on nv only)
  double* header_ = nullptr;  // matrices id (its bits; 0: nothing kept) and nefc
  double* factor_ = nullptr;  // (nv x nv) the dense Cholesky factor (NewtonHessian's layout)
  int* first_ = nullptr;      // (nv) its first nonzero column of each row
  int* quadratic_ = nullptr;  // (njmax) 1 for the rows on their quadratic piece
};

}  // namespace gauss
