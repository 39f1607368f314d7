// Time of each pipeline stage on the shipped models (models/*.xml) and, when installed,
// MuJoCo's humanoid.xml: kinematics, com-based inertias and dof axes, the composite rigid-body
// algorithm (CRB) into the tree-sparse inertia, its L'DL factorization, collision detection
// (broad + narrow phase with the default colliders), the Newton-Euler bias forces, and a whole
// Engine::Forward and Engine::Step (default plugins). Each stage runs on a state prepared once
// by Engine::Forward (random qvel, seed 1), so a benchmark measures that stage alone.
//
//   gauss_pipeline_bench [--benchmark_filter=humanoid]
// The constraint solvers and collision against model size have their own programs
// (solver_bench, collision_bench); integrators are in integrator_bench. step_few_awake times a
// step of the sleeping rest_pile with a few trees awake.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "collision.h"
#include "gauss/collider.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "pipeline.h"

namespace gauss {
namespace {

// An engine with default plugins and one Data at a prepared state.
struct Prepared {
  std::unique_ptr<Engine> engine;
  Data data;

  explicit Prepared(const std::string& path) {
    engine = std::make_unique<Engine>(LoadModel(path));
    data = engine->MakeData();
    std::mt19937_64 gen(1);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (double& v : data.qvel) v = normal(gen);
    engine->Forward(data);
  }
};

// The models benchmarked: every shipped model, then the MuJoCo sample humanoid if present.
std::vector<std::string> ModelPaths() {
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(GAUSS_MODEL_DIR)) {
    if (entry.path().extension() == ".xml") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  const std::string humanoid = std::string(GAUSS_MUJOCO_MODEL_DIR) + "/humanoid/humanoid.xml";
  if (std::filesystem::exists(humanoid)) paths.push_back(humanoid);
  return paths;
}

// The default colliders (primitive, then ccd when built), loaded once.
const CollisionTable& DefaultColliders() {
  static PluginRegistry registry;
  static std::vector<PluginInstance<Collider>> colliders;
  static CollisionTable table = [] {
    std::vector<const Collider*> list;
    for (const char* name : {"primitive", "ccd"}) {
      const std::vector<std::string> found = registry.Names(PluginKind::kCollider);
      if (std::find(found.begin(), found.end(), name) == found.end()) continue;
      colliders.push_back(registry.Create<Collider>(PluginKind::kCollider, name));
      list.push_back(colliders.back().instance.get());
    }
    CollisionTable t;
    BuildCollisionTable(list, t);
    return t;
  }();
  return table;
}

using StageFn = std::function<void(const Engine&, Data&)>;

// Registers "<stage>/<model>" timing `fn` on a prepared state of the model at `path`.
void Register(const std::string& stage, const std::string& path, StageFn fn) {
  const std::string name = stage + "/" + std::filesystem::path(path).stem().string();
  benchmark::RegisterBenchmark(name.c_str(), [path, fn](benchmark::State& state) {
    Prepared p(path);
    const Model& m = p.engine->model();
    for (auto _ : state) {
      fn(*p.engine, p.data);
      benchmark::ClobberMemory();
    }
    state.counters["nv"] = m.nv;
    state.counters["nbody"] = m.nbody;
  })->Unit(benchmark::kMicrosecond);
}

// Engine::Step on models/rest_pile.xml once its 120 objects sleep, with `awake` spheres kept
// spinning in place by a velocity the user writes before every step (as a user perturbing the
// scene would): what sleeping saves while a few trees are awake (docs/islands.md, Speed).
void RegisterFewAwake() {
  for (int awake : {1, 5}) {
    const std::string name = "step_few_awake/rest_pile/" + std::to_string(awake);
    benchmark::RegisterBenchmark(name.c_str(), [awake](benchmark::State& state) {
      const Engine engine(LoadModel(std::string(GAUSS_MODEL_DIR) + "/rest_pile.xml"));
      const Model& m = engine.model();
      Data d = engine.MakeData();
      for (int k = 0; k < 3000 && d.ntree_awake > 0; ++k) engine.Step(d);
      for (auto _ : state) {
        for (int k = 0; k < awake; ++k) d.qvel[m.body_dofadr[2 + 21 * k] + 5] = 2.0;  // spheres
        engine.Step(d);
      }
      state.counters["awake_trees"] = d.ntree_awake;
    })->Unit(benchmark::kMicrosecond);
  }
}

void RegisterAll() {
  RegisterFewAwake();
  for (const std::string& path : ModelPaths()) {
    Register("kinematics", path, [](const Engine& e, Data& d) { Kinematics(e.model(), d); });
    Register("com", path, [](const Engine& e, Data& d) { ComPosition(e.model(), d); });
    Register("crb", path, [](const Engine& e, Data& d) { CompositeInertia(e.model(), d); });
    Register("factor", path, [](const Engine& e, Data& d) { FactorInertia(e.model(), d); });
    Register("collision", path, [](const Engine& e, Data& d) {
      Collision(e.model(), d, DefaultColliders());
    });
    Register("rne", path, [](const Engine& e, Data& d) {
      RecursiveNewtonEuler(e.model(), d, false, d.qfrc_bias.data());
    });
    Register("forward", path, [](const Engine& e, Data& d) { e.Forward(d); });
    Register("step", path, [](const Engine& e, Data& d) { e.Step(d); });
  }
}

}  // namespace
}  // namespace gauss

int main(int argc, char** argv) {
  gauss::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
