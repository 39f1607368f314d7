// Block-diagonal LU of the interior-point Newton matrix H = M + J' Y J on models with a sparse
// Jacobian. H couples two dofs only through M (a dof and its ancestors) or through a row that
// spans both, so the dofs fall into independent blocks: the kinematic trees, joined by the
// rows between them (22 humanoids lying apart are 22 blocks of 27 dofs). Each block is formed
// densely and factored by LU with row pivoting (dense_lu.h), an exact solve of the
// non-symmetric H. When a block would exceed `max_block` dofs (a pile where everything
// touches), Setup says so and the caller uses its iterative solver instead.
#pragma once

#include "gauss/arena.h"
#include "gauss/constraint.h"

namespace gauss {
namespace ip {

class BlockLu {
 public:
  // Groups the dofs of `rows` (a problem view with a CSR Jacobian, the kernel's dof tree and
  // qM) into blocks. Returns false when a block has more than max_block dofs. Memory from
  // `arena`, valid for the caller's scope.
  bool Setup(const ConstraintProblem& rows, int max_block, Arena& arena);

  // H <- M (the tree-sparse qM of `rows`).
  void SetToM(const ConstraintProblem& rows);
  // H += c J_a' J_b (rows a and b lie in one block: they share a constraint or a tree).
  void AddRowPair(const ConstraintProblem& rows, int a, int b, double c);
  // LU of every block; false when one is singular.
  bool Factor();
  // x (nv) <- H^-1 x.
  void Solve(double* x) const;

  // Doubles of arena Setup may take (nv dofs, blocks up to max_block).
  static std::size_t Scratch(int nv, int max_block);

 private:
  double& At(int i, int j) {  // entry (i, j) of H, dofs i and j in one block
    const int b = block_[i];
    return mat_[offset_[b] + static_cast<std::size_t>(local_[i]) * size_[b] + local_[j]];
  }

  int nv_ = 0;
  int nblock_ = 0;
  int* block_ = nullptr;    // (nv) block of each dof
  int* local_ = nullptr;    // (nv) index of each dof within its block
  int* size_ = nullptr;     // (nblock) dofs of each block
  int* start_ = nullptr;    // (nblock + 1) first entry of each block in dofs_
  int* dofs_ = nullptr;     // (nv) dofs by block, increasing within a block
  std::size_t* offset_ = nullptr;  // (nblock) first value of each block's matrix in mat_
  double* mat_ = nullptr;   // the blocks, dense row-major, then their LU factors
  int* piv_ = nullptr;      // (nv) row exchanges, at start_[b] for block b
  double* work_ = nullptr;  // (max_block) gathered right-hand side
};

}  // namespace ip
}  // namespace gauss
