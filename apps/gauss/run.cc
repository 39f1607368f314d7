// `gauss run`: simulate a model for a number of steps (or a duration), optionally driven by a
// CSV of controls, writing the trajectory as CSV and a summary of the run on stdout.
#include <signal.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

#include "common.h"
#include "contact_csv.h"
#include "csv.h"
#include "gauss/error.h"
#include "noise.h"
#include "profile_table.h"
#include "progress.h"
#include "state_table.h"

namespace gauss::cli {
namespace {

constexpr long kDefaultSteps = 1000;

const char* kUsage =
    "usage: gauss run MODEL.xml [--steps N | --duration T] [--controls CTRL.csv]\n"
    "                 [--keyframe K] [--initial STATE.csv] [--seed S] [--qvel-noise Q]\n"
    "                 [--ctrl-noise SIGMA] [--out TRAJ.csv [--contacts]] [--every K]\n"
    "                 [--profile]\n"
    "                 [--config CFG.yaml] [--set KEY=VALUE]...\n\n"
    "Simulates MODEL.xml from its reference configuration (qpos0, zero velocity), or from a\n"
    "keyframe and/or the first row of STATE.csv. With --out,\n"
    "writes the columns time,qpos0..,qvel0..,act0..,sensordata0..,reset for the initial state\n"
    "and every K steps (sensors evaluated at that state with the controls of the step starting\n"
    "there; reset counts the divergence resets since the previous row), and the resolved\n"
    "configuration to TRAJ.csv.config.yaml. The rows go to TRAJ.csv.part, renamed to TRAJ.csv\n"
    "when the run completes. --controls reads columns ctrl0..ctrl{nu-1}: row i is applied\n"
    "before step i, the last row is held to the end.\n"
    "--contacts also writes the contacts of every row (point, normal, distance, normal and\n"
    "friction force) to TRAJ.csv.contacts.csv, one line per contact (docs/cli.md).\n"
    "--profile adds the constraint solver's iteration statistics and the time of every stage\n"
    "and plugin to the summary.";

// Set by SIGINT, SIGTERM and SIGHUP (the signal number); the step loop stops at the next step.
// The handler is reset to the default action after the first signal (SA_RESETHAND), so that a
// second one ends a run stuck inside a step.
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the stop flag must be lock-free");
extern "C" void OnStopSignal(int sig) { g_stop_signal.store(sig); }

// Installs OnStopSignal for INT, TERM and HUP for its lifetime.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal.store(0);
    struct sigaction action {};
    action.sa_handler = OnStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &action, &previous_[i]);
  }
  ~StopSignals() {
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &previous_[i], nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction previous_[3];
};

// True when the values hold a NaN or an infinity.
bool AnyNonFinite(const std::vector<double>& v) {
  for (double x : v) {
    if (!std::isfinite(x)) return true;
  }
  return false;
}

// Controls from a CSV file, columns matched to actuators by name.
struct Controls {
  CsvTable table;
  std::vector<int> actuator;  // actuator index of each column
};

// (CTRL.csv, model.nu) => Controls; the columns must be exactly ctrl0..ctrl{nu-1}.
Controls ReadControls(const std::string& path, const Model& model) {
  Controls c{ReadCsv(path), {}};
  const ErrorLocation file{path, 1, "", ""};
  if (model.nu == 0) throw Error(file, "the model has no actuators, so it takes no controls");
  std::vector<bool> seen(model.nu, false);
  for (const auto& name : c.table.header) {
    const ColumnName col = SplitColumnName(name);
    if (col.prefix != "ctrl" || col.index < 0) {
      throw Error(ErrorLocation{path, 1, name, ""},
                  "unknown column; expected ctrl0..ctrl" + std::to_string(model.nu - 1));
    }
    if (col.index >= model.nu) {
      throw Error(ErrorLocation{path, 1, name, ""},
                  "index out of range: the model has nu=" + std::to_string(model.nu) +
                      " actuators (ctrl0..ctrl" + std::to_string(model.nu - 1) + ")");
    }
    seen[col.index] = true;
    c.actuator.push_back(col.index);
  }
  for (int i = 0; i < model.nu; ++i) {
    if (!seen[i]) {
      throw Error(file, "missing column ctrl" + std::to_string(i) + ": the model has nu=" +
                            std::to_string(model.nu) + " actuators, each needs a column");
    }
  }
  if (c.table.rows.empty()) throw Error(file, "no control rows after the header");
  return c;
}

