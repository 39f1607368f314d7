// `gauss derivatives`: transition Jacobians of one step at each state of a CSV file, in the
// columns of `mjref derivatives` (A_i_j, B_i_j, C_i_j, D_i_j, row-major) so that compare.py
// compares the two files directly: finite differences A, B, C, D (gauss/transition_fd.h), or
// A, B through the solver's implicit gradients (gauss/transition_implicit.h, solver=ip).
#include <chrono>
#include <cstdio>
#include <memory>

#include "common.h"
#include "csv.h"
#include "gauss/error.h"
#include "gauss/thread_pool.h"
#include "gauss/transition_fd.h"
#include "gauss/transition_implicit.h"
#include "progress.h"
#include "state_table.h"

namespace gauss::cli {
namespace {

const char* kUsage =
    "usage: gauss derivatives MODEL.xml --states IN.csv --out OUT.csv [--eps E] [--centered]\n"
    "                         [--method fd|implicit] [--threads N] [--config CFG.yaml] [--set KEY=VALUE]...\n\n"
    "For each row of IN.csv: reset, set the state from the columns present (time, qpos*, qvel*,\n"
    "act*, ctrl*, qacc_warmstart*; missing ones keep qpos0 and zeros) and differentiate one step\n"
    "x' = step(x, u), x = (position tangent, qvel, act), by finite differences. OUT.csv gets\n"
    "A_i_j = dx'_i/dx_j, B_i_j = dx'_i/du_j, C_i_j = dsensordata_i/dx_j, D_i_j =\n"
    "dsensordata_i/du_j, each block row-major (the columns of `mjref derivatives`).\n"
    "--method implicit (solver=ip): A and B with the constraint solve differentiated by the\n"
    "implicit function theorem (smooth through contact at the solver's kappa); no C, D.";

// "<name>_<i>_<j>" for a rows x cols matrix, row-major.
std::vector<std::string> MatrixNames(const std::string& name, int rows, int cols) {
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(rows) * cols);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      out.push_back(name + "_" + std::to_string(i) + "_" + std::to_string(j));
    }
  }
  return out;
}

}  // namespace

int DerivativesCommand(const std::vector<std::string>& argv) {
  CommonArgs args;
  std::string states_path;
  std::string out_path;
  std::string method = "fd";
  TransitionFDOptions options;
  int threads = 1;
  po::options_description desc("Options");
  desc.add_options()
      ("states", po::value<std::string>(&states_path)->value_name("IN.csv")->required(),
       "input states, columns matched by name (see above)")
      ("out", po::value<std::string>(&out_path)->value_name("OUT.csv")->required(),
       "output CSV: A, B, C, D flattened row-major, one row per input row")
      ("eps", po::value<double>(&options.eps)->value_name("E")->default_value(1e-6),
       "perturbation size")
      ("centered", po::bool_switch(&options.centered), "central differences (default: forward)")
      ("method", po::value<std::string>(&method)->value_name("fd|implicit")->default_value("fd"),
       "fd: finite differences; implicit: the solver's implicit gradients (solver=ip)")
      ("threads", po::value<int>(&threads)->value_name("N")->default_value(1),
       "worker threads for the Jacobian columns (results are identical for every N)");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, true, args, vm)) return 0;
  if (method != "fd" && method != "implicit") {
    throw UsageError("--method must be fd or implicit (got '" + method + "')");
  }
  const bool implicit = method == "implicit";
  if (implicit && threads > 1) throw UsageError("--method implicit runs on one thread (--threads 1)");
  if (!(options.eps > 0)) throw UsageError("--eps must be positive");
  if (threads < 1) throw UsageError("--threads must be at least 1");

  const Config config = BuildConfig(args);
  const Engine engine(LoadModelFile(args.model), config);
  const Model& m = engine.model();
  const CsvTable input = ReadCsv(states_path);

  Data d = engine.MakeData();
  const StateTable states(input, m, /*with_qacc=*/false);
  std::unique_ptr<ThreadPool> pool;
  if (threads > 1) pool = std::make_unique<ThreadPool>(threads);
  TransitionFD fd(engine, pool.get());
  std::unique_ptr<TransitionImplicit> gradients;
  if (implicit) {
    try {
      gradients = std::make_unique<TransitionImplicit>(engine);
    } catch (const Error& e) {
      throw UsageError(std::string("--method implicit: ") + e.what());
    }
  }
  const int nx = fd.nx(), nu = fd.nu(), ns = implicit ? 0 : fd.ns();
  std::vector<double> A(nx * nx), B(nx * nu), C(ns * nx), D(ns * nu);

  CsvWriter writer(out_path);
  auto copy = [](const std::vector<double>& v) {
    return [&v](double* o) { std::copy(v.begin(), v.end(), o); };
  };
  writer.AddNamed(MatrixNames("A", nx, nx), copy(A));
  writer.AddNamed(MatrixNames("B", nx, nu), copy(B));
  writer.AddNamed(MatrixNames("C", ns, nx), copy(C));
  writer.AddNamed(MatrixNames("D", ns, nu), copy(D));
  const std::string config_path = WriteResolvedConfig(out_path, args.model, engine);

  Progress progress(static_cast<long>(input.rows.size()), "gauss derivatives");
  double seconds = 0;
  for (std::size_t r = 0; r < input.rows.size(); ++r) {
    engine.Reset(d);
    states.Apply(r, d);
    const auto start = std::chrono::steady_clock::now();
    if (implicit) {
      gradients->Compute(d, options, A.data(), B.data());
    } else {
      fd.Compute(d, options, A.data(), B.data(), ns ? C.data() : nullptr, ns ? D.data() : nullptr);
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    writer.WriteRow();
    progress.Update(static_cast<long>(r + 1));
  }
  progress.Finish();
  writer.Close();
  std::printf("model: %s (%s)\n", m.name.c_str(), args.model.c_str());
  std::printf("states: %zu  nx=%d nu=%d nsensordata=%d  eps=%g %s  threads=%d  method=%s\n",
              input.rows.size(), nx, nu, ns, options.eps,
              options.centered ? "centered" : "forward", threads, method.c_str());
  if (!implicit) {
    std::printf("stages reused by perturbed steps: %s (integrator %s)\n",
                fd.reuses_stages() ? "yes" : "no", engine.options().integrator.c_str());
  }
  std::printf("time in the Jacobians: %.3f ms per state\n",
              input.rows.empty() ? 0.0 : 1e3 * seconds / input.rows.size());
  std::printf("output: %s (%d rows)\n", out_path.c_str(), writer.rows());
  std::printf("configuration: %s\n", config_path.c_str());
  return 0;
}

}  // namespace gauss::cli
