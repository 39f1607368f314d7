// Block-diagonal LU of the interior-point Newton matrix (block_lu.h).
#include "block_lu.h"

#include <algorithm>

#include "dense_lu.h"

namespace gauss {
namespace ip {

namespace {

int Root(int* parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

void Join(int* parent, int a, int b) {
  a = Root(parent, a);
  b = Root(parent, b);
  if (a != b) parent[std::max(a, b)] = std::min(a, b);
}

}  // namespace

std::size_t BlockLu::Scratch(int nv, int max_block) {
  const std::size_t n = static_cast<std::size_t>(std::max(nv, 1));
  // index arrays (ints and size_t counted as doubles), the matrices, the work vector
  return 12 * n + n * static_cast<std::size_t>(std::max(max_block, 1)) + max_block + 64;
}

bool BlockLu::Setup(const ConstraintProblem& rows, int max_block, Arena& arena) {
  const int nv = rows.nv;
  nv_ = nv;
  // union-find over the dof tree and every row's columns
  int* parent = arena.Ints(nv);
  for (int i = 0; i < nv; ++i) parent[i] = i;
  for (int i = 0; i < nv; ++i) {
    if (rows.dof_parentid[i] >= 0) Join(parent, i, rows.dof_parentid[i]);
  }
  for (int r = 0; r < rows.nefc; ++r) {
    const int* cols = rows.J_colind + rows.J_rowadr[r];
    for (int q = 1; q < rows.J_rownnz[r]; ++q) Join(parent, cols[0], cols[q]);
  }
  block_ = arena.Ints(nv);
  local_ = arena.Ints(nv);
  nblock_ = 0;
  for (int i = 0; i < nv; ++i) {
    const int root = Root(parent, i);
    block_[i] = root == i ? nblock_++ : block_[root];  // roots come first (smallest index)
  }
  size_ = arena.Ints(nblock_);
  start_ = arena.Ints(nblock_ + 1);
  std::fill(size_, size_ + nblock_, 0);
  for (int i = 0; i < nv; ++i) local_[i] = size_[block_[i]]++;
  start_[0] = 0;
  std::size_t values = 0;
  for (int b = 0; b < nblock_; ++b) {
    if (size_[b] > max_block) return false;
    start_[b + 1] = start_[b] + size_[b];
    values += static_cast<std::size_t>(size_[b]) * size_[b];
  }
  dofs_ = arena.Ints(nv);
  for (int i = 0; i < nv; ++i) dofs_[start_[block_[i]] + local_[i]] = i;
  offset_ = reinterpret_cast<std::size_t*>(arena.Doubles(nblock_));
  std::size_t at = 0;
  for (int b = 0; b < nblock_; ++b) {
    offset_[b] = at;
    at += static_cast<std::size_t>(size_[b]) * size_[b];
  }
  mat_ = arena.Doubles(std::max<std::size_t>(values, 1));
  piv_ = arena.Ints(nv);
  work_ = arena.Doubles(std::max(max_block, 1));
  return true;
}

void BlockLu::SetToM(const ConstraintProblem& rows) {
  std::size_t total = 0;
  for (int b = 0; b < nblock_; ++b) total += static_cast<std::size_t>(size_[b]) * size_[b];
  std::fill(mat_, mat_ + total, 0.0);
  for (int i = 0; i < nv_; ++i) {
    int adr = rows.dof_Madr[i];
    for (int j = i; j >= 0; j = rows.dof_parentid[j]) {
      const double v = rows.qM[adr++];
      At(i, j) = v;
      At(j, i) = v;
    }
  }
}

void BlockLu::AddRowPair(const ConstraintProblem& rows, int a, int b, double c) {
  if (c == 0) return;
  const int* ca = rows.J_colind + rows.J_rowadr[a];
  const int* cb = rows.J_colind + rows.J_rowadr[b];
  const double* va = rows.J_sparse + rows.J_rowadr[a];
  const double* vb = rows.J_sparse + rows.J_rowadr[b];
  for (int p = 0; p < rows.J_rownnz[a]; ++p) {
    const double cp = c * va[p];
    if (cp == 0) continue;
    for (int q = 0; q < rows.J_rownnz[b]; ++q) At(ca[p], cb[q]) += cp * vb[q];
  }
}

bool BlockLu::Factor() {
  for (int b = 0; b < nblock_; ++b) {
    if (!LuFactor(mat_ + offset_[b], size_[b], piv_ + start_[b])) return false;
  }
  return true;
}

void BlockLu::Solve(double* x) const {
  for (int b = 0; b < nblock_; ++b) {
    const int n = size_[b];
    const int* dofs = dofs_ + start_[b];
    for (int k = 0; k < n; ++k) work_[k] = x[dofs[k]];
    LuSolve(mat_ + offset_[b], n, piv_ + start_[b], work_);
    for (int k = 0; k < n; ++k) x[dofs[k]] = work_[k];
  }
}

}  // namespace ip
}  // namespace gauss
