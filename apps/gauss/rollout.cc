// `gauss rollout`: many trajectories at once, one per initial state of a CSV file, simulated on a
// gauss::Batch (T threads of one ThreadPool) and written with the columns of `gauss run`.
//
// Rows of a trajectory, as `gauss run --out` writes them: the initial state and the state after
// each step, each with the sensors evaluated at it (with the controls of the step starting
// there). The sensors of state k are those step k computes, so a rollout of N rows runs N + 1
// steps and keeps the state of the first N; with one initial state equal to the reset state its
// file is byte-identical to `gauss run --steps N --out`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>

#include "common.h"
#include "csv.h"
#include "gauss/batch.h"
#include "gauss/error.h"
#include "state_table.h"

namespace gauss::cli {
namespace {

namespace fs = std::filesystem;

const char* kUsage =
    "usage: gauss rollout MODEL.xml --initial STATES.csv [--controls CTRL.csv |\n"
    "                     --ctrl-noise S [--seed K]] [--steps N] [--threads T] --out DIR|FILE.csv\n"
    "                     [--config CFG.yaml] [--set KEY=VALUE]...\n\n"
    "Simulates one trajectory per row of STATES.csv (columns time, qpos*, qvel*, act*, ctrl*,\n"
    "qacc_warmstart*, any subset; missing ones keep the reset values) on T threads. Controls:\n"
    "CTRL.csv columns ctrl0..ctrl{nu-1} (row i before step i, last row held), with an optional\n"
    "column 'rollout' giving each row's trajectory (without it every trajectory gets the same\n"
    "sequence); or Gaussian noise of standard deviation S on every control and step, trajectory r\n"
    "drawing from seed K + r as repeat r of `gauss experiment` does; or the ctrl of the initial\n"
    "state, held. --out DIR writes DIR/rollout_<r>.csv with the columns of `gauss run`; --out\n"
    "FILE.csv writes one file with a leading 'rollout' column. Prints rollouts/s and steps/s.";

// Rollouts simulated per Batch call: bounds the memory of the buffered trajectories.
constexpr long kMaxBufferedValues = 16L << 20;

// (CTRL.csv, model, nroll, nstep) => controls, nroll x nstep x nu.
std::vector<double> TableControls(const std::string& path, const Model& m, int nroll, long nstep) {
  const CsvTable table = ReadCsv(path);
  const ErrorLocation file{path, 1, "", ""};
  if (m.nu == 0) throw Error(file, "the model has no actuators, so it takes no controls");
  const int rollout_col = table.Column("rollout");
  std::vector<int> actuator(table.header.size(), -1);
  std::vector<bool> seen(m.nu, false);
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    if (static_cast<int>(c) == rollout_col) continue;
    const ColumnName col = SplitColumnName(table.header[c]);
    if (col.prefix != "ctrl" || col.index < 0 || col.index >= m.nu) {
      throw Error(ErrorLocation{path, 1, table.header[c], ""},
                  "unknown column; expected rollout and ctrl0..ctrl" + std::to_string(m.nu - 1));
    }
    seen[col.index] = true;
    actuator[c] = col.index;
  }
  for (int i = 0; i < m.nu; ++i) {
    if (!seen[i]) throw Error(file, "missing column ctrl" + std::to_string(i));
  }
  // the rows of each trajectory, in file order
  std::vector<std::vector<const std::vector<double>*>> rows(nroll);
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const std::vector<double>& row = table.rows[r];
    if (rollout_col < 0) {
      for (auto& list : rows) list.push_back(&row);
      continue;
    }
    const double id = row[rollout_col];
    if (!(id >= 0 && id < nroll && id == static_cast<int>(id))) {
      throw Error(ErrorLocation{path, table.row_line[r], "rollout", ""},
                  "not a trajectory index: expected an integer in 0.." + std::to_string(nroll - 1));
    }
    rows[static_cast<int>(id)].push_back(&row);
  }
  std::vector<double> ctrl(static_cast<std::size_t>(nroll) * nstep * m.nu);
  for (int r = 0; r < nroll; ++r) {
    if (rows[r].empty()) throw Error(file, "no control rows for rollout " + std::to_string(r));
    for (long t = 0; t < nstep; ++t) {
      const std::vector<double>& row = *rows[r][std::min<std::size_t>(t, rows[r].size() - 1)];
      double* out = ctrl.data() + (r * nstep + t) * m.nu;
      for (std::size_t c = 0; c < row.size(); ++c) {
        if (actuator[c] >= 0) out[actuator[c]] = row[c];
      }
    }
  }
  return ctrl;
}

// Gaussian control noise: trajectory r draws nstep x nu standard normals from mt19937_64(seed+r)
// and scales them by sigma (the distribution of `gauss experiment`'s control noise).
std::vector<double> NoiseControls(const Model& m, int nroll, long nstep, double sigma,
                                  std::uint64_t seed) {
  std::vector<double> ctrl(static_cast<std::size_t>(nroll) * nstep * m.nu);
  for (int r = 0; r < nroll; ++r) {
    std::mt19937_64 gen(seed + r);
    std::normal_distribution<double> normal(0.0, 1.0);
    double* out = ctrl.data() + r * nstep * m.nu;
    for (long k = 0; k < nstep * m.nu; ++k) out[k] = sigma * normal(gen);
  }
  return ctrl;
}

