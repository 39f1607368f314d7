// Operations on the tree-sparse joint-space inertia matrix.
//
// Storage: M is symmetric and M(i, j) can be nonzero only when one of the dofs i, j is an
// ancestor of the other in the kinematic tree. Row i of the lower triangle is stored at
// dof_Madr[i] as [M(i,i), M(i,p(i)), M(i,p(p(i))), ...] following dof_parentid, nM values in all.
//
// Factorization M = L' D L with L unit lower-triangular and the same sparsity (no fill-in,
// because eliminating a leaf only updates its ancestors). In the factored array the diagonal
// slots hold D and the off-diagonal slots hold L.
#pragma once

#include "gauss/model.h"

namespace gauss {

// Where the rows of a tree-sparse matrix are: the model's (LayoutOf) or the rows of one
// constraint island copied out of it (the kernel's per-island problems, docs/islands.md).
struct TreeSparseLayout {
  int nv = 0;
  int nM = 0;
  const int* Madr = nullptr;      // (nv) first stored entry of each row
  const int* parentid = nullptr;  // (nv) parent dof, -1 at a root
  // (nM) optional: the column (dof) of each stored entry, row i's being i, parentid[i], its
  // parent, ... (FillTreeSparseColumns). With it, SolveLTDL and MulTreeSparse read a row's
  // columns as independent loads instead of walking the parent chain, a chain of dependent
  // loads (the same terms in the same order: the same bits). Null: the parent chain.
  const int* colind = nullptr;
  // (nv) optional: nonzero for a row whose off-diagonal entries are all zero by construction
  // (a dof of a simple body, Model::dof_simplenum). FactorLTDL, SolveLTDL and MulTreeSparse
  // skip such rows' off-diagonals, which gives the general path's numbers (x - 0 y = x) for
  // less work. Only for M itself and its factor: a matrix such as M - h qDeriv may fill them.
  const int* simple = nullptr;
};
// The model's rows, without colind (the Model holds none) and without simple rows: for any
// matrix with M's sparsity.
TreeSparseLayout LayoutOf(const Model& m);
// The same for M itself (Data::qM, qLD): with the simple rows, unless tendon armature (which
// couples the dofs its tendons span) can fill them.
TreeSparseLayout InertiaLayoutOf(const Model& m);

// (nv, Madr, parentid) => colind (nM): each row's columns, the dof itself then its ancestors.
void FillTreeSparseColumns(int nv, const int* Madr, const int* parentid, int* colind);

// mat (nM): M on input, its L'DL factor on output; diag_inv (nv) = 1/D. Returns the index of
// the first dof whose pivot is not positive (the factor is then unusable), or -1 on success.
int FactorLTDL(const Model& m, double* mat, double* diag_inv);
// The same on the rows of dofs [begin, end) only, which must be whole trees (a dof's ancestors
// are in its tree): those rows come out exactly as from the factorization of all of M.
int FactorLTDL(const Model& m, double* mat, double* diag_inv, int begin, int end);
int FactorLTDL(const TreeSparseLayout& l, double* mat, double* diag_inv, int begin, int end);

// x (nv): y on input, M^-1 y on output, given the factor (LD, diag_inv) from FactorLTDL.
void SolveLTDL(const Model& m, const double* LD, const double* diag_inv, double* x);
void SolveLTDL(const TreeSparseLayout& l, const double* LD, const double* diag_inv, double* x);
// The same on the entries of dofs [begin, end) only, whole trees (M is block-diagonal over
// trees): they come out exactly as from the solve over all dofs; the others are untouched.
void SolveLTDL(const Model& m, const double* LD, const double* diag_inv, double* x, int begin,
               int end);
void SolveLTDL(const TreeSparseLayout& l, const double* LD, const double* diag_inv, double* x,
               int begin, int end);

// y = M x for the tree-sparse M (not factored). x and y must not alias.
void MulTreeSparse(const Model& m, const double* M, const double* x, double* y);
void MulTreeSparse(const TreeSparseLayout& l, const double* M, const double* x, double* y);

// H (nv x nv, row-major, lower triangle) += M for the tree-sparse M.
void AddTreeSparseToDense(const TreeSparseLayout& l, const double* M, double* H);

}  // namespace gauss
