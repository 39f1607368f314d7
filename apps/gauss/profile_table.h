// The stage-timer table printed by `gauss bench --profile` and `gauss run --profile`.
#pragma once

#include <string>

#include "gauss/data.h"
#include "gauss/engine.h"

namespace gauss::cli {

// (d.profile after some steps) => a table of every stage timer and every plugin in use: calls
// per step, ns per step and percentage of the step, nested stages indented under their parent.
// Per step means divided by the steps timed (the forward evaluations when no step was timed).
std::string ProfileTable(const Engine& engine, const Data& d);

}  // namespace gauss::cli
