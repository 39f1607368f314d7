// Analytic derivative of the smooth acceleration with respect to the controls, where it is
// cheap and exact (spec "Actuation model": force = gain * ctrl + bias for actuators without
// activation dynamics):
//   d qacc_smooth / d ctrl = M^-1 moment' diag(d force / d ctrl)
// Checked against the finite differences of TransitionFD (tests/core/control_derivative_test.cc).
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// (qLD factor, actuator_moment/length/velocity/force and ctrl of a forward evaluation) =>
// out (nv x nu, row-major) = d qacc_smooth / d ctrl. Column a is zero when actuator a has
// activation dynamics (its force reads act, not ctrl), when its control is outside its range or
// at a bound (clamped), when its force is clamped to forcerange, and when actuation or (3.x
// actuatorgroupdisable) the actuator is disabled. Returns false (out unspecified) if a
// dynamics-free actuator has a muscle or user gain, whose derivative this function does not
// know, or if an actuator uses MuJoCo 3.x's actearly with activation dynamics, acts on a tendon
// with an actuatorfrcrange limit or moves a hinge or slide joint with one. Temporaries from
// d.arena.
bool ControlAccelerationDerivative(const Model& m, Data& d, double* out);

}  // namespace gauss
