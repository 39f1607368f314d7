// `gauss bench`: simulation speed. R repeats of (Reset + N steps), each timed with a steady
// clock; prints machine-readable key=value lines with the median, min and max.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <iostream>
#include <map>

#include "common.h"
#include "gauss/batch.h"
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
    "usage: gauss bench MODEL.xml [--steps N] [--repeat R] [--threads T] [--profile]\n"
    "                   [--config CFG.yaml] [--set KEY=VALUE]...\n\n"
    "Runs R repeats of (reset + N steps with zero controls) and prints key=value lines:\n"
    "steps_per_second and ns_per_step are medians over the repeats, *_min/*_max the extremes.\n"
    "With --threads T > 1, each repeat runs T independent simulations at once (one per thread\n"
    "of a gauss::Batch) right after one alone: steps_per_second is then the aggregate rate of\n"
    "the T, steps_per_second_1thread the single one, scaling their ratio (medians), and\n"
    "cpu_scaling = T x (thread CPU time per step alone) / (thread CPU time per step among T):\n"
    "the scaling on T idle cores, also measurable on a loaded machine.\n"
    "--profile (with one thread) times every stage and plugin during the repeats and then prints\n"
    "a table of ns/step and % of the step (the clock reads add a little to the step time).";

// CPU time of the calling thread: unlike wall time, it does not count the time the thread
// waits for a core that other processes hold.
double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

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
  int threads = 1;
  po::options_description desc("Options");
  desc.add_options()
      ("steps", po::value<long>(&steps)->value_name("N")->default_value(kDefaultSteps),
       "steps per repeat")
      ("repeat", po::value<int>(&repeat)->value_name("R")->default_value(kDefaultRepeat),
       "number of timed repeats")
      ("profile", po::bool_switch(&profile), "print the time of every stage and plugin")
      ("threads", po::value<int>(&threads)->value_name("T")->default_value(1),
       "independent simulations at once, one per thread (0: one per core)");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, true, args, vm)) return 0;
  if (steps < 1) throw UsageError("--steps must be >= 1");
  if (repeat < 1) throw UsageError("--repeat must be >= 1");
  if (threads < 0) throw UsageError("--threads must be >= 0");

  const Config config = BuildConfig(args);
  const std::shared_ptr<const Model> model = LoadModelFile(args.model);
  const Engine engine(model, config);
  const Model& m = engine.model();
  if (profile && threads != 1) throw UsageError("--profile times one simulation: use it with --threads 1");
  ThreadPool pool(threads);
  Batch batch(engine, pool);
  const int nthread = pool.size();
  std::string profile_table;  // of the single worker's Data, accumulated over the repeats

  // (number of simulations k) => seconds for k simulations of `steps` steps, at once. Each
  // simulation is one index of the batch, so each runs on its own worker's Data.
  using Clock = std::chrono::steady_clock;
  long warnings = 0;
  std::vector<long> sim_warnings(nthread, 0);
  std::vector<double> sim_cpu(nthread, 0);  // CPU seconds of each simulation's thread
  auto simulate = [&](int k) {
    const Clock::time_point start = Clock::now();
    batch.ForEach(k, [&](Data& d, int i) {
      const double cpu0 = ThreadCpuSeconds();
      d.profile.enabled = profile;
      engine.Reset(d);
      for (long s = 0; s < steps; ++s) engine.Step(d);
      if (profile) profile_table = ProfileTable(engine, d);
      sim_cpu[i] = ThreadCpuSeconds() - cpu0;
      long w = 0;
      for (int c : d.warning_count) w += c;
      sim_warnings[i] = w;
    });
    for (int i = 0; i < k; ++i) warnings += sim_warnings[i];
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  auto mean_cpu = [&](int k) {
    double sum = 0;
    for (int i = 0; i < k; ++i) sum += sim_cpu[i];
    return sum / k;
  };
  std::vector<double> rates, ns_per_step, single_rates, scaling, cpu_scaling;
  Progress progress(steps * repeat, "gauss bench");
  for (int r = 0; r < repeat; ++r) {
    // with T > 1, one simulation alone then T at once, interleaved so that both see the same
    // machine load
    double cpu_alone = 0;
    if (nthread > 1) {
      const double alone = simulate(1);
      cpu_alone = mean_cpu(1);
      single_rates.push_back(alone > 0 ? steps / alone : 0.0);
    }
    const double seconds = simulate(nthread);
    rates.push_back(seconds > 0 ? nthread * steps / seconds : 0.0);
    ns_per_step.push_back(seconds * 1e9 / steps);
    if (nthread > 1) {
      scaling.push_back(rates.back() / single_rates.back());
      // T x (CPU time of a step alone) / (CPU time of a step among T): T when the simulations
      // slow each other down in no way (shared locks, cache lines, allocator), whatever else
      // the machine runs
      cpu_scaling.push_back(nthread * cpu_alone / mean_cpu(nthread));
    }
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
  if (nthread > 1) {
    std::printf("threads=%d\n", nthread);
    std::printf("steps_per_second_1thread=%.6g\n", Median(single_rates));
    std::printf("scaling=%.4g\n", Median(scaling));
    std::printf("cpu_scaling=%.4g\n", Median(cpu_scaling));
  }
  if (profile) std::printf("\n%s", profile_table.c_str());
  return 0;
}

}  // namespace gauss::cli
