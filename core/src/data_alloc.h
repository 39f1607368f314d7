// Sizing and resetting Data for a Model (used by Engine::MakeData and Engine::Reset).
#pragma once

#include <cstdint>

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// Sizes every array of `d` for `m` (values zero) and reserves the scratch arena: the kernel's
// needs plus `plugin_scratch` doubles.
void AllocateData(const Model& m, Data& d, std::size_t plugin_scratch = 0);

// A matrices id (Data::matrices_id) no Data of this process had before: every writer of qM or
// of the constraint rows draws one, so a solver's memory never matches rows it was not built
// from, whichever Data they were copied between.
std::uint64_t NewMatricesId();

// State back to the model's reference: qpos0, zero velocity/activation/inputs/warmstart, mocap
// bodies at their model pose, equality constraints at their initial activity, time 0, every
// derived quantity and warning counter zero.
void ResetData(const Model& m, Data& d);

// A size of `d` that does not fit model m and an engine step needing `arena_doubles` of scratch:
// the array's name, its size and the size needed (array == nullptr: d fits).
struct DataMisfit {
  const char* array = nullptr;
  std::size_t size = 0;
  std::size_t needed = 0;
};
// Reads the sizes of d's arrays. One array per model dimension must have exactly the size
// AllocateData gives it (so the Jacobian's tells dense from sparse), solver_trace at least
// opt.iterations entries and the arena at least arena_doubles: a handful of integer compares,
// cheap enough for every step.
DataMisfit FindDataMisfit(const Model& m, const Data& d, std::size_t arena_doubles);

// The kernel's stages' declared scratch (gauss/arena.h), stage by stage, and its peak: the
// number of doubles they take from the arena at most for model m.
ArenaPlan KernelScratchPlan(const Model& m);
std::size_t ScratchSize(const Model& m);

}  // namespace gauss
