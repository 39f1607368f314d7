// The stages of the forward-dynamics pipeline, in the order of the spec's "Simulation pipeline"
// section. Each stage lives in its own file (named after it) and states what it reads and
// writes in Data field names. engine.cc strings them together.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// ---------------------------------------------------------------- position stages
// kinematics.cc: (qpos, mocap_pos, mocap_quat) => (xpos, xquat, xmat, xipos, ximat, xanchor,
// xaxis, geom_xpos, geom_xmat, site_xpos, site_xmat). Quaternions are normalized on use.
void Kinematics(const Model& m, Data& d);

// com.cc: (xpos, xmat, xipos, ximat, xanchor, xaxis) => (subtree_com, cinert, cdof).
// Each tree is expressed in a world-aligned frame at its root's subtree center of mass.
void ComPosition(const Model& m, Data& d);

// tendon.cc: (qpos, site_xpos, geom_xpos, geom_xmat, cdof) => (ten_length, ten_J): fixed
// tendons (linear in joint positions) and spatial tendons (site paths wrapping around spheres
// and cylinders, with pulleys).
void Tendons(const Model& m, Data& d);

// inertia.cc: (cinert, cdof) => (crb, qM): composite rigid-body algorithm into tree-sparse M,
// plus armature on the diagonal.
void CompositeInertia(const Model& m, Data& d);
// inertia.cc: qM => (qLD, qLDiagInv, qLDiagSqrtInv)
void FactorInertia(const Model& m, Data& d);

// ---------------------------------------------------------------- velocity stages
// com.cc: (qvel, cdof) => (cvel, cdof_dot)
void ComVelocity(const Model& m, Data& d);

// passive.cc: derivatives of body b's fluid force and torque with respect to its velocity
// relative to the medium, per axis of its inertial frame (the inertia-box model is diagonal
// there); false when the body feels no fluid force.
bool FluidDamping(const Model& m, const Data& d, int b, double* dforce, double* dtorque);

// tendon.cc: (ten_J, qvel) => ten_velocity
void TendonVelocity(const Model& m, Data& d);

// passive.cc: (qpos, qvel, ten_length, ten_velocity, cvel) => qfrc_passive: joint and tendon
// springs and dampers, and the inertia-box fluid forces (opt.density, viscosity, wind).
void PassiveForces(const Model& m, Data& d);

// rne.cc: (cinert, cvel, cdof, cdof_dot, qvel [, qacc]) => result (nv): inverse dynamics by the
// recursive Newton-Euler algorithm. With with_acc false this is the bias force c(q, v)
// (Coriolis, centrifugal, gravity). Also writes cacc and cfrc_int as by-products.
void RecursiveNewtonEuler(const Model& m, Data& d, bool with_acc, double* result);

// ---------------------------------------------------------------- acceleration stages
// Actuation (transmission, actuator velocity, force mapping) is declared in actuation.h.

// jacobian.cc: (xfrc_applied, xipos, cdof) => adds J' xfrc_applied to qfrc (nv).
void AddCartesianForces(const Model& m, const Data& d, const double* xfrc, double* qfrc);

// jacobian.cc: Jacobians of a world point attached to `body`: jacp (3 x nv), jacr (3 x nv),
// either may be null. Rows are dense over all dofs.
void PointJacobian(const Model& m, const Data& d, int body, const double* point, double* jacp,
                   double* jacr);

// jacobian.cc: the dofs that move `body`, in increasing order (its own and its ancestors');
// returns their number. `chain` needs room for nv.
int BodyChain(const Model& m, int body, int* chain);
// jacobian.cc: the sorted union of two increasing dof lists; returns its length.
int MergeChains(const int* a, int na, const int* b, int nb, int* out);
// jacobian.cc: PointJacobian restricted to the dofs in `chain` (n, increasing): jacp, jacr are
// 3 x n (row-major); columns of dofs that do not move `body` are zero.
void ChainJacobian(const Model& m, const Data& d, int body, const double* point, const int* chain,
                   int n, double* jacp, double* jacr);

// energy.cc: (xipos, qpos) => energy[0]; (qvel, qM) => energy[1]
void PotentialEnergy(const Model& m, Data& d);
void KineticEnergy(const Model& m, Data& d);

}  // namespace gauss
