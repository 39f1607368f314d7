// Reading experiment files (experiment_spec.h) with yaml-cpp, strictly: the file is checked
// completely, including every swept value, before the command builds an engine or starts a run.
#include "experiment_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "common.h"
#include "gauss/error.h"

namespace gauss::cli {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kTopKeys = {
    "name",     "description", "models",  "config",  "set",    "sweep",  "repeats",
    "seed",     "duration",    "steps",   "initial", "controls", "reference", "metrics",
    "traces",   "limits",      "plots",   "plot_format"};
const std::vector<std::string> kPlotKeys = {"name",  "kind", "x",    "y",    "group", "facet",
                                            "style", "title", "xlabel", "ylabel", "where", "logx", "logy"};

std::string JoinWords(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// Turns YAML nodes of one file into typed values, or into errors naming file:line and the key.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void Fail(const YAML::Node& node, const std::string& key,
                         const std::string& message) const {
    throw Error(ErrorLocation{file_, Line(node), key, ""}, message);
  }

  // yaml-cpp marks an empty value at the next token: use the line of the last key instead.
  int Line(const YAML::Node& node) const {
    if (node.IsDefined() && !node.IsNull() && !node.Mark().is_null()) return node.Mark().line + 1;
    return last_line_;
  }

  // (map node, valid keys) => visit(key, value) per entry; unknown or repeated keys are errors.
  template <class Visit>
  void ForEach(const YAML::Node& map, const std::string& path,
               const std::vector<std::string>& valid, Visit visit) {
    if (!map.IsMap()) Fail(map, path, "expected a map of keys, got " + Describe(map));
    std::set<std::string> seen;
    for (const auto& entry : map) {
      last_line_ = entry.first.Mark().line + 1;
      const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "";
      const std::string full = path.empty() ? key : path + "." + key;
      if (key.empty()) Fail(entry.first, path, "a key must be a plain name");
      if (!valid.empty() && std::find(valid.begin(), valid.end(), key) == valid.end()) {
        Fail(entry.first, full,
             "unknown key; valid keys" + (path.empty() ? std::string() : " in '" + path + "'") +
                 ": " + JoinWords(valid));
      }
      if (!seen.insert(key).second) Fail(entry.first, full, "key given twice");
      visit(key, full, entry.second);
    }
  }

  std::string Text(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) Fail(node, key, "expected a single value, got " + Describe(node));
    return node.Scalar();
  }

  double Number(const YAML::Node& node, const std::string& key, double min) const {
    const std::string text = Text(node, key);
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(value)) {
      Fail(node, key, "expected a number, got '" + text + "'");
    }
    if (value < min) Fail(node, key, "expected a number >= " + Format(min) + ", got " + text);
    return value;
  }

  long Integer(const YAML::Node& node, const std::string& key, long min) const {
    const double value = Number(node, key, static_cast<double>(min));
    if (value != static_cast<double>(static_cast<long>(value))) {
      Fail(node, key, "expected a whole number, got '" + node.Scalar() + "'");
    }
    return static_cast<long>(value);
  }

  bool Bool(const YAML::Node& node, const std::string& key) const {
    const std::string text = Text(node, key);
    if (text == "true") return true;
    if (text == "false") return false;
    Fail(node, key, "expected true or false, got '" + text + "'");
  }

  std::string Choice(const YAML::Node& node, const std::string& key,
                     const std::vector<std::string>& valid) const {
    const std::string text = Text(node, key);
    if (std::find(valid.begin(), valid.end(), text) == valid.end()) {
      Fail(node, key, "unknown value '" + text + "'; valid values: " + JoinWords(valid));
    }
    return text;
  }

  // A list of single values; a single value alone counts as a list of one.
  std::vector<std::string> List(const YAML::Node& node, const std::string& key) const {
    std::vector<std::string> out;
    if (node.IsScalar()) return {node.Scalar()};
    if (!node.IsSequence()) Fail(node, key, "expected a list of values, got " + Describe(node));
    for (const auto& item : node) out.push_back(Text(item, key));
    return out;
  }

  // A map of --set keys to single values, e.g. {solver: newton, solver.tolerance: 1e-12}.
  std::vector<Setting> Settings(const YAML::Node& node, const std::string& path) {
    std::vector<Setting> out;
    ForEach(node, path, {}, [&](const std::string& key, const std::string& full,
                                const YAML::Node& value) {
      out.push_back({key, Text(value, full), last_line_});
    });
    return out;
  }

  static std::string Describe(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if (node.IsSequence()) return "a list";
    if (node.IsMap()) return "a map";
    return "'" + node.Scalar() + "'";
  }

  static std::string Format(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
  }

  int last_line() const { return last_line_; }

 private:
  std::string file_;
  int last_line_ = 1;
};

