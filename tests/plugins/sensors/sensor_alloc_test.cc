// Evaluating sensors performs no heap allocation: Engine::Step on tests/models/sensors_all.xml
// (every builtin sensor type, with subtree velocities, the post-constraint Newton-Euler pass,
// ray casting, cutoff and noise) is counted by replacements of the global allocation functions.
// They replace operator new for this whole test executable, which only counts.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace {
std::atomic<long> g_allocations{0};
}
void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace gauss {
namespace {

TEST(SensorAllocation, StepWithEverySensorTypeAllocatesNothing) {
  Config config;
  config.flags["sensornoise"] = true;
  Engine engine(LoadModel(test::TestModel("sensors_all.xml")), config);
  Data d = engine.MakeData();
  for (int i = 0; i < engine.model().nv; ++i) d.qvel[i] = 0.5 * ((i % 3) - 1);
  for (int i = 0; i < engine.model().nu; ++i) d.ctrl[i] = 0.3;
  engine.Step(d);  // first use: plugin tables built outside the measured steps
  const long before = g_allocations.load();
  for (int k = 0; k < 200; ++k) engine.Step(d);
  EXPECT_EQ(g_allocations.load() - before, 0);
  EXPECT_GT(engine.model().nsensor, 90);
  EXPECT_NEAR(d.time, 201 * engine.options().timestep, 1e-12);  // no divergence reset
}

}  // namespace
}  // namespace gauss