// One trajectory row: a state and the sensors evaluated at it. Engine::Step computes the sensors
// at the state it starts from, so the state is saved before the step and the row written after
// it (as mjref run does); the buffers are sized once, so saving does not allocate.
struct TrajectoryRow {
  double time = 0;
  double resets = 0;  // divergence resets since the previous row
  std::vector<double> qpos, qvel, act, sensordata;

  bool HasNonFinite() const {
    return !std::isfinite(time) || AnyNonFinite(qpos) || AnyNonFinite(qvel) || AnyNonFinite(act) ||
           AnyNonFinite(sensordata);
  }

  void SaveState(const Data& d) {
    time = d.time;
    qpos = d.qpos;
    qvel = d.qvel;
    act = d.act;
  }
  void SaveSensors(const Data& d) { sensordata = d.sensordata; }
};

// (controls, step index) => d.ctrl for step i (the last control row is held).
void ApplyControls(const Controls& controls, long i, Data& d) {
  const int nrow = static_cast<int>(controls.table.rows.size());
  if (nrow == 0) return;
  const std::vector<double>& row = controls.table.rows[std::min<long>(i, nrow - 1)];
  for (size_t j = 0; j < row.size(); ++j) d.ctrl[controls.actuator[j]] = row[j];
}

// (steps or duration, timestep) => number of steps to run.
long StepCount(const po::variables_map& vm, long steps, double duration, double timestep) {
  if (vm.count("steps") && vm.count("duration")) {
    throw UsageError("give either --steps or --duration, not both");
  }
  if (vm.count("duration")) {
    if (!(duration >= 0) || !std::isfinite(duration)) {
      throw UsageError("--duration must be a number >= 0");
    }
    // The small shrink keeps T = n*h from becoming n+1 steps through rounding of T/h.
    return static_cast<long>(std::ceil(duration / timestep * (1 - 1e-12)));
  }
  if (vm.count("steps")) {
    if (steps < 0) throw UsageError("--steps must be >= 0");
    return steps;
  }
  return kDefaultSteps;
}

// Warnings raised over a whole run. The kernel's counters restart at each divergence reset
// (ResetData clears them, as MuJoCo's does), so the run adds them up step by step.
struct WarningTotals {
  std::array<long, kNumWarnings> count{};
  long resets = 0;  // steps in which the kernel reset the state (bad qpos, qvel or qacc)

  // Before a step: the kernel's counters start from zero.
  static void Clear(Data& d) { d.warning_count.fill(0); }
  // After a step: (kernel counters) => totals; returns the resets of this step.
  long Add(const Data& d) {
    long step_resets = 0;
    for (int w = 0; w < kNumWarnings; ++w) {
      count[w] += d.warning_count[w];
      if (w <= static_cast<int>(Warning::kBadQacc)) step_resets += d.warning_count[w];
    }
    resets += step_resets;
    return step_resets;
  }
};


// Constraint solver statistics over the steps of a run: iterations per step, and the cost,
// gradient and improvement of the last iteration of the last step that iterated.
struct SolverStats {
  long steps = 0, iterating = 0;  // steps seen, steps with at least one iteration
  long iter_sum = 0;
  int iter_max = 0;
  SolverIteration last;

  void Add(const Model& m, const Data& d) {
    ++steps;
    if (d.solver_iter <= 0) return;
    ++iterating;
    iter_sum += d.solver_iter;
    iter_max = std::max(iter_max, d.solver_iter);
    last = FinalSolverIteration(m, d);  // over islands when they are on (engine.h)
  }
  void Print() const {
    std::printf("solver iterations: mean %.3g over %ld steps with constraints (of %ld), max %d\n",
                iterating > 0 ? static_cast<double>(iter_sum) / iterating : 0.0, iterating, steps,
                iter_max);
    if (iterating > 0) {
      std::printf("solver last iteration: cost %.9g, gradient %.3g, improvement %.3g\n",
                  last.cost, last.gradient, last.improvement);
    }
  }
};