// A path written in the experiment file, relative to the file's directory.
std::string Resolve(const ExperimentSpec& spec, const std::string& path) {
  const fs::path p(path);
  return p.is_absolute() ? path : (fs::path(spec.dir) / p).lexically_normal().string();
}

// (plots node) => spec.plots, each checked for its keys and choices.
void ReadPlots(Reader& r, const YAML::Node& node, ExperimentSpec& spec) {
  if (!node.IsSequence()) r.Fail(node, "plots", "expected a list of plots, got " + r.Describe(node));
  int index = 0;
  for (const auto& item : node) {
    const std::string path = "plots[" + std::to_string(index++) + "]";
    PlotSpec plot;
    plot.kind = "summary";
    plot.line = r.Line(item);
    r.ForEach(item, path, kPlotKeys, [&](const std::string& key, const std::string& full,
                                         const YAML::Node& value) {
      if (key == "name") plot.name = r.Text(value, full);
      if (key == "kind") plot.kind = r.Choice(value, full, {"summary", "trace"});
      if (key == "x") plot.x = r.Text(value, full);
      if (key == "y") plot.y = r.Text(value, full);
      if (key == "group") plot.group = r.Text(value, full);
      if (key == "facet") plot.facet = r.Text(value, full);
      if (key == "style") plot.style = r.Choice(value, full, {"lines", "points", "bars"});
      if (key == "title") plot.title = r.Text(value, full);
      if (key == "xlabel") plot.xlabel = r.Text(value, full);
      if (key == "ylabel") plot.ylabel = r.Text(value, full);
      if (key == "logx") plot.logx = r.Bool(value, full);
      if (key == "logy") plot.logy = r.Bool(value, full);
      if (key == "where") {
        for (const Setting& s : r.Settings(value, full)) plot.where.emplace_back(s.key, s.value);
      }
    });
    const std::pair<const char*, const std::string*> required[] = {
        {"name", &plot.name}, {"x", &plot.x}, {"y", &plot.y}};
    for (const auto& [key, value] : required) {
      if (value->empty()) r.Fail(item, path, std::string("missing key '") + key + "'");
    }
    for (const PlotSpec& other : spec.plots) {
      if (other.name == plot.name) r.Fail(item, path + ".name", "plot name used twice");
    }
    spec.plots.push_back(plot);
  }
}

// (sweep.variants: a map of variant name => map of --set settings) => the "variant" axis.
SweepAxis ReadVariants(Reader& r, const YAML::Node& node, const std::string& path) {
  SweepAxis axis{"variant", {}, r.Line(node), {}};
  r.ForEach(node, path, {}, [&](const std::string& name, const std::string& full,
                                const YAML::Node& settings) {
    if (name.find(',') != std::string::npos) r.Fail(settings, full, "a variant name cannot contain ','");
    axis.values.push_back(name);
    axis.groups.push_back(r.Settings(settings, full));
    if (axis.groups.back().empty()) r.Fail(settings, full, "a variant needs at least one setting");
  });
  if (axis.values.empty()) r.Fail(node, path, "no variants: give at least one name: {KEY: VALUE, ...}");
  return axis;
}

