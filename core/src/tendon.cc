// Tendons (spec stage 5): lengths and moment arms. Fixed tendons are linear combinations of
// scalar joint positions, L = sum_k coef_k q_k, so their Jacobian row holds coef_k at the
// joints' dofs. Spatial tendons (paths through sites with wrapping) arrive with the actuation
// issue; the engine refuses them until then.
#include "pipeline.h"

#include <algorithm>

namespace gauss {

// qpos => (ten_length, ten_J)
void Tendons(const Model& m, Data& d) {
  if (m.ntendon == 0) return;
  std::fill(d.ten_J.begin(), d.ten_J.end(), 0.0);
  for (int t = 0; t < m.ntendon; ++t) {
    double length = 0;
    double* jac = d.ten_J.data() + t * m.nv;
    for (int w = m.tendon_adr[t]; w < m.tendon_adr[t] + m.tendon_num[t]; ++w) {
      if (m.wrap_type[w] != WrapType::kJoint) continue;  // spatial: refused at engine creation
      const int j = m.wrap_objid[w];
      const double coef = m.wrap_prm[w];
      length += coef * d.qpos[m.jnt_qposadr[j]];
      jac[m.jnt_dofadr[j]] += coef;
    }
    d.ten_length[t] = length;
  }
}

// (ten_J, qvel) => ten_velocity
void TendonVelocity(const Model& m, Data& d) {
  for (int t = 0; t < m.ntendon; ++t) {
    const double* jac = d.ten_J.data() + t * m.nv;
    double v = 0;
    for (int i = 0; i < m.nv; ++i) v += jac[i] * d.qvel[i];
    d.ten_velocity[t] = v;
  }
}

}  // namespace gauss
