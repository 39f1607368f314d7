// Reading run configurations from YAML (yaml-cpp) into gauss::Config.
//
// The reader is strict on purpose: a misspelt key silently ignored would make an experiment
// run with settings the user did not ask for. Every unknown key, duplicate key, wrong type or
// unknown enum value is a gauss::Error naming the file, the 1-based line, the dotted key path and
// what would have been accepted. The schema is documented in config/default.yaml and
// docs/config.md; --set, ApplyConfig and ResolvedConfigYaml live in config_apply.cc.
#include "gauss/config.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "config_values.h"
#include "gauss/input_file.h"
#include "gauss/error.h"

namespace gauss {
namespace {

using namespace config_detail;

// Entry visitor for one YAML map: (key name, key node, value node).
using EntryVisitor =
    std::function<void(const std::string&, const YAML::Node&, const YAML::Node&)>;

// Knows the file being read; turns YAML nodes into typed values or located errors.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void Fail(const YAML::Node& node, const std::string& key,
                         const std::string& message) const {
    throw Error(ErrorLocation{source_, Line(node), key, ""}, message);
  }

  // 1-based line of a node. An empty value such as `timestep:` is marked by yaml-cpp at the
  // next token, often the next line, so it takes the line of the last located node (its key).
  int Line(const YAML::Node& node) const {
    if (node.IsDefined() && !node.IsNull() && !node.Mark().is_null()) return node.Mark().line + 1;
    return last_line_;
  }

  // Visits every entry of a map, rejecting keys outside `valid` and keys given twice (yaml-cpp
  // keeps both, and the later one would be ignored silently).
  void ForEachEntry(const YAML::Node& map, const std::string& path,
                    const std::vector<std::string>& valid, const EntryVisitor& visit) {
    RequireMap(map, path);
    std::set<std::string> seen;
    for (const auto& entry : map) {
      const YAML::Node& key_node = entry.first;
      Remember(key_node);
      const std::string key = key_node.IsScalar() ? key_node.Scalar() : std::string();
      const std::string full = path.empty() ? key : path + "." + key;
      if (!key_node.IsScalar()) Fail(key_node, path, "a key must be a plain name");
      if (!valid.empty() && !Contains(valid, key)) {
        Fail(key_node, full, "unknown key; valid keys" + std::string(path.empty() ? "" : " in '" + path + "'") +
                                 ": " + Join(valid, ", "));
      }
      if (!seen.insert(key).second) Fail(key_node, full, "key given twice");
      visit(key, key_node, entry.second);
    }
  }

  void RequireMap(const YAML::Node& node, const std::string& key) const {
    if (!node.IsMap()) Fail(node, key, "expected a map of keys, got " + Describe(node));
  }

  // The text of a scalar node; `expected` names the wanted type in the error otherwise.
  std::string Scalar(const YAML::Node& node, const std::string& key,
                     const std::string& expected) const {
    if (!node.IsScalar()) Fail(node, key, "expected " + expected + ", got " + Describe(node));
    return node.Scalar();
  }

  double Number(const YAML::Node& node, const std::string& key) const {
    const std::string text = Scalar(node, key, "a number");
    double value = 0;
    if (!ParseDouble(text, &value)) Fail(node, key, "expected a number, got '" + text + "'");
    return value;
  }

  bool Bool(const YAML::Node& node, const std::string& key) const {
    const std::string text = Scalar(node, key, "true or false");
    bool value = false;
    if (!ParseBool(text, &value)) {
      Fail(node, key, "expected one of: " + std::string(kBoolWords) + "; got '" + text + "'");
    }
    return value;
  }

  std::string PluginName(const YAML::Node& node, const std::string& key) const {
    const std::string text = Scalar(node, key, "a plugin name");
    if (!IsPluginName(text)) Fail(node, key, PluginNameProblem(text));
    return text;
  }

  // A list of strings: a sequence of scalars, or one scalar standing for a one-item list.
  std::vector<std::string> StringList(const YAML::Node& node, const std::string& key) {
    std::vector<std::string> out;
    if (node.IsScalar()) return {node.Scalar()};
    if (!node.IsSequence()) Fail(node, key, "expected a list, got " + Describe(node));
    for (const auto& item : node) {
      Remember(item);
      out.push_back(Scalar(item, key, "a list of names"));
    }
    return out;
  }

