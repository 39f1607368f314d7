// Construction of the interior-point rows from the kernel's problem (ip_rows.h).
#include "ip_rows.h"

#include <algorithm>

#include "gauss/error.h"

namespace gauss {
namespace ip {

namespace {

// Typed arrays from the arena's doubles.
template <class T>
T* Take(Arena& arena, int n) {
  const std::size_t doubles = (sizeof(T) * static_cast<std::size_t>(std::max(n, 1)) +
                               sizeof(double) - 1) / sizeof(double);
  return reinterpret_cast<T*>(arena.Doubles(doubles));
}

// Rows of a contact with friction (pyramidal or elliptic; frictionless ones are plain rows here).
bool IsFrictionalContactRow(ConstraintType t) {
  return t == ConstraintType::kContactPyramidal || t == ConstraintType::kContactElliptic;
}

// Rows of one kernel row's constraint in the ip formulation (0 for the non-first rows of a
// contact, which the first row stands for).
int RowsOf(const ConstraintProblem& p, int i) {
  if (!IsFrictionalContactRow(p.type[i])) return 1;
  const Contact& c = p.contact[p.id[i]];
  return c.efc_address == i ? c.dim : 0;
}

}  // namespace

std::size_t IpRows::Scratch(int nv, int nefc, std::size_t nnz, bool sparse) {
  const std::size_t n = static_cast<std::size_t>(std::max(nefc, 1));
  const std::size_t jac = sparse ? nnz + 2 * n : n * static_cast<std::size_t>(nv);
  // per row: kind, pos_h, vel0, eps, cone_of, weight, state, src, type, id; per cone 3 doubles
  return jac + 12 * n + 3 * n + 64;
}

void IpRows::Build(const ConstraintProblem& p, Arena& arena) {
  const double h = p.timestep;
  n = 0;
  ncone = 0;
  for (int i = 0; i < p.nefc; ++i) {
    const int rows = RowsOf(p, i);
    n += rows;
    if (IsFrictionLossRow(p.type[i]) || rows > 1) ++ncone;
  }
  kind = Take<RowKind>(arena, n);
  pos_h = arena.Doubles(std::max(n, 1));
  vel0 = arena.Doubles(std::max(n, 1));
  eps = arena.Doubles(std::max(n, 1));
  cone_of = arena.Ints(std::max(n, 1));
  cones = Take<Cone>(arena, ncone);
  weight = arena.Doubles(std::max(n, 1));
  state = arena.Ints(std::max(n, 1));
  src_ = arena.Ints(std::max(n, 1));
  ConstraintType* type = Take<ConstraintType>(arena, n);
  int* id = arena.Ints(std::max(n, 1));

  const bool sparse = p.J == nullptr;
  const int nv = p.nv;
  double* dense = nullptr;
  double* values = nullptr;
  int* rownnz = nullptr;
  int* rowadr = nullptr;
  if (sparse) {
    const int last = p.nefc - 1;
    values = arena.Doubles(std::max(p.J_rowadr[last] + p.J_rownnz[last], 1));
    rownnz = arena.Ints(std::max(n, 1));
    rowadr = arena.Ints(std::max(n, 1));
  } else {
    dense = arena.Doubles(static_cast<std::size_t>(std::max(n, 1)) * nv);
  }
  // row r := sum_k coef[k] * kernel row (i + k): r's values live in kernel row slot's place
  // (sparse: the kernel row `slot` of the same constraint has the same columns)
  auto set_row = [&](int r, int slot, int i, int count, const double* coef) {
    double v = 0;
    for (int k = 0; k < count; ++k) v += coef[k] * p.vel[i + k];
    vel0[r] = v;
    if (sparse) {
      const int nnz = p.J_rownnz[i];
      GAUSS_DEMAND(p.J_rownnz[slot] == nnz, "the rows of one contact share their columns");
      rownnz[r] = nnz;
      rowadr[r] = p.J_rowadr[slot];
      double* out = values + p.J_rowadr[slot];
      std::fill(out, out + nnz, 0.0);
      for (int k = 0; k < count; ++k) {
        const double* in = p.J_sparse + p.J_rowadr[i + k];
        for (int q = 0; q < nnz; ++q) out[q] += coef[k] * in[q];
      }
    } else {
      double* out = dense + static_cast<std::size_t>(r) * nv;
      std::fill(out, out + nv, 0.0);
      for (int k = 0; k < count; ++k) {
        const double* in = p.J + static_cast<std::size_t>(i + k) * nv;
        for (int q = 0; q < nv; ++q) out[q] += coef[k] * in[q];
      }
    }
  };

  int r = 0, cone = 0;
  for (int i = 0; i < p.nefc; ++i) {
    const ConstraintType t = p.type[i];
    if (RowsOf(p, i) == 0) continue;
    const double one = 1;
    if (!IsFrictionalContactRow(t)) {
      set_row(r, i, i, 1, &one);
      src_[r] = i;
      type[r] = ConstraintType::kEquality;
      id[r] = r;
      pos_h[r] = p.pos[i] / h;
      eps[r] = 0;
      cone_of[r] = -1;
      if (t == ConstraintType::kEquality) {
        kind[r] = RowKind::kEquality;
        // far below the row's own scale h J M^-1 J' (~ h R d/(1-d)): the Newton step meets
        // the equality to ~1e-8 relative, and the next iteration removes the rest
        eps[r] = std::max(1e-8 * h * p.R[i], 1e-300);
      } else if (IsFrictionLossRow(t)) {
        kind[r] = RowKind::kFrictionLoss;
        cones[cone] = Cone{r, 1, -1, p.frictionloss[i]};
        cone_of[r] = cone++;
      } else {
        kind[r] = RowKind::kOrthant;  // limits and frictionless contacts
      }
      ++r;
      continue;
    }
    // a contact with friction: normal row, then its d = dim - 1 scaled friction rows
    const Contact& c = p.contact[p.id[i]];
    const int d = c.dim - 1;
    const bool pyramidal = t == ConstraintType::kContactPyramidal;
    const double half[2] = {0.5, 0.5}, diff[2] = {0.5, -0.5};
    if (pyramidal) {
      set_row(r, i, i, 2, half);
    } else {
      set_row(r, i, i, 1, &one);
    }
    kind[r] = RowKind::kOrthant;
    pos_h[r] = c.dist / h;
    cone_of[r] = -1;
    const int normal = r;
    cones[cone] = Cone{r + 1, d, normal, 0};
    for (int k = 0; k <= d; ++k) {
      const int row = r + k;
      src_[row] = i;
      type[row] = ConstraintType::kContactElliptic;  // one block in Newton's sparse Hessian
      id[row] = p.id[i];
      eps[row] = 0;
      if (k == 0) continue;
      const double mu = c.friction[k - 1];
      if (pyramidal) {
        set_row(row, i + k, i + 2 * (k - 1), 2, diff);
      } else {
        set_row(row, i + k, i + k, 1, &mu);
      }
      kind[row] = RowKind::kFriction;
      pos_h[row] = 0;
      cone_of[row] = cone;
    }
    ++cone;
    r += d + 1;
  }

  for (int k = 0; k < n; ++k) {
    weight[k] = 0;
    state[k] = static_cast<int>(ConstraintState::kQuadratic);
  }
  view = p;
  view.nefc = n;
  view.ncon = 0;
  view.contact = nullptr;
  view.type = type;
  view.id = id;
  view.D = weight;
  view.J = dense;
  // other rows than the kernel's: its dense rows' columns (J_dense_*) do not describe them
  view.J_dense_rownnz = view.J_dense_rowadr = view.J_dense_colind = nullptr;
  view.J_rownnz = rownnz;
  view.J_rowadr = rowadr;
  view.J_sparse = values;
  // J_colind stays the kernel's: every row points at a kernel row slot with its columns
}

void IpRows::ScatterForce(const ConstraintProblem& p, const double* f, double* force) const {
  for (int r = 0; r < n;) {
    const int i = src_[r];
    const ConstraintType t = p.type[i];
    if (t != ConstraintType::kContactPyramidal && t != ConstraintType::kContactElliptic) {
      force[i] = f[r];
      ++r;
      continue;
    }
    const Contact& c = p.contact[p.id[i]];
    const int d = c.dim - 1;
    const double gamma = f[r];
    if (t == ConstraintType::kContactElliptic) {
      force[i] = gamma;
      for (int k = 1; k <= d; ++k) force[i + k] = c.friction[k - 1] * f[r + k];
    } else {
      for (int k = 1; k <= d; ++k) {
        force[i + 2 * (k - 1)] = gamma / (2 * d) + 0.5 * f[r + k];
        force[i + 2 * (k - 1) + 1] = gamma / (2 * d) - 0.5 * f[r + k];
      }
    }
    r += d + 1;
  }
}

// Each row as a combination of kernel rows, the walk of Combine and its transposes: visit(r, i0,
// c0, i1, c1) says row r = c0 kernel[i0] + c1 kernel[i1] (i1 = -1: one term), as set_row built
// the Jacobians: a pyramidal contact's normal is the mean of its first edge pair and friction k
// half the difference of pair k; elliptic friction rows are scaled by mu_k.
template <class Visit>
void ForEachRowCombination(const ConstraintProblem& p, const int* src, int n,
                           const Visit& visit) {
  for (int r = 0; r < n;) {
    const int i = src[r];
    const ConstraintType t = p.type[i];
    if (!IsFrictionalContactRow(t)) {
      visit(r, i, 1.0, -1, 0.0);
      ++r;
      continue;
    }
    const Contact& c = p.contact[p.id[i]];
    const int d = c.dim - 1;
    if (t == ConstraintType::kContactElliptic) {
      visit(r, i, 1.0, -1, 0.0);
      for (int k = 1; k <= d; ++k) visit(r + k, i + k, c.friction[k - 1], -1, 0.0);
    } else {
      visit(r, i, 0.5, i + 1, 0.5);
      for (int k = 1; k <= d; ++k) visit(r + k, i + 2 * (k - 1), 0.5, i + 2 * (k - 1) + 1, -0.5);
    }
    r += d + 1;
  }
}

void IpRows::Combine(const ConstraintProblem& p, const double* kernel, double* rows) const {
  ForEachRowCombination(p, src_, n, [&](int r, int i0, double c0, int i1, double c1) {
    rows[r] = c0 * kernel[i0] + (i1 >= 0 ? c1 * kernel[i1] : 0.0);
  });
}

void IpRows::CombineTranspose(const ConstraintProblem& p, const double* rows,
                              double* kernel) const {
  std::fill(kernel, kernel + p.nefc, 0.0);
  ForEachRowCombination(p, src_, n, [&](int r, int i0, double c0, int i1, double c1) {
    kernel[i0] += c0 * rows[r];
    if (i1 >= 0) kernel[i1] += c1 * rows[r];
  });
}

void IpRows::ForceTranspose(const ConstraintProblem& p, const double* kernel,
                            double* rows) const {
  for (int r = 0; r < n;) {
    const int i = src_[r];
    const ConstraintType t = p.type[i];
    if (!IsFrictionalContactRow(t)) {
      rows[r] = kernel[i];
      ++r;
      continue;
    }
    const Contact& c = p.contact[p.id[i]];
    const int d = c.dim - 1;
    if (t == ConstraintType::kContactElliptic) {
      rows[r] = kernel[i];
      for (int k = 1; k <= d; ++k) rows[r + k] = c.friction[k - 1] * kernel[i + k];
    } else {
      rows[r] = 0;
      for (int k = 1; k <= d; ++k) {
        const double plus = kernel[i + 2 * (k - 1)], minus = kernel[i + 2 * (k - 1) + 1];
        rows[r] += (plus + minus) / (2 * d);
        rows[r + k] = 0.5 * (plus - minus);
      }
    }
    r += d + 1;
  }
}

}  // namespace ip
}  // namespace gauss
