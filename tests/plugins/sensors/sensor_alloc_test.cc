// Evaluating sensors performs no heap allocation: Engine::Step on tests/models/sensors_all.xml
// (every builtin sensor type, with subtree velocities, the post-constraint Newton-Euler pass,
// ray casting, cutoff and noise) is counted by the replacement of the global allocation
// functions (support/alloc_counter.h), which only counts. Likewise user sensors handed to an
// engine's SensorCallback and the 3.x sensors (energies, actuator forces, insidesite, contact
// sensors of every reduce mode, which sort in the arena) and the collision sensors distance,
// normal and fromto (the colliders run into a stack buffer).
#include <gtest/gtest.h>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

TEST(SensorAllocation, StepWithEverySensorTypeAllocatesNothing) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  Config config;
  config.flags["sensornoise"] = true;
  Engine engine(LoadModel(test::TestModel("sensors_all.xml")), config);
  Data d = engine.MakeData();
  for (int i = 0; i < engine.model().nv; ++i) d.qvel[i] = 0.5 * ((i % 3) - 1);
  for (int i = 0; i < engine.model().nu; ++i) d.ctrl[i] = 0.3;
  engine.Step(d);  // first use: plugin tables built outside the measured steps
  const long before = test::AllocationCount();
  for (int k = 0; k < 200; ++k) engine.Step(d);
  EXPECT_EQ(test::AllocationCount() - before, 0);
  EXPECT_GT(engine.model().nsensor, 90);
  EXPECT_NEAR(d.time, 201 * engine.options().timestep, 1e-12);  // no divergence reset
}

TEST(SensorAllocation, UserSensorCallbackAnd3xSensorsAllocateNothing) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  Config config;
  config.flags["sensornoise"] = true;
  Engine user(LoadModel(test::TestModel("compile_user_sensors.xml")), config);
  long calls = 0;
  user.SetSensorCallback([&calls](const Model& m, Data& d, Stage, const int* ids, int n) {
    ++calls;
    for (int k = 0; k < n; ++k) d.sensordata[m.sensor_adr[ids[k]]] = d.qvel[0];
  });
  Engine mjcf3(LoadModel(test::TestModel("mjcf3/sensors3.xml")), config);
  Engine contact(LoadModel(test::TestModel("mjcf3/contact_sensor.xml")), config);
  Engine distance(LoadModel(test::TestModel("mjcf3/geom_distance.xml")), config);
  for (const Engine* engine : {&user, &mjcf3, &contact, &distance}) {
    Data d = engine->MakeData();
    for (int i = 0; i < engine->model().nv; ++i) d.qvel[i] = 0.5;
    engine->Step(d);
    const long before = test::AllocationCount();
    for (int k = 0; k < 100; ++k) engine->Step(d);
    EXPECT_EQ(test::AllocationCount() - before, 0) << engine->model().name;
  }
  EXPECT_EQ(calls, 101 * 3);  // position, velocity and acceleration user sensors
}

}  // namespace
}  // namespace gauss
