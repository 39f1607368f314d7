// Sizing and resetting Data for a Model (used by Engine::MakeData and Engine::Reset).
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// Sizes every array of `d` for `m` (values zero) and reserves the scratch arena: the kernel's
// needs plus `plugin_scratch` doubles.
void AllocateData(const Model& m, Data& d, std::size_t plugin_scratch = 0);

// State back to the model's reference: qpos0, zero velocity/activation/inputs/warmstart, mocap
// bodies at their model pose, equality constraints at their initial activity, time 0, every
// derived quantity and warning counter zero.
void ResetData(const Model& m, Data& d);

// The kernel's stages' declared scratch (gauss/arena.h), stage by stage, and its peak: the
// number of doubles they take from the arena at most for model m.
ArenaPlan KernelScratchPlan(const Model& m);
std::size_t ScratchSize(const Model& m);

}  // namespace gauss
