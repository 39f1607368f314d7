// `gauss bench`: simulation speed. R repeats of (Reset + N steps), each timed with a steady
// clock; prints machine-readable key=value lines with the median, min and max.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>

#include "common.h"
#include "gauss/error.h"
#include "profile_table.h"
#include "progress.h"

namespace gauss::cli {
namespace {

// About a second per repeat for humanoid-sized models at the speed of the Euler/Newton
// pipeline; small models finish sooner.
constexpr long kDefaultSteps = 5000;
constexpr int kDefaultRepeat = 5;

const char* kUsage =
    "usage: gauss bench MODEL.xml [--steps N] [--repeat R] [--profile] [--config CFG.yaml]\n"
    "                   [--set KEY=VALUE]...\n\n"
    "Runs R repeats of (reset + N steps with zero controls) and prints key=value lines:\n"
    "steps_per_second and ns_per_step are medians over the repeats, *_min/*_max the extremes.\n"
    "--profile times every stage and plugin during the repeats and then prints a table of\n"
    "ns/step and % of the step (the clock reads add a little to the step time).";

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

int BenchCommand(const std::vector<std::string>& argv) {
  CommonArgs args;
  long steps = kDefaultSteps;
  int repeat = kDefaultRepeat;
  bool profile = false;
  po::options_description desc("Options");
  desc.add_options()
      ("steps", po::value<long>(&steps)->value_name("N")->default_value(kDefaultSteps),
       "steps per repeat")
      ("repeat", po::value<int>(&repeat)->value_name("R")->default_value(kDefaultRepeat),
       "number of timed repeats")
      ("profile", po::bool_switch(&profile), "print the time of every stage and plugin");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, true, args, vm)) return 0;
  if (steps < 1) throw UsageError("--steps must be >= 1");
  if (repeat < 1) throw UsageError("--repeat must be >= 1");

  const Config config = BuildConfig(args);
  const std::shared_ptr<const Model> model = LoadModelFile(args.model);
  const Engine engine(model, config);
  const Model& m = engine.model();
  Data d = engine.MakeData();
  d.profile.enabled = profile;

  using Clock = std::chrono::steady_clock;
  std::vector<double> rates;
  std::vector<double> ns_per_step;
  long warnings = 0;
  Progress progress(steps * repeat, "gauss bench");
  for (int r = 0; r < repeat; ++r) {
    engine.Reset(d);
    const Clock::time_point start = Clock::now();
    for (long i = 0; i < steps; ++i) engine.Step(d);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    rates.push_back(seconds > 0 ? steps / seconds : 0.0);
    ns_per_step.push_back(seconds * 1e9 / steps);
    for (int w : d.warning_count) warnings += w;
    progress.Update(steps * (r + 1));
  }
  progress.Finish();

  std::printf("model=%s\n", m.name.c_str());
  std::printf("model_file=%s\n", args.model.c_str());
  std::printf("nq=%d\nnv=%d\nnu=%d\nnbody=%d\n", m.nq, m.nv, m.nu, m.nbody);
  // One line per kind; several colliders share theirs, in priority order.
  std::map<std::string, std::string> plugins;
  for (const auto& p : engine.PluginsInUse()) {
    std::string& line = plugins[PluginKindName(p.kind)];
    line += (line.empty() ? "" : ",") + p.name + " " + (p.version.empty() ? "?" : p.version);
  }
  for (const auto& [kind, line] : plugins) std::printf("plugin_%s=%s\n", kind.c_str(), line.c_str());
  std::printf("timestep=%.17g\n", engine.options().timestep);
  std::printf("steps=%ld\nrepeat=%d\n", steps, repeat);
  std::printf("steps_per_second=%.6g\n", Median(rates));
  std::printf("ns_per_step=%.6g\n", Median(ns_per_step));
  std::printf("steps_per_second_min=%.6g\n", *std::min_element(rates.begin(), rates.end()));
  std::printf("steps_per_second_max=%.6g\n", *std::max_element(rates.begin(), rates.end()));
  std::printf("warnings=%ld\n", warnings);
  if (profile) std::printf("\n%s", ProfileTable(engine, d).c_str());
  return 0;
}

}  // namespace gauss::cli
