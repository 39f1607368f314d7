// The Lagrangian L(q, v) = T(q, v) - V_gravity(q), T = 1/2 v' M(q) v, for integrators that
// discretize it instead of the equations of motion (the `variational` plugin). Velocities are
// the kernel's qvel: hinge/slide rates, world-frame linear velocity of free joints, and
// body-frame angular velocity of ball and free joints, so that q moves as q "+" h v
// (IntegratePosition). Derivatives with respect to q are taken in the same sense: the
// derivative along the perturbation q "+" eps e_i (left-trivialized on the quaternions).
#pragma once

#include <cstddef>

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// The smooth quantities at the current (qpos, qvel), and nothing else: poses, com quantities,
// tendon lengths and velocities, qM and its factor (qLD, qLDiagInv, qLDiagSqrtInv), cvel,
// cdof_dot and qfrc_passive. No collision, constraints, actuation, bias force, energy or
// sensors. For integrators that need M and the passive forces at trial states.
// (qpos, qvel) => the fields above.
void EvaluateSmoothTerms(const Model& m, Data& d);

// grad (nv) = dL/dq at the current state: dT/dq_i = cdof_dot_i' H_i (H_i the spatial momentum
// of the subtree that dof i moves, about the tree's reference point) plus the generalized
// gravity force -dV/dq_i = cdof_i' W_i (W_i the subtree's gravity wrench). Joint springs are
// not included (they are in qfrc_passive).
// (cdof, cdof_dot, cinert, cvel, xipos, subtree_com) => grad; temporaries from d.arena.
void LagrangianPositionGradient(const Model& m, Data& d, double* grad);

// Doubles of d.arena that LagrangianPositionGradient takes.
std::size_t LagrangianGradientScratch(const Model& m);

}  // namespace gauss
