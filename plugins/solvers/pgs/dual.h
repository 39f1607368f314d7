// The dual problem PGS works on (spec eq. 9):
//   minimize 1/2 f'AR f + f'b,  AR = J M^-1 J' + R,  b = J a0 - aref,
// and the map back to accelerations, qacc = a0 + M^-1 J' f.
//
// With the kernel's factor M = L'DL (tree-sparse, gauss/sparse_inertia.h), the rows of
// W = L^-T J' live on the dofs of each row's dof chains (their ancestors included), so
// AR_ij = sum_k W_ik W_jk / D_k runs over the common dofs of two rows only. Since a row's
// dofs hold all their ancestors, two rows share a dof exactly when they share the root dof of
// a dof tree: AR's pattern follows from W's root columns. AR is stored sparse (CSR, columns
// increasing) unless most pairs of rows interact (one tree), and is built column by column of
// W (each row of AR from the rows of W on its dofs), so its cost is the products that are not
// zero; dense AR takes W's columns dense, so each product is a contiguous multiply-add with no
// branch on the data (the same sums, plus exact zeros). A Gauss-Seidel update of row i costs
// the nonzeros of its row, not nefc.
// M^-1 J' f = L^-1 D^-1 (W'f) is one solve.
#pragma once

#include <algorithm>
#include <cstddef>

#include "gauss/arena.h"
#include "gauss/constraint.h"
#include "gauss/math.h"

namespace gauss {

class DualProblem {
 public:
  // Arena blocks Build takes (and holds) for njmax rows on nv dofs: b and W carved by the same
  // block functions as Build; AR at its bound (dense n x n, or sparse when that is smaller).
  static ArenaPlan Plan(int nv, int njmax);

  // Builds AR and b; memory from `arena`, valid in the caller's scope. Needs p.qLD.
  void Build(const ConstraintProblem& p, Arena& arena);

  int size() const { return n_; }
  // whether AR is stored dense (n x n) rather than sparse
  bool dense() const { return dense_ != nullptr; }
  // b_i + (AR f)_i: the dual gradient of row i (inline: the sweeps' innermost call)
  double Residual(int i, const double* f) const {
    if (dense_) return b_[i] + math::DotN(dense_ + static_cast<std::size_t>(i) * n_, f, n_);
    return SparseResidual(i, f);
  }
  // The same for the scalar rows of a sweep, summed in the order that suits it: f[i - 1],
  // updated just before row i, is added last, so the rest of the sum (f[i..n) from the last
  // sweep first, then f[0..i - 1)) does not wait for it and the chain from one row's update to
  // the next is one product and one sum. (Not for the rows of an elliptic contact, updated
  // together: their varying split costs more than it saves.)
  double SweepResidual(int i, const double* f) const {
    if (!dense_) return SparseResidual(i, f);
    const double* row = dense_ + static_cast<std::size_t>(i) * n_;
    const int last = i > 0 ? i - 1 : n_ - 1;
    const double rest = i > 0 ? math::DotN(row + i, f + i, n_ - i) + math::DotN(row, f, i - 1)
                              : math::DotN(row, f, n_ - 1);
    return (b_[i] + rest) + row[last] * f[last];
  }
  // The residuals of the Dim rows of one elliptic contact from row a, res[r] = Residual(a + r,
  // f), and AR's block on them, A[r Dim + c] = At(a + r, a + c): the same numbers. When AR is
  // sparse and the rows share their pattern (they share their dofs), the Dim sums run side by
  // side over one column list, each in its own order, and the block is read where it sits in
  // the list instead of by Dim^2 binary searches.
  template <int Dim>
  void ContactBlock(int a, const double* f, double* res, double* A) const {
    if (dense_ || !SharesPattern(a, Dim)) {
      for (int r = 0; r < Dim; ++r) {
        res[r] = Residual(a + r, f);
        for (int c = 0; c < Dim; ++c) A[r * Dim + c] = At(a + r, a + c);
      }
      return;
    }
    const int nnz = AR_rownnz_[a];
    const int* col = AR_col_ + AR_rowadr_[a];
    const double* val[Dim];
    for (int r = 0; r < Dim; ++r) {
      val[r] = AR_val_ + AR_rowadr_[a + r];
      res[r] = b_[a + r];
    }
    for (int e = 0; e < nnz; ++e) {
      const double x = f[col[e]];
      for (int r = 0; r < Dim; ++r) res[r] += val[r][e] * x;
    }
    // every row is in its own pattern, so the shared one holds a .. a + Dim - 1 in a row
    const int at = static_cast<int>(std::lower_bound(col, col + nnz, a) - col);
    for (int r = 0; r < Dim; ++r) {
      for (int c = 0; c < Dim; ++c) A[r * Dim + c] = val[r][at + c];
    }
  }
  // AR_ij (0 where not stored)
  double At(int i, int j) const {
    if (dense_) return dense_[static_cast<std::size_t>(i) * n_ + j];
    const int* begin = AR_col_ + AR_rowadr_[i];
    const int* end = begin + AR_rownnz_[i];
    const int* it = std::lower_bound(begin, end, j);
    return it != end && *it == j ? AR_val_[it - AR_col_] : 0.0;
  }
  double Diagonal(int i) const { return diag_[i]; }
  // 1 / AR_ii (AR_ii floored at kMinVal): the sweeps multiply by it, as MuJoCo does, rather
  // than divide (a division's latency sits on the chain from one row's update to the next)
  double InverseDiagonal(int i) const { return diag_inv_[i]; }
  // 1/2 f'AR f + f'b
  double Cost(const double* f) const;

