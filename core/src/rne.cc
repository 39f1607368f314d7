// Recursive Newton-Euler inverse dynamics (spec stage 18: the bias force c(q, v), and the
// unconstrained part of inverse dynamics).
#include "gauss/math.h"
#include "inertia.h"
#include "pipeline.h"
#include "sleep.h"
#include "tendon.h"

namespace gauss {

using namespace math;

// (cinert, cvel, cdof, cdof_dot, qvel [, qacc]) => (cacc, cfrc_int, result)
void RecursiveNewtonEuler(const Model& m, Data& d, bool with_acc, double* result) {
  double* cacc = d.cacc.data();
  double* cfrc = d.cfrc_int.data();
  // the bias force (velocity stage) skips frozen sleeping trees (sleep.h); inverse dynamics
  // (with_acc) computes every tree
  const bool skip = !with_acc && SkipFrozen(m, d);

  // 1. forward pass: body accelerations. Gravity enters as an upward acceleration of the world,
  //    which is the same motion vector at every reference point.
  for (int c = 0; c < 6; ++c) cacc[c] = 0;
  if (!m.opt.Disabled(kDisableGravity)) {
    for (int c = 0; c < 3; ++c) cacc[3 + c] = -m.opt.gravity[c];
  }
  for (int b = 1; b < m.nbody; ++b) {
    if (skip && BodyFrozen(m, d, b)) continue;
    double* acc = cacc + 6 * b;
    const double* parent_acc = cacc + 6 * m.body_parentid[b];
    for (int c = 0; c < 6; ++c) acc[c] = parent_acc[c];
    const int dofadr = m.body_dofadr[b];
    for (int i = dofadr; i < dofadr + m.body_dofnum[b]; ++i) {
      const double* cdof_dot = d.cdof_dot.data() + 6 * i;
      for (int c = 0; c < 6; ++c) acc[c] += cdof_dot[c] * d.qvel[i];
      if (with_acc) {
        const double* cdof = d.cdof.data() + 6 * i;
        for (int c = 0; c < 6; ++c) acc[c] += cdof[c] * d.qacc[i];
      }
    }
  }

  // 2. body forces: rate of change of momentum, I a + v x* (I v)
  for (int c = 0; c < 6; ++c) cfrc[c] = 0;
  for (int b = 1; b < m.nbody; ++b) {
    if (skip && BodyFrozen(m, d, b)) continue;
    double momentum[6], gyro[6];
    const double* cinert = d.cinert.data() + 10 * b;
    const double* vel = d.cvel.data() + 6 * b;
    MulInertiaVec(cfrc + 6 * b, cinert, cacc + 6 * b);
    MulInertiaVec(momentum, cinert, vel);
    CrossForce(gyro, vel, momentum);
    for (int c = 0; c < 6; ++c) cfrc[6 * b + c] += gyro[c];
  }

  // 3. backward pass: each body carries the forces of its subtree (never across trees: the
  //    world accumulates nothing useful)
  for (int b = m.nbody - 1; b > 0; --b) {
    const int parent = m.body_parentid[b];
    if (parent == 0 || (skip && BodyFrozen(m, d, b))) continue;
    for (int c = 0; c < 6; ++c) cfrc[6 * parent + c] += cfrc[6 * b + c];
  }

  // 4. project on the dof axes
  ForEachLiveDofRun(m, d, skip, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      const double* cdof = d.cdof.data() + 6 * i;
      const double* f = cfrc + 6 * m.dof_bodyid[i];
      double dot = 0;
      for (int c = 0; c < 6; ++c) dot += cdof[c] * f[c];
      result[i] = dot;
    }
  });

  // 5. MuJoCo 3.x tendon armature (tendon.h): its inertia times qacc (the RNE above sees only
  //    the bodies) and its velocity-product term, from the velocity-product accelerations
  //    of the points (from cdof_dot and qvel)
  if (!m.tendon_armature.empty()) {
    if (with_acc) AddTendonArmatureTimes(m, d, d.qacc.data(), result);
    AddTendonArmatureBias(m, d, result);
  }
}

}  // namespace gauss
