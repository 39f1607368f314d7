// `gauss experiment`: parameter sweeps over models and configurations, run in parallel, with a
// tidy results.csv, optional per-step traces and gnuplot plots (docs/experiments.md).
//
// Order of work, so that a malformed experiment is refused before any run starts:
//   1. read the experiment file strictly and apply the command-line overrides;
//   2. expand plugin wildcards, load every model, build one Engine per sweep point (and one
//      reference Engine), resolve keyframes, controls and the tracked body, check the plots;
//   3. write the resolved configurations, then run points x repeats on --jobs threads (one
//      Workspace per worker and point, Engines shared read-only), each run in a child process
//      (experiment_isolation.h), appending each finished run to results.csv; a failed run
//      (an error, a crash, an abort, a run past limits.wall_time) records its reason and the
//      others go on;
//   4. sort results.csv, draw the plots.
// Ctrl-C (or SIGTERM) stops the runs at their next step; a second Ctrl-C kills them at once.
// results.csv keeps the finished runs. Started by mpirun/srun with several ranks, step 3 spreads
// the runs over the ranks and rank 0 alone writes the output (experiment_mpi.h).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "common.h"
#include "csv.h"
#include "experiment_mpi.h"
#include "experiment_plot.h"
#include "experiment_isolation.h"
#include "experiment_results.h"
#include "experiment_run.h"
#include "experiment_spec.h"
#include "gauss/error.h"
#include "progress.h"
#include "view.h"

