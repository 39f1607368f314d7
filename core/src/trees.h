// Kinematic trees: the unit that constraint islands group and that sleeps (spec 002, sleeping
// islands). A tree is a child of the world together with all its descendants; trees without
// dofs are static and belong to no island.
#pragma once

#include "gauss/model.h"

namespace gauss {

// (body_parentid, body_rootid, body_dofnum, body_dofadr, dof_bodyid, geoms, actuators,
// tendons, body_sleep, inertial frames, joints) => (ntree, body_treeid, dof_treeid,
// tree_bodyadr, tree_bodynum, tree_dofadr, tree_dofnum, tree_sleep_policy, dof_length, and
// body_simple, dof_simplenum: simple_bodies.h). Called by the MJCF compiler, and by the Engine
// for models built another way (sizes not matching). Throws gauss::Error when a tree's bodies
// or dofs are not contiguous (they always are for a depth-first body order).
void CompileTrees(Model& m);

}  // namespace gauss
