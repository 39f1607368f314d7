// Analytic velocity derivatives of the smooth forces (gauss/derivative.h) and the no-fill LU
// factorization of matrices with the sparsity of M. The RNE term is in rne_derivative.cc.
#include "gauss/derivative.h"

#include <algorithm>

#include "gauss/engine.h"
#include "jacobian.h"
#include "fluid.h"
#include "pipeline.h"
#include "rne_derivative.h"

namespace gauss {

namespace {

// Where D(i, j) lives for dofs i, j with one an ancestor-or-self of the other; nullptr when
// they are not on one chain (outside M's sparsity, dropped). A parent dof has a smaller index
// than its children, so the candidate ancestor is the smaller of the two, reached by climbing
// from the larger.
double* Entry(const Model& m, double* lower, double* upper, int i, int j) {
  const int below = std::max(i, j);
  const int above = std::min(i, j);
  int a = 0;
  int p = below;
  for (; p > above; p = m.dof_parentid[p]) ++a;
  if (p != above) return nullptr;
  return (i >= j ? lower : upper) + m.dof_Madr[below] + a;
}

void Add(const Model& m, double* lower, double* upper, int i, int j, double value) {
  if (double* e = Entry(m, lower, upper, i, j)) *e += value;
}

// D += weight row' row on M's pattern, for the nonzeros of row within [begin, end) (the rest of
// row is zero): -b J'J for tendon damping, moment' dfdv moment for actuators, the fluid rows.
// nonzero (nv ints) is scratch.
void AddRankOne(const Model& m, double* lower, double* upper, const double* row, int begin,
                int end, double weight, int* nonzero) {
  int n = 0;
  for (int i = begin; i < end; ++i) {
    if (row[i] != 0) nonzero[n++] = i;
  }
  for (int x = 0; x < n; ++x) {
    const int i = nonzero[x];
    const double scaled = weight * row[i];
    for (int y = 0; y < n; ++y) Add(m, lower, upper, i, nonzero[y], scaled * row[nonzero[y]]);
  }
}

// Scratch of AddFluidDerivative: one body's point Jacobian and a projected row.
struct FluidRows {
  double *jacp, *jacr, *row;
  template <class Take>
  void Blocks(Take& take, int nv) {
    take(&jacp, 3 * static_cast<std::size_t>(nv), "jacp");
    take(&jacr, 3 * static_cast<std::size_t>(nv), "jacr");
    take(&row, nv, "row");
  }
};

// Scratch of AddEllipsoidFluidDerivative: one geom's point Jacobian, Jl and (dW/dvel) Jl.
struct EllipsoidFluidRows {
  double *jacp, *jacr, *local, *product;
  template <class Take>
  void Blocks(Take& take, int nv) {
    take(&jacp, 3 * static_cast<std::size_t>(nv), "jacp");
    take(&jacr, 3 * static_cast<std::size_t>(nv), "jacr");
    take(&local, 6 * static_cast<std::size_t>(nv), "Jl");
    take(&product, 6 * static_cast<std::size_t>(nv), "(dW/dvel) Jl");
  }
};

// Fluid forces: per body, f = R F(R' Jp v), tau = R T(R' Jr v) with diagonal dF, dT in the
// inertial frame R, so D += sum over axes of dF_i (R_i' Jp)'(R_i' Jp) + dT_i (R_i' Jr)'(R_i' Jr).
void AddFluidDerivative(const Model& m, Data& d, double* lower, double* upper, int* nonzero) {
  if (!MediumActs(m.opt)) return;
  ArenaScope scope(d.arena);
  ArenaCarve carve(d.arena);
  FluidRows f;
  f.Blocks(carve, m.nv);
  double* jacp = f.jacp;
  double* jacr = f.jacr;
  double* row = f.row;
  for (int b = 1; b < m.nbody; ++b) {
    double dforce[3], dtorque[3];
    if (!FluidDamping(m, d, b, dforce, dtorque)) continue;
    PointJacobian(m, d, b, d.xipos.data() + 3 * b, jacp, jacr);
    const double* ximat = d.ximat.data() + 9 * b;
    for (int i = 0; i < 3; ++i) {
      const double axis[3] = {ximat[i], ximat[3 + i], ximat[6 + i]};
      for (int pass = 0; pass < 2; ++pass) {
        const double* jac = pass == 0 ? jacp : jacr;
        for (int k = 0; k < m.nv; ++k) {
          row[k] = axis[0] * jac[k] + axis[1] * jac[m.nv + k] + axis[2] * jac[2 * m.nv + k];
        }
        AddRankOne(m, lower, upper, row, 0, m.nv, pass == 0 ? dforce[i] : dtorque[i], nonzero);
      }
    }
  }
}

// Ellipsoid fluid model: per geom, wrench = W(vel) in the geom frame with vel = Jl v, where
// Jl = [R' Jr; R' Jp] is the geom point's Jacobian in the geom frame (rotation rows first, as in
// the wrench), so D += Jl' (dW/dvel) Jl, a full (not symmetric) 6 x 6 block per geom.
void AddEllipsoidFluidDerivative(const Model& m, Data& d, double* lower, double* upper) {
  if (!MediumActs(m.opt)) return;
  ArenaScope scope(d.arena);
  ArenaCarve carve(d.arena);
  EllipsoidFluidRows f;
  f.Blocks(carve, m.nv);
  double* jacp = f.jacp;
  double* jacr = f.jacr;
  double* local = f.local;      // Jl
  double* product = f.product;  // (dW/dvel) Jl
  for (int g = 0; g < m.ngeom; ++g) {
    const int b = m.geom_bodyid[g];
    if (m.body_mass[b] < kMinVal) continue;
    double vel[6];
    if (!GeomFluidVelocity(m, d, g, vel)) continue;
    const double* fluid = m.geom_fluid.data() + kNFluid * g;
    double semiaxes[3], jacobian[36];
    FluidSemiAxes(m.geom_type[g], m.geom_size.data() + 3 * g, semiaxes);
    EllipsoidFluidWrenchJacobian(semiaxes, fluid, m.opt.density, m.opt.viscosity, vel, jacobian);
    PointJacobian(m, d, b, d.geom_xpos.data() + 3 * g, jacp, jacr);
    const double* xmat = d.geom_xmat.data() + 9 * g;
    for (int a = 0; a < 3; ++a) {
      for (int k = 0; k < m.nv; ++k) {
        local[a * m.nv + k] = xmat[a] * jacr[k] + xmat[3 + a] * jacr[m.nv + k] +
                              xmat[6 + a] * jacr[2 * m.nv + k];
        local[(3 + a) * m.nv + k] = xmat[a] * jacp[k] + xmat[3 + a] * jacp[m.nv + k] +
                                    xmat[6 + a] * jacp[2 * m.nv + k];
      }
    }
    for (int a = 0; a < 6; ++a) {
      for (int k = 0; k < m.nv; ++k) {
        double sum = 0;
        for (int c = 0; c < 6; ++c) sum += jacobian[6 * a + c] * local[c * m.nv + k];
        product[a * m.nv + k] = fluid[0] * sum;
      }
    }
    // only the dofs of the geom's chain (from the nearest body with dofs) have nonzero columns
    const int last = LastDof(m, b);  // -1: welded to the world, nothing to add
    for (int i = last; i >= 0; i = m.dof_parentid[i]) {
      for (int j = last; j >= 0; j = m.dof_parentid[j]) {
        double sum = 0;
        for (int a = 0; a < 6; ++a) sum += local[a * m.nv + i] * product[a * m.nv + j];
        Add(m, lower, upper, i, j, sum);
      }
    }
  }
}

// What SmoothVelocityDerivative holds throughout: the nonzero columns of one rank-one row, and
// the actuators' force derivatives.
struct DerivativeWork {
  int* nonzero = nullptr;
  double* dfdv = nullptr;
  template <class Take>
  void Blocks(Take& take, const Model& m) {
    take(&nonzero, m.nv, "nonzero columns of a row");
    take(&dfdv, m.nu, "dfdv");
  }
};

}  // namespace

// (sizes) => the held work, then the fluid models' rows and the RNE columns (each released)
ArenaPlan SmoothVelocityDerivativePlan(const Model& m) {
  ArenaPlan plan, fluid, ellipsoid;
  DerivativeWork().Blocks(plan, m);
  FluidRows().Blocks(fluid, m.nv);
  plan.Within("fluid derivative", fluid);
  EllipsoidFluidRows().Blocks(ellipsoid, m.nv);
  plan.Within("ellipsoid fluid derivative", ellipsoid);
  plan.Within("RNE derivative", RneDerivativePlan(m));
  return plan;
}

void SmoothVelocityDerivative(const Engine& engine, Data& d, const DerivativeTerms& terms,
                              double* lower, double* upper) {
  const Model& m = engine.model();
  std::fill(lower, lower + m.nM, 0.0);
  std::fill(upper, upper + m.nM, 0.0);
  ArenaScope scope(d.arena);
  ArenaCarve carve(d.arena);
  DerivativeWork w;
  w.Blocks(carve, m);

  if (terms.passive && !m.opt.PassiveDisabled()) {
    const bool dampers = !m.opt.DampersDisabled();  // 3.x's damper flag: no damping terms
    for (int i = 0; i < m.nv && dampers; ++i) lower[m.dof_Madr[i]] -= m.dof_damping[i];
    for (int t = 0; t < m.ntendon && dampers; ++t) {
      if (m.tendon_damping[t] == 0) continue;
      AddRankOne(m, lower, upper, d.ten_J.data() + t * m.nv, 0, m.nv, -m.tendon_damping[t],
                 w.nonzero);
    }
    AddFluidDerivative(m, d, lower, upper, w.nonzero);
    AddEllipsoidFluidDerivative(m, d, lower, upper);
  }
  if (terms.actuator && m.nu > 0 && !m.opt.Disabled(kDisableActuation)) {
    engine.ActuatorForceVelocityDerivative(d, w.dfdv);
    for (int a = 0; a < m.nu; ++a) {
      if (w.dfdv[a] == 0) continue;
      const int* span = d.actuator_moment_span.data() + 2 * a;
      AddRankOne(m, lower, upper, d.actuator_moment.data() + a * m.nv, span[0], span[1],
                 w.dfdv[a], w.nonzero);
    }
  }
  if (terms.rne) AddRneDerivative(m, d, lower, upper);
}

int FactorTreeLU(const Model& m, double* lower, double* upper) {
  // Eliminate leaves first: for dof k, rows and columns of its ancestors (one chain) are
  // updated by A(i,j) -= A(i,k) A(k,j) / A(k,k); the multipliers A(i,k)/A(k,k) are stored in
  // upper, the remaining row A(k, ancestors) stays in lower.
  int bad = -1;
  for (int k = m.nv - 1; k >= 0; --k) {
    const int adr = m.dof_Madr[k];
    const double pivot = lower[adr];
    if (pivot == 0 && bad < 0) bad = k;
    const int len = (k + 1 < m.nv ? m.dof_Madr[k + 1] : m.nM) - adr;
    // chain of ancestors of k: position a in row k
    int i = m.dof_parentid[k];
    for (int a = 1; a < len; ++a, i = m.dof_parentid[i]) {
      const double mult = upper[adr + a] / pivot;  // A(i,k) / A(k,k)
      upper[adr + a] = mult;
      // row i of the remaining matrix: A(i, j) for j = chain[b], b >= 1; first the j between
      // k and i (i is an ancestor of j: upper), then i and its ancestors (one run of row i)
      int j = m.dof_parentid[k];
      for (int b = 1; b < a; ++b, j = m.dof_parentid[j]) {
        upper[m.dof_Madr[j] + (a - b)] -= mult * lower[adr + b];
      }
      double* row_i = lower + m.dof_Madr[i] - a;  // row_i[b] = A(i, chain[b]) for b >= a
      for (int b = a; b < len; ++b) row_i[b] -= mult * lower[adr + b];
    }
  }
  return bad;
}

void SolveTreeLU(const Model& m, const double* lower, const double* upper, double* x) {
  // forward: apply the eliminations (leaves first) to the right-hand side
  for (int k = m.nv - 1; k >= 0; --k) {
    const int adr = m.dof_Madr[k];
    const int len = (k + 1 < m.nv ? m.dof_Madr[k + 1] : m.nM) - adr;
    int i = m.dof_parentid[k];
    for (int a = 1; a < len; ++a, i = m.dof_parentid[i]) x[i] -= upper[adr + a] * x[k];
  }
  // backward: roots first, each row involves only ancestors
  for (int k = 0; k < m.nv; ++k) {
    const int adr = m.dof_Madr[k];
    const int len = (k + 1 < m.nv ? m.dof_Madr[k + 1] : m.nM) - adr;
    double v = x[k];
    int j = m.dof_parentid[k];
    for (int b = 1; b < len; ++b, j = m.dof_parentid[j]) v -= lower[adr + b] * x[j];
    x[k] = v / lower[adr];
  }
}

}  // namespace gauss
