// Helpers of the passive-force stage shared with the analytic derivatives (derivative.cc).
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// (xipos, ximat, cvel) => derivatives of body b's fluid force and torque with respect to its
// velocity relative to the medium, per axis of its inertial frame (the inertia-box model is
// diagonal there); false when the body feels no fluid force.
bool FluidDamping(const Model& m, const Data& d, int b, double* dforce, double* dtorque);

}  // namespace gauss
