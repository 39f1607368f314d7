// Factorization, solve and product with the tree-sparse joint-space inertia matrix. See
// gauss/sparse_inertia.h for the storage layout.
#include "gauss/sparse_inertia.h"

#include "simple_bodies.h"

namespace gauss {
namespace {

// Number of stored entries in row i: the dof itself plus its ancestors.
inline int RowLength(const TreeSparseLayout& l, int i) {
  return (i + 1 < l.nv ? l.Madr[i + 1] : l.nM) - l.Madr[i];
}

// Where row k's a-th stored entry (a >= 1) sits: `prev` is the column of entry a - 1 (k for
// a = 1). ParentChain walks dof_parentid (each load waits for the previous one); ColumnIndex
// reads the layout's colind (loads independent of each other). Both give the same columns.
struct ParentChain {
  const int* parentid;
  int operator()(int /*adr*/, int /*a*/, int prev) const { return parentid[prev]; }
};
struct ColumnIndex {
  const int* colind;
  int operator()(int adr, int a, int /*prev*/) const { return colind[adr + a]; }
};

// Whether row k's off-diagonal entries are zeros by construction (TreeSparseLayout::simple).
// A separate type for layouts without such rows keeps their loops free of the test.
struct NoSimpleRows {
  bool operator()(int /*k*/) const { return false; }
};
struct SimpleRows {
  const int* simple;
  bool operator()(int k) const { return simple[k] != 0; }
};

template <class Column, class Simple>
void SolveRows(const TreeSparseLayout& l, Column column, Simple simple, const double* LD,
               const double* diag_inv, double* x, int begin, int end);
template <class Column, class Simple>
void MulRows(const TreeSparseLayout& l, Column column, Simple simple, const double* M,
             const double* x, double* y);

// Calls f(column, simple) with the layout's column and simple-row functors. f by reference:
// taken by value, the closure (the callers' captured pointers and ints, stored 8 bytes at a
// time) was copied with 16-byte loads that could not be forwarded from those stores, a stall
// on every M product and solve (~80 % of IslandInertia::MulM's and SolveM's own time).
template <class F>
void WithRowAccess(const TreeSparseLayout& l, F&& f) {
  if (l.colind && l.simple) {
    f(ColumnIndex{l.colind}, SimpleRows{l.simple});
  } else if (l.colind) {
    f(ColumnIndex{l.colind}, NoSimpleRows{});
  } else if (l.simple) {
    f(ParentChain{l.parentid}, SimpleRows{l.simple});
  } else {
    f(ParentChain{l.parentid}, NoSimpleRows{});
  }
}

void SolveLTDLRange(const TreeSparseLayout& l, const double* LD, const double* diag_inv,
                    double* x, int begin, int end) {
  WithRowAccess(l, [&](auto column, auto simple) {
    SolveRows(l, column, simple, LD, diag_inv, x, begin, end);
  });
}

bool HasTendonArmature(const Model& m) {
  for (double a : m.tendon_armature) {
    if (a != 0) return true;
  }
  return false;
}

// Whether some dof is simple: a model without any keeps the loops without the per-row test.
bool AnySimpleDof(const Model& m) {
  for (int n : m.dof_simplenum) {
    if (n) return true;
  }
  return false;
}

}  // namespace

TreeSparseLayout LayoutOf(const Model& m) {
  return TreeSparseLayout{m.nv, m.nM, m.dof_Madr.data(), m.dof_parentid.data()};
}

TreeSparseLayout InertiaLayoutOf(const Model& m) {
  TreeSparseLayout l = LayoutOf(m);
  if (HasSimpleFlags(m) && AnySimpleDof(m) && !HasTendonArmature(m)) {
    l.simple = m.dof_simplenum.data();
  }
  return l;
}

void FillTreeSparseColumns(int nv, const int* Madr, const int* parentid, int* colind) {
  for (int i = 0; i < nv; ++i) {
    int adr = Madr[i];
    for (int j = i; j >= 0; j = parentid[j]) colind[adr++] = j;
  }
}

int FactorLTDL(const Model& m, double* mat, double* diag_inv) {
  return FactorLTDL(m, mat, diag_inv, 0, m.nv);
}

int FactorLTDL(const Model& m, double* mat, double* diag_inv, int begin, int end) {
  return FactorLTDL(LayoutOf(m), mat, diag_inv, begin, end);
}

int FactorLTDL(const TreeSparseLayout& l, double* mat, double* diag_inv, int begin, int end) {
  // Eliminate dofs from the leaves up (highest index first: a dof's descendants all have larger
  // indices). Eliminating dof k subtracts M(k,i) M(k,j) / D(k) from M(i,j) for every pair of
  // ancestors j of i of k. The ancestors of i, starting at i, are exactly the tail of k's row
  // starting at i's slot, so row i and that tail line up element by element. A simple row
  // (zeros off the diagonal) subtracts zeros and keeps zeros as L: only its pivot is needed.
  int bad = -1;
  for (int k = end - 1; k >= begin; --k) {
    const int adr_k = l.Madr[k];
    const int len_k = l.simple && l.simple[k] ? 1 : RowLength(l, k);
    const double pivot = mat[adr_k];
    if (!(pivot > 0) && bad < 0) bad = k;
    const double inv = 1 / pivot;
    int i = l.parentid[k];
    for (int a = 1; a < len_k; ++a, i = l.parentid[i]) {
      const double l_ki = mat[adr_k + a] * inv;
      double* row_i = mat + l.Madr[i];
      const double* tail_k = mat + adr_k + a;  // M(k,i), M(k,parent(i)), ... (still unscaled)
      for (int b = 0; b < len_k - a; ++b) row_i[b] -= l_ki * tail_k[b];
      mat[adr_k + a] = l_ki;  // store L(k,i) once the unscaled value is no longer needed
    }
    diag_inv[k] = inv;
  }
  return bad;
}

void SolveLTDL(const TreeSparseLayout& l, const double* LD, const double* diag_inv, double* x) {
  SolveLTDLRange(l, LD, diag_inv, x, 0, l.nv);
}

namespace {

template <class Column, class Simple>
void SolveRows(const TreeSparseLayout& l, Column column, Simple simple, const double* LD,
               const double* diag_inv, double* x, int begin, int end) {
  // M = L' D L: solve L' w = y (leaves to root), then D z = w, then L x = z (root to leaves).
  // Simple rows have no L entries (zeros): only their D.
  for (int k = end - 1; k >= begin; --k) {
    const double xk = x[k];
    if (xk == 0 || simple(k)) continue;
    const int adr = l.Madr[k];
    const int len = RowLength(l, k);
    for (int a = 1, i = k; a < len; ++a) {
      i = column(adr, a, i);
      x[i] -= LD[adr + a] * xk;
    }
  }
  for (int k = begin; k < end; ++k) x[k] *= diag_inv[k];
  for (int k = begin; k < end; ++k) {
    if (simple(k)) continue;
    const int adr = l.Madr[k];
    const int len = RowLength(l, k);
    double sum = 0;
    for (int a = 1, i = k; a < len; ++a) {
      i = column(adr, a, i);
      sum += LD[adr + a] * x[i];
    }
    x[k] -= sum;
  }
}

template <class Column, class Simple>
void MulRows(const TreeSparseLayout& l, Column column, Simple simple, const double* M,
             const double* x, double* y) {
  // Every stored off-diagonal entry M(k,i) contributes to both y[k] and y[i]. Rows go root
  // first, so when row k starts, y[k] has received nothing yet (only descendants, with larger
  // indices, add to it later) and its ancestors' y[i] are set: y[k] starts at the diagonal term
  // and collects its own row in a register, y[k]'s and y[i]'s terms arrive in the same order as
  // in a plain row-by-row loop (same sums, bit for bit) without y[k] and x[k] being stored and
  // reloaded at every entry (the compiler cannot tell y[k] from y[i]): about 2x faster.
  // A simple row contributes its diagonal term only (its off-diagonals are zeros).
  for (int k = 0; k < l.nv; ++k) {
    const int adr = l.Madr[k];
    const double xk = x[k];
    if (simple(k)) {
      y[k] = M[adr] * xk;
      continue;
    }
    const int len = RowLength(l, k);
    double yk = M[adr] * xk;
    for (int a = 1, i = k; a < len; ++a) {
      i = column(adr, a, i);
      const double mki = M[adr + a];
      yk += mki * x[i];
      y[i] += mki * xk;
    }
    y[k] = yk;
  }
}

}  // namespace

void MulTreeSparse(const TreeSparseLayout& l, const double* M, const double* x, double* y) {
  WithRowAccess(l, [&](auto column, auto simple) { MulRows(l, column, simple, M, x, y); });
}

void SolveLTDL(const Model& m, const double* LD, const double* diag_inv, double* x) {
  SolveLTDL(LayoutOf(m), LD, diag_inv, x);
}

void SolveLTDL(const Model& m, const double* LD, const double* diag_inv, double* x, int begin,
               int end) {
  SolveLTDLRange(LayoutOf(m), LD, diag_inv, x, begin, end);
}

void SolveLTDL(const TreeSparseLayout& l, const double* LD, const double* diag_inv, double* x,
               int begin, int end) {
  SolveLTDLRange(l, LD, diag_inv, x, begin, end);
}

void MulTreeSparse(const Model& m, const double* M, const double* x, double* y) {
  MulTreeSparse(LayoutOf(m), M, x, y);
}

void AddTreeSparseToDense(const TreeSparseLayout& l, const double* M, double* H) {
  for (int i = 0; i < l.nv; ++i) {
    int adr = l.Madr[i];
    for (int j = i; j >= 0; j = l.parentid[j]) H[i * l.nv + j] += M[adr++];
  }
}

}  // namespace gauss