namespace gauss::cli {
namespace {

namespace fs = std::filesystem;

const char* kUsage =
    "usage: gauss experiment EXP.yaml [--jobs N] [--out DIR] [--sweep KEY=V1,V2,...]...\n"
    "                        [--set KEY=VALUE]... [--duration T | --steps N] [--repeats R]\n"
    "                        [--seed S] [--no-plots] [--dry-run] [--only RUN] [--rank-timeout S]\n\n"
    "Runs every model x sweep point x repeat of EXP.yaml in parallel and writes DIR/results.csv\n"
    "(one row per run: the swept keys, seed, status and metrics), DIR/configs/, DIR/traces/ and\n"
    "DIR/plots/. See docs/experiments.md. Command-line overrides shrink or change a sweep\n"
    "without editing the file: --sweep replaces (or adds) one axis, --set adds a base setting.\n"
    "--only RUN re-runs one run (the `run` column of results.csv), writes its trace and prints\n"
    "the `gauss run` command that reproduces it; results.csv and the plots are not touched.\n"
    "Under mpirun/srun the runs are spread over the ranks (docs/parallel.md).";

// Set by SIGINT; the workers poll them. g_interrupts counts the presses (a second one kills the
// runs' processes). Lock-free atomics are async-signal-safe.
std::atomic<bool> g_stop{false};
std::atomic<int> g_interrupts{0};
static_assert(std::atomic<bool>::is_always_lock_free, "SIGINT flag must be lock-free");
static_assert(std::atomic<int>::is_always_lock_free, "SIGINT counter must be lock-free");
extern "C" void OnInterrupt(int) {
  g_interrupts.fetch_add(1);
  g_stop.store(true);
}

// SIGINT (Ctrl-C) and SIGTERM (kill, mpirun, Slurm) set g_stop while this object lives.
class StopSignals {
 public:
  StopSignals() : int_(std::signal(SIGINT, OnInterrupt)), term_(std::signal(SIGTERM, OnInterrupt)) {}
  ~StopSignals() {
    std::signal(SIGINT, int_);
    std::signal(SIGTERM, term_);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  void (*int_)(int);
  void (*term_)(int);
};

// Everything the runs of one sweep point share.
struct PointSetup {
  std::unique_ptr<Engine> engine;
  std::unique_ptr<Engine> reference;
  RunSetup run;
  std::string config_file;  // relative to the output directory
};

// (spec, model) => the keyframe index named by spec.keyframe, -1 for none.
int ResolveKeyframe(const ExperimentSpec& spec, const Model& m, const std::string& model_path) {
  if (spec.keyframe.empty()) return -1;
  const int key = FindKeyframe(m, spec.keyframe);
  if (key >= 0) return key;
  throw Error(ErrorLocation{spec.file, 0, "initial.keyframe", ""},
              "model " + model_path + " has no keyframe '" + spec.keyframe + "' (it has " +
                  std::to_string(m.nkey) + ")");
}

// (controls table, model) => the actuator of each column; the columns must be ctrl0..ctrl{nu-1}.
std::vector<int> ControlColumns(const CsvTable& table, const Model& m, const std::string& model) {
  const ErrorLocation where{table.path, 1, "", ""};
  std::vector<int> actuator;
  std::vector<bool> seen(m.nu, false);
  for (const std::string& name : table.header) {
    const ColumnName col = SplitColumnName(name);
    if (col.prefix != "ctrl" || col.index < 0 || col.index >= m.nu) {
      throw Error(ErrorLocation{table.path, 1, name, ""},
                  "not a control of model " + model + " (nu=" + std::to_string(m.nu) +
                      "): expected columns ctrl0..ctrl" + std::to_string(m.nu - 1));
    }
    seen[col.index] = true;
    actuator.push_back(col.index);
  }
  for (int i = 0; i < m.nu; ++i) {
    if (!seen[i]) throw Error(where, "missing column ctrl" + std::to_string(i) + " for model " + model);
  }
  if (table.rows.empty()) throw Error(where, "no control rows after the header");
  return actuator;
}

// The text describing a point in messages: "model=humanoid solver=pgs cone=elliptic".
std::string PointText(const ExperimentSpec& spec, const SweepPoint& p,
                      const std::vector<std::string>& labels) {
  std::string text = "model=" + labels[p.model];
  for (std::size_t a = 0; a < spec.sweep.size(); ++a) text += " " + spec.sweep[a].key + "=" + p.values[a];
  return text;
}

// Step 2 of the file comment: engines and run setups of every point. Throws gauss::Error.
std::vector<PointSetup> PreparePoints(const ExperimentSpec& spec, const std::vector<SweepPoint>& points,
                                      PluginRegistry& registry, const CsvTable* controls) {
  std::vector<std::shared_ptr<const Model>> models;
  for (const std::string& path : spec.model_paths) models.push_back(LoadModelFile(path));
  const std::vector<std::string> labels = ModelLabels(spec);
  std::vector<PointSetup> setups(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    PointSetup& s = setups[i];
    try {
      s.engine = std::make_unique<Engine>(models[p.model], p.config, &registry);
      if (!spec.reference.empty()) {
        s.reference = std::make_unique<Engine>(models[p.model], p.reference, &registry);
      }
    } catch (const Error& e) {
      throw Error("sweep point " + std::to_string(p.index) + " (" + PointText(spec, p, labels) +
                  "): " + e.what());
    }
    const Model& m = s.engine->model();
    RunSetup& r = s.run;
    r.engine = s.engine.get();
    r.reference = s.reference.get();
    const double h = s.engine->options().timestep;
    // the small shrink keeps T = n h from becoming n + 1 steps through rounding (as gauss run)
    r.steps = spec.steps >= 0 ? spec.steps
                              : static_cast<long>(std::ceil(spec.duration / h * (1 - 1e-12)));
    r.keyframe = ResolveKeyframe(spec, m, spec.models[p.model]);
    r.qvel_noise = spec.qvel_noise;
    r.control_sigma = spec.control_sigma;
    if (spec.control == ControlSource::kNoise) r.control = RunSetup::Control::kNoise;
    if (spec.control == ControlSource::kCsv) {
      r.control = RunSetup::Control::kTable;
      r.control_rows = &controls->rows;
      r.control_actuator = ControlColumns(*controls, m, spec.models[p.model]);
    }
    r.sample_every = spec.sample_every;
    if (!spec.track_body.empty()) {
      r.track_body = m.BodyId(spec.track_body);
      if (r.track_body < 0) {
        throw Error(ErrorLocation{spec.file, 0, "metrics.track_body", ""},
                    "model " + spec.models[p.model] + " has no body '" + spec.track_body + "'");
      }
    }
    r.trace_every = spec.trace_every;
    r.wall_time_limit = spec.wall_time_limit;
    r.max_qvel = spec.max_qvel;
  }
  return setups;
}

// Removes the traces of an earlier experiment in the same directory (they would be mistaken
// for this one's).
void ClearOldTraces(const fs::path& traces) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(traces, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("run_", 0) == 0 && entry.path().extension() == ".csv") fs::remove(entry.path(), ec);
  }
}

// Values of the command-line options.
struct Options {
  std::string file, out_dir;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::string> sweeps, sets;
  double duration = -1;
  long steps = -1;
  int repeats = 0;
  long long seed = -1;
  bool no_plots = false, dry_run = false;
  double rank_timeout = 30;
  int only = -1;  // --only RUN
  po::variables_map vm;
};

// argv => options; false when --help was printed. Throws UsageError on misuse.
bool ParseOptions(const std::vector<std::string>& argv, Options& o) {
  po::options_description desc("Options");
  desc.add_options()
      ("jobs,j", po::value<int>(&o.jobs)->value_name("N"), "parallel runs (default: the number of cores)")
      ("out,o", po::value<std::string>(&o.out_dir)->value_name("DIR"),
       "output directory (default: experiments/<name> in the current directory)")
      ("sweep", po::value<std::vector<std::string>>(&o.sweeps)->value_name("KEY=V1,V2")->composing(),
       "replace (or add) one sweep axis; repeatable")
      ("set", po::value<std::vector<std::string>>(&o.sets)->value_name("KEY=VALUE")->composing(),
       "add a base configuration setting (after the file's 'set'); repeatable")
      ("duration", po::value<double>(&o.duration)->value_name("T"), "simulated seconds per run")
      ("steps", po::value<long>(&o.steps)->value_name("N"), "steps per run instead of --duration")
      ("repeats", po::value<int>(&o.repeats)->value_name("R"), "repeats (seeds) per sweep point")
      ("seed", po::value<long long>(&o.seed)->value_name("S"), "first seed (repeat r uses S + r)")
      ("no-plots", po::bool_switch(&o.no_plots), "do not draw the plots")
      ("rank-timeout", po::value<double>(&o.rank_timeout)->value_name("S"),
       "under MPI: give up a rank silent for S seconds, failing its runs in flight (default 30)")
      ("dry-run", po::bool_switch(&o.dry_run), "check the experiment and list its runs without running them")
      ("only", po::value<int>(&o.only)->value_name("RUN"),
       "re-run only run RUN (results.csv's `run` column): write its trace and print the "
       "equivalent gauss run command; results.csv and plots are left as they are")
      ("help,h", "show this help and exit");
  po::options_description all;
  all.add(desc);
  all.add_options()("experiment", po::value<std::string>(&o.file));
  po::positional_options_description positional;
  positional.add("experiment", 1);
  try {
    po::store(po::command_line_parser(argv).options(all).positional(positional).run(), o.vm);
    if (o.vm.count("help")) {
      std::printf("%s\n\n", kUsage);
      std::cout << desc << "\n";
      return false;
    }
    po::notify(o.vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (o.file.empty()) throw UsageError("missing the experiment file (EXP.yaml)");
  if (o.jobs < 1) throw UsageError("--jobs must be >= 1");
  if (o.vm.count("duration") && o.vm.count("steps")) throw UsageError("give either --steps or --duration");
  if (o.vm.count("duration") && !(o.duration >= 0)) throw UsageError("--duration must be >= 0");
  if (o.vm.count("steps") && o.steps < 0) throw UsageError("--steps must be >= 0");
  if (o.vm.count("repeats") && o.repeats < 1) throw UsageError("--repeats must be >= 1");
  if (o.vm.count("seed") && o.seed < 0) throw UsageError("--seed must be >= 0");
  if (!(o.rank_timeout > 0)) throw UsageError("--rank-timeout must be > 0");
  if (o.vm.count("only") && o.only < 0) throw UsageError("--only must be a run number >= 0");
  if (o.vm.count("only") && o.dry_run) throw UsageError("give either --only or --dry-run");
  return true;
}

// (options) => spec with the command-line overrides applied (they come after the file).
void ApplyOverrides(const Options& o, ExperimentSpec& spec) {
  for (const std::string& s : o.sweeps) OverrideSweep(spec, s);
  for (const std::string& s : o.sets) {
    const std::size_t eq = s.find('=');
    if (eq == std::string::npos) throw UsageError("--set expects KEY=VALUE, got '" + s + "'");
    spec.sets.push_back({s.substr(0, eq), s.substr(eq + 1), 0});
  }
  if (o.vm.count("duration")) {
    spec.duration = o.duration;
    spec.steps = -1;
  }
  if (o.vm.count("steps")) {
    spec.steps = o.steps;
    spec.duration = -1;
  }
  if (o.vm.count("repeats")) spec.repeats = o.repeats;
  if (o.vm.count("seed")) spec.seed = static_cast<std::uint64_t>(o.seed);
}

// Creates the output directory and writes experiment.yaml and configs/point_<k>.yaml.
void PrepareOutput(const ExperimentSpec& spec, const std::string& out_dir,
                   const std::vector<SweepPoint>& points, std::vector<PointSetup>& setups) {
  const fs::path dir(out_dir);
  try {
    fs::create_directories(dir / "configs");
    if (spec.trace_every > 0) {
      fs::create_directories(dir / "traces");
      ClearOldTraces(dir / "traces");
    }
    fs::copy_file(spec.file, dir / "experiment.yaml", fs::copy_options::overwrite_existing);
  } catch (const fs::filesystem_error& e) {
    throw Error(ErrorLocation{out_dir, 0, "", ""}, std::string("cannot write the output: ") + e.what());
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    setups[i].config_file =
        WritePointConfig(out_dir, points[i], spec.model_paths[points[i].model], *setups[i].engine);
  }
}

// Runs one run on this process: each local thread keeps one Workspace for the point it is on
// (runs are ordered by point, so a Workspace serves a point's repeats). The layer that the MPI
// ranks (experiment_mpi.h) put their runs through.
class LocalExecutor {
 public:
  // Traces (every `trace_every` > 0) are written to `out_dir` by the run's child process, so a
  // rank on another machine needs `out_dir` on a shared file system (docs/parallel.md).
  LocalExecutor(const std::vector<PointSetup>& setups, const std::vector<RunId>& runs, int jobs,
                std::atomic<long>* steps_done, std::string out_dir, int trace_every)
      : setups_(setups), runs_(runs), slots_(jobs), steps_done_(steps_done),
        out_dir_(std::move(out_dir)), trace_every_(trace_every) {}

  // (local thread, run index) => the run's result, computed in a child process
  // (experiment_isolation.h); an exception becomes a failed run.
  RunResult Execute(int thread, int index) {
    Slot& slot = slots_[thread];
    const RunId& run = runs_[index];
    const PointSetup& s = setups_[run.point];
    RunResult result;
    try {
      if (run.point != slot.point) {
        slot.ws = MakeWorkspace(s.run);
        slot.point = run.point;
      }
      IsolationLimits limits;
      limits.wall_time = s.run.wall_time_limit;
      ChildFinish finish;
      if (trace_every_ > 0) {
        finish = [&](const RunResult& r) {
          WriteTrace(out_dir_, run.id, TraceColumns(s.run), r.trace);
        };
      }
      result = RunIsolated(s.run, run.seed, slot.ws, limits, g_interrupts, steps_done_, finish);
    } catch (const std::exception& e) {
      result.status = RunStatus::kFailed;
      result.reason = e.what();
      result.metrics.fill(std::numeric_limits<double>::quiet_NaN());  // nothing measured
      slot.point = -1;  // the workspace may be half-updated: make a fresh one
    }
    return result;
  }

 private:
  // a cache line of its own per thread: the threads write their slots all the time
  struct alignas(64) Slot {
    int point = -1;
    Workspace ws;
  };
  const std::vector<PointSetup>& setups_;
  const std::vector<RunId>& runs_;
  std::vector<Slot> slots_;
  std::atomic<long>* steps_done_;
  std::string out_dir_;
  int trace_every_;
};

// Runs `runs` on `jobs` threads until done or interrupted (g_stop), appending each finished
// run to `writer` (and its trace). With MPI (`mpi` distributed, this is rank 0) the other ranks
// take runs from the same counter and their results are recorded the same way. Throws
// gauss::Error when results.csv cannot be written.
void RunAll(const ExperimentSpec& spec, const std::vector<PointSetup>& setups,
            const std::vector<SweepPoint>& points, const std::vector<RunId>& runs, int jobs,
            const std::string& out_dir, ResultsWriter& writer, MpiExperiment& mpi) {
  long total_steps = 0;
  for (const RunId& r : runs) total_steps += setups[r.point].run.steps;
  std::atomic<int> next{0}, finished{0};
  std::atomic<long> steps_done{0};
  std::mutex write_error_mutex;
  std::string write_error;  // the first failure to write results.csv, if any
  LocalExecutor executor(setups, runs, jobs, &steps_done, out_dir, spec.trace_every);
  const int nruns = static_cast<int>(runs.size());
  auto claim = [&]() -> int {
    if (g_stop.load()) return -1;
    const int i = next.fetch_add(1);
    return i < nruns ? i : -1;
  };
  // a finished run (local or from another rank) => its trace and row; false when results.csv
  // cannot be written (everything stops)
  auto record = [&](int i, const RunResult& result) {
    const RunId& run = runs[i];
    try {
      if (spec.trace_every > 0 && !result.trace.empty()) {
        WriteTrace(out_dir, run.id, TraceColumns(setups[run.point].run), result.trace);
      }
      writer.Add(points[run.point], run, result, setups[run.point].config_file);
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(write_error_mutex);
      if (write_error.empty()) write_error = e.what();
      g_stop.store(true);
      return false;
    }
    ++finished;
    return true;
  };
  std::unique_ptr<RemoteRanks> remote = mpi.Coordinate(claim, [&](int i, const RunResult& result) {
    if (result.status == RunStatus::kOk || result.status == RunStatus::kDiverged) {
      steps_done += static_cast<long>(result.metrics[kMetricSteps]);
    }
    record(i, result);
  });
  std::atomic<int> local{0};  // runs this process ran
  auto worker = [&](int thread) {
    for (int i = claim(); i >= 0; i = claim()) {
      const RunResult result = executor.Execute(thread, i);
      if (result.status == RunStatus::kInterrupted || !record(i, result)) break;
      ++local;
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker, j);
  {
    Progress progress(total_steps, "gauss experiment");
    while (finished.load() < nruns && !g_stop.load()) {
      if (remote) {
        remote->Poll(0.05);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      progress.Update(steps_done.load());
    }
  }
  for (std::thread& t : threads) t.join();
  if (remote) {
    if (g_stop.load()) {
      remote->Interrupt();
      mpi.Abandon();
    } else {
      remote->Finish();
    }
    std::printf("MPI: %s\n", remote->Summary(local.load()).c_str());
    if (remote->AnyRankLost()) mpi.Abandon();
  }
  if (!write_error.empty()) throw Error(write_error);
}

// (sorted results) => the summary lines on stdout: counts by status, the failed runs.
void PrintSummary(const ResultTable& table, std::size_t nruns, bool interrupted,
                  const std::string& path) {
  int count[4] = {0, 0, 0, 0};
  const int status = table.Column("status"), reason = table.Column("reason");
  for (const auto& row : table.rows) {
    for (int k = 0; k < 4; ++k) count[k] += row[status] == RunStatusName(static_cast<RunStatus>(k));
  }
  std::printf("runs: %d ok, %d diverged, %d failed", count[0], count[1], count[2]);
  if (interrupted) std::printf(", %zu not finished (interrupted)", nruns - table.rows.size());
  std::printf("\n");
  for (const auto& row : table.rows) {
    if (row[status] == "failed") std::printf("  run %s failed: %s\n", row[0].c_str(), row[reason].c_str());
  }
  std::printf("results: %s (%zu rows)\n", path.c_str(), table.rows.size());
}

// (finished runs with traces) => the viewer pages (docs/viewer.md): one per model,
// DIR/viewer_<model>.html, that plays any of its runs; one per run, DIR/viewer/run_<id>.html;
// and DIR/viewer/index.html, the results table with each run linked to its page. Skipped with
// a note when gauss was built without the viewer.
void WriteViewerPages(const ExperimentSpec& spec, const std::vector<SweepPoint>& points,
                      const std::vector<PointSetup>& setups, const std::vector<RunId>& runs,
                      const ResultTable& table, const std::string& out_dir) {
  if (!ViewerAvailable()) {
    std::fprintf(stderr, "gauss experiment: no viewer pages: gauss was built without the viewer\n");
    return;
  }
  const std::vector<std::string> labels = ModelLabels(spec);
  const fs::path run_dir = fs::path(out_dir) / "viewer";
  std::map<int, std::string> run_pages;  // run id => page file name (relative to run_dir)
  for (std::size_t m = 0; m < spec.models.size(); ++m) {
    std::vector<ViewTrajectory> trajectories;
    const SweepPoint* first = nullptr;
    for (const RunId& r : runs) {
      const std::string trace = TracePath(out_dir, r.id);
      if (points[r.point].model != static_cast<int>(m) || !fs::exists(trace)) continue;
      if (!first) first = &points[r.point];
      trajectories.push_back({trace, "run " + std::to_string(r.id) + ": " + PointText(spec, points[r.point], labels),
                              (fs::path(out_dir) / setups[r.point].config_file).string(), ""});
      // the run's own page, with the point's configuration
      fs::create_directories(run_dir);
      const std::string name = "run_" + std::to_string(r.id) + ".html";
      WriteViewerPage(spec.model_paths[m], points[r.point].config, {trajectories.back()},
                      (run_dir / name).string());
      run_pages[r.id] = name;
    }
    if (!first) continue;
    const std::string page = (fs::path(out_dir) / ("viewer_" + fs::path(labels[m]).filename().string() + ".html")).string();
    WriteViewerPage(spec.model_paths[m], first->config, trajectories, page);
    std::printf("viewer: %s (%zu runs)\n", page.c_str(), trajectories.size());
  }
  if (run_pages.empty()) return;
  std::vector<std::string> links;  // per results row: its page, "" when the run has no trace
  const int run_col = table.Column("run");
  for (const auto& row : table.rows) {
    const auto it = run_pages.find(run_col >= 0 ? std::atoi(row[run_col].c_str()) : -1);
    links.push_back(it == run_pages.end() ? "" : it->second);
  }
  const std::string index = (run_dir / "index.html").string();
  WriteRunIndexPage(index, "Gauss experiment: " + fs::path(out_dir).filename().string(), table.columns,
                    table.rows, links);
  std::printf("viewer: %s (one page per run: %zu)\n", index.c_str(), run_pages.size());
}

// The `gauss run` command line that simulates the same trajectory as run `r`: the point's
// resolved configuration plus the initial state, noise and controls of the experiment.
std::string RunCommandLine(const ExperimentSpec& spec, const SweepPoint& p, const PointSetup& s,
                           const RunId& r, const std::string& out_dir) {
  std::string cmd = "gauss run " + spec.model_paths[p.model] + " --config " +
                    (fs::path(out_dir) / s.config_file).string() +
                    " --steps " + std::to_string(s.run.steps);
  if (!spec.keyframe.empty()) cmd += " --keyframe " + spec.keyframe;
  const bool noise = spec.qvel_noise > 0 || spec.control == ControlSource::kNoise;
  if (noise) cmd += " --seed " + std::to_string(r.seed);
  char number[64];
  if (spec.qvel_noise > 0) {
    std::snprintf(number, sizeof number, "%.17g", spec.qvel_noise);
    cmd += std::string(" --qvel-noise ") + number;
  }
  if (spec.control == ControlSource::kNoise) {
    std::snprintf(number, sizeof number, "%.17g", spec.control_sigma);
    cmd += std::string(" --ctrl-noise ") + number;
  }
  if (spec.control == ControlSource::kCsv) cmd += " --controls " + spec.controls_file;
  return cmd;
}

// --only RUN: runs[run] alone, with a trace (every step unless traces.every is set), written to
// DIR/traces/run_<id>.csv; prints its status, metrics and the equivalent gauss run command.
int RunOnlyOne(const ExperimentSpec& spec, const std::vector<SweepPoint>& points,
               std::vector<PointSetup>& setups, const RunId& r, const std::string& out_dir) {
  PointSetup& s = setups[r.point];
  if (s.run.trace_every == 0) s.run.trace_every = 1;
  const fs::path dir(out_dir);
  try {
    fs::create_directories(dir / "configs");
    fs::create_directories(dir / "traces");
  } catch (const fs::filesystem_error& e) {
    throw Error(ErrorLocation{out_dir, 0, "", ""}, std::string("cannot write the output: ") + e.what());
  }
  s.config_file = WritePointConfig(out_dir, points[r.point], spec.model_paths[points[r.point].model],
                                   *s.engine);
  Workspace ws = MakeWorkspace(s.run);
  g_stop.store(false);
  const RunResult result = RunOne(s.run, r.seed, ws, g_stop, nullptr);
  if (result.status != RunStatus::kFailed) {
    WriteTrace(out_dir, r.id, TraceColumns(s.run), result.trace);
  }
  std::printf("run %d: %s seed=%llu status=%s%s\n", r.id,
              PointText(spec, points[r.point], ModelLabels(spec)).c_str(),
              static_cast<unsigned long long>(r.seed), RunStatusName(result.status),
              result.reason.empty() ? "" : (" (" + result.reason + ")").c_str());
  for (int k = 0; k < kNumMetrics; ++k) std::printf("  %s=%.12g\n", kMetricNames[k], result.metrics[k]);
  if (result.status != RunStatus::kFailed) {
    std::printf("trace: %s (every %d steps)\n",
                (dir / "traces" / ("run_" + std::to_string(r.id) + ".csv")).string().c_str(),
                s.run.trace_every);
  }
  std::printf("same trajectory: %s --every %d --out run_%d.csv\n",
              RunCommandLine(spec, points[r.point], s, r, out_dir).c_str(), s.run.trace_every, r.id);
  return 0;
}

// Steps 1-4 of the file comment for one process (one rank under MPI).
int RunExperiment(const Options& o, MpiExperiment& mpi) {

  // 1. the experiment file and the overrides
  ExperimentSpec spec = LoadExperiment(o.file);
  ApplyOverrides(o, spec);
  const std::string out_dir = o.out_dir.empty() ? (fs::path("experiments") / spec.name).string() : o.out_dir;

  // 2. plugins, models, engines, checks
  PluginRegistry registry;  // plugins.paths cannot be swept: the first point has them all
  const std::vector<SweepPoint> unexpanded = ExpandSweep(spec);
  for (const std::string& path : unexpanded.front().config.plugin_paths) {
    registry.AddSearchPath(path);
  }
  ExpandWildcards(spec, registry);
  const std::vector<SweepPoint> points = ExpandSweep(spec);
  CsvTable controls;
  if (spec.control == ControlSource::kCsv) controls = ReadCsv(spec.controls_file);
  std::vector<PointSetup> setups = PreparePoints(spec, points, registry, &controls);
  std::vector<std::vector<std::string>> trace_columns;  // of each model's first point
  for (std::size_t m = 0; m < spec.models.size(); ++m) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (points[i].model == static_cast<int>(m)) {
        trace_columns.push_back(TraceColumns(setups[i].run));
        break;
      }
    }
  }
  CheckPlots(spec, ResultColumns(spec), trace_columns);

  std::vector<RunId> runs;
  for (const SweepPoint& p : points) {
    for (int r = 0; r < spec.repeats; ++r) {
      runs.push_back({static_cast<int>(runs.size()), p.index, r, spec.seed + r});
    }
  }
  const int jobs = std::min<int>(o.jobs, static_cast<int>(runs.size()));
  std::string plan;
  for (const SweepAxis& a : spec.sweep) {
    std::string values;
    for (const auto& v : a.values) values += (values.empty() ? "" : ",") + v;
    plan += " x " + a.key + "[" + values + "]";
  }
  if (mpi.rank() == 0) {
    const std::string ranks =
        mpi.distributed() ? " on each of " + std::to_string(mpi.size()) + " MPI ranks" : "";
    std::printf("experiment %s: %zu model(s)%s = %zu points, %d repeat(s) = %zu runs on %d worker(s)%s\n",
                spec.name.c_str(), spec.models.size(), plan.c_str(), points.size(), spec.repeats,
                runs.size(), jobs, ranks.c_str());
  }
  if (o.vm.count("only")) {
    if (mpi.rank() > 0) return 0;  // one run: rank 0 alone
    if (o.only >= static_cast<int>(runs.size())) {
      throw UsageError("--only " + std::to_string(o.only) + ": the experiment has runs 0.." +
                       std::to_string(runs.size() - 1));
    }
    return RunOnlyOne(spec, points, setups, runs[o.only], out_dir);
  }
  if (o.dry_run) {
    if (mpi.rank() > 0) return 0;
    const std::vector<std::string> labels = ModelLabels(spec);
    for (const RunId& r : runs) {
      std::printf("run %d: %s seed=%llu steps=%ld\n", r.id,
                  PointText(spec, points[r.point], labels).c_str(),
                  static_cast<unsigned long long>(r.seed), setups[r.point].run.steps);
    }
    return 0;
  }

  // 3. output directory, then the runs (Ctrl-C or SIGTERM sets g_stop)
  g_stop.store(false);
  g_interrupts.store(0);
  if (mpi.rank() > 0) {  // another rank of an MPI job: run what rank 0 hands out
    const StopSignals signals;
    LocalExecutor executor(setups, runs, jobs, nullptr, out_dir, spec.trace_every);
    LocalRuns local{jobs, [&](int thread, int i) { return executor.Execute(thread, i); }};
    return mpi.Serve(local, g_stop) ? 0 : 130;
  }
  PrepareOutput(spec, out_dir, points, setups);
  ResultsWriter writer(spec, out_dir);
  {
    const StopSignals signals;  // a second Ctrl-C kills the runs' processes at once
    RunAll(spec, setups, points, runs, jobs, out_dir, writer, mpi);
  }

  // 4. sorted results, summary, plots
  const ResultTable table = writer.Finalize();
  const bool interrupted = g_stop.load();
  PrintSummary(table, runs.size(), interrupted, writer.path());
  if (interrupted) {
    std::fprintf(stderr, "gauss experiment: interrupted; results.csv holds the finished runs\n");
    return 130;
  }
  if (!o.no_plots) {
    const PlotOutput plots = DrawPlots(spec, out_dir, table);
    for (const std::string& image : plots.images) std::printf("plot: %s\n", image.c_str());
    if (!plots.note.empty()) std::fprintf(stderr, "gauss experiment: %s\n", plots.note.c_str());
  }
  if (spec.trace_every > 0) WriteViewerPages(spec, points, setups, runs, table, out_dir);
  return 0;
}

}  // namespace

int ExperimentCommand(const std::vector<std::string>& argv) {
  Options o;
  if (!ParseOptions(argv, o)) return 0;
  MpiExperiment mpi;  // MPI_Init when started by mpirun/srun with several ranks
  if (mpi.idle()) return 0;
  mpi.set_rank_timeout(o.rank_timeout);
  try {
    return RunExperiment(o, mpi);
  } catch (const std::exception& e) {
    mpi.AbortOnError(e.what());  // under MPI: the other ranks would wait for this one forever
    throw;
  }
}

}  // namespace gauss::cli
