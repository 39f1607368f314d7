// Center-of-mass-based quantities (spec stages 3 and 14): subtree centers of mass, body
// inertias and dof motion axes in the frame of each tree's center of mass, and their
// velocities.
//
// Every kinematic tree (a child of the world and its descendants) uses one reference point: the
// center of mass of its root's subtree, with world-aligned axes. Spatial quantities of bodies of
// the same tree are then directly comparable, and the offsets stay small, which keeps the
// floating-point error of the recursive algorithms low.
#include "gauss/math.h"
#include "inertia.h"
#include "pipeline.h"
#include "sleep.h"

namespace gauss {

using namespace math;

namespace {

// cdof of a rotation about `axis` through `anchor`: angular part = axis, linear part = velocity
// of the reference point `ref` as if rigidly attached = axis x (ref - anchor).
void RotationDof(double* cdof, const double* axis, const double* anchor, const double* ref) {
  double offset[3];
  Sub3(offset, ref, anchor);
  Copy3(cdof, axis);
  Cross3(cdof + 3, axis, offset);
}

}  // namespace

// (xipos, ximat, xanchor, xaxis, xmat) => (subtree_com, cinert, cdof)
void ComPosition(const Model& m, Data& d) {
  // 1. subtree centers of mass: accumulate mass-weighted positions from the leaves up
  double* com = d.subtree_com.data();
  for (int b = 0; b < m.nbody; ++b) Scale3(com + 3 * b, d.xipos.data() + 3 * b, m.body_mass[b]);
  for (int b = m.nbody - 1; b > 0; --b) AddTo3(com + 3 * m.body_parentid[b], com + 3 * b);
  for (int b = 0; b < m.nbody; ++b) {
    if (m.body_subtreemass[b] < kMinVal) {
      Copy3(com + 3 * b, d.xipos.data() + 3 * b);
    } else {
      Scale3(com + 3 * b, com + 3 * b, 1 / m.body_subtreemass[b]);
    }
  }

  // 2. body inertias about their tree's reference point (1. stays complete: the world's
  //    subtree com sums every tree, and a frozen tree's values come out as they were)
  const bool skip = SkipFrozen(m, d);
  for (int b = 1; b < m.nbody; ++b) {
    if (skip && BodyFrozen(m, d, b)) continue;
    double offset[3];
    Sub3(offset, d.xipos.data() + 3 * b, com + 3 * m.body_rootid[b]);
    SetBodyInertia(d.cinert.data() + 10 * b, d.ximat.data() + 9 * b,
                   m.body_inertia.data() + 3 * b, m.body_mass[b], offset);
  }

  // 3. dof motion axes, joint by joint
  for (int j = 0; j < m.njnt; ++j) {
    const int b = m.jnt_bodyid[j];
    if (skip && BodyFrozen(m, d, b)) continue;
    const double* ref = com + 3 * m.body_rootid[b];
    const double* anchor = d.xanchor.data() + 3 * j;
    const double* axis = d.xaxis.data() + 3 * j;
    double* cdof = d.cdof.data() + 6 * m.jnt_dofadr[j];
    switch (m.jnt_type[j]) {
      case JointType::kFree:
        // translations along the world axes, then rotations as for a ball joint
        for (int k = 0; k < 3; ++k) {
          for (int c = 0; c < 6; ++c) cdof[6 * k + c] = 0;
          cdof[6 * k + 3 + k] = 1;
        }
        cdof += 18;
        [[fallthrough]];
      case JointType::kBall: {
        // rotations about the body's own axes (columns of xmat), through the anchor; the
        // ball's angular velocity is expressed in the body frame
        const double* xmat = d.xmat.data() + 9 * b;
        for (int k = 0; k < 3; ++k) {
          const double body_axis[3] = {xmat[k], xmat[3 + k], xmat[6 + k]};
          RotationDof(cdof + 6 * k, body_axis, anchor, ref);
        }
        break;
      }
      case JointType::kSlide:
        Zero3(cdof);
        Copy3(cdof + 3, axis);
        break;
      case JointType::kHinge:
        RotationDof(cdof, axis, anchor, ref);
        break;
    }
  }
}

// (qvel, cdof) => (cvel, cdof_dot)
void ComVelocity(const Model& m, Data& d) {
  for (int c = 0; c < 6; ++c) d.cvel[c] = 0;
  const bool skip = SkipFrozen(m, d);
  for (int b = 1; b < m.nbody; ++b) {
    if (skip && BodyFrozen(m, d, b)) continue;
    double vel[6];
    const double* parent_vel = d.cvel.data() + 6 * m.body_parentid[b];
    for (int c = 0; c < 6; ++c) vel[c] = parent_vel[c];

    for (int j = m.body_jntadr[b]; j < m.body_jntadr[b] + m.body_jntnum[b]; ++j) {
      int dof = m.jnt_dofadr[j];
      const double* cdof = d.cdof.data() + 6 * dof;
      double* cdof_dot = d.cdof_dot.data() + 6 * dof;
      switch (m.jnt_type[j]) {
        case JointType::kFree:
          // translation axes are fixed in the world: no rate of change
          for (int c = 0; c < 18; ++c) cdof_dot[c] = 0;
          for (int k = 0; k < 3; ++k) {
            for (int c = 0; c < 6; ++c) vel[c] += cdof[6 * k + c] * d.qvel[dof + k];
          }
          dof += 3;
          cdof += 18;
          cdof_dot += 18;
          [[fallthrough]];
        case JointType::kBall:
          // The three body axes move with the velocity accumulated so far; their rotation by
          // the ball's own angular velocity w contributes w x w = 0 to cdof_dot * qvel.
          for (int k = 0; k < 3; ++k) CrossMotion(cdof_dot + 6 * k, vel, cdof + 6 * k);
          for (int k = 0; k < 3; ++k) {
            for (int c = 0; c < 6; ++c) vel[c] += cdof[6 * k + c] * d.qvel[dof + k];
          }
          break;
        case JointType::kSlide:
        case JointType::kHinge:
          CrossMotion(cdof_dot, vel, cdof);
          for (int c = 0; c < 6; ++c) vel[c] += cdof[c] * d.qvel[dof];
          break;
      }
    }
    for (int c = 0; c < 6; ++c) d.cvel[6 * b + c] = vel[c];
  }
}

}  // namespace gauss
