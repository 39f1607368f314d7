// CheckOptions (options_check.h).
#include "options_check.h"

#include <cmath>
#include <cstdio>

namespace gauss {
namespace {

std::string Text(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", v);
  return text;
}

}  // namespace

OptionProblem CheckOptions(const Options& o) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  auto nonnegative = [](double v) { return std::isfinite(v) && v >= 0; };
  if (!positive(o.timestep)) return {"timestep", "timestep must be a finite number > 0, got " + Text(o.timestep)};
  if (!positive(o.impratio)) return {"impratio", "impratio must be a finite number > 0, got " + Text(o.impratio)};
  const struct {
    const char* field;
    double value;
  } nonnegatives[] = {{"tolerance", o.tolerance},
                      {"noslip_tolerance", o.noslip_tolerance},
                      {"mpr_tolerance", o.ccd_tolerance},
                      {"density", o.density},
                      {"viscosity", o.viscosity},
                      {"sleep_tolerance", o.sleep_tolerance}};
  for (const auto& n : nonnegatives) {
    if (!nonnegative(n.value)) {
      return {n.field, std::string(n.field) + " must be a finite number >= 0, got " + Text(n.value)};
    }
  }
  const struct {
    const char* field;
    int value, max;
  } counts[] = {{"iterations", o.iterations, kMaxSolverIterations},
                {"noslip_iterations", o.noslip_iterations, kMaxSolverIterations},
                {"mpr_iterations", o.ccd_iterations, kMaxCcdIterations}};
  for (const auto& c : counts) {
    if (c.value < 0 || c.value > c.max) {
      return {c.field, std::string(c.field) + " must be in [0, " + std::to_string(c.max) +
                           "], got " + std::to_string(c.value)};
    }
  }
  return {};
}

}  // namespace gauss
