// Value parsing shared by the YAML reader (config.cc) and the --set / output side
// (config_apply.cc): strict numbers, booleans, enum names, MJCF flag names and plugin names.
//
// Every parser returns false instead of throwing, so that each caller can build an error that
// names its own location (file:line for YAML, the KEY=VALUE text for --set).
#pragma once

#include <string>
#include <vector>

#include "gauss/options.h"
#include "gauss/types.h"

namespace gauss::config_detail {

// Whole-string parse of a finite number; rejects trailing text, "nan", "inf" and "".
bool ParseDouble(const std::string& text, double* out);
// Whole-string parse of a base-10 integer that fits in an int.
bool ParseInt(const std::string& text, int* out);
// true/false and the MJCF words enable/disable.
bool ParseBool(const std::string& text, bool* out);
inline constexpr const char* kBoolWords = "true, false, enable, disable";

bool ParseCone(const std::string& text, Cone* out);
bool ParseJacobian(const std::string& text, JacobianType* out);
const char* ConeName(Cone cone);
const char* JacobianName(JacobianType jacobian);
inline constexpr const char* kConeWords = "pyramidal, elliptic";
inline constexpr const char* kJacobianWords = "dense, sparse, auto";

// Plugin names are C identifiers in lowercase (see gauss/plugin.h).
bool IsPluginName(const std::string& text);
// A sentence telling what a plugin name must look like, with a hint for MJCF spellings such as
// "RK4" or "Newton" whose lowercase form is valid.
std::string PluginNameProblem(const std::string& text);

// All MJCF flag names (disable flags first, then enable flags), in the order of gauss/types.h.
std::vector<std::string> FlagNames();
bool IsFlagName(const std::string& name);
// Writes "feature enabled" semantics into the options: for a disable flag, enabled clears the
// bit; for an enable flag, enabled sets it. `name` must satisfy IsFlagName.
void SetFlag(Options& options, const std::string& name, bool enabled);
bool GetFlag(const Options& options, const std::string& name);

// Shortest decimal text that parses back to exactly `value` (at most 17 significant digits).
std::string FormatDouble(double value);

std::string Join(const std::vector<std::string>& items, const std::string& separator);
// Splits on commas, trimming blanks around each item; "" gives an empty list.
std::vector<std::string> SplitList(const std::string& text);
std::string Trim(const std::string& text);

}  // namespace gauss::config_detail