// The trajectory file(s): the columns of `gauss run`, optionally after a 'rollout' column.
class TrajectoryFiles {
 public:
  TrajectoryFiles(const std::string& out, const Model& m) : m_(m), single_(IsFile(out)), out_(out) {
    if (!single_) {
      std::error_code ec;
      fs::create_directories(out_, ec);
      if (ec) throw Error(ErrorLocation{out_, 0, "", ""}, "cannot create the directory: " + ec.message());
    } else {
      writer_ = Open(out_, true);
    }
  }
  static bool IsFile(const std::string& out) { return fs::path(out).extension() == ".csv"; }
  std::string ConfigBase() const { return single_ ? out_ : (fs::path(out_) / "rollout").string(); }

  // Writes trajectory `r`: rows of (time, qpos, qvel, act) at `state` (nrow x nstate) with
  // sensors `sensors` (nrow x nsensordata) and, as `gauss run` does, the divergence resets of
  // the step that led to each row (`stats` (nrow - 1): the statistics of steps 0..nrow-2).
  void Write(int r, long nrow, const double* state, const double* sensors, const StepStats* stats) {
    std::unique_ptr<CsvWriter> own;
    if (!single_) own = Open((fs::path(out_) / ("rollout_" + std::to_string(r) + ".csv")).string(), false);
    CsvWriter& w = single_ ? *writer_ : *own;
    rollout_ = r;
    const int nstate = StateSize(m_, kStateFullPhysics);
    for (long k = 0; k < nrow; ++k) {
      state_ = state + k * nstate;
      sensors_ = sensors + k * m_.nsensordata;
      resets_ = k == 0 ? 0 : ResetsOf(stats[k - 1]);
      w.WriteRow();
    }
    if (own) own->Close();
  }
  void Close() {
    if (writer_) writer_->Close();
  }

 private:
  std::unique_ptr<CsvWriter> Open(const std::string& path, bool with_rollout) {
    auto w = std::make_unique<CsvWriter>(path);
    if (with_rollout) w->AddScalar("rollout", [this] { return rollout_; });
    w->AddScalar("time", [this] { return state_[0]; });
    int at = 1;
    for (auto [name, n] : {std::pair<const char*, int>{"qpos", m_.nq}, {"qvel", m_.nv}, {"act", m_.na}}) {
      w->AddGroup(name, n, [this, at, n = n](double* o) { std::copy(state_ + at, state_ + at + n, o); });
      at += n;
    }
    w->AddGroup("sensordata", m_.nsensordata,
                [this](double* o) { std::copy(sensors_, sensors_ + m_.nsensordata, o); });
    w->AddScalar("reset", [this] { return resets_; });
    w->WriteHeader();
    return w;
  }

  const Model& m_;
  bool single_;
  std::string out_;
  std::unique_ptr<CsvWriter> writer_;
  int rollout_ = 0;
  const double* state_ = nullptr;
  const double* sensors_ = nullptr;
  double resets_ = 0;

  // Divergence resets in one step: the bad qpos, qvel and qacc warnings it raised.
  static double ResetsOf(const StepStats& s) {
    int n = 0;
    for (int w = 0; w <= static_cast<int>(Warning::kBadQacc); ++w) n += (s.warning_bits >> w) & 1u;
    return n;
  }
};

}  // namespace

