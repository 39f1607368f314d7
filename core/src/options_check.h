// One validation of the simulation options, whatever their source (MJCF <option>, a YAML
// configuration, --set): the MJCF parser and ApplyConfig both call CheckOptions, so a value
// refused in one place is refused in all. Limits are documented in docs/config.md.
#pragma once

#include <string>

#include "gauss/options.h"

namespace gauss {

// Documented maxima of the iteration counts (a solver trace is allocated per iteration).
inline constexpr int kMaxSolverIterations = 100000;
inline constexpr int kMaxCcdIterations = 100000;
// Documented maxima of the MJCF <size> buffers (allocated per Data).
inline constexpr int kMaxConstraintRows = 1000000;  // njmax
inline constexpr int kMaxContacts = 1000000;        // nconmax
inline constexpr int kMaxKeyframes = 100000;        // nkey

struct OptionProblem {
  const char* field = nullptr;  // MJCF attribute / config key; null when the options are fine
  std::string message;
};

// (options) => the first value out of its range: timestep finite and > 0, tolerances finite and
// >= 0, impratio finite and > 0, fluid density and viscosity finite and >= 0, iteration counts in
// [0, documented maximum].
OptionProblem CheckOptions(const Options& o);

}  // namespace gauss
