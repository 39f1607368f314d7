// `gauss trajopt PROBLEM.yaml --out DIR`: iLQR trajectory optimization (gauss/trajopt.h) of a
// problem described in YAML (docs/derivatives.md lists the keys); writes DIR/cost.csv (cost per
// iteration), DIR/trajectory.csv (time, qpos, qvel, ctrl of the optimized rollout),
// DIR/summary.yaml and DIR/cost.png (gnuplot) and prints the summary.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "common.h"
#include "experiment_plot.h"
#include "gauss/error.h"
#include "gauss/state.h"
#include "gauss/thread_pool.h"
#include "gauss/trajopt.h"

namespace gauss::cli {
namespace {

namespace fs = std::filesystem;

const char* kUsage =
    "usage: gauss trajopt PROBLEM.yaml --out DIR [--set KEY=VALUE]...\n\n"
    "Optimizes the controls of a simulation with iLQR on finite-difference or implicit\n"
    "Jacobians. PROBLEM.yaml names the model, the horizon, the start and goal states, the cost\n"
    "weights, the initial controls, the derivative method, the treatment of control limits\n"
    "and, optionally, the goal as a hard terminal constraint (goal_constraint: augmented\n"
    "Lagrangian; docs/derivatives.md). --set adds engine settings after the file's own `set` list.";

// Where in PROBLEM.yaml, for error messages.
Error BadKey(const std::string& file, const YAML::Node& node, const std::string& what) {
  return Error(ErrorLocation{file, node.Mark().line + 1, "", ""}, what);
}

// node[key] when node is a map that has it, else an undefined node (yaml-cpp throws on
// indexing an undefined node, so nested optional keys go through this).
YAML::Node Child(const YAML::Node& node, const char* key) {
  if (!node || !node.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  return node[key];
}

// A per-dof vector: a scalar (every dof), a list of n numbers, or absent (empty).
std::vector<double> DofVector(const std::string& file, const YAML::Node& node, int n,
                              const std::string& key) {
  if (!node) return {};
  if (node.IsScalar()) return std::vector<double>(n, node.as<double>());
  if (!node.IsSequence() || static_cast<int>(node.size()) != n) {
    throw BadKey(file, node, key + ": expected a number or a list of " + std::to_string(n) +
                                 " numbers");
  }
  return node.as<std::vector<double>>();
}

struct Problem {
  std::string model_path;
  Config config;
  IlqrProblem ilqr;
  std::vector<double> start_qpos, start_qvel, controls;
  int threads = 1;
};

Problem ReadProblem(const std::string& path, const std::vector<std::string>& sets) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw Error(ErrorLocation{path, e.mark.line + 1, "", ""}, e.msg);
  }
  Problem pr;
  if (!root["model"]) throw BadKey(path, root, "missing key 'model' (an MJCF file)");
  pr.model_path = (fs::path(path).parent_path() / root["model"].as<std::string>()).string();
  if (root["set"]) {
    for (const auto& s : root["set"]) ApplySetting(pr.config, s.as<std::string>());
  }
  for (const auto& s : sets) ApplySetting(pr.config, s);
  pr.ilqr.horizon = root["horizon"] ? root["horizon"].as<int>() : 100;
  pr.ilqr.max_iterations = root["max_iterations"] ? root["max_iterations"].as<int>() : 50;
  pr.ilqr.tolerance = root["tolerance"] ? root["tolerance"].as<double>() : 1e-6;
  // default (IlqrProblem's): the unconstrained backward pass; the box-constrained one is an
  // option, better on some contact problems and worse on others
  if (const YAML::Node limits = root["control_limits"]) {
    const std::string mode = limits.as<std::string>();
    if (mode != "box" && mode != "clamp") {
      throw BadKey(path, limits, "control_limits must be box or clamp");
    }
    pr.ilqr.control_limits = mode == "box" ? IlqrControlLimits::kBox : IlqrControlLimits::kClamp;
  }
  if (const YAML::Node der = root["derivatives"]) {
    const std::string method = der["method"] ? der["method"].as<std::string>() : "fd";
    if (method != "fd" && method != "implicit") {
      throw BadKey(path, der["method"], "derivatives.method must be fd or implicit");
    }
    pr.ilqr.implicit = method == "implicit";
    if (der["eps"]) pr.ilqr.derivatives.eps = der["eps"].as<double>();
    if (der["centered"]) pr.ilqr.derivatives.centered = der["centered"].as<bool>();
    if (der["threads"]) pr.threads = der["threads"].as<int>();
  }
  return pr;
}

// The model-dependent parts (sizes known once the engine exists).
void ReadModelParts(const std::string& path, const Model& m, Problem& pr) {
  const YAML::Node root = YAML::LoadFile(path);
  const YAML::Node goal = root["goal"];
  if (!goal || !goal["qpos"]) throw BadKey(path, root, "missing key 'goal: {qpos: [...]}'");
  pr.ilqr.goal_qpos = DofVector(path, goal["qpos"], m.nq, "goal.qpos");
  pr.ilqr.goal_qvel = DofVector(path, goal["qvel"], m.nv, "goal.qvel");
  const YAML::Node cost = root["cost"];
  if (!cost) throw BadKey(path, root, "missing key 'cost'");
  pr.ilqr.terminal_qpos_weight = DofVector(path, Child(cost["terminal"], "qpos"), m.nv, "cost.terminal.qpos");
  pr.ilqr.terminal_qvel_weight = DofVector(path, Child(cost["terminal"], "qvel"), m.nv, "cost.terminal.qvel");
  pr.ilqr.running_qpos_weight = DofVector(path, Child(cost["running"], "qpos"), m.nv, "cost.running.qpos");
  pr.ilqr.running_qvel_weight = DofVector(path, Child(cost["running"], "qvel"), m.nv, "cost.running.qvel");
  if (cost["control"]) pr.ilqr.control_weight = cost["control"].as<double>();
  if (const YAML::Node wps = root["waypoints"]) {
    if (!wps.IsSequence()) throw BadKey(path, wps, "waypoints: expected a list of {step, qpos, ...}");
    for (const YAML::Node& w : wps) {
      if (!w.IsMap() || !w["step"] || !w["qpos"]) {
        throw BadKey(path, w, "waypoints: each entry needs step and qpos (weights under cost)");
      }
      IlqrWaypoint wp;
      wp.step = w["step"].as<int>();
      wp.qpos = DofVector(path, w["qpos"], m.nq, "waypoints.qpos");
      wp.qvel = DofVector(path, w["qvel"], m.nv, "waypoints.qvel");
      wp.qpos_weight = DofVector(path, Child(w["cost"], "qpos"), m.nv, "waypoints.cost.qpos");
      wp.qvel_weight = DofVector(path, Child(w["cost"], "qvel"), m.nv, "waypoints.cost.qvel");
      pr.ilqr.waypoints.push_back(wp);
    }
  }
  if (const YAML::Node gc = root["goal_constraint"]) {
    if (!gc.IsMap()) throw BadKey(path, gc, "goal_constraint: expected a map (qpos, qvel, tolerance, ...)");
    IlqrGoalConstraint& c = pr.ilqr.goal_constraint;
    c.qpos = DofVector(path, gc["qpos"], m.nv, "goal_constraint.qpos");
    c.qvel = DofVector(path, gc["qvel"], m.nv, "goal_constraint.qvel");
    if (!c.enabled()) {
      throw BadKey(path, gc, "goal_constraint: qpos or qvel must give some entry a nonzero scale");
    }
    if (gc["tolerance"]) c.tolerance = gc["tolerance"].as<double>();
    if (gc["penalty"]) c.penalty = gc["penalty"].as<double>();
    if (gc["penalty_scale"]) c.penalty_scale = gc["penalty_scale"].as<double>();
    if (gc["penalty_max"]) c.penalty_max = gc["penalty_max"].as<double>();
    if (gc["max_outer"]) c.max_outer = gc["max_outer"].as<int>();
  }
  if (const YAML::Node start = root["start"]) {
    pr.start_qpos = DofVector(path, start["qpos"], m.nq, "start.qpos");
    pr.start_qvel = DofVector(path, start["qvel"], m.nv, "start.qvel");
  }
  // initial controls: one row held for the whole horizon (default zeros)
  std::vector<double> row = DofVector(path, root["initial_controls"], m.nu, "initial_controls");
  if (row.empty()) row.assign(m.nu, 0.0);
  for (int t = 0; t < pr.ilqr.horizon; ++t) pr.controls.insert(pr.controls.end(), row.begin(), row.end());
}

void WriteOutputs(const std::string& dir, const Model& m, const IlqrResult& r, double h,
                  const std::string& title) {
  fs::create_directories(dir);
  {
    std::ofstream out(dir + "/cost.csv");
    out << "iteration,cost,step,mu,seconds,violation,outer\n";
    for (std::size_t i = 0; i < r.history.size(); ++i) {
      const auto& it = r.history[i];
      out << i << ',' << it.cost << ',' << it.step << ',' << it.mu << ',' << it.seconds << ','
          << it.violation << ',' << it.outer << '\n';
    }
  }
  {
    std::ofstream out(dir + "/trajectory.csv");
    out.precision(17);
    out << "time";
    for (int i = 0; i < m.nq; ++i) out << ",qpos" << i;
    for (int i = 0; i < m.nv; ++i) out << ",qvel" << i;
    for (int i = 0; i < m.nu; ++i) out << ",ctrl" << i;
    out << '\n';
    const int nphys = m.nq + m.nv + m.na, T = static_cast<int>(r.controls.size()) / std::max(m.nu, 1);
    for (int t = 0; t <= T; ++t) {
      out << t * h;
      for (int i = 0; i < m.nq + m.nv; ++i) out << ',' << r.states[t * nphys + i];
      for (int i = 0; i < m.nu; ++i) out << ',' << (t < T ? r.controls[t * m.nu + i] : 0.0);
      out << '\n';
    }
  }
  const std::string gnuplot = FindGnuplot();
  if (gnuplot.empty()) return;
  {
    std::ofstream gp(dir + "/cost.gp");
    gp << "set terminal pngcairo noenhanced size 640,400\nset output '" << dir << "/cost.png'\n"
       << "set datafile separator ','\nset logscale y\nset xlabel 'iteration'\n"
       << "set ylabel 'cost'\nset y2label 'goal violation'\nset logscale y2\nset ytics nomirror\n"
       << "set y2tics\nset grid\nset key top right\nset title '" << title << "'\n"
       << "plot '" << dir << "/cost.csv' every ::1 using 1:2 with linespoints lw 2 pt 7 title 'cost',"
       << " '' every ::1 using 1:6 axes x1y2 with lines lw 1 dt 2 title 'violation'\n";
  }
  RunGnuplot(gnuplot, dir + "/cost.gp", dir + "/gnuplot.log");
}

}  // namespace

