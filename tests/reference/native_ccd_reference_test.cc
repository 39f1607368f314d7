// Convex contacts against MuJoCo 3.12.1's native collider (plugins/colliders/ccd/gjk.cc, epa.cc,
// native_ccd.cc; the nativeccd flag): at 200 random poses of each pair model
// tests/models/mjcf3/convex_*.xml recorded by tests/reference/mjcf3/convex_contacts.cc (regen.sh),
// Gauss's collision driver with the `primitive` and `ccd` plugins must give MuJoCo's contact list:
// the same count (zero included) and, contact by contact (matched to the nearest), dist, position
// and normal to kLoose at every pose and to kTight (round-off) at all but a few poses per pair:
// where GJK or EPA stop at their tolerance (1e-6 on the duality gap or the depth bounds), a
// different iteration path gives another point within it. Measured: ellipsoid_cylinder 3.1e-13 at
// every pose; cylinder_cylinder 2.8e-10; cylinder_box 1 pose beyond kTight (1.7e-6, a multiccd
// run); capsule_ellipsoid 12 (9.8e-6, the capsule's axis against the ellipsoid); mesh_box all poses
// within 4.5e-8 but 130 beyond kTight (MuJoCo keeps the generated mesh vertices in single
// precision, Gauss in double: mjcf3_test.cc). The pairs cover GJK/EPA's single contact
// (ellipsoid-cylinder), the sphere/capsule core path (capsule-ellipsoid, margin), polytopes
// (mesh-box, hill-climbing support) and multiccd's turned runs (cylinder-box, two cylinders), which
// 3.12 runs by default. With nativeccd off (MPR), the same poses part from the record.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gauss/mjcf.h"
#include "recorded_contacts.h"

namespace gauss::test {
namespace {

constexpr double kTight = 1e-9;
constexpr double kLoose = 2e-5;

// convex_NAME.xml held by Gauss's collision driver with the `primitive` and `ccd` plugins.
RecordedPair ConvexPair(const std::string& name) {
  return RecordedPair("mjcf3/convex_" + name + ".xml", {"primitive", "ccd"});
}

std::vector<RecordedPose> ReadPoses(const std::string& name) {
  return ReadRecordedPoses("convex_" + name + ".csv");
}

class NativeCcdReference : public ::testing::TestWithParam<std::string> {};

TEST_P(NativeCcdReference, ContactListsMatchMujoco312AtRandomPoses) {
  RecordedPair pair = ConvexPair(GetParam());
  ASSERT_TRUE(pair.model->opt.Enabled(kEnableNativeCcd));  // a 3.x file
  const std::vector<RecordedPose> poses = ReadPoses(GetParam());
  ASSERT_EQ(poses.size(), 200u);
  const ContactAgreement a = CompareRecordedContacts(pair, poses, kLoose, kTight, true);
  RecordProperty("worst", Sci(a.worst));
  RecordProperty("beyond_round_off", std::to_string(a.mismatched));
  // mesh_box's mesh vertices keep every pose off by a few 1e-8
  EXPECT_LE(a.mismatched, GetParam() == "mesh_box" ? 150 : 15);
}

TEST_P(NativeCcdReference, WithMprThePosesPartFromTheRecord) {
  RecordedPair pair = ConvexPair(GetParam());
  pair.model->opt.enableflags &= ~kEnableNativeCcd;
  const ContactAgreement a =
      CompareRecordedContacts(pair, ReadPoses(GetParam()), kLoose, kTight, false);
  RecordProperty("mismatched_with_mpr", std::to_string(a.mismatched));
  EXPECT_GT(a.mismatched, 100);
}

INSTANTIATE_TEST_SUITE_P(Pairs, NativeCcdReference,
                         ::testing::Values("cylinder_box", "ellipsoid_cylinder",
                                           "capsule_ellipsoid", "mesh_box", "cylinder_cylinder"));

TEST(NativeCcdReference, FlagFollowsTheFileVersionUnlessSetExplicitly) {
  const std::string pair =
      "<worldbody><geom type='cylinder' size='.1 .1'/><geom type='box' size='.1 .1 .1'/>"
      "</worldbody>";
  const auto old_file = LoadModelFromString("<mujoco>" + pair + "</mujoco>");
  EXPECT_FALSE(old_file->opt.Enabled(kEnableNativeCcd));
  EXPECT_EQ(old_file->opt.ccd_iterations, 50);
  const auto new_file = LoadModelFromString("<mujoco><size memory='1M'/>" + pair + "</mujoco>");
  EXPECT_TRUE(new_file->opt.Enabled(kEnableNativeCcd));
  EXPECT_TRUE(new_file->opt.Enabled(kEnableMulticcd));
  EXPECT_EQ(new_file->opt.ccd_iterations, 35);
  EXPECT_FALSE(LoadModelFromString("<mujoco><option><flag nativeccd='disable'/></option>" + pair +
                                   "</mujoco>")
                   ->opt.Enabled(kEnableNativeCcd));
}

}  // namespace
}  // namespace gauss::test
