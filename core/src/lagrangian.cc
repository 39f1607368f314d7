// Lagrangian terms for variational integrators (gauss/lagrangian.h).
//
// Why dT/dq_i = cdof_dot_i' H_i: moving dof i by eps carries every motion axis "after" it
// (the dofs of its subtree, and for a ball joint its own three axes) and every body inertia of
// its subtree along the screw s_i, so d s_j = eps s_i x s_j and d I_b = eps (s_i x* I_b -
// I_b s_i x). Summing 1/2 V_b' I_b V_b over the subtree, the terms of the moved axes and of
// the moved inertias cancel except for s_i x U_i, U_i the velocity of what does not move (the
// parent's cvel plus, for a free joint's rotations, its translation). That is exactly how the
// kernel defines cdof_dot_i = U_i x s_i (com.cc), hence dT/dq_i = cdof_dot_i' sum_b I_b V_b.
#include "gauss/lagrangian.h"

#include "gauss/arena.h"
#include "gauss/math.h"
#include "inertia.h"
#include "pipeline.h"

namespace gauss {

using namespace math;

// (qpos, qvel) => poses, com, tendons, qM, qLD, ten_velocity, cvel, cdof_dot, qfrc_passive
void EvaluateSmoothTerms(const Model& m, Data& d) {
  Kinematics(m, d);
  ComPosition(m, d);
  Tendons(m, d);
  CompositeInertia(m, d);
  FactorInertia(m, d);
  TendonVelocity(m, d);
  ComVelocity(m, d);
  PassiveForces(m, d);
}

std::size_t LagrangianGradientScratch(const Model& m) {
  return 12 * static_cast<std::size_t>(m.nbody) + 8;
}

// (cdof, cdof_dot, cinert, cvel, xipos, subtree_com) => grad (nv)
void LagrangianPositionGradient(const Model& m, Data& d, double* grad) {
  ArenaScope scope(d.arena);
  double* momentum = d.arena.Doubles(6 * m.nbody);  // per body, then per subtree
  double* wrench = d.arena.Doubles(6 * m.nbody);    // gravity wrench, same
  const bool gravity = !m.opt.Disabled(kDisableGravity);
  for (int c = 0; c < 6; ++c) momentum[c] = wrench[c] = 0;
  for (int b = 1; b < m.nbody; ++b) {
    MulInertiaVec(momentum + 6 * b, d.cinert.data() + 10 * b, d.cvel.data() + 6 * b);
    double* w = wrench + 6 * b;
    double force[3] = {0, 0, 0};
    if (gravity) Scale3(force, m.opt.gravity.data(), m.body_mass[b]);
    double arm[3];
    Sub3(arm, d.xipos.data() + 3 * b, d.subtree_com.data() + 3 * m.body_rootid[b]);
    Cross3(w, arm, force);  // torque about the tree's reference point
    Copy3(w + 3, force);
  }
  // subtree sums, leaves first; trees stay separate (each has its own reference point)
  for (int b = m.nbody - 1; b > 0; --b) {
    const int parent = m.body_parentid[b];
    if (parent == 0) continue;
    for (int c = 0; c < 6; ++c) {
      momentum[6 * parent + c] += momentum[6 * b + c];
      wrench[6 * parent + c] += wrench[6 * b + c];
    }
  }
  for (int i = 0; i < m.nv; ++i) {
    const int b = m.dof_bodyid[i];
    grad[i] = DotN(d.cdof_dot.data() + 6 * i, momentum + 6 * b, 6) +
              DotN(d.cdof.data() + 6 * i, wrench + 6 * b, 6);
  }
}

}  // namespace gauss