int RolloutCommand(const std::vector<std::string>& argv) {
  CommonArgs args;
  std::string initial_path, controls_path, out_path;
  double noise = 0;
  long long seed = 0;
  long steps = 1000;
  int threads = 1;
  po::options_description desc("Options");
  desc.add_options()
      ("initial", po::value<std::string>(&initial_path)->value_name("STATES.csv")->required(),
       "initial states, one trajectory per row (columns as for gauss forward)")
      ("controls", po::value<std::string>(&controls_path)->value_name("CTRL.csv"),
       "controls: [rollout,] ctrl0..ctrl{nu-1}; row i before step i, last row held")
      ("ctrl-noise", po::value<double>(&noise)->value_name("S"),
       "Gaussian control noise of standard deviation S instead of --controls")
      ("seed", po::value<long long>(&seed)->value_name("K")->default_value(0),
       "seed of the noise of trajectory 0 (trajectory r uses K + r)")
      ("steps", po::value<long>(&steps)->value_name("N")->default_value(1000), "steps per trajectory")
      ("threads", po::value<int>(&threads)->value_name("T")->default_value(1),
       "threads (0: one per core); the output is the same for every T")
      ("out", po::value<std::string>(&out_path)->value_name("DIR|FILE.csv")->required(),
       "a directory (rollout_<r>.csv each) or one .csv file with a 'rollout' column");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, true, args, vm)) return 0;
  if (vm.count("controls") && vm.count("ctrl-noise")) {
    throw UsageError("give either --controls or --ctrl-noise, not both");
  }
  if (vm.count("ctrl-noise") && !(noise >= 0)) throw UsageError("--ctrl-noise must be >= 0");
  if (seed < 0) throw UsageError("--seed must be >= 0");
  if (steps < 0) throw UsageError("--steps must be >= 0");
  if (threads < 0) throw UsageError("--threads must be >= 0");

  const Engine engine(LoadModelFile(args.model), BuildConfig(args));
  const Model& m = engine.model();
  const CsvTable table = ReadCsv(initial_path);
  if (table.rows.empty()) throw Error(ErrorLocation{initial_path, 1, "", ""}, "no initial states after the header");
  const StateTable states(table, m, /*with_qacc=*/false);
  const int nroll = static_cast<int>(table.rows.size());
  const int nin = StateSize(m, kStateIntegration);
  std::vector<double> initial(static_cast<std::size_t>(nroll) * nin);
  {
    Data d = engine.MakeData();
    for (int r = 0; r < nroll; ++r) {
      engine.Reset(d);
      states.Apply(r, d);
      GetState(m, d, kStateIntegration, initial.data() + r * nin);
    }
  }
  const long nsim = steps + 1;  // the last step gives the sensors of the final state
  std::vector<double> ctrl;
  if (!controls_path.empty()) ctrl = TableControls(controls_path, m, nroll, nsim);
  if (vm.count("ctrl-noise")) ctrl = NoiseControls(m, nroll, nsim, noise, seed);

  TrajectoryFiles files(out_path, m);
  const std::string config_path = WriteResolvedConfig(files.ConfigBase(), args.model, engine);
  ThreadPool pool(threads);
  Batch batch(engine, pool);
  const int nstate = StateSize(m, kStateFullPhysics);
  const long per_rollout = nsim * (nstate + m.nsensordata);
  const int chunk = static_cast<int>(std::clamp<long>(kMaxBufferedValues / std::max(1L, per_rollout),
                                                      pool.size(), nroll));
  std::vector<double> state(static_cast<std::size_t>(chunk) * nsim * nstate);
  std::vector<double> sensors(static_cast<std::size_t>(chunk) * nsim * m.nsensordata);
  std::vector<StepStats> stats(static_cast<std::size_t>(chunk) * nsim);
  std::vector<double> rows(static_cast<std::size_t>(nsim) * nstate);
  std::map<std::string, long> warnings;
  double seconds = 0;
  for (int first = 0; first < nroll; first += chunk) {
    RolloutRequest request;
    request.nroll = std::min(chunk, nroll - first);
    request.nstep = static_cast<int>(nsim);
    request.initial_state = initial.data() + static_cast<std::size_t>(first) * nin;
    request.control = ctrl.empty() ? nullptr : ctrl.data() + static_cast<std::size_t>(first) * nsim * m.nu;
    request.state = state.data();
    request.sensordata = sensors.data();
    request.stats = stats.data();
    const auto start = std::chrono::steady_clock::now();
    batch.Rollout(request);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (int k = 0; k < request.nroll; ++k) {
      // row 0: the initial state; row j: the state after step j - 1
      const double* traj = state.data() + static_cast<std::size_t>(k) * nsim * nstate;
      // (the integration state starts with time, qpos, qvel, act: the kStateFullPhysics layout)
      std::copy_n(initial.data() + static_cast<std::size_t>(first + k) * nin, nstate, rows.data());
      std::copy(traj, traj + steps * nstate, rows.begin() + nstate);
      files.Write(first + k, nsim, rows.data(), sensors.data() + static_cast<std::size_t>(k) * nsim * m.nsensordata,
                  stats.data() + static_cast<std::size_t>(k) * nsim);
      for (long t = 0; t < steps; ++t) {
        const StepStats& s = stats[static_cast<std::size_t>(k) * nsim + t];
        for (int w = 0; w < kNumWarnings; ++w) {
          if (s.warning_bits & (1u << w)) ++warnings[kWarningNames[w]];
        }
      }
    }
  }
  files.Close();

  const long total_steps = static_cast<long>(nroll) * nsim;
  std::printf("model: %s (%s)\n", m.name.c_str(), args.model.c_str());
  std::printf("rollouts: %d x %ld steps on %d thread(s)\n", nroll, steps, pool.size());
  std::printf("wall time: %.6f s (%.1f rollouts/s, %.0f steps/s)\n", seconds,
              seconds > 0 ? nroll / seconds : 0.0, seconds > 0 ? total_steps / seconds : 0.0);
  std::string text;
  for (const auto& [name, count] : warnings) {
    text += (text.empty() ? "" : ", ") + name + " in " + std::to_string(count) + " step(s)";
  }
  std::printf("warnings: %s\n", text.empty() ? "none" : text.c_str());
  std::printf("output: %s\n", out_path.c_str());
  std::printf("configuration: %s\n", config_path.c_str());
  return 0;
}

}  // namespace gauss::cli
