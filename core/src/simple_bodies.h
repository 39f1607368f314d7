// Simple bodies (MuJoCo's body_simple and dof_simplenum): bodies whose rows of the joint-space
// inertia M are diagonal by construction, so that the composite inertia, the factorization,
// the solves and the product with M can skip their off-diagonal entries.
#pragma once

#include "gauss/model.h"

namespace gauss {

// (body tree, inertial frames, joints) => (body_simple, dof_simplenum), MuJoCo's rule (2.2.2
// and 3.12 alike): body b is simple when
//   - its inertial frame is its body frame (body_ipos exactly 0, body_iquat exactly 1),
//   - its parent is the world or a jointless child of the world (its own frame then moves only
//     through its own joints, and its com is its tree's com),
//   - no body has it as parent,
//   - every joint sits at the body origin (jnt_pos 0), hinge and slide axes are coordinate
//     axes of the body frame (one component above 1e-14), and no joint follows a rotational
//     (hinge or ball) one.
// Its value is 2 when it moves through slide joints only, 1 otherwise, 0 when not simple; the
// world body counts as simple (1), as in MuJoCo.
// dof_simplenum[i] counts the dofs from i on that are in simple bodies (0 when i's is not).
// Then the body's block of M is diagonal: each dof's motion is a pure translation along, or
// a rotation about, a principal axis through the com, which the body's inertia does not couple
// to another. (Two slides along the same axis would be coupled; MuJoCo marks them simple too.)
void MarkSimpleBodies(Model& m);

// Whether the model's dofs carry simple flags (models built without CompileTrees do not).
inline bool HasSimpleFlags(const Model& m) {
  return m.dof_simplenum.size() == static_cast<std::size_t>(m.nv) && m.nv > 0;
}

}  // namespace gauss