  // Plugin parameters: a map of scalar values, kept as the text written in the file.
  void ReadParams(const YAML::Node& node, const std::string& key, Params& params) {
    if (node.IsNull()) return;  // `params:` with nothing after it
    ForEachEntry(node, key, {}, [&](const std::string& name, const YAML::Node&,
                                    const YAML::Node& value) {
      const std::string full = key + "." + name;
      Remember(value);
      if (value.IsNull()) Fail(value, full, "parameter without a value");
      params.Set(name, Scalar(value, full, "a single value (number, word or quoted text)"));
    });
  }

  void Remember(const YAML::Node& node) {
    if (node.IsDefined() && !node.IsNull() && !node.Mark().is_null()) {
      last_line_ = node.Mark().line + 1;
    }
  }

  static std::string Describe(const YAML::Node& node) {
    switch (node.Type()) {
      case YAML::NodeType::Null: return "nothing";
      case YAML::NodeType::Scalar: return "'" + node.Scalar() + "'";
      case YAML::NodeType::Sequence: return "a list";
      case YAML::NodeType::Map: return "a map";
      default: return "an undefined value";
    }
  }

 private:
  static bool Contains(const std::vector<std::string>& list, const std::string& item) {
    for (const auto& x : list) {
      if (x == item) return true;
    }
    return false;
  }

  std::string source_;
  int last_line_ = 0;
};

// `integrator: NAME` or `integrator: {name: NAME, params: {...}}` => config.integrator*.
void ReadIntegrator(Reader& r, const YAML::Node& node, Config& config) {
  if (node.IsScalar()) {
    config.integrator = r.PluginName(node, "integrator");
    return;
  }
  r.ForEachEntry(node, "integrator", {"name", "params"},
                 [&](const std::string& key, const YAML::Node&, const YAML::Node& value) {
                   if (key == "name") config.integrator = r.PluginName(value, "integrator.name");
                   if (key == "params") r.ReadParams(value, "integrator.params", config.integrator_params);
                 });
}

// `solver: NAME` or `solver: {name, iterations, tolerance, params}` => config.solver*,
// config.iterations, config.tolerance.
void ReadSolver(Reader& r, const YAML::Node& node, Config& config) {
  if (node.IsScalar()) {
    config.solver = r.PluginName(node, "solver");
    return;
  }
  r.ForEachEntry(
      node, "solver", {"name", "iterations", "tolerance", "params"},
      [&](const std::string& key, const YAML::Node&, const YAML::Node& value) {
        if (key == "name") config.solver = r.PluginName(value, "solver.name");
        if (key == "iterations") {
          const std::string text = r.Scalar(value, "solver.iterations", "an integer >= 0");
          int n = 0;
          if (!ParseInt(text, &n) || n < 0) {
            r.Fail(value, "solver.iterations", "expected an integer >= 0, got '" + text + "'");
          }
          config.iterations = n;
        }
        if (key == "tolerance") {
          const double tol = r.Number(value, "solver.tolerance");
          if (tol < 0) r.Fail(value, "solver.tolerance", "expected a number >= 0");
          config.tolerance = tol;
        }
        if (key == "params") r.ReadParams(value, "solver.params", config.solver_params);
      });
}