// (one top-level entry) => the matching fields of spec.
void ReadEntry(Reader& r, const std::string& key, const YAML::Node& value, ExperimentSpec& spec) {
  if (key == "name") spec.name = r.Text(value, key);
  if (key == "description") spec.description = r.Text(value, key);
  if (key == "models") {
    spec.models = r.List(value, key);
    if (spec.models.empty()) r.Fail(value, key, "the list of models is empty");
  }
  if (key == "config") spec.config_file = Resolve(spec, r.Text(value, key));
  if (key == "set") spec.sets = r.Settings(value, key);
  if (key == "sweep") {
    r.ForEach(value, key, {}, [&](const std::string& axis, const std::string& full,
                                  const YAML::Node& values) {
      if (axis == "model") {
        r.Fail(values, full, "the model axis is the top-level 'models' list, not a sweep key");
      }
      if (axis == "variant") {
        r.Fail(values, full, "the variant axis is written 'variants:' (a map of named settings)");
      }
      if (axis == "variants") {
        spec.sweep.push_back(ReadVariants(r, values, full));
        return;
      }
      SweepAxis a{axis, r.List(values, full), r.last_line(), {}};
      if (a.values.empty()) r.Fail(values, full, "empty sweep axis: give at least one value");
      spec.sweep.push_back(a);
    });
  }
  if (key == "repeats") spec.repeats = static_cast<int>(r.Integer(value, key, 1));
  if (key == "seed") spec.seed = static_cast<std::uint64_t>(r.Integer(value, key, 0));
  if (key == "duration") spec.duration = r.Number(value, key, 0);
  if (key == "steps") spec.steps = r.Integer(value, key, 0);
  if (key == "initial") {
    r.ForEach(value, key, {"keyframe", "qvel_noise"},
              [&](const std::string& k, const std::string& full, const YAML::Node& v) {
                if (k == "keyframe") spec.keyframe = r.Text(v, full);
                if (k == "qvel_noise") spec.qvel_noise = r.Number(v, full, 0);
              });
  }
  if (key == "controls") {
    if (value.IsScalar()) {
      if (r.Choice(value, key, {"zero"}) == "zero") spec.control = ControlSource::kZero;
      return;
    }
    std::string source;
    r.ForEach(value, key, {"source", "sigma", "file"},
              [&](const std::string& k, const std::string& full, const YAML::Node& v) {
                if (k == "source") source = r.Choice(v, full, {"zero", "noise", "csv"});
                if (k == "sigma") spec.control_sigma = r.Number(v, full, 0);
                if (k == "file") spec.controls_file = Resolve(spec, r.Text(v, full));
              });
    spec.control = source == "noise" ? ControlSource::kNoise
                   : source == "csv" ? ControlSource::kCsv : ControlSource::kZero;
    if (source.empty()) r.Fail(value, key, "missing key 'source' (zero, noise or csv)");
    if (source == "csv" && spec.controls_file.empty()) {
      r.Fail(value, key, "source csv needs 'file' (columns ctrl0..ctrl{nu-1})");
    }
    if (source != "csv" && !spec.controls_file.empty()) {
      r.Fail(value, key + ".file", "'file' is for source csv only");
    }
    if (source != "noise" && spec.control_sigma != 0) {
      r.Fail(value, key + ".sigma", "'sigma' is for source noise only");
    }
  }
  if (key == "reference") spec.reference = r.Settings(value, key);
  if (key == "metrics") {
    r.ForEach(value, key, {"sample_every", "track_body"},
              [&](const std::string& k, const std::string& full, const YAML::Node& v) {
                if (k == "sample_every") spec.sample_every = static_cast<int>(r.Integer(v, full, 1));
                if (k == "track_body") spec.track_body = r.Text(v, full);
              });
  }
  if (key == "traces") {
    r.ForEach(value, key, {"every"}, [&](const std::string&, const std::string& full,
                                         const YAML::Node& v) {
      spec.trace_every = static_cast<int>(r.Integer(v, full, 1));
    });
  }
  if (key == "limits") {
    r.ForEach(value, key, {"wall_time", "max_qvel"},
              [&](const std::string& k, const std::string& full, const YAML::Node& v) {
                if (k == "wall_time") spec.wall_time_limit = r.Number(v, full, 0);
                if (k == "max_qvel") spec.max_qvel = r.Number(v, full, 0);
              });
  }
  if (key == "plots") ReadPlots(r, value, spec);
  if (key == "plot_format") spec.plot_format = r.Choice(value, key, {"svg", "png", "both"});
}

