// d qacc_smooth / d ctrl (gauss/control_derivative.h).
#include "gauss/control_derivative.h"

#include <algorithm>

#include "gauss/arena.h"
#include "gauss/sparse_inertia.h"

namespace gauss {
namespace {

// Strictly inside [lo, hi]: a clamp there has zero derivative on one side at least.
bool Inside(double x, const double* range) { return x > range[0] && x < range[1]; }

// (actuator_moment) => does actuator a move a hinge or slide joint with a 3.x actuatorfrcrange
// limit? That clamp acts on the sum of all actuators' forces at the joint.
bool MovesForceLimitedJoint(const Model& m, const Data& d, int a) {
  if (m.jnt_actfrclimited.empty()) return false;
  const double* moment = d.actuator_moment.data() + a * m.nv;
  const int* span = d.actuator_moment_span.data() + 2 * a;
  for (int i = span[0]; i < span[1]; ++i) {
    const int j = m.dof_jntid[i];
    if (moment[i] != 0 && m.jnt_actfrclimited[j] &&
        (m.jnt_type[j] == JointType::kHinge || m.jnt_type[j] == JointType::kSlide)) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool ControlAccelerationDerivative(const Model& m, Data& d, double* out) {
  const int nv = m.nv, nu = m.nu;
  std::fill(out, out + nv * nu, 0.0);
  if (m.opt.Disabled(kDisableActuation)) return true;
  ArenaScope scope(d.arena);
  double* column = d.arena.Doubles(nv);
  for (int a = 0; a < nu; ++a) {
    // 3.x: with actearly the force reads the next activation, which depends on ctrl; a
    // tendon's actuatorfrcrange scales the forces of all its actuators together
    if (m.actuator_actearly[a] && m.actuator_dyntype[a] != DynType::kNone) return false;
    if (m.actuator_trntype[a] == TrnType::kTendon && !m.tendon_actfrclimited.empty() &&
        m.tendon_actfrclimited[m.actuator_trnid[2 * a]]) {
      return false;
    }
    if (m.actuator_dyntype[a] != DynType::kNone) continue;  // force reads act
    if (ActuatorDisabled(m, a)) continue;                    // 3.x actuatorgroupdisable
    if (MovesForceLimitedJoint(m, d, a)) return false;
    const double* prm = m.actuator_gainprm.data() + a * kNGain;
    double gain = 0;
    switch (m.actuator_gaintype[a]) {
      case GainType::kFixed:
        gain = prm[0];
        break;
      case GainType::kAffine:
        gain = prm[0] + prm[1] * d.actuator_length[a] + prm[2] * d.actuator_velocity[a];
        break;
      default:
        return false;
    }
    if (m.actuator_ctrllimited[a] && !Inside(d.ctrl[a], &m.actuator_ctrlrange[2 * a])) continue;
    if (m.actuator_forcelimited[a] &&
        !Inside(d.actuator_force[a], &m.actuator_forcerange[2 * a])) {
      continue;
    }
    // qfrc_actuator = moment' force, so d qfrc / d ctrl_a = gain * (row a of moment)'
    const double* moment = d.actuator_moment.data() + a * nv;
    for (int i = 0; i < nv; ++i) column[i] = gain * moment[i];
    SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), column);
    for (int i = 0; i < nv; ++i) out[i * nu + a] = column[i];
  }
  return true;
}

}  // namespace gauss
