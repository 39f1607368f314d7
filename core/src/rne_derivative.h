// The velocity derivative of the RNE bias force, -d qfrc_bias / d qvel, in M's tree-sparse
// layout (gauss/derivative.h), computed body by body in O(nM) work.
#pragma once

#include "gauss/arena.h"
#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// The arena scratch AddRneDerivative takes (and releases) for model m.
ArenaPlan RneDerivativePlan(const Model& m);

// (cdof, cdof_dot, cvel, cinert, qvel) => lower, upper (nM each) += -d qfrc_bias / d qvel.
// The derivative is nonzero only between a dof and its ancestors, so it is exactly M's pattern.
// Temporaries from d.arena.
void AddRneDerivative(const Model& m, Data& d, double* lower, double* upper);

}  // namespace gauss
