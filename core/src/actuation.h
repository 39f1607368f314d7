// Actuation stages of the kernel (spec stages 10, 13 and 19): transmissions, actuator
// velocities, control clamping, and the mapping of actuator forces to joint space. The
// activation dynamics and force laws themselves come from ActuatorDynamics plugins.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// (qpos) => (actuator_length, actuator_moment)
void Transmission(const Model& m, Data& d);

// (actuator_moment, qvel) => actuator_velocity
void ActuatorVelocity(const Model& m, Data& d);

// ctrl => out (nu): controls clamped to ctrlrange where limited (unless clampctrl is disabled).
void ClampControls(const Model& m, const Data& d, double* out);
// (ctrl) => true, every ctrl zeroed and Warning::kBadCtrl counted (index of the first bad one)
// when a control is NaN, infinite or beyond kMaxVal, as MuJoCo does; the simulation goes on.
bool ZeroBadControls(const Model& m, Data& d);

// actuator_force (raw, from the plugins) => (actuator_force clamped to forcerange,
// qfrc_actuator = moment' force)
void ActuatorToJointForces(const Model& m, Data& d);

}  // namespace gauss
