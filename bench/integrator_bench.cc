// Time of Engine::Step with each integrator plugin found on the search path (euler, rk4,
// implicit, implicitfast, and any third-party integrator on GAUSS_PLUGIN_PATH), on the shipped
// contact-free models and, when installed, MuJoCo's humanoid.xml (with contacts). A step is
// the whole pipeline plus the integrator, so the differences between integrators are the
// cost of their extra evaluations (RK4: 3 more Forward) or derivatives and factorizations
// (implicit).
//
//   gauss_integrator_bench [--benchmark_filter=rk4]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"

namespace gauss {
namespace {

// Integrator plugins that load (refused ones, e.g. stale builds, are left out).
std::vector<std::string> Integrators() {
  std::vector<std::string> names;
  PluginRegistry registry;
  for (const PluginInfo& p : registry.List()) {
    if (p.kind != PluginKind::kIntegrator || p.description.rfind("REFUSED", 0) == 0) continue;
    if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
  }
  return names;
}

std::vector<std::string> Models() {
  std::vector<std::string> paths = {std::string(GAUSS_MODEL_DIR) + "/pendulum.xml",
                                    std::string(GAUSS_MODEL_DIR) + "/double_pendulum.xml",
                                    std::string(GAUSS_MODEL_DIR) + "/damped_chain.xml"};
  const std::string humanoid = std::string(GAUSS_MUJOCO_MODEL_DIR) + "/humanoid/humanoid.xml";
  if (std::filesystem::exists(humanoid)) paths.push_back(humanoid);
  return paths;
}

void RegisterAll() {
  for (const std::string& integrator : Integrators()) {
    for (const std::string& path : Models()) {
      if (!std::filesystem::exists(path)) continue;
      const std::string name = integrator + "/" + std::filesystem::path(path).stem().string();
      benchmark::RegisterBenchmark(name.c_str(), [integrator, path](benchmark::State& state) {
        Config config;
        config.integrator = integrator;
        const Engine engine(LoadModel(path), config);
        Data d = engine.MakeData();
        long steps = 0;
        for (auto _ : state) {
          // restart every 2000 steps so that a falling model is timed in its typical states
          if (steps++ % 2000 == 0) engine.Reset(d);
          engine.Step(d);
        }
        state.counters["nv"] = engine.model().nv;
        state.SetItemsProcessed(state.iterations());  // items/s = steps per second
      })->Unit(benchmark::kMicrosecond);
    }
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
