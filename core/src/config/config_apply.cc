// The other half of gauss::Config: `--set KEY=VALUE` settings, writing a Config into the
// model's Options, and the YAML text of a resolved configuration (written next to outputs).
//
// The precedence --set > YAML > MJCF <option> > defaults needs no bookkeeping here: the caller
// reads the YAML file, applies each --set in order (later ones overwrite), and the Engine calls
// ApplyConfig on a copy of the model's options, which hold the MJCF values or the defaults.
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "config_values.h"
#include "options_check.h"
#include "gauss/config.h"
#include "gauss/error.h"

namespace gauss {
namespace {

using namespace config_detail;

const char* kParamsContextIntegrator = "integrator.params";
const char* kParamsContextSolver = "solver.params";

[[noreturn]] void BadValue(const std::string& key, const std::string& value,
                           const std::string& expected) {
  throw Error("--set " + key + "=" + value + ": expected " + expected + ", got '" + value + "'");
}

std::string SetPluginName(const std::string& key, const std::string& value) {
  if (!IsPluginName(value)) throw Error("--set " + key + "=" + value + ": " + PluginNameProblem(value));
  return value;
}

double SetNumber(const std::string& key, const std::string& value) {
  double v = 0;
  if (!ParseDouble(value, &v)) BadValue(key, value, "a number");
  return v;
}

// "0,0,-9.81", "0 0 -9.81" or "[0, 0, -9.81]" => three numbers.
std::array<double, 3> SetVector3(const std::string& key, const std::string& value) {
  std::string text = Trim(value);
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
  }
  std::vector<std::string> parts;
  if (text.find(',') != std::string::npos) {
    parts = SplitList(text);
  } else {
    std::istringstream words(text);
    for (std::string w; words >> w;) parts.push_back(w);
  }
  std::array<double, 3> out{};
  if (parts.size() != 3) BadValue(key, value, "3 numbers separated by commas, e.g. 0,0,-9.81");
  for (int i = 0; i < 3; ++i) {
    if (!ParseDouble(parts[i], &out[i])) {
      BadValue(key, value, "3 numbers separated by commas, e.g. 0,0,-9.81");
    }
  }
  return out;
}

// Text of a YAML scalar holding exactly `text`: plain when that cannot be misread (names,
// numbers, paths), double-quoted otherwise.
std::string Quote(const std::string& text) {
  bool plain = !text.empty() && text != "null" && text != "Null" && text != "NULL";
  for (char c : text) {
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
                      c == '+' || c == '-' || c == '/');
  }
  if (plain) return text;
  std::string out = "\"";
  for (char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof(buffer), "\\x%02x", u);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Params => "{}" or an indented block of `key: "value"` lines.
std::string ParamsYaml(const Params& params, const std::string& indent) {
  if (params.empty()) return " {}\n";
  std::string out = "\n";
  for (const auto& [key, value] : params.values()) {
    out += indent + Quote(key) + ": " + Quote(value) + "\n";
  }
  return out;
}

std::string ListYaml(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const auto& item : items) quoted.push_back(Quote(item));
  return "[" + Join(quoted, ", ") + "]";
}

}  // namespace

std::vector<std::string> ConfigKeys() {
  return {"integrator",      "integrator.name",   "integrator.params.<key>",
          "solver",          "solver.name",       "solver.iterations",
          "solver.tolerance", "solver.params.<key>", "timestep",
          "cone",            "jacobian",          "gravity",
          "flags.<flag>",    "colliders",         "plugins.paths",
          "sleep_tolerance"};
}

