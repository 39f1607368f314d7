// Collision detection with the `primitive` plugin performs no heap allocation: the broad phase
// takes its temporaries from Data::arena and the narrow phase writes into the preallocated
// contact buffer. Checked with the counting replacement of the global allocation functions
// (support/alloc_counter.h) while MuJoCo's 22 humanoids collide at random states (hundreds of
// contacts, the buffer filling up).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision.h"
#include "data_alloc.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "pipeline.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

TEST(CollisionAllocation, NoHeapAllocationWithHundredsOfContacts) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  auto model = LoadModel(test::TestModel("mujoco/humanoid/22_humanoids.xml"));
  Data d;
  AllocateData(*model, d);
  PluginRegistry registry;
  auto primitive = registry.Create<Collider>(PluginKind::kCollider, "primitive");
  CollisionTable table;
  BuildCollisionTable({primitive.instance.get()}, table);

  std::mt19937_64 gen(5);
  std::normal_distribution<double> nd(0, 1);
  long most = 0, full = 0;
  for (int s = 0; s < 20; ++s) {
    // humanoids dropped into a 1 m region, lying on and in each other and the floor
    for (int j = 0; j < model->njnt; ++j) {
      double* q = d.qpos.data() + model->jnt_qposadr[j];
      if (model->jnt_type[j] == JointType::kFree) {
        for (int c = 0; c < 3; ++c) q[c] = 0.5 * nd(gen);
        q[2] = std::fabs(q[2]);
        for (int c = 3; c < 7; ++c) q[c] = nd(gen);
        math::NormalizeQuat(q + 3);
      } else {
        q[0] = 0.5 * nd(gen);
      }
    }
    Kinematics(*model, d);
    const long before = test::AllocationCount();
    Collision(*model, d, table);
    EXPECT_EQ(test::AllocationCount() - before, 0) << "state " << s << ", " << d.ncon << " contacts";
    most = std::max<long>(most, d.ncon);
    full += d.warning_count[static_cast<int>(Warning::kContactFull)];
  }
  EXPECT_GT(most, 300) << "too few contacts to be a test";
  RecordProperty("most_contacts", std::to_string(most));
  RecordProperty("contact_full_warnings", std::to_string(full));
}

}  // namespace
}  // namespace gauss

namespace gauss {
namespace {

// The `ccd` plugin (MPR through libccd, mesh hulls, multiccd, height-field prisms) allocates
// nothing either: libccd works on the stack and the geoms it sees are copied into locals.
TEST(CollisionAllocation, CcdPluginWithMeshesAndMulticcd) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  const std::string xml = R"(
<mujoco>
  <compiler meshdir="meshes"/>
  <option><flag multiccd="enable"/></option>
  <asset><mesh name="box" file="box.stl"/><mesh name="oct" file="octagon.stl"/>
    <hfield name="bumps" nrow="3" ncol="4" size="0.3 0.3 0.08 0.05"
            elevation="0 1 0 2  1 3 1 0  0 1 2 1"/></asset>
  <worldbody>
    <geom type="plane" size="0 0 1"/>
    <geom type="hfield" hfield="bumps" pos="0.05 0 0.02"/>
    <body><freejoint/><geom type="mesh" mesh="box"/></body>
    <body><freejoint/><geom type="mesh" mesh="oct"/></body>
    <body><freejoint/><geom type="cylinder" size="0.1 0.15"/></body>
    <body><freejoint/><geom type="ellipsoid" size="0.1 0.15 0.2"/></body>
    <body><freejoint/><geom type="box" size="0.1 0.15 0.2"/></body>
    <body><freejoint/><geom type="capsule" size="0.05 0.15"/></body>
  </worldbody>
</mujoco>)";
  auto model = LoadModelFromString(xml, test::TestModel("alloc_virtual.xml"));
  Data d;
  AllocateData(*model, d);
  PluginRegistry registry;
  auto primitive = registry.Create<Collider>(PluginKind::kCollider, "primitive");
  auto ccd = registry.Create<Collider>(PluginKind::kCollider, "ccd");
  CollisionTable table;
  BuildCollisionTable({primitive.instance.get(), ccd.instance.get()}, table);

  std::mt19937_64 gen(6);
  std::normal_distribution<double> nd(0, 1);
  long total = 0;
  for (int s = 0; s < 50; ++s) {
    // six bodies piled into a 0.3 m region above and in the floor
    for (int b = 0; b < 6; ++b) {
      double* q = d.qpos.data() + 7 * b;
      for (int c = 0; c < 3; ++c) q[c] = 0.12 * nd(gen);
      q[2] = std::fabs(q[2]);
      for (int c = 3; c < 7; ++c) q[c] = nd(gen);
      math::NormalizeQuat(q + 3);
    }
    Kinematics(*model, d);
    const long before = test::AllocationCount();
    Collision(*model, d, table);
    EXPECT_EQ(test::AllocationCount() - before, 0) << "state " << s << ", " << d.ncon << " contacts";
    total += d.ncon;
  }
  EXPECT_GT(total, 200) << "too few contacts to be a test";
  RecordProperty("contacts", std::to_string(total));
}

}  // namespace
}  // namespace gauss
