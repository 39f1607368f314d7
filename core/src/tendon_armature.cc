// MuJoCo 3.x tendon armature: an inertia `a` attached to the tendon's length l(q), i.e. the
// kinetic energy a (J qvel)^2 / 2 with J = dl/dq the tendon's row of ten_J. Its Lagrangian
// terms are the inertia a J' J, added to qM, and the bias a J' (dJ/dt qvel), added to
// qfrc_bias (the quadratic velocity term; for a fixed tendon J is constant and it vanishes).
//
// As MuJoCo 3.12.1 does (measured: two hinges of different trees coupled by a fixed tendon),
// only the entries of a J' J that the tree-sparse qM stores are added: (i, j) with j = i or j
// an ancestor dof of i. Couplings between dofs of different branches are dropped, so the
// inertia is exact for tendons whose dofs lie on one chain of the tree.
//
// dJ/dt qvel of a spatial tendon: for each straight segment p0 -> p1 (bodies differ), with
// u = (p1 - p0) / L, relative velocity dv and relative velocity-product acceleration da of the
// two points, d/dt (u' dv) at qacc = 0 is |dv - u (u' dv)|^2 / L + u' da, divided by the
// branch's pulley divisor. The compiler refuses armature on tendons that wrap around geoms.
#include <algorithm>

#include "gauss/math.h"
#include "jacobian.h"
#include "sleep.h"
#include "tendon.h"

namespace gauss {

using namespace math;

namespace {

// (site_xpos, cvel, cdof_dot, qvel) => dJ/dt qvel of spatial tendon t (site and pulley paths)
double SpatialTendonJdotQvel(const Model& m, const Data& d, int t) {
  const int adr = m.tendon_adr[t], num = m.tendon_num[t];
  double sum = 0, divisor = 1;
  for (int k = 0; k + 1 < num; ++k) {
    const WrapType type0 = m.wrap_type[adr + k], type1 = m.wrap_type[adr + k + 1];
    if (type0 == WrapType::kPulley || type1 == WrapType::kPulley) {
      if (type0 == WrapType::kPulley) divisor = m.wrap_prm[adr + k];
      continue;
    }
    const int s0 = m.wrap_objid[adr + k], s1 = m.wrap_objid[adr + k + 1];
    const int b0 = m.site_bodyid[s0], b1 = m.site_bodyid[s1];
    if (b0 == b1) continue;  // a segment within one body keeps its length
    const double* p0 = d.site_xpos.data() + 3 * s0;
    const double* p1 = d.site_xpos.data() + 3 * s1;
    double v0[3], a0[3], v1[3], a1[3], u[3], dv[3], da[3];
    PointMotion(m, d, b0, p0, v0, a0);
    PointMotion(m, d, b1, p1, v1, a1);
    Sub3(u, p1, p0);
    const double length = Norm3(u);
    if (length < kMinVal) continue;
    Scale3(u, u, 1 / length);
    Sub3(dv, v1, v0);
    Sub3(da, a1, a0);
    const double along = Dot3(u, dv);
    sum += ((Dot3(dv, dv) - along * along) / length + Dot3(u, da)) / divisor;
  }
  return sum;
}

}  // namespace

void AddTendonArmatureInertia(const Model& m, Data& d) {
  const bool skip = SkipFrozen(m, d);
  for (int t = 0; t < static_cast<int>(m.tendon_armature.size()); ++t) {
    const double armature = m.tendon_armature[t];
    if (armature == 0) continue;
    const double* jac = d.ten_J.data() + t * m.nv;
    for (int i = 0; i < m.nv; ++i) {
      if (jac[i] == 0 || (skip && BodyFrozen(m, d, m.dof_bodyid[i]))) continue;
      int adr = m.dof_Madr[i];
      for (int j = i; j >= 0; j = m.dof_parentid[j]) d.qM[adr++] += armature * jac[i] * jac[j];
    }
  }
}

void AddTendonArmatureTimes(const Model& m, const Data& d, const double* qacc, double* y) {
  for (int t = 0; t < static_cast<int>(m.tendon_armature.size()); ++t) {
    const double armature = m.tendon_armature[t];
    if (armature == 0) continue;
    const double* jac = d.ten_J.data() + t * m.nv;
    for (int i = 0; i < m.nv; ++i) {
      if (jac[i] == 0) continue;
      y[i] += armature * jac[i] * jac[i] * qacc[i];
      for (int j = m.dof_parentid[i]; j >= 0; j = m.dof_parentid[j]) {
        const double entry = armature * jac[i] * jac[j];
        y[i] += entry * qacc[j];
        y[j] += entry * qacc[i];
      }
    }
  }
}

void AddTendonArmatureBias(const Model& m, const Data& d, double* result) {
  for (int t = 0; t < static_cast<int>(m.tendon_armature.size()); ++t) {
    const double armature = m.tendon_armature[t];
    if (armature == 0 || m.wrap_type[m.tendon_adr[t]] == WrapType::kJoint) continue;
    const double scale = armature * SpatialTendonJdotQvel(m, d, t);
    if (scale == 0) continue;
    const double* jac = d.ten_J.data() + t * m.nv;
    for (int i = 0; i < m.nv; ++i) result[i] += scale * jac[i];
  }
}

}  // namespace gauss
