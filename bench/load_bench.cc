// Load time against model size (issue 19): MJCF text of N static sphere geoms on a grid in the
// world body is parsed and compiled (LoadModelFromString), then an Engine is made (plugin choice,
// collider coverage). Both must grow like N log N at most; before the fix, the every-pair
// collider checks made loading quadratic (20k geoms 0.28 s, 40k 1.2 s, 80k 4.7 s).
//
//   build/bench/gauss_load_bench --benchmark_filter=Load
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "gauss/engine.h"
#include "gauss/mjcf.h"

namespace {

// (n) => MJCF with n sphere geoms in the world body, 1000 to a row.
std::string StaticGeoms(long n) {
  std::string xml = "<mujoco><worldbody>\n";
  xml.reserve(static_cast<std::size_t>(n) * 64);
  for (long i = 0; i < n; ++i) {
    xml += "<geom type=\"sphere\" size=\"0.1\" pos=\"" + std::to_string(i % 1000) + " " +
           std::to_string(i / 1000) + " 0\"/>\n";
  }
  return xml + "</worldbody></mujoco>\n";
}

void BM_LoadModel(benchmark::State& state) {
  const std::string xml = StaticGeoms(state.range(0));
  for (auto _ : state) {
    std::shared_ptr<const gauss::Model> model = gauss::LoadModelFromString(xml);
    benchmark::DoNotOptimize(model.get());
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_LoadModel)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)
    ->Iterations(1)->Complexity();

void BM_LoadModelAndEngine(benchmark::State& state) {
  const std::string xml = StaticGeoms(state.range(0));
  for (auto _ : state) {
    const gauss::Engine engine(gauss::LoadModelFromString(xml));
    benchmark::DoNotOptimize(&engine);
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_LoadModelAndEngine)->Arg(10000)->Arg(100000)->Arg(1000000)
    ->Unit(benchmark::kMillisecond)->Iterations(1)->Complexity();

}  // namespace

BENCHMARK_MAIN();
