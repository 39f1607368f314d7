// Analytic velocity derivatives of the smooth forces (gauss/derivative.h) and the no-fill LU
// factorization of matrices with the sparsity of M.
//
// RNE term: the bias force c(q, v) is quadratic in v through the body velocities cvel and the
// axis rates cdof_dot = cvel x cdof. Its derivative with respect to dof k is a tangent run of the
// velocity and RNE recursions: only the subtree of k's body moves, so each column costs the size
// of that subtree plus the depth of the tree.
#include "gauss/derivative.h"

#include <algorithm>

#include "gauss/engine.h"
#include "gauss/math.h"
#include "inertia.h"
#include "jacobian.h"
#include "fluid.h"
#include "pipeline.h"

namespace gauss {

using namespace math;

namespace {

// Where D(i, j) lives for dofs i, j with one an ancestor-or-self of the other; nullptr when
// they are not on one chain (outside M's sparsity, dropped).
double* Entry(const Model& m, double* lower, double* upper, int i, int j) {
  if (i == j) return lower + m.dof_Madr[i];
  int a = 0;
  for (int p = i; p >= 0; p = m.dof_parentid[p], ++a) {
    if (p == j) return lower + m.dof_Madr[i] + a;  // j is an ancestor of i
  }
  a = 0;
  for (int p = j; p >= 0; p = m.dof_parentid[p], ++a) {
    if (p == i) return upper + m.dof_Madr[j] + a;  // i is an ancestor of j
  }
  return nullptr;
}

void Add(const Model& m, double* lower, double* upper, int i, int j, double value) {
  if (double* e = Entry(m, lower, upper, i, j)) *e += value;
}

// D += -b J'J for dof and tendon damping; D += moment' dfdv moment for actuators.
void AddRankOne(const Model& m, double* lower, double* upper, const double* row, double weight) {
  for (int i = 0; i < m.nv; ++i) {
    if (row[i] == 0) continue;
    for (int j = 0; j < m.nv; ++j) {
      if (row[j] != 0) Add(m, lower, upper, i, j, weight * row[i] * row[j]);
    }
  }
}

// Scratch of AddRneDerivative: the tangents of one column.
struct RneTangents {
  double *dvel, *dacc, *dfrc;
  int* moved;
  template <class Take>
  void Blocks(Take& take, int nbody) {
    take(&dvel, 6 * static_cast<std::size_t>(nbody), "d cvel / d v_k");
    take(&dacc, 6 * static_cast<std::size_t>(nbody), "d cacc / d v_k");
    take(&dfrc, 6 * static_cast<std::size_t>(nbody), "d cfrc / d v_k");
    take(&moved, nbody, "body in the subtree of k's body");
  }
};

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

// -d qfrc_bias / d qvel, column by column (tangent of ComVelocity + RecursiveNewtonEuler).
void AddRneDerivative(const Model& m, Data& d, double* lower, double* upper) {
  ArenaScope scope(d.arena);
  ArenaCarve carve(d.arena);
  RneTangents t;
  t.Blocks(carve, m.nbody);
  double* dvel = t.dvel;
  double* dacc = t.dacc;
  double* dfrc = t.dfrc;
  int* moved = t.moved;

  for (int k = 0; k < m.nv; ++k) {
    const int root = m.dof_bodyid[k];
    std::fill(dvel, dvel + 6 * m.nbody, 0.0);
    std::fill(dacc, dacc + 6 * m.nbody, 0.0);
    std::fill(dfrc, dfrc + 6 * m.nbody, 0.0);
    for (int b = 0; b < m.nbody; ++b) moved[b] = b == root || (b > root && moved[m.body_parentid[b]]);

    // forward: velocities, axis rates and accelerations of the moving bodies
    for (int b = root; b < m.nbody; ++b) {
      if (!moved[b]) continue;
      double vel[6], acc[6];
      // (the parent of k's body does not move with v_k: its tangents are zero)
      for (int c = 0; c < 6; ++c) {
        vel[c] = dvel[6 * m.body_parentid[b] + c];
        acc[c] = dacc[6 * m.body_parentid[b] + c];
      }
      // the body's joints, as in ComVelocity: a dof's rate uses the velocity accumulated before
      // it (before the whole ball for ball joints, after the translations for free joints)
      for (int j = m.body_jntadr[b]; j < m.body_jntadr[b] + m.body_jntnum[b]; ++j) {
        int dof = m.jnt_dofadr[j];
        const JointType type = m.jnt_type[j];
        int group = type == JointType::kFree ? 3 : type == JointType::kBall ? 3 : 1;
        if (type == JointType::kFree) {
          // translations: fixed axes, their velocity enters directly
          for (int t = 0; t < 3; ++t, ++dof) {
            if (dof == k) for (int c = 0; c < 6; ++c) vel[c] += d.cdof[6 * dof + c];
          }
        }
        double drate[6 * 3];
        for (int g = 0; g < group; ++g) CrossMotion(drate + 6 * g, vel, d.cdof.data() + 6 * (dof + g));
        for (int g = 0; g < group; ++g) {
          const int i = dof + g;
          for (int c = 0; c < 6; ++c) acc[c] += drate[6 * g + c] * d.qvel[i];
          if (i == k) {
            for (int c = 0; c < 6; ++c) acc[c] += d.cdof_dot[6 * i + c];
          }
        }
        for (int g = 0; g < group; ++g) {
          if (dof + g == k) for (int c = 0; c < 6; ++c) vel[c] += d.cdof[6 * (dof + g) + c];
        }
      }
      for (int c = 0; c < 6; ++c) {
        dvel[6 * b + c] = vel[c];
        dacc[6 * b + c] = acc[c];
      }
      // body force: I dacc + dvel x* (I v) + v x* (I dvel)
      const double* cinert = d.cinert.data() + 10 * b;
      const double* v = d.cvel.data() + 6 * b;
      double f[6], Iv[6], Idv[6], t1[6], t2[6];
      MulInertiaVec(f, cinert, acc);
      MulInertiaVec(Iv, cinert, v);
      MulInertiaVec(Idv, cinert, vel);
      CrossForce(t1, vel, Iv);
      CrossForce(t2, v, Idv);
      for (int c = 0; c < 6; ++c) dfrc[6 * b + c] = f[c] + t1[c] + t2[c];
    }

    // backward: subtree forces, up to the tree's root
    for (int b = m.nbody - 1; b > 0; --b) {
      const int parent = m.body_parentid[b];
      if (parent == 0) continue;
      for (int c = 0; c < 6; ++c) dfrc[6 * parent + c] += dfrc[6 * b + c];
    }

    // project: D(j, k) = -cdof_j . dfrc(body of j) for dofs j on k's chain or in its subtree
    for (int j = 0; j < m.nv; ++j) {
      double* e = Entry(m, lower, upper, j, k);
      if (!e) continue;
      const double* cdof = d.cdof.data() + 6 * j;
      const double* f = dfrc + 6 * m.dof_bodyid[j];
      double dot = 0;
      for (int c = 0; c < 6; ++c) dot += cdof[c] * f[c];
      *e -= dot;
    }
  }
}

// Fluid forces: per body, f = R F(R' Jp v), tau = R T(R' Jr v) with diagonal dF, dT in the
// inertial frame R, so D += sum over axes of dF_i (R_i' Jp)'(R_i' Jp) + dT_i (R_i' Jr)'(R_i' Jr).
void AddFluidDerivative(const Model& m, Data& d, double* lower, double* upper) {
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
        AddRankOne(m, lower, upper, row, pass == 0 ? dforce[i] : dtorque[i]);
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

}  // namespace

// (sizes) => the fluid models' rows (each released), then dfdv held while the RNE tangents
// are taken
ArenaPlan SmoothVelocityDerivativePlan(const Model& m) {
  ArenaPlan plan, fluid, ellipsoid, rne;
  FluidRows().Blocks(fluid, m.nv);
  plan.Within("fluid derivative", fluid);
  EllipsoidFluidRows().Blocks(ellipsoid, m.nv);
  plan.Within("ellipsoid fluid derivative", ellipsoid);
  double* dfdv = nullptr;
  plan(&dfdv, m.nu, "dfdv");
  RneTangents().Blocks(rne, m.nbody);
  plan.Within("RNE derivative", rne);
  return plan;
}

void SmoothVelocityDerivative(const Engine& engine, Data& d, const DerivativeTerms& terms,
                              double* lower, double* upper) {
  const Model& m = engine.model();
  std::fill(lower, lower + m.nM, 0.0);
  std::fill(upper, upper + m.nM, 0.0);
  ArenaScope scope(d.arena);

  if (terms.passive && !m.opt.Disabled(kDisablePassive)) {
    for (int i = 0; i < m.nv; ++i) lower[m.dof_Madr[i]] -= m.dof_damping[i];
    for (int t = 0; t < m.ntendon; ++t) {
      if (m.tendon_damping[t] == 0) continue;
      AddRankOne(m, lower, upper, d.ten_J.data() + t * m.nv, -m.tendon_damping[t]);
    }
    AddFluidDerivative(m, d, lower, upper);
    AddEllipsoidFluidDerivative(m, d, lower, upper);
  }
  if (terms.actuator && m.nu > 0 && !m.opt.Disabled(kDisableActuation)) {
    double* dfdv = nullptr;
    ArenaCarve carve(d.arena);
    carve(&dfdv, m.nu, "dfdv");
    engine.ActuatorForceVelocityDerivative(d, dfdv);
    for (int a = 0; a < m.nu; ++a) {
      if (dfdv[a] == 0) continue;
      AddRankOne(m, lower, upper, d.actuator_moment.data() + a * m.nv, dfdv[a]);
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
      // row i of the remaining matrix: A(i, j) for j = chain[b], b >= 1
      int j = m.dof_parentid[k];
      for (int b = 1; b < len; ++b, j = m.dof_parentid[j]) {
        const double akj = lower[adr + b];
        if (b >= a) {
          lower[m.dof_Madr[i] + (b - a)] -= mult * akj;  // j ancestor-or-self of i
        } else {
          upper[m.dof_Madr[j] + (a - b)] -= mult * akj;  // i ancestor of j
        }
      }
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
