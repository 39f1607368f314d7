// Run configuration: plugin choices and option overrides from YAML and `--set KEY=VALUE`.
//
// Precedence (highest first): --set, YAML, the model's MJCF <option>, built-in defaults. Every
// field left unset keeps the model's value. config/default.yaml documents each key; parsing is
// strict: an unknown key or value is a gauss::Error naming the file, line and the valid choices.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gauss/options.h"
#include "gauss/params.h"

namespace gauss {

struct Config {
  std::string source;  // file the configuration was read from ("" if none)

  // plugin choices (names as listed by `gauss plugins`) and their parameters
  std::optional<std::string> integrator;
  Params integrator_params;
  std::optional<std::string> solver;
  Params solver_params;
  std::vector<std::string> colliders;  // collider plugins in priority order; empty = defaults

  // overrides of MJCF <option>
  std::optional<double> timestep;
  std::optional<double> sleep_tolerance;  // m/s (sleep flag; docs/islands.md)
  std::optional<int> iterations;    // solver.iterations
  std::optional<double> tolerance;  // solver.tolerance
  std::optional<Cone> cone;
  std::optional<JacobianType> jacobian;
  std::optional<std::array<double, 3>> gravity;
  std::map<std::string, bool> flags;  // MJCF flag name -> enabled (e.g. energy: true)

  // extra plugin search directories (plugins.paths)
  std::vector<std::string> plugin_paths;
};

// Reads a YAML configuration file. Throws gauss::Error (file:line, key, valid keys/values).
Config LoadConfigFile(const std::string& path);
// Parses YAML text; `source` names it in error messages.
Config ParseConfig(const std::string& yaml_text, const std::string& source);

// Applies one `KEY=VALUE` setting (the --set syntax). Throws gauss::Error listing valid keys.
void ApplySetting(Config& config, const std::string& key_equals_value);

// Keys accepted by ApplySetting / YAML, for help texts and error messages.
std::vector<std::string> ConfigKeys();

// Writes the overrides of `config` into `options` (the model's options).
void ApplyConfig(const Config& config, Options& options);

// YAML text of the fully resolved configuration (options after ApplyConfig + plugin choices),
// written next to every output so that a run can be reproduced.
std::string ResolvedConfigYaml(const Config& config, const Options& resolved);

}  // namespace gauss
