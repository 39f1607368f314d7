// Model constants that need the dynamics at the reference configuration (qpos0): the inverse
// weights used to scale constraint regularization and the mean inertia used by solvers.
#pragma once

#include "gauss/model.h"

namespace gauss {

// Model (qpos0, bodies, dofs, tendons) => (body_invweight0, dof_invweight0, tendon_length0,
// tendon_invweight0, stat_meaninertia, stat_meanmass). Called by the MJCF compiler as its last
// step. With `sliding_bodies_by_mass` (MuJoCo 3.x files, docs/mjcf.md "3.x defaults"), a body
// that only slides along its own axes (SlidesAlongOwnAxes) weighs 1 / mass in translation, 0 in
// rotation, and each of its dofs 1 / mass, as MuJoCo 3.12 computes them; otherwise every body
// and dof takes MuJoCo 2.2.2's means of the inverse inertia.
void SetConstants(Model& m, bool sliding_bodies_by_mass = false);

}  // namespace gauss
