// MuJoCo 3.x servo damping from a damping ratio (position and intvelocity `dampratio`).
//
// A servo with stiffness kp acting on a reflected inertia m is critically damped by
// kv = 2 sqrt(kp m); dampratio scales that: kv = dampratio * 2 sqrt(kp m), stored as
// biasprm[2] = -kv. The reflected inertia is taken at qpos0 from the diagonal of the joint-space
// inertia (armature included) through the actuator's moment arms: m = sum_i M_ii / moment_i^2
// over the dofs the actuator moves, as MuJoCo 3.x does (checked against mjref3 by
// tests/reference/mjcf3_test.cc).
#include <cmath>
#include <vector>

#include "actuation.h"
#include "data_alloc.h"
#include "mjcf/compiler.h"
#include "pipeline.h"

namespace gauss::mjcf {

// (spec actuators, model at qpos0) => (actuator_biasprm[2] of the servos with a dampratio)
void ApplyDampRatios(CompileContext* c) {
  Model& m = *c->m;
  bool any = false;
  for (const ActuatorSpec& a : c->spec->actuators) any = any || a.dampratio > 0;
  if (!any || m.nv == 0) return;
  Data d;
  AllocateData(m, d);
  Kinematics(m, d);
  ComPosition(m, d);
  Tendons(m, d);
  CompositeInertia(m, d);
  Transmission(m, d);
  for (int u = 0; u < m.nu; ++u) {
    const double dampratio = c->spec->actuators[u].dampratio;
    const double* gain = &m.actuator_gainprm[u * kNGain];
    const double* bias = &m.actuator_biasprm[u * kNBias];
    // servos only (affine bias with bias[1] = -kp), as MuJoCo: a motor in a class with a
    // dampratio keeps its unused biasprm
    const bool servo = m.actuator_biastype[u] == BiasType::kAffine && gain[0] == -bias[1];
    if (!(dampratio > 0) || !servo) continue;
    const double* moment = d.actuator_moment.data() + u * m.nv;
    double mass = 0;
    for (int i = 0; i < m.nv; ++i) {
      if (moment[i] != 0) mass += d.qM[m.dof_Madr[i]] / (moment[i] * moment[i]);
    }
    const double kp = m.actuator_gainprm[u * kNGain];
    m.actuator_biasprm[u * kNBias + 2] = -dampratio * 2 * std::sqrt(kp * mass);
  }
}

}  // namespace gauss::mjcf