// (final data, totals) => the summary lines about the final state and the warnings raised.
void PrintFinalState(const Engine& engine, Data& d, const WarningTotals& totals) {
  double max_qvel = 0;
  for (double v : d.qvel) max_qvel = std::isnan(v) || std::isnan(max_qvel) ? NAN : std::max(max_qvel, std::fabs(v));
  std::printf("final time: %.9g\n", d.time);
  std::printf("final max|qvel|: %.6g\n", max_qvel);
  if (engine.options().Enabled(kEnableEnergy)) {
    // Step leaves the position/velocity stages of the state before integration; recompute so
    // that the energy describes the final state.
    engine.Forward(d);
    std::printf("final energy: potential=%.9g kinetic=%.9g total=%.9g\n", d.energy[0],
                d.energy[1], d.energy[0] + d.energy[1]);
  }
  std::string warnings;
  for (int i = 0; i < kNumWarnings; ++i) {
    if (totals.count[i] == 0) continue;
    warnings += std::string(warnings.empty() ? "" : ", ") + kWarningNames[i] + " x" +
                std::to_string(totals.count[i]);
  }
  std::printf("warnings: %s\n", warnings.empty() ? "none" : warnings.c_str());
  if (totals.resets > 0) {
    std::printf("resets: %ld (the state diverged and was reset to qpos0, time restarting at 0; "
                "the reset column marks the rows after each)\n", totals.resets);
  }
}

}  // namespace