// Applies one setting to `config`, turning an ApplySetting error into one located in the file.
void Apply(const ExperimentSpec& spec, Config& config, const std::string& key,
           const std::string& value, int line) {
  try {
    ApplySetting(config, key + "=" + value);
  } catch (const Error& e) {
    if (line == 0) throw;  // from the command line: the message already quotes the --set
    throw Error(ErrorLocation{spec.file, line, key, ""}, e.what());
  }
}

}  // namespace

ExperimentSpec LoadExperiment(const std::string& path) {
  ExperimentSpec spec;
  spec.file = path;
  spec.dir = fs::path(path).parent_path().string();
  if (spec.dir.empty()) spec.dir = ".";
  spec.name = fs::path(path).stem().string();
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    throw Error(ErrorLocation{path, 0, "", ""}, "is a directory, expected an experiment file (EXP.yaml)");
  }
  if (!fs::is_regular_file(path, ec)) {
    throw Error(ErrorLocation{path, 0, "", ""}, "experiment file not found");
  }
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw Error(ErrorLocation{path, e.mark.line + 1, "", ""}, "YAML syntax error: " + e.msg);
  }
  Reader r(path);
  if (!root.IsMap()) r.Fail(root, "", "expected a map of experiment keys, got " + r.Describe(root));
  r.ForEach(root, "", kTopKeys, [&](const std::string& key, const std::string&,
                                    const YAML::Node& value) { ReadEntry(r, key, value, spec); });

  const ErrorLocation file{path, 0, "", ""};
  if (spec.models.empty()) throw Error(file, "missing key 'models' (the MJCF files to simulate)");
  for (const auto& m : spec.models) spec.model_paths.push_back(Resolve(spec, m));
  if (spec.sweep.empty()) {
    throw Error(file, "the sweep is empty: give 'sweep' at least one key with a list of values, "
                      "e.g. sweep: {solver: [pgs, newton]}");
  }
  if ((spec.duration >= 0) == (spec.steps >= 0)) {
    throw Error(file, "give exactly one of 'duration' (simulated seconds) and 'steps'");
  }
  if (spec.control == ControlSource::kNoise && !(spec.control_sigma > 0)) {
    throw Error(file, "controls: source noise needs 'sigma' > 0");
  }
  for (const PlotSpec& p : spec.plots) {
    if (p.kind == "trace" && spec.trace_every == 0) {
      throw Error(ErrorLocation{path, p.line, "plots", ""},
                  "plot '" + p.name + "' is a trace plot: enable traces (traces: {every: K})");
    }
  }
  // Check every setting once now, so that errors name the line of the value.
  ExpandSweep(spec);
  return spec;
}

void OverrideSweep(ExperimentSpec& spec, const std::string& key_equals_values) {
  const std::size_t eq = key_equals_values.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw UsageError("--sweep expects KEY=V1,V2,... , got '" + key_equals_values + "'");
  }
  SweepAxis axis{key_equals_values.substr(0, eq), {}, 0, {}};  // line 0: from the command line
  if (axis.key == "model") throw UsageError("--sweep: the models come from the experiment file");
  std::string rest = key_equals_values.substr(eq + 1);
  std::size_t start = 0;
  while (start <= rest.size()) {
    const std::size_t comma = std::min(rest.find(',', start), rest.size());
    const std::string value = rest.substr(start, comma - start);
    if (!value.empty()) axis.values.push_back(value);
    start = comma + 1;
  }
  if (axis.values.empty()) throw UsageError("--sweep " + axis.key + ": no values given");
  for (SweepAxis& existing : spec.sweep) {
    if (existing.key != axis.key) continue;
    if (!existing.groups.empty()) {
      // variants: keep the named ones, in the order given
      std::vector<std::vector<Setting>> groups;
      for (const std::string& v : axis.values) {
        const auto it = std::find(existing.values.begin(), existing.values.end(), v);
        if (it == existing.values.end()) {
          throw UsageError("--sweep variant: no variant '" + v + "' in the experiment file (it has " +
                           JoinWords(existing.values) + ")");
        }
        groups.push_back(existing.groups[it - existing.values.begin()]);
      }
      existing.groups = groups;
    }
    existing.values = axis.values;
    return;
  }
  if (axis.key == "variant") throw UsageError("--sweep variant: the experiment file has no variants");
  spec.sweep.push_back(axis);
}

