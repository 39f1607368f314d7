// Jacobians of points on bodies and the mapping of Cartesian forces to joint space, shared by
// the stages that build constraint rows, transmissions, tendons and sensors.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// (xfrc, xipos, cdof) => adds J' xfrc to qfrc (nv); xfrc is nbody x 6 (force, torque at each
// body's center of mass).
void AddCartesianForces(const Model& m, const Data& d, const double* xfrc, double* qfrc);

// qfrc (nv) += J' [force; torque]: a wrench (world frame) applied at the world point `point`
// of body b, mapped through the dofs that move b (none for a body welded to the world).
void ApplyWrench(const Model& m, const Data& d, int b, const double* point, const double* force,
                 const double* torque, double* qfrc);

// Jacobians of a world point attached to `body`: jacp (3 x nv), jacr (3 x nv), either may be
// null. Rows are dense over all dofs.
void PointJacobian(const Model& m, const Data& d, int body, const double* point, double* jacp,
                   double* jacr);

// The last dof that moves `body` (its own, or its nearest moving ancestor's), -1 if none: the
// dofs that move it are this one and its dof_parentid ancestors.
int LastDof(const Model& m, int body);

// The dofs that move `body`, in increasing order (its own and its ancestors'); returns their
// number. `chain` needs room for nv.
int BodyChain(const Model& m, int body, int* chain);
// The sorted union of two increasing dof lists; returns its length.
int MergeChains(const int* a, int na, const int* b, int nb, int* out);
// PointJacobian restricted to the dofs in `chain` (n, increasing): jacp, jacr are 3 x n
// (row-major); columns of dofs that do not move `body` are zero.
void ChainJacobian(const Model& m, const Data& d, int body, const double* point, const int* chain,
                   int n, double* jacp, double* jacr);

// Velocity and velocity-product acceleration of the world point p moving with body b: its
// motion at qacc = 0 without gravity, i.e. vel = J qvel and acc = (dJ/dt) qvel with J the
// point's Jacobian (jacp). ang_acc (may be null) = (dJr/dt) qvel, the body's angular
// acceleration at qacc = 0. (cvel, cdof_dot, qvel, subtree_com) => (vel, acc, ang_acc)
void PointMotion(const Model& m, const Data& d, int b, const double* p, double* vel, double* acc,
                 double* ang_acc = nullptr);

}  // namespace gauss
