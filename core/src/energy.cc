// Potential and kinetic energy (spec stages 12 and 16, when the energy flag is enabled).
#include "gauss/math.h"
#include "gauss/sparse_inertia.h"
#include "pipeline.h"

namespace gauss {

using namespace math;

// (xipos, qpos, ten_length) => energy[0]: gravitational potential plus spring energy (3.x
// polynomial springs: SpringEnergy)
void PotentialEnergy(const Model& m, Data& d) {
  double energy = 0;
  if (!m.opt.Disabled(kDisableGravity)) {
    for (int b = 1; b < m.nbody; ++b) {
      energy -= m.body_mass[b] * Dot3(m.opt.gravity.data(), d.xipos.data() + 3 * b);
    }
  }
  if (!m.opt.SpringsDisabled()) {
    for (int j = 0; j < m.njnt; ++j) {
      const double k = m.jnt_stiffness[j];
      if (k == 0 && !SpringPoly(m.jnt_stiffnesspoly, j)) continue;
      const int q = m.jnt_qposadr[j];
      double dif[3], quat[4];
      switch (m.jnt_type[j]) {
        case JointType::kFree:
          Sub3(dif, d.qpos.data() + q, m.qpos_spring.data() + q);
          energy += 0.5 * k * Dot3(dif, dif);
          Copy4(quat, d.qpos.data() + q + 3);
          NormalizeQuat(quat);
          SubQuat(dif, quat, m.qpos_spring.data() + q + 3);
          energy += 0.5 * k * Dot3(dif, dif);
          break;
        case JointType::kBall:
          Copy4(quat, d.qpos.data() + q);
          NormalizeQuat(quat);
          SubQuat(dif, quat, m.qpos_spring.data() + q);
          energy += 0.5 * k * Dot3(dif, dif);
          break;
        case JointType::kSlide:
        case JointType::kHinge: {
          const double x = d.qpos[q] - m.qpos_spring[q];
          energy += SpringEnergy(k, SpringPoly(m.jnt_stiffnesspoly, j), x);
          break;
        }
      }
    }
    const bool dead_bands =
        m.tendon_lengthspring_upper.size() == static_cast<std::size_t>(m.ntendon);
    for (int t = 0; t < m.ntendon; ++t) {
      // the stretch beyond the spring's dead band [lower, upper] (passive.cc)
      const double length = d.ten_length[t], lower = m.tendon_lengthspring[t];
      const double upper = dead_bands ? m.tendon_lengthspring_upper[t] : lower;
      const double x = length > upper ? length - upper : length < lower ? length - lower : 0;
      energy += SpringEnergy(m.tendon_stiffness[t], SpringPoly(m.tendon_stiffnesspoly, t), x);
    }
  }
  d.energy[0] = energy;
}

// (qvel, qM) => energy[1] = v' M v / 2
void KineticEnergy(const Model& m, Data& d) {
  ArenaScope scope(d.arena);
  double* mv = d.arena.Doubles(m.nv);
  MulTreeSparse(m, d.qM.data(), d.qvel.data(), mv);
  double energy = 0;
  for (int i = 0; i < m.nv; ++i) energy += d.qvel[i] * mv[i];
  d.energy[1] = 0.5 * energy;
}

}  // namespace gauss
