// Constraint-solver time per forward solve on MuJoCo's humanoid.xml, for every solver plugin
// (newton, cg, pgs) and both cones, with contacts disabled so that every state has the same
// kind of problem (joint limits only; `gauss bench --set solver=...` measures whole steps with
// contacts). 16 fixed random states (joints
// around qpos0 with 0.8 rad / 0.5 m spread, unit random orientation of the root, random qvel),
// each prepared once by Engine::Forward.
//
//   BM_Solve    the solver plugin's Solve alone, from qacc_smooth (no warmstart), with the
//               model's tolerance and iteration limit (humanoid.xml: MuJoCo's defaults 1e-8 and
//               100): the number to compare with MuJoCo's mj_fwdConstraint time.
//   BM_Forward  a whole Engine::Forward (all stages) with that solver.
// Counters: iterations and nefc per solve (averages over the states).
//
//   gauss_solver_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "constraint_assembly.h"
#include "gauss/engine.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "gauss/solver.h"

namespace gauss {
namespace {

constexpr int kStates = 16;

std::string HumanoidPath() {
  return std::string(GAUSS_MUJOCO_MODEL_DIR) + "/humanoid/humanoid.xml";
}

// An engine using `solver` with contacts disabled, and kStates prepared random states.
struct Prepared {
  std::unique_ptr<Engine> engine;
  std::vector<Data> states;

  Prepared(const std::string& solver, Cone cone) {
    Config config;
    config.flags["contact"] = false;
    config.solver = solver;
    config.cone = cone;
    engine = std::make_unique<Engine>(LoadModel(HumanoidPath()), config);
    const Model& m = engine->model();
    std::mt19937_64 gen(2024);
    std::normal_distribution<double> nd(0, 1);
    for (int s = 0; s < kStates; ++s) {
      Data d = engine->MakeData();
      for (int j = 0; j < m.njnt; ++j) {
        double* q = d.qpos.data() + m.jnt_qposadr[j];
        if (m.jnt_type[j] == JointType::kFree) {
          for (int c = 0; c < 3; ++c) q[c] += 0.5 * nd(gen);
          for (int c = 3; c < 7; ++c) q[c] = nd(gen);
          math::NormalizeQuat(q + 3);
        } else if (m.jnt_type[j] == JointType::kBall) {
          for (int c = 0; c < 4; ++c) q[c] = nd(gen);
          math::NormalizeQuat(q);
        } else {
          q[0] += 0.8 * nd(gen);
        }
      }
      for (int i = 0; i < m.nv; ++i) d.qvel[i] = nd(gen);
      engine->Forward(d);
      states.push_back(std::move(d));
    }
  }
};

const std::vector<std::string>& Solvers() {
  static const std::vector<std::string> names = {"newton", "cg", "pgs"};
  return names;
}

// args: solver index, cone
void BM_Solve(benchmark::State& state) {
  const std::string name = Solvers()[state.range(0)];
  const Cone cone = static_cast<Cone>(state.range(1));
  Prepared prepared(name, cone);
  const Model& m = prepared.engine->model();
  PluginRegistry registry;
  PluginInstance<ConstraintSolver> solver =
      registry.Create<ConstraintSolver>(PluginKind::kSolver, name);
  solver.Configure(Params());
  std::vector<double> qacc(m.nv), force(std::max(m.njmax, 1));
  std::vector<SolverIteration> trace(m.opt.iterations);
  long iterations = 0, rows = 0, solves = 0;
  int k = 0;
  for (auto _ : state) {
    Data& d = prepared.states[k];
    k = (k + 1) % kStates;
    const FactoredInertia ops(m, d);
    ConstraintProblem p = MakeProblem(m, d, ops);
    p.qacc_warmstart = nullptr;
    const SolverResult r = solver.instance->Solve(p, d.arena, qacc.data(), force.data(), trace.data());
    benchmark::DoNotOptimize(qacc.data());
    iterations += r.iterations;
    rows += d.nefc;
    ++solves;
  }
  state.counters["iterations"] = static_cast<double>(iterations) / solves;
  state.counters["nefc"] = static_cast<double>(rows) / solves;
  char label[128];
  std::snprintf(label, sizeof(label), "%s %s, tolerance %g, max iterations %d", name.c_str(),
                cone == Cone::kElliptic ? "elliptic" : "pyramidal", m.opt.tolerance,
                m.opt.iterations);
  state.SetLabel(label);
}

// args: solver index
void BM_Forward(benchmark::State& state) {
  const std::string name = Solvers()[state.range(0)];
  Prepared prepared(name, Cone::kPyramidal);
  long iterations = 0, solves = 0;
  int k = 0;
  for (auto _ : state) {
    Data& d = prepared.states[k];
    k = (k + 1) % kStates;
    std::fill(d.qacc_warmstart.begin(), d.qacc_warmstart.end(), 0.0);
    prepared.engine->Forward(d);
    iterations += d.solver_iter;
    ++solves;
  }
  state.counters["iterations"] = static_cast<double>(iterations) / solves;
  state.SetLabel(name);
}

BENCHMARK(BM_Solve)->ArgsProduct({{0, 1, 2}, {0, 1}})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Forward)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gauss

BENCHMARK_MAIN();