void ExpandWildcards(ExperimentSpec& spec, PluginRegistry& registry) {
  for (SweepAxis& axis : spec.sweep) {
    if (std::find(axis.values.begin(), axis.values.end(), "*") == axis.values.end()) continue;
    PluginKind kind;
    if (axis.key == "integrator" || axis.key == "integrator.name") {
      kind = PluginKind::kIntegrator;
    } else if (axis.key == "solver" || axis.key == "solver.name") {
      kind = PluginKind::kSolver;
    } else {
      throw Error(ErrorLocation{spec.file, axis.line, axis.key, ""},
                  "'*' (every plugin found) is only valid for integrator and solver axes");
    }
    // every usable plugin of the kind; refused ones (ABI mismatch, duplicates) are skipped
    // with a note rather than failing the whole experiment
    std::vector<std::string> names;
    for (const PluginInfo& info : registry.List()) {
      if (info.kind != kind) continue;
      if (info.description.rfind("REFUSED", 0) == 0) {
        std::fprintf(stderr, "gauss experiment: '*' skips %s '%s' (%s): %s\n",
                     PluginKindName(kind), info.name.c_str(), info.file.c_str(),
                     info.description.c_str());
        continue;
      }
      if (std::find(names.begin(), names.end(), info.name) == names.end()) {
        names.push_back(info.name);
      }
    }
    if (names.empty()) {
      throw Error(ErrorLocation{spec.file, axis.line, axis.key, ""},
                  std::string("'*': no usable ") + PluginKindName(kind) +
                      " plugin found on the search path (see gauss plugins)");
    }
    std::vector<std::string> values;
    for (const std::string& v : axis.values) {
      const std::vector<std::string> add = v == "*" ? names : std::vector<std::string>{v};
      for (const std::string& a : add) {
        if (std::find(values.begin(), values.end(), a) == values.end()) values.push_back(a);
      }
    }
    axis.values = values;
  }
}

std::vector<SweepPoint> ExpandSweep(const ExperimentSpec& spec) {
  Config base;
  if (!spec.config_file.empty()) base = LoadConfigFile(spec.config_file);
  for (const Setting& s : spec.sets) Apply(spec, base, s.key, s.value, s.line);

  std::vector<SweepPoint> points;
  const int naxis = static_cast<int>(spec.sweep.size());
  for (int model = 0; model < static_cast<int>(spec.models.size()); ++model) {
    std::vector<int> digit(naxis, 0);  // odometer over the axes, the last one fastest
    while (true) {
      SweepPoint p;
      p.index = static_cast<int>(points.size());
      p.model = model;
      p.config = base;
      for (int a = 0; a < naxis; ++a) {
        const SweepAxis& axis = spec.sweep[a];
        p.values.push_back(axis.values[digit[a]]);
        if (!axis.groups.empty()) {
          for (const Setting& s : axis.groups[digit[a]]) Apply(spec, p.config, s.key, s.value, s.line);
          continue;
        }
        // a wildcard is replaced before the runs (ExpandWildcards); here it stands for a name
        if (p.values.back() != "*") Apply(spec, p.config, axis.key, p.values.back(), axis.line);
      }
      p.reference = p.config;
      for (const Setting& s : spec.reference) {
        // a reference on another solver plugin does not inherit the run's solver parameters
        if ((s.key == "solver" || s.key == "solver.name") && p.reference.solver != s.value) {
          p.reference.solver_params = Params(p.reference.solver_params.context());
        }
        Apply(spec, p.reference, s.key, s.value, s.line);
      }
      points.push_back(p);
      int a = naxis - 1;
      while (a >= 0 && ++digit[a] == static_cast<int>(spec.sweep[a].values.size())) digit[a--] = 0;
      if (a < 0) break;
    }
  }
  for (const SweepAxis& axis : spec.sweep) {
    if (axis.key == "plugins.paths") {
      throw Error(ErrorLocation{spec.file, axis.line, axis.key, ""},
                  "plugins.paths cannot be swept: set it once under 'set'");
    }
  }
  return points;
}

}  // namespace gauss::cli
