// Model constants that need the dynamics at the reference configuration (qpos0): the inverse
// weights used to scale constraint regularization and the mean inertia used by solvers.
#pragma once

#include "gauss/model.h"

namespace gauss {

// Model (qpos0, bodies, dofs, tendons) => (body_invweight0, dof_invweight0, tendon_length0,
// tendon_invweight0, stat_meaninertia, stat_meanmass). Called by the MJCF compiler as its last
// step.
void SetConstants(Model& m);

}  // namespace gauss
