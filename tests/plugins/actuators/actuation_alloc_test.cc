// A step with spatial tendons (wrapping, pulleys), every transmission type, muscles, fluid
// forces and a third-party actuator plugin performs no heap allocation: the kernel stages take
// their temporaries from Data::arena and the plugins work in place. Checked with the counting
// replacement of the global allocation functions (support/alloc_counter.h).
#include <gtest/gtest.h>

#include <string>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// 100 steps after a warm-up step allocate nothing; the arena's peak stays within its capacity.
void ExpectNoAllocation(const std::shared_ptr<const Model>& model, const Config& config) {
  Engine engine(model, config);
  Data d = engine.MakeData();
  for (int i = 0; i < model->nv; ++i) d.qvel[i] = 0.3 * ((i % 3) - 1);
  for (int a = 0; a < model->nu; ++a) d.ctrl[a] = 0.5;
  engine.Step(d);
  const long before = AllocationCount();
  for (int k = 0; k < 100; ++k) engine.Step(d);
  EXPECT_EQ(AllocationCount() - before, 0) << model->name << " " << model->opt.integrator;
  EXPECT_LE(d.arena.peak(), d.arena.capacity());
}

TEST(ActuationAllocation, StepAllocatesNothing) {
  if (!AllocationCountAvailable()) GTEST_SKIP() << AllocationCountUnavailable();
  for (const std::string& path :
       {TestModel("actuation_zoo.xml"), TestModel("mujoco/tendon_arm/arm26.xml"),
        SharedModel("gymnasium/swimmer.xml")}) {
    for (const char* integrator : {"euler", "rk4"}) {
      Config config;
      config.flags["contact"] = false;
      config.integrator = integrator;
      ExpectNoAllocation(LoadModel(path), config);
    }
  }
}

TEST(ActuationAllocation, PluginActuatorStepAllocatesNothing) {
  if (!AllocationCountAvailable()) GTEST_SKIP() << AllocationCountUnavailable();
  const std::string xml = R"(<mujoco><worldbody><body><joint name="w" axis="0 0 1"/>
      <geom type="cylinder" size=".1 .02"/></body></worldbody>
    <actuator><general joint="w" dyntype="dcmotor" dynprm="2 0.01 0.5"/></actuator></mujoco>)";
  Config config;
  config.plugin_paths.push_back(TestPluginDir() + "/dcmotor");
  ExpectNoAllocation(LoadModelFromString(xml, "dcmotor_alloc.xml"), config);
}

}  // namespace
}  // namespace gauss::test