void ApplySetting(Config& config, const std::string& key_equals_value) {
  const size_t eq = key_equals_value.find('=');
  if (eq == std::string::npos) {
    throw Error("--set '" + key_equals_value +
                "': expected KEY=VALUE (e.g. solver.iterations=50); valid keys: " +
                Join(ConfigKeys(), ", "));
  }
  const std::string key = Trim(key_equals_value.substr(0, eq));
  const std::string value = Trim(key_equals_value.substr(eq + 1));
  const std::string integrator_params = "integrator.params.";
  const std::string solver_params = "solver.params.";
  const std::string flags = "flags.";

  if (key == "integrator" || key == "integrator.name") {
    config.integrator = SetPluginName(key, value);
  } else if (key == "solver" || key == "solver.name") {
    config.solver = SetPluginName(key, value);
  } else if (key == "solver.iterations") {
    int n = 0;
    if (!ParseInt(value, &n) || n < 0) BadValue(key, value, "an integer >= 0");
    config.iterations = n;
  } else if (key == "solver.tolerance") {
    const double tol = SetNumber(key, value);
    if (tol < 0) BadValue(key, value, "a number >= 0");
    config.tolerance = tol;
  } else if (key == "timestep") {
    const double h = SetNumber(key, value);
    if (!(h > 0)) BadValue(key, value, "a number > 0");
    config.timestep = h;
  } else if (key == "sleep_tolerance") {
    const double tol = SetNumber(key, value);
    if (!(tol >= 0)) BadValue(key, value, "a number >= 0");
    config.sleep_tolerance = tol;
  } else if (key == "cone") {
    Cone cone{};
    if (!ParseCone(value, &cone)) BadValue(key, value, std::string("one of: ") + kConeWords);
    config.cone = cone;
  } else if (key == "jacobian") {
    JacobianType jacobian{};
    if (!ParseJacobian(value, &jacobian)) {
      BadValue(key, value, std::string("one of: ") + kJacobianWords);
    }
    config.jacobian = jacobian;
  } else if (key == "gravity") {
    config.gravity = SetVector3(key, value);
  } else if (key.rfind(flags, 0) == 0 && key.size() > flags.size()) {
    const std::string name = key.substr(flags.size());
    if (!IsFlagName(name)) {
      throw Error("--set " + key_equals_value + ": unknown flag '" + name +
                  "'; valid flags: " + Join(FlagNames(), ", "));
    }
    bool enabled = false;
    if (!ParseBool(value, &enabled)) BadValue(key, value, std::string("one of: ") + kBoolWords);
    config.flags[name] = enabled;
  } else if (key.rfind(integrator_params, 0) == 0 && key.size() > integrator_params.size()) {
    config.integrator_params.Set(key.substr(integrator_params.size()), value);
    config.integrator_params.set_context(kParamsContextIntegrator);
  } else if (key.rfind(solver_params, 0) == 0 && key.size() > solver_params.size()) {
    config.solver_params.Set(key.substr(solver_params.size()), value);
    config.solver_params.set_context(kParamsContextSolver);
  } else if (key == "colliders") {
    std::vector<std::string> names = SplitList(value);
    for (const auto& name : names) SetPluginName(key, name);
    config.colliders = names;
  } else if (key == "plugins.paths") {
    // Relative directories are taken from the current directory, and stored absolute so that
    // the resolved configuration written next to an output still finds them.
    std::vector<std::string> dirs = SplitList(value);
    for (auto& dir : dirs) {
      if (dir.empty()) BadValue(key, value, "directories separated by commas");
      dir = std::filesystem::absolute(dir).lexically_normal().string();
    }
    config.plugin_paths = dirs;
  } else {
    throw Error("--set " + key_equals_value + ": unknown key '" + key +
                "'; valid keys: " + Join(ConfigKeys(), ", "));
  }
}

// (config overrides, options) => options with every field the config sets overwritten.
void ApplyConfig(const Config& config, Options& options) {
  if (config.integrator) options.integrator = *config.integrator;
  if (config.solver) options.solver = *config.solver;
  if (config.timestep) {
    if (!(*config.timestep > 0)) throw Error("configuration: timestep must be > 0");
    options.timestep = *config.timestep;
  }
  if (config.sleep_tolerance) {
    if (!(*config.sleep_tolerance >= 0)) throw Error("configuration: sleep_tolerance must be >= 0");
    options.sleep_tolerance = *config.sleep_tolerance;
  }
  if (config.iterations) {
    if (*config.iterations < 0) throw Error("configuration: solver.iterations must be >= 0");
    options.iterations = *config.iterations;
  }
  if (config.tolerance) options.tolerance = *config.tolerance;
  const OptionProblem problem = CheckOptions(options);  // the same checks as MJCF <option>
  if (problem.field) throw Error("configuration: " + problem.message);
  if (config.cone) options.cone = *config.cone;
  if (config.jacobian) options.jacobian = *config.jacobian;
  if (config.gravity) options.gravity = *config.gravity;
  for (const auto& [name, enabled] : config.flags) {
    if (!IsFlagName(name)) {
      throw Error("configuration: unknown flag '" + name + "'; valid flags: " +
                  Join(FlagNames(), ", "));
    }
    SetFlag(options, name, enabled);
  }
}

// (config plugin choices, resolved options) => YAML text accepted by ParseConfig, which sets
// every key to the value the run used.
std::string ResolvedConfigYaml(const Config& config, const Options& resolved) {
  std::string out;
  out += "# Gauss resolved configuration: every key with the value the run used.\n";
  if (!config.source.empty()) out += "# Configuration file: " + config.source + "\n";
  out += "# Reproduce the run with `--config` on this file.\n";
  out += "integrator:\n";
  out += "  name: " + resolved.integrator + "\n";
  out += "  params:" + ParamsYaml(config.integrator_params, "    ");
  out += "solver:\n";
  out += "  name: " + resolved.solver + "\n";
  out += "  iterations: " + std::to_string(resolved.iterations) + "\n";
  out += "  tolerance: " + FormatDouble(resolved.tolerance) + "\n";
  out += "  params:" + ParamsYaml(config.solver_params, "    ");
  out += "timestep: " + FormatDouble(resolved.timestep) + "\n";
  if (resolved.Enabled(kEnableSleep)) {
    out += "sleep_tolerance: " + FormatDouble(resolved.sleep_tolerance) + "\n";
  }
  out += std::string("cone: ") + ConeName(resolved.cone) + "\n";
  out += std::string("jacobian: ") + JacobianName(resolved.jacobian) + "\n";
  out += "gravity: [" + FormatDouble(resolved.gravity[0]) + ", " +
         FormatDouble(resolved.gravity[1]) + ", " + FormatDouble(resolved.gravity[2]) + "]\n";
  out += "flags:\n";
  for (const auto& name : FlagNames()) {
    out += "  " + name + ": " + (GetFlag(resolved, name) ? "true" : "false") + "\n";
  }
  out += "colliders: " + ListYaml(config.colliders) +
         (config.colliders.empty() ? "  # empty: the default colliders\n" : "\n");
  out += "plugins:\n";
  out += "  paths: " + ListYaml(config.plugin_paths) + "\n";
  return out;
}

}  // namespace gauss
