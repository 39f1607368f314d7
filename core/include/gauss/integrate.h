// Building blocks shared by integrator plugins.
#pragma once

#include "gauss/model.h"

namespace gauss {

// qpos <- qpos "+" h * qvel: positions and hinge/slide angles add; ball and free-joint
// quaternions rotate by the angular velocity (expressed in the joint's local frame) and are
// renormalized.
void IntegratePosition(const Model& m, double* qpos, const double* qvel, double h);

}  // namespace gauss