int RunCommand(const std::vector<std::string>& argv) {
  CommonArgs args;
  long steps = 0;
  double duration = 0;
  long every = 1;
  bool profile = false;
  std::string controls_path;
  std::string out_path;
  bool record_contacts = false;
  std::string keyframe, initial_path;
  long long seed = 0;
  double qvel_noise = 0, ctrl_noise = 0;
  po::options_description desc("Options");
  desc.add_options()
      ("steps", po::value<long>(&steps)->value_name("N"),
       "number of steps (default 1000)")
      ("duration", po::value<double>(&duration)->value_name("T"),
       "simulated seconds instead of --steps (rounded up to whole steps)")
      ("controls", po::value<std::string>(&controls_path)->value_name("CTRL.csv"),
       "controls: columns ctrl0..ctrl{nu-1}, row i before step i, last row held")
      ("keyframe", po::value<std::string>(&keyframe)->value_name("K"),
       "start from the model's keyframe K (name or 0-based index)")
      ("initial", po::value<std::string>(&initial_path)->value_name("STATE.csv"),
       "start from the first row of STATE.csv (columns time, qpos*, qvel*, act*, ctrl*, any "
       "subset; applied after --keyframe)")
      ("seed", po::value<long long>(&seed)->value_name("S"),
       "seed of the noise of --qvel-noise and --ctrl-noise (default 0)")
      ("qvel-noise", po::value<double>(&qvel_noise)->value_name("Q"),
       "add Q * N(0,1) to each initial qvel entry")
      ("ctrl-noise", po::value<double>(&ctrl_noise)->value_name("SIGMA"),
       "before each step, set every ctrl to SIGMA * N(0,1) (as experiments' controls: noise)")
      ("out", po::value<std::string>(&out_path)->value_name("TRAJ.csv"),
       "write the trajectory (and TRAJ.csv.config.yaml)")
      ("every", po::value<long>(&every)->value_name("K")->default_value(1),
       "write a row every K steps (after the initial state)")
      ("contacts", po::bool_switch(&record_contacts),
       "with --out: write each row's contacts and forces to TRAJ.csv.contacts.csv")
      ("profile", po::bool_switch(&profile),
       "print solver iteration statistics and the time of every stage and plugin");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, true, args, vm)) return 0;
  if (every < 1) throw UsageError("--every must be >= 1");
  if (record_contacts && out_path.empty()) throw UsageError("--contacts needs --out TRAJ.csv");
  if (vm.count("seed") && seed < 0) throw UsageError("--seed must be >= 0");
  if (!(qvel_noise >= 0) || !std::isfinite(qvel_noise)) throw UsageError("--qvel-noise must be a number >= 0");
  if (!(ctrl_noise >= 0) || !std::isfinite(ctrl_noise)) throw UsageError("--ctrl-noise must be a number >= 0");
  if (ctrl_noise > 0 && !controls_path.empty()) {
    throw UsageError("give either --controls or --ctrl-noise, not both");
  }
  if (vm.count("out")) CheckOutputPath(out_path, "--out", {args.model, args.config_file, controls_path});

  const Config config = BuildConfig(args);
  const std::shared_ptr<const Model> model = LoadModelFile(args.model);
  const Engine engine(model, config);
  const Model& m = engine.model();
  const long nstep = StepCount(vm, steps, duration, engine.options().timestep);
  Controls controls;
  if (!controls_path.empty()) controls = ReadControls(controls_path, m);

  if (ctrl_noise > 0 && m.nu == 0) {
    throw UsageError("--ctrl-noise: the model has no actuators, so it takes no controls");
  }

  // the initial state: keyframe (or reference configuration), then STATE.csv, then noise
  Data d = engine.MakeData();
  if (!keyframe.empty()) {
    const int key = FindKeyframe(m, keyframe);
    if (key < 0) {
      std::string names;
      for (int k = 0; k < m.nkey; ++k) names += (names.empty() ? "" : ", ") + std::to_string(k) + (m.key_name[k].empty() ? "" : " (" + m.key_name[k] + ")");
      throw Error(ErrorLocation{args.model, 0, "", ""},
                  "no keyframe '" + keyframe + "'; the model's keyframes: " +
                      (names.empty() ? std::string("none") : names));
    }
    engine.ResetToKeyframe(d, key);
  }
  if (!initial_path.empty()) {
    const CsvTable initial = ReadCsv(initial_path);
    if (initial.rows.empty()) {
      throw Error(ErrorLocation{initial_path, 0, "", ""}, "no state row after the header");
    }
    StateTable(initial, m, false).Apply(0, d);
  }
  NoiseSource noise(static_cast<std::uint64_t>(seed));
  noise.PerturbQvel(qvel_noise, d);
  d.profile.enabled = profile;
  SolverStats solver_stats;

  TrajectoryRow row;  // before the writer, whose columns read it
  std::unique_ptr<CsvWriter> writer;
  std::string config_path;
  if (!out_path.empty()) {
    row.SaveState(d);
    row.SaveSensors(d);
    writer = std::make_unique<CsvWriter>(out_path);
    writer->AddScalar("time", [&row] { return row.time; });
    auto add = [&writer](const char* name, const std::vector<double>& v) {
      writer->AddGroup(name, static_cast<int>(v.size()),
                       [&v](double* o) { std::copy(v.begin(), v.end(), o); });
    };
    add("qpos", row.qpos);
    add("qvel", row.qvel);
    add("act", row.act);
    add("sensordata", row.sensordata);
    writer->AddScalar("reset", [&row] { return row.resets; });
  }
  std::unique_ptr<ContactCsvWriter> contacts;
  if (record_contacts) contacts = std::make_unique<ContactCsvWriter>(ContactCsvPath(out_path));

  // Only engine.Step is timed, so that the steps/s figure does not include CSV formatting.
  using Clock = std::chrono::steady_clock;
  Clock::duration step_time{};
  const Clock::time_point wall_start = Clock::now();
  WarningTotals totals;
  long nan_rows = 0;
  double pending_resets = 0;  // resets since the last row written
  auto write_row = [&] {
    row.resets = pending_resets;
    pending_resets = 0;
    nan_rows += row.HasNonFinite();
    writer->WriteRow();
  };
  const StopSignals stop_signals;
  Progress progress(nstep, "gauss run");
  long steps_done = 0;
  for (long i = 0; i < nstep && g_stop_signal.load() == 0; ++i) {
    ApplyControls(controls, i, d);
    if (ctrl_noise > 0) noise.DrawControls(ctrl_noise, d);
    const bool row_due = writer && i % every == 0;
    if (row_due) row.SaveState(d);
    WarningTotals::Clear(d);
    const Clock::time_point t0 = Clock::now();
    engine.Step(d);
    step_time += Clock::now() - t0;
    const long step_resets = totals.Add(d);
    if (profile) solver_stats.Add(m, d);
    if (row_due) {
      row.SaveSensors(d);
      if (contacts) contacts->WriteContacts(writer->rows(), row.time, m, d);
      write_row();
    }
    pending_resets += step_resets;
    steps_done = i + 1;
    progress.Update(i + 1);
  }
  progress.Finish();
  if (const int sig = g_stop_signal.load()) {
    // stopped by INT/TERM/HUP: the part file keeps the whole rows written so far
    if (writer) writer->CloseIncomplete();
    std::fprintf(stderr, "gauss run: stopped by %s after %ld of %ld steps%s\n",
                 sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP", steps_done,
                 nstep,
                 writer ? ("; the rows written so far are in " + PartPath(out_path) + " (" +
                           out_path + " and its configuration were not written)").c_str()
                        : "");
    return 128 + sig;
  }
  // before the evaluations below, which are not steps
  const std::string profile_table = profile ? ProfileTable(engine, d) : "";
  if (writer && nstep % every == 0) {
    // the final state is a row too: one forward evaluation gives its sensors (with the
    // controls of the step that would start there; noise is not drawn for it)
    ApplyControls(controls, nstep, d);
    engine.Forward(d);
    row.SaveState(d);
    row.SaveSensors(d);
    if (contacts) contacts->WriteContacts(writer->rows(), row.time, m, d);
    write_row();
  }
  if (contacts) contacts->Close();
  if (writer) {
    writer->Close();  // TRAJ.csv appears complete, then its configuration
    config_path = WriteResolvedConfig(out_path, args.model, engine);
  }
  const double wall = std::chrono::duration<double>(Clock::now() - wall_start).count();
  const double stepping = std::chrono::duration<double>(step_time).count();

  std::printf("model: %s (%s)\n", m.name.c_str(), args.model.c_str());
  std::printf("size: %s\n", ModelSizeText(m).c_str());
  std::printf("plugins:\n%s", PluginsText(engine).c_str());
  if (!keyframe.empty() || !initial_path.empty() || qvel_noise > 0 || ctrl_noise > 0) {
    std::printf("initial state:%s%s%s\n", keyframe.empty() ? "" : (" keyframe " + keyframe).c_str(),
                initial_path.empty() ? "" : (" from " + initial_path).c_str(),
                qvel_noise > 0 || ctrl_noise > 0 ? (" noise seed " + std::to_string(seed)).c_str() : "");
  }
  std::printf("steps: %ld\n", nstep);
  std::printf("simulated time: %.9g s (timestep %.9g s)\n", nstep * engine.options().timestep,
              engine.options().timestep);
  std::printf("wall time: %.6f s (stepping %.6f s, %.0f steps/s)\n", wall, stepping,
              stepping > 0 ? nstep / stepping : 0.0);
  PrintFinalState(engine, d, totals);
  if (profile) {
    solver_stats.Print();
    std::printf("profile:\n%s", profile_table.c_str());
  }
  if (writer) {
    std::printf("output: %s (%d rows", out_path.c_str(), writer->rows());
    if (nan_rows > 0) std::printf(", %ld with NaN or infinite values", nan_rows);
    std::printf(")\n");
    std::printf("configuration: %s\n", config_path.c_str());
  }
  if (contacts) {
    std::printf("contacts: %s (%d lines)\n", ContactCsvPath(out_path).c_str(), contacts->contacts());
  }
  return 0;
}

}  // namespace gauss::cli