int TrajoptCommand(const std::vector<std::string>& argv) {
  CommonArgs args;
  std::string out_dir;
  po::options_description desc("Options");
  desc.add_options()
      ("out", po::value<std::string>(&out_dir)->value_name("DIR")->required(),
       "output directory: cost.csv, trajectory.csv, summary.yaml, cost.png")
      ("set", po::value<std::vector<std::string>>(&args.sets)->value_name("KEY=VALUE"),
       "engine setting after the problem file's `set` list (repeatable)");
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, true, args, vm)) return 0;
  const std::string problem_path = args.model;  // the positional argument is the YAML file
  Problem pr = ReadProblem(problem_path, args.sets);
  const Engine engine(LoadModelFile(pr.model_path), pr.config);
  const Model& m = engine.model();
  ReadModelParts(problem_path, m, pr);

  Data start = engine.MakeData();
  if (!pr.start_qpos.empty()) std::copy(pr.start_qpos.begin(), pr.start_qpos.end(), start.qpos.begin());
  if (!pr.start_qvel.empty()) std::copy(pr.start_qvel.begin(), pr.start_qvel.end(), start.qvel.begin());
  std::unique_ptr<ThreadPool> pool;
  if (pr.threads > 1) pool = std::make_unique<ThreadPool>(pr.threads);
  Ilqr ilqr(engine, pr.ilqr, pool.get());
  const IlqrResult r = ilqr.Solve(start, pr.controls);

  const std::string title = fs::path(problem_path).stem().string();
  WriteOutputs(out_dir, m, r, m.opt.timestep, title);
  std::ostringstream summary;
  summary << "problem: " << problem_path << "\nmodel: " << pr.model_path
          << "\nhorizon: " << pr.ilqr.horizon << "\ntimestep: " << m.opt.timestep
          << "\nintegrator: " << m.opt.integrator << "\nsolver: " << m.opt.solver
          << "\nderivatives: " << (pr.ilqr.implicit ? "implicit " : "fd ")
          << (pr.ilqr.derivatives.centered ? "centered" : "forward")
          << " eps " << pr.ilqr.derivatives.eps << " threads " << pr.threads
          << "\ncontrol_limits: "
          << (pr.ilqr.control_limits == IlqrControlLimits::kBox ? "box" : "clamp")
          << "\ninitial_cost: " << r.history.front().cost << "\nfinal_cost: " << r.cost
          << "\ngoal_violation: " << r.goal_violation << "\niterations: " << r.iterations
          << "\nconverged: " << (r.converged ? "true" : "false");
  if (pr.ilqr.goal_constraint.enabled()) {
    summary << "\ngoal_constraint: augmented_lagrangian\nconstraint_violation: " << r.constraint_violation
            << "\nconstraint_met: " << (r.constraint_met ? "true" : "false")
            << "\nouter_iterations: " << r.outer_iterations << "\npenalty: " << r.penalty;
  }
  summary << "\nstop: " << r.stop_reason << "\nwall_time_s: " << r.seconds
          << '\n';
  std::ofstream(out_dir + "/summary.yaml") << summary.str();
  std::printf("%s", summary.str().c_str());
  return 0;
}

}  // namespace gauss::cli
