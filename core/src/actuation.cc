// Transmissions and the joint-space mapping of actuator forces.
#include "actuation.h"

#include <algorithm>

namespace gauss {

// (qpos) => (actuator_length, actuator_moment)
void Transmission(const Model& m, Data& d) {
  if (m.nu == 0) return;
  std::fill(d.actuator_moment.begin(), d.actuator_moment.end(), 0.0);
  for (int a = 0; a < m.nu; ++a) {
    const double gear = m.actuator_gear[6 * a];
    double* moment = d.actuator_moment.data() + a * m.nv;
    switch (m.actuator_trntype[a]) {
      case TrnType::kJoint:
      case TrnType::kJointInParent: {
        // scalar joints only (the engine refuses ball/free joint transmissions at creation):
        // length = gear * q, moment arm = gear on the joint's dof
        const int j = m.actuator_trnid[2 * a];
        d.actuator_length[a] = gear * d.qpos[m.jnt_qposadr[j]];
        moment[m.jnt_dofadr[j]] = gear;
        break;
      }
      default:
        // other transmissions are refused when the engine is created (see engine.cc)
        d.actuator_length[a] = 0;
        break;
    }
  }
}

// (actuator_moment, qvel) => actuator_velocity
void ActuatorVelocity(const Model& m, Data& d) {
  for (int a = 0; a < m.nu; ++a) {
    const double* moment = d.actuator_moment.data() + a * m.nv;
    double v = 0;
    for (int i = 0; i < m.nv; ++i) v += moment[i] * d.qvel[i];
    d.actuator_velocity[a] = v;
  }
}

void ClampControls(const Model& m, const Data& d, double* out) {
  const bool clamp = !m.opt.Disabled(kDisableClampctrl);
  for (int a = 0; a < m.nu; ++a) {
    double u = d.ctrl[a];
    if (clamp && m.actuator_ctrllimited[a]) {
      u = std::clamp(u, m.actuator_ctrlrange[2 * a], m.actuator_ctrlrange[2 * a + 1]);
    }
    out[a] = u;
  }
}

void ActuatorToJointForces(const Model& m, Data& d) {
  std::fill(d.qfrc_actuator.begin(), d.qfrc_actuator.end(), 0.0);
  for (int a = 0; a < m.nu; ++a) {
    double& force = d.actuator_force[a];
    if (m.actuator_forcelimited[a]) {
      force = std::clamp(force, m.actuator_forcerange[2 * a], m.actuator_forcerange[2 * a + 1]);
    }
    if (force == 0) continue;
    const double* moment = d.actuator_moment.data() + a * m.nv;
    for (int i = 0; i < m.nv; ++i) d.qfrc_actuator[i] += moment[i] * force;
  }
}

}  // namespace gauss
