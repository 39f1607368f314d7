// Jacobians of points attached to bodies, and the projection of Cartesian forces on the dofs.
#include "jacobian.h"

#include <algorithm>

#include "gauss/math.h"

namespace gauss {

using namespace math;

int LastDof(const Model& m, int body) {
  while (body > 0 && m.body_dofnum[body] == 0) body = m.body_parentid[body];
  return body > 0 ? m.body_dofadr[body] + m.body_dofnum[body] - 1 : -1;
}

int BodyChain(const Model& m, int body, int* chain) {
  int n = 0;
  for (int i = LastDof(m, body); i >= 0; i = m.dof_parentid[i]) chain[n++] = i;
  std::reverse(chain, chain + n);
  return n;
}

int MergeChains(const int* a, int na, const int* b, int nb, int* out) {
  int i = 0, j = 0, n = 0;
  while (i < na || j < nb) {
    if (j >= nb || (i < na && a[i] < b[j])) {
      out[n++] = a[i++];
    } else if (i >= na || b[j] < a[i]) {
      out[n++] = b[j++];
    } else {
      out[n++] = a[i++];
      ++j;
    }
  }
  return n;
}

void ChainJacobian(const Model& m, const Data& d, int body, const double* point, const int* chain,
                   int n, double* jacp, double* jacr) {
  if (jacp) for (int k = 0; k < 3 * n; ++k) jacp[k] = 0;
  if (jacr) for (int k = 0; k < 3 * n; ++k) jacr[k] = 0;
  double offset[3];
  Sub3(offset, point, d.subtree_com.data() + 3 * m.body_rootid[body]);
  // walk the body's own dofs from the last one up; `chain` is increasing, so search backwards
  int k = n - 1;
  for (int i = LastDof(m, body); i >= 0; i = m.dof_parentid[i]) {
    while (k >= 0 && chain[k] > i) --k;
    if (k < 0) break;  // not in `chain`: the caller passed a chain without this body's dofs
    if (chain[k] != i) continue;
    const double* cdof = d.cdof.data() + 6 * i;
    if (jacr) {
      for (int r = 0; r < 3; ++r) jacr[r * n + k] = cdof[r];
    }
    if (jacp) {
      double lin[3];
      Cross3(lin, cdof, offset);
      AddTo3(lin, cdof + 3);
      for (int r = 0; r < 3; ++r) jacp[r * n + k] = lin[r];
    }
  }
}

// (cdof, subtree_com) => (jacp, jacr): column i is the velocity of the point (and the angular
// velocity of the body) per unit velocity of dof i; zero for dofs that do not move the body.
void PointJacobian(const Model& m, const Data& d, int body, const double* point, double* jacp,
                   double* jacr) {
  if (jacp) for (int i = 0; i < 3 * m.nv; ++i) jacp[i] = 0;
  if (jacr) for (int i = 0; i < 3 * m.nv; ++i) jacr[i] = 0;
  double offset[3];
  Sub3(offset, point, d.subtree_com.data() + 3 * m.body_rootid[body]);
  for (int i = LastDof(m, body); i >= 0; i = m.dof_parentid[i]) {
    const double* cdof = d.cdof.data() + 6 * i;
    if (jacr) {
      for (int r = 0; r < 3; ++r) jacr[r * m.nv + i] = cdof[r];
    }
    if (jacp) {
      // velocity of the point = velocity of the reference point + w x (point - reference)
      double lin[3];
      Cross3(lin, cdof, offset);
      AddTo3(lin, cdof + 3);
      for (int r = 0; r < 3; ++r) jacp[r * m.nv + i] = lin[r];
    }
  }
}

// (xfrc, xipos, cdof, subtree_com) => qfrc += J' [force; torque] of every body's wrench at its
// center of mass
void AddCartesianForces(const Model& m, const Data& d, const double* xfrc, double* qfrc) {
  for (int b = 1; b < m.nbody; ++b) {
    const double* force = xfrc + 6 * b;
    const double* torque = force + 3;
    if (force[0] == 0 && force[1] == 0 && force[2] == 0 && torque[0] == 0 && torque[1] == 0 &&
        torque[2] == 0) {
      continue;
    }
    double offset[3];
    Sub3(offset, d.xipos.data() + 3 * b, d.subtree_com.data() + 3 * m.body_rootid[b]);
    for (int i = LastDof(m, b); i >= 0; i = m.dof_parentid[i]) {
      const double* cdof = d.cdof.data() + 6 * i;
      double lin[3];
      Cross3(lin, cdof, offset);
      AddTo3(lin, cdof + 3);
      qfrc[i] += Dot3(lin, force) + Dot3(cdof, torque);
    }
  }
}

// (subtree_com, cdof) => qfrc (nv) += J' [force; torque] for a wrench (world frame) applied at
// `point` of body b.
void ApplyWrench(const Model& m, const Data& d, int b, const double* point, const double* force,
                 const double* torque, double* qfrc) {
  double offset[3];
  Sub3(offset, point, d.subtree_com.data() + 3 * m.body_rootid[b]);
  for (int i = LastDof(m, b); i >= 0; i = m.dof_parentid[i]) {  // none: welded to the world
    const double* cdof = d.cdof.data() + 6 * i;
    double lin[3];
    Cross3(lin, cdof, offset);
    AddTo3(lin, cdof + 3);
    qfrc[i] += Dot3(lin, force) + Dot3(cdof, torque);
  }
}

void PointMotion(const Model& m, const Data& d, int b, const double* p, double* vel, double* acc,
                 double* ang_acc) {
  const double* cvel = d.cvel.data() + 6 * b;
  // com-based acceleration of the body at qacc = 0: the sum of cdof_dot qvel over the dofs
  // that move it (RecursiveNewtonEuler's forward pass without gravity and qacc)
  double cacc[6] = {0, 0, 0, 0, 0, 0};
  for (int i = LastDof(m, b); i >= 0; i = m.dof_parentid[i]) {
    for (int c = 0; c < 6; ++c) cacc[c] += d.cdof_dot[6 * i + c] * d.qvel[i];
  }
  double r[3], t[3];
  Sub3(r, p, d.subtree_com.data() + 3 * m.body_rootid[b]);
  // com-based motion vectors: v = v_c + w x r, a = a_c + alpha x r + w x v
  Cross3(t, cvel, r);
  for (int i = 0; i < 3; ++i) vel[i] = cvel[3 + i] + t[i];
  Cross3(t, cacc, r);
  for (int i = 0; i < 3; ++i) acc[i] = cacc[3 + i] + t[i];
  Cross3(t, cvel, vel);
  AddTo3(acc, t);
  if (ang_acc) Copy3(ang_acc, cacc);
}

}  // namespace gauss