// One top-level key => the matching Config field.
void ReadTopLevel(Reader& r, const std::string& key, const YAML::Node& value, Config& config) {
  if (key == "integrator") {
    ReadIntegrator(r, value, config);
  } else if (key == "solver") {
    ReadSolver(r, value, config);
  } else if (key == "timestep") {
    const double h = r.Number(value, key);
    if (!(h > 0)) r.Fail(value, key, "expected a number > 0, got '" + value.Scalar() + "'");
    config.timestep = h;
  } else if (key == "sleep_tolerance") {
    const double tol = r.Number(value, key);
    if (!(tol >= 0)) r.Fail(value, key, "expected a number >= 0, got '" + value.Scalar() + "'");
    config.sleep_tolerance = tol;
  } else if (key == "cone") {
    const std::string text = r.Scalar(value, key, std::string("one of: ") + kConeWords);
    Cone cone{};
    if (!ParseCone(text, &cone)) {
      r.Fail(value, key, "unknown value '" + text + "'; valid values: " + kConeWords);
    }
    config.cone = cone;
  } else if (key == "jacobian") {
    const std::string text = r.Scalar(value, key, std::string("one of: ") + kJacobianWords);
    JacobianType jacobian{};
    if (!ParseJacobian(text, &jacobian)) {
      r.Fail(value, key, "unknown value '" + text + "'; valid values: " + kJacobianWords);
    }
    config.jacobian = jacobian;
  } else if (key == "gravity") {
    if (!value.IsSequence() || value.size() != 3) {
      r.Fail(value, key, "expected a list of 3 numbers, e.g. [0, 0, -9.81], got " +
                             (value.IsSequence() ? "a list of " + std::to_string(value.size())
                                                 : Reader::Describe(value)));
    }
    std::array<double, 3> g{};
    for (int i = 0; i < 3; ++i) g[i] = r.Number(value[i], key);
    config.gravity = g;
  } else if (key == "flags") {
    if (value.IsNull()) return;
    r.ForEachEntry(value, "flags", FlagNames(),
                   [&](const std::string& name, const YAML::Node&, const YAML::Node& flag) {
                     config.flags[name] = r.Bool(flag, "flags." + name);
                   });
  } else if (key == "colliders") {
    std::vector<std::string> names;
    if (!value.IsNull()) names = r.StringList(value, key);
    for (const auto& name : names) {
      if (!IsPluginName(name)) r.Fail(value, key, PluginNameProblem(name));
    }
    config.colliders = names;
  } else if (key == "plugins") {
    if (value.IsNull()) return;
    r.ForEachEntry(value, "plugins", {"paths"},
                   [&](const std::string&, const YAML::Node&, const YAML::Node& paths) {
                     if (!paths.IsNull()) config.plugin_paths = r.StringList(paths, "plugins.paths");
                   });
  }
}

const std::vector<std::string>& TopLevelKeys() {
  static const std::vector<std::string> keys = {"integrator", "solver", "timestep", "cone",
                                                "jacobian",   "gravity", "flags",   "colliders",
                                                "plugins",    "sleep_tolerance"};
  return keys;
}

}  // namespace

Config ParseConfig(const std::string& yaml_text, const std::string& source) {
  Config config;
  config.source = source;
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    throw Error(ErrorLocation{source, line, "", ""}, "YAML syntax error: " + e.msg);
  }
  Reader reader(source);
  if (root.IsNull()) return config;  // empty file or only comments: no overrides
  try {
    reader.ForEachEntry(root, "", TopLevelKeys(),
                        [&](const std::string& key, const YAML::Node&, const YAML::Node& value) {
                          reader.Remember(value);
                          ReadTopLevel(reader, key, value, config);
                        });
  } catch (const YAML::Exception& e) {
    // Conversions are done by hand above; this only guards against yaml-cpp surprises.
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    throw Error(ErrorLocation{source, line, "", ""}, "invalid configuration: " + e.msg);
  }
  config.integrator_params.set_context("integrator.params");
  config.solver_params.set_context("solver.params");
  return config;
}

Config LoadConfigFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw Error(ErrorLocation{path, 0, "", ""}, "is a directory, expected a YAML configuration file");
  }
  std::string text, reason;
  if (!ReadInputFile(path, &text, &reason)) {
    throw Error(ErrorLocation{path, 0, "", ""}, "cannot read configuration file: " + reason);
  }
  Config config = ParseConfig(text, path);
  // Plugin directories written in a file are relative to that file, so that a configuration
  // and its plugins can be moved together.
  const std::filesystem::path base = std::filesystem::absolute(path).parent_path();
  for (auto& dir : config.plugin_paths) {
    if (!dir.empty() && std::filesystem::path(dir).is_relative()) {
      dir = (base / dir).lexically_normal().string();
    }
  }
  return config;
}

}  // namespace gauss
