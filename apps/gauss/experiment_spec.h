// The experiment file of `gauss experiment` (docs/experiments.md): which models, which base
// configuration, which sweep, how long, with which controls, what to measure and plot.
//
// LoadExperiment reads the YAML strictly (unknown keys, empty sweeps and malformed values are
// gauss::Error naming file:line and the valid choices), so that a typo never costs a night of
// runs. ExpandSweep turns the file into the list of sweep points (model x the cartesian product
// of the sweep axes, last axis fastest), each with its full gauss::Config; the runs are the
// points times the repeats (seeds).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gauss/config.h"
#include "gauss/registry.h"

namespace gauss::cli {

// One KEY=VALUE setting (the --set syntax) and the line it came from.
struct Setting {
  std::string key;
  std::string value;
  int line = 0;
};

// One sweep axis: a --set key and its values, in file order. The `variants` axis (key
// "variant") instead names groups of settings: value i stands for the settings groups[i], so
// that a plugin parameter goes only with the plugin that has it.
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
  int line = 0;
  std::vector<std::vector<Setting>> groups;  // variants only: one group per value
};

enum class ControlSource { kZero, kNoise, kCsv };

// A plot of the headline comparison, drawn with gnuplot (experiment_plot.cc).
struct PlotSpec {
  std::string name;    // output file stem (plots/<name>.svg, .png)
  std::string kind;    // "summary": columns of results.csv; "trace": columns of the traces
  std::string x, y;    // column names
  std::string group;   // a results.csv column whose values make separate series ("" = one)
  std::string facet;   // a results.csv column whose values make separate plot files ("" = one)
  std::string style;   // lines | points | bars (summary with a categorical x: bars)
  std::string title;
  std::string xlabel, ylabel;  // "" = the column's label with its unit (experiment_labels.h)
  std::vector<std::pair<std::string, std::string>> where;  // keep rows with column == value
  bool logx = false;
  bool logy = false;
  int line = 0;
};

struct ExperimentSpec {
  std::string file;          // the experiment file as given
  std::string dir;           // its directory (relative paths in the file are relative to it)
  std::string name;          // `name`, or the file stem
  std::string description;

  std::vector<std::string> models;        // as written in the file (the `model` column)
  std::vector<std::string> model_paths;   // resolved paths
  std::string config_file;                // resolved base configuration file ("" = none)
  std::vector<Setting> sets;              // base --set settings, applied after config_file
  std::vector<SweepAxis> sweep;           // at least one axis, each with >= 1 value

  int repeats = 1;
  std::uint64_t seed = 0;  // repeat r runs with seed + r
  double duration = -1;    // simulated seconds (or steps >= 0)
  long steps = -1;

  std::string keyframe;    // initial state: a keyframe name or index ("" = qpos0)
  double qvel_noise = 0;   // initial qvel += qvel_noise * N(0,1), drawn from the run's seed

  ControlSource control = ControlSource::kZero;
  double control_sigma = 0;   // noise: ctrl = sigma * N(0,1) every step (clamped to ctrlrange)
  std::string controls_file;  // csv: columns ctrl0..ctrl{nu-1}, row i before step i

  std::vector<Setting> reference;  // --set overrides giving the reference configuration
  int sample_every = 10;           // steps between probes (reference error, fwd/inv residual)
  std::string track_body;          // body whose final position and drift are reported

  int trace_every = 0;        // per-step traces every K steps (0 = none)
  double wall_time_limit = 0; // seconds per run (0 = none); exceeding it fails the run
  double max_qvel = 0;        // |qvel| beyond this counts as divergence (0 = kernel's limit)

  std::vector<PlotSpec> plots;
  std::string plot_format = "both";  // svg | png | both
};

// Reads and checks an experiment file. Throws gauss::Error (file:line, key, what is valid).
ExperimentSpec LoadExperiment(const std::string& path);

// Replaces the values of sweep axis `key` (adding the axis when absent) from "KEY=V1,V2,...",
// the --sweep option. Throws UsageError on a malformed setting.
void OverrideSweep(ExperimentSpec& spec, const std::string& key_equals_values);

// Replaces the wildcard value "*" of a plugin axis (integrator, solver) by the names of every
// plugin of that kind the registry finds. Throws gauss::Error when none is found.
void ExpandWildcards(ExperimentSpec& spec, PluginRegistry& registry);

// One point of the sweep: a model and one value per axis, with the configuration it gives.
struct SweepPoint {
  int index = 0;
  int model = 0;                    // index into spec.models
  std::vector<std::string> values;  // one per spec.sweep axis
  Config config;                    // base config + sets + this point's values
  Config reference;                 // config + spec.reference (when spec.reference is set)
};

// Every point, models outermost, then the axes in file order (the last one varies fastest).
// Each setting is checked with ApplySetting; errors name the file and line of the value.
std::vector<SweepPoint> ExpandSweep(const ExperimentSpec& spec);

}  // namespace gauss::cli