  // qacc (nv) = a0 + M^-1 J' force.
  void Acceleration(const ConstraintProblem& p, const double* force, double* qacc) const;

 private:
  void BuildW(const ConstraintProblem& p, Arena& arena);
  // BuildW for a dense J, with its scratch: marks and group dofs (nv), work (10 nv)
  void BuildDenseW(const ConstraintProblem& p, int* mark, int* group_dofs, double* work);
  void BuildAR(const ConstraintProblem& p, Arena& arena);
  // row i's AR entries (i's dofs scattered over the rows of W on them) added to row[j] for
  // the j < end that share a dof with i, in decreasing dof order (the same sums for every
  // storage)
  void AddRowProducts(const ConstraintProblem& p, int i, int end, double* row) const;
  // row[0..i] += W_ik / D_k W_jk over row i's dofs k, from W's dense columns (columns[k n + j])
  void AddScaledColumns(const ConstraintProblem& p, const double* columns, std::size_t n, int i,
                        double* row) const;
  // whether each row's dofs lie on exactly one dof tree (one root dof each)
  bool RowsOnOneTreeEach() const;
  // the rows sharing a dof with row i (i itself included), increasing; returns their count
  int InteractingRows(int i, int* mark, int* rows) const;

  // whether rows a + 1 .. a + count - 1 of the sparse AR have row a's pattern
  bool SharesPattern(int a, int count) const {
    for (int r = 1; r < count; ++r) {
      if (!AR_same_pattern_[a + r]) return false;
    }
    return true;
  }
  double SparseResidual(int i, const double* f) const {
    double r = b_[i];
    const int adr = AR_rowadr_[i];
    for (int e = 0; e < AR_rownnz_[i]; ++e) r += AR_val_[adr + e] * f[AR_col_[adr + e]];
    return r;
  }

  int n_ = 0;
  const double* b_ = nullptr;
  const double* diag_ = nullptr;
  const double* diag_inv_ = nullptr;
  // AR dense (n x n) when most rows interact, else in CSR
  const double* dense_ = nullptr;
  const int* AR_rowadr_ = nullptr;
  const int* AR_rownnz_ = nullptr;
  const int* AR_col_ = nullptr;
  const double* AR_val_ = nullptr;
  // sparse AR: 1 where row i has the columns of row i - 1, else 0
  const int* AR_same_pattern_ = nullptr;
  // W in CSR, row i's dofs in decreasing order
  int* W_rowadr_ = nullptr;
  int* W_rownnz_ = nullptr;
  int* W_dof_ = nullptr;
  double* W_ = nullptr;
  // W by columns: the rows on dof k (increasing) and their values, from W_coladr_[k] to
  // W_coladr_[k + 1]
  int* W_coladr_ = nullptr;
  int* W_colrow_ = nullptr;
  double* W_colval_ = nullptr;
  const int* dof_parentid_ = nullptr;
};

}  // namespace gauss
