// compiler discardvisual="true" (core/src/mjcf/discard_visual.cc): MuJoCo 2.2.2's rule for 2.x
// files (visual geoms removed first, no mass), MuJoCo 3.12's for 3.x files and for files that
// name a visual geom (named ones kept, every body's mass properties those of all its geoms).
// tests/reference/mjcf3_test.cc runs tests/models/mjcf3/discard_visual.xml against 3.12.1.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// A free box with a dense visual sphere and an unnamed visual capsule; `extra` goes into the
// document (e.g. a 3.x element), `discard` is the compiler setting.
std::shared_ptr<const Model> Box(const std::string& discard, const std::string& extra) {
  return LoadModelFromString(R"(<mujoco><compiler discardvisual=")" + discard + R"("/>)" + extra +
                                 R"(<worldbody><body pos="0 0 1"><freejoint/>
      <geom type="box" size=".1 .15 .05"/>
      <geom name="marker" type="sphere" size=".08" pos=".15 0 .05" contype="0" conaffinity="0"
            density="3000"/>
      <geom type="capsule" fromto="0 0 0 0 .2 .1" size=".02" contype="0" conaffinity="0"/>
      </body></worldbody></mujoco>)",
                             "discard.xml");
}

const char k3x[] = R"(<size memory="1M"/>)";
const char kNamed[] = R"(<sensor><framepos objtype="geom" objname="marker"/></sensor>)";

TEST(DiscardVisual, A3xFileKeepsTheMassPropertiesOfAllGeoms) {
  const auto all = Box("false", k3x);
  const auto discarded = Box("true", k3x);
  EXPECT_EQ(all->ngeom, 3);
  EXPECT_EQ(discarded->ngeom, 1);
  EXPECT_EQ(discarded->body_mass[1], all->body_mass[1]);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(discarded->body_ipos[3 + i], all->body_ipos[3 + i]);
    EXPECT_EQ(discarded->body_inertia[3 + i], all->body_inertia[3 + i]);
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(discarded->body_iquat[4 + i], all->body_iquat[4 + i]);
  EXPECT_GT(all->body_mass[1], 1000 * 0.2 * 0.3 * 0.1 * 2);  // the sphere weighs in
}

TEST(DiscardVisual, A2xFileDropsVisualGeomsAndTheirMass) {
  const auto discarded = Box("true", "");
  EXPECT_EQ(discarded->ngeom, 1);
  EXPECT_NEAR(discarded->body_mass[1], 1000 * 0.2 * 0.3 * 0.1, 1e-12);  // the box alone
  EXPECT_EQ(discarded->body_ipos[3], 0.0);
}

TEST(DiscardVisual, NamingAVisualGeomKeepsItAndReadsTheFileWith312sRule) {
  // MuJoCo 2.2.2 refuses such a file (the named geom is gone), 3.12 keeps the geom
  const auto named = Box("true", kNamed);
  const auto all = Box("false", kNamed);
  EXPECT_EQ(named->ngeom, 2);
  EXPECT_EQ(named->geom_name[1], "marker");
  EXPECT_EQ(named->body_mass[1], all->body_mass[1]);
}

// MuJoCo's own test file (tests/models/mjcf3/mujoco/discardvisual.xml): its free bodies hold
// only visual geoms (unit tetrahedron meshes), named visual geoms are kept, and every body
// weighs what it weighs with discardvisual="false" (3.12: 1000/6 each with its legacy mesh
// inertia; the file has no other 3.x feature, so Gauss weighs its meshes as 2.2.2 does).
TEST(DiscardVisual, MujocosTestFileLoadsWithItsMasses) {
  const std::string path = test::TestModel("mjcf3/mujoco/discardvisual.xml");
  const auto m = LoadModel(path);
  EXPECT_EQ(m->ngeom, 7);  // kept_floor, kept_tendon, kept_sensor, kept_pair, kept_tuple, kept0, kept1
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string kept = text.str();
  kept.replace(kept.find("discardvisual=\"true\""), 20, "discardvisual=\"false\"");
  const auto all = LoadModelFromString(kept, path);
  EXPECT_EQ(all->ngeom, 10);
  ASSERT_EQ(m->nbody, all->nbody);
  for (int b = 1; b < m->nbody; ++b) {
    EXPECT_GT(m->body_mass[b], 0) << b;
    EXPECT_EQ(m->body_mass[b], all->body_mass[b]) << b;
  }
}

}  // namespace
}  // namespace gauss
