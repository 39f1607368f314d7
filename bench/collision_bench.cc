// Collision detection time (broad phase + narrow phase with the `primitive` plugin) against
// model size: 1, 2, 4, 8 and 16 copies of MuJoCo's humanoid, each lying in its own 2 m cell on
// the floor at a random pose (constant density, so the work per humanoid is constant and the
// time should grow linearly), plus the broad phase alone on MuJoCo's 22_humanoids and
// humanoid100 with the bodies packed together.
//
//   gauss_collision_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "collision.h"
#include "data_alloc.h"
#include "gauss/collider.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "pipeline.h"

namespace gauss {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// MuJoCo's humanoid.xml with its worldbody replaced by a floor and `copies` humanoids (names
// prefixed h<i>_) on a grid of 2 m cells; actuators and everything after the worldbody dropped.
std::string HumanoidCopies(int copies) {
  const std::string xml = ReadFile(std::string(GAUSS_MUJOCO_MODEL_DIR) + "/humanoid/humanoid.xml");
  const std::size_t world = xml.find("<worldbody>"), world_end = xml.find("</worldbody>");
  const std::size_t torso = xml.find("<body name=\"torso\"");
  const std::size_t torso_end = xml.rfind("</body>", world_end) + 7;
  const std::string body = xml.substr(torso, torso_end - torso);
  std::string out = xml.substr(0, world);
  out.insert(out.find('>', out.find("<mujoco")) + 1,
             "<size nconmax='" + std::to_string(100 * copies) + "'/>");
  out += "<worldbody><geom name='floor' size='0 0 .05' type='plane'/>";
  const int side = static_cast<int>(std::ceil(std::sqrt(copies)));
  for (int i = 0; i < copies; ++i) {
    std::string copy = body;
    for (std::size_t at = copy.find("name=\""); at != std::string::npos;
         at = copy.find("name=\"", at + 1)) {
      copy.insert(at + 6, "h" + std::to_string(i) + "_");
    }
    const std::string pos = "pos=\"" + std::to_string(2.0 * (i % side)) + " " +
                            std::to_string(2.0 * (i / side)) + " 1.5\"";
    copy.replace(copy.find("pos=\"0 0 1.5\""), 13, pos);
    out += copy;
  }
  return out + "</worldbody></mujoco>";
}

// Random pose: each free body keeps its cell, drops to the floor (height 0.1-0.6) and turns at
// random; hinges uniform in their range.
void RandomPose(const Model& m, Data& d, unsigned seed, double spread) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(0, 1);
  for (int j = 0; j < m.njnt; ++j) {
    double* q = d.qpos.data() + m.jnt_qposadr[j];
    const double* q0 = m.qpos0.data() + m.jnt_qposadr[j];
    if (m.jnt_type[j] == JointType::kFree) {
      q[0] = spread > 0 ? spread * nd(gen) : q0[0];
      q[1] = spread > 0 ? spread * nd(gen) : q0[1];
      q[2] = 0.1 + 0.5 * ud(gen);
      for (int c = 3; c < 7; ++c) q[c] = nd(gen);
      math::NormalizeQuat(q + 3);
    } else if (m.jnt_type[j] == JointType::kBall) {
      for (int c = 0; c < 4; ++c) q[c] = nd(gen);
      math::NormalizeQuat(q);
    } else {
      const double* r = m.jnt_range.data() + 2 * j;
      q[0] = m.jnt_limited[j] ? r[0] + (r[1] - r[0]) * ud(gen) : 0.5 * nd(gen);
    }
  }
  Kinematics(m, d);
}

// The primitive collider, loaded once for all benchmarks.
const CollisionTable& PrimitiveTable() {
  static PluginRegistry registry;
  static PluginInstance<Collider> primitive =
      registry.Create<Collider>(PluginKind::kCollider, "primitive");
  static CollisionTable table = [] {
    CollisionTable t;
    BuildCollisionTable({primitive.instance.get()}, t);
    return t;
  }();
  return table;
}

void BM_CollisionHumanoidCopies(benchmark::State& state) {
  const int copies = static_cast<int>(state.range(0));
  auto model = LoadModelFromString(HumanoidCopies(copies));
  Data d;
  AllocateData(*model, d);
  const CollisionTable& table = PrimitiveTable();
  RandomPose(*model, d, 1, 0);  // each humanoid gets its own random joint angles
  for (auto _ : state) {
    Collision(*model, d, table);
    benchmark::DoNotOptimize(d.ncon);
  }
  state.counters["ngeom"] = model->ngeom;
  state.counters["contacts"] = d.ncon;
  state.counters["us_per_humanoid"] = benchmark::Counter(
      copies * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_CollisionHumanoidCopies)
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Arg(8)
    ->Arg(16)
    ->Unit(benchmark::kMicrosecond);

// Broad phase alone on MuJoCo's multi-humanoid scenes, bodies packed into a 2 m region.
void BM_BroadPhase(benchmark::State& state, const std::string& file) {
  auto model = LoadModel(std::string(GAUSS_MUJOCO_MODEL_DIR) + "/" + file);
  Data d;
  AllocateData(*model, d);
  RandomPose(*model, d, 1, 1.0);
  std::vector<GeomPair> pairs(static_cast<std::size_t>(model->ngeom) * model->ngeom / 2 + 1);
  int n = 0;
  for (auto _ : state) {
    n = BroadPhase(*model, d, pairs.data(), static_cast<int>(pairs.size()));
    benchmark::DoNotOptimize(n);
  }
  state.counters["ngeom"] = model->ngeom;
  state.counters["candidates"] = n;
}
BENCHMARK_CAPTURE(BM_BroadPhase, humanoid22, std::string("humanoid/22_humanoids.xml"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_BroadPhase, humanoid100, std::string("humanoid100/humanoid100.xml"))
    ->Unit(benchmark::kMicrosecond);

// The same candidate set by testing every pair (the reference the sweep replaces).
void BM_BroadPhaseBruteForce(benchmark::State& state, const std::string& file) {
  auto model = LoadModel(std::string(GAUSS_MUJOCO_MODEL_DIR) + "/" + file);
  Data d;
  AllocateData(*model, d);
  RandomPose(*model, d, 1, 1.0);
  int n = 0;
  for (auto _ : state) {
    n = 0;
    ForEachCandidateBruteForce(*model, d, [&n](int, int) {
      ++n;
      return true;
    });
    benchmark::DoNotOptimize(n);
  }
  state.counters["candidates"] = n;
}
BENCHMARK_CAPTURE(BM_BroadPhaseBruteForce, humanoid22, std::string("humanoid/22_humanoids.xml"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_BroadPhaseBruteForce, humanoid100, std::string("humanoid100/humanoid100.xml"))
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace gauss

BENCHMARK_MAIN();
