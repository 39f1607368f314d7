// Helpers of the actuation stages (pipeline.h: Transmission, ActuatorVelocity, Actuation):
// the actuators each plugin owns, control clamping, and the mapping of actuator forces to joint
// space. The activation dynamics and force laws themselves come from ActuatorDynamics plugins.
#pragma once

#include <vector>

#include "gauss/actuator.h"
#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// The actuators handled by one ActuatorDynamics plugin.
struct ActuatorGroup {
  const ActuatorDynamics* plugin = nullptr;
  std::vector<int> ids;
  int profile_slot = -1;  // the plugin's timer in Data::profile.plugin (-1: none)
};

// ctrl => out (nu): controls clamped to ctrlrange where limited (unless clampctrl is disabled).
void ClampControls(const Model& m, const Data& d, double* out);
// (ctrl) => true, every ctrl zeroed and Warning::kBadCtrl counted (index of the first bad one)
// when a control is NaN, infinite or beyond kMaxVal, as MuJoCo does; the simulation goes on.
bool ZeroBadControls(const Model& m, Data& d);

// actuator_force (raw, from the plugins) => (actuator_force scaled by the tendons'
// actuatorfrcrange, then clamped to forcerange; qfrc_actuator = moment' force, clamped on hinge
// and slide joints with an actuatorfrcrange)
void ActuatorToJointForces(const Model& m, Data& d);

}  // namespace gauss
