// Box-box contacts against MuJoCo 3.12.1 (plugins/colliders/primitive/box_clip.cc, the boxclip
// flag): at the 300 random poses of tests/models/mjcf3/box_pair.xml recorded by
// tests/reference/mjcf3/box_contacts.cc (regen.sh) - 100 with any orientation (corner, edge and
// tilted-face contacts), 100 resting face on face, 100 nearly so - Gauss's collision driver with
// the `primitive` plugin must give MuJoCo's contact list: the same count (zero included) and,
// contact by contact (matched to the nearest), dist, position and normal to 1e-12 (measured:
// 8.7e-16 on 8100 such poses, in MuJoCo's order when given MuJoCo's geom_xmat; from qpos the
// order can differ where two faces tie exactly, see below).
// The same poses with boxclip disabled (MuJoCo 2.2.2's box-box collider) part from the record,
// so the flag is what makes them agree; a 3.x file has it on, a 2.x file off, <flag boxclip>
// decides either way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gauss/mjcf.h"
#include "recorded_contacts.h"

namespace gauss::test {
namespace {

constexpr double kTol = 1e-12;

// box_pair.xml held by Gauss's collision driver with the `primitive` plugin.
RecordedPair BoxPair() { return RecordedPair("mjcf3/box_pair.xml", {"primitive"}); }

std::vector<RecordedPose> ReadPoses() { return ReadRecordedPoses("box_contacts.csv"); }

TEST(BoxClipReference, ContactListsMatchMujoco312AtRandomPoses) {
  const std::vector<RecordedPose> poses = ReadPoses();
  ASSERT_EQ(poses.size(), 300u);
  int with_contacts = 0, patches = 0;
  for (const RecordedPose& p : poses) {
    with_contacts += !p.contacts.empty();
    patches += p.contacts.size() >= 3;
  }
  // the record covers separated poses, single contacts and face patches
  EXPECT_GT(with_contacts, 200);
  EXPECT_LT(with_contacts, 300);
  EXPECT_GT(patches, 100);
  RecordedPair pair = BoxPair();
  ASSERT_TRUE(pair.model->opt.Enabled(kEnableBoxClip));  // a 3.x file
  const ContactAgreement a = CompareRecordedContacts(pair, poses, kTol, kTol, true);
  RecordProperty("max_error", Sci(a.worst));
  RecordProperty("reordered", std::to_string(a.reordered));
  EXPECT_EQ(a.mismatched, 0);
  // the order differs only where the two boxes' face overlaps tie exactly (resting poses):
  // there the last bit of geom_xmat decides which face is the reference, and Gauss normalizes
  // quaternions as 2.2.2 does (always rescaled) where 3.12 leaves one within 1e-15 of unit
  // length as it is (measured: 12 of the 300 poses reorder, max error 2.9e-16; none
  // with 3.12's rule in a Python model of the collider)
  EXPECT_LE(a.reordered, 40);
}

TEST(BoxClipReference, WithoutTheFlag222ContactsPartFromTheRecord) {
  const std::vector<RecordedPose> poses = ReadPoses();
  RecordedPair pair = BoxPair();
  pair.model->opt.enableflags &= ~kEnableBoxClip;
  const ContactAgreement a = CompareRecordedContacts(pair, poses, kTol, kTol, false);
  RecordProperty("mismatched_without_boxclip", std::to_string(a.mismatched));
  // 2.2.2 halves the depth of face contacts and keeps face corners outside the other face
  // (measured with MuJoCo 2.2.2 itself on these poses: 263 of the 300 lists differ)
  EXPECT_GT(a.mismatched, 150);
}

TEST(BoxClipReference, FlagFollowsTheFileVersionUnlessSetExplicitly) {
  const std::string boxes =
      "<worldbody><body><freejoint/><geom type=\"box\" size=\"1 1 1\"/></body></worldbody>";
  EXPECT_FALSE(LoadModelFromString("<mujoco>" + boxes + "</mujoco>")->opt.Enabled(kEnableBoxClip));
  EXPECT_TRUE(LoadModelFromString("<mujoco><size memory=\"1M\"/>" + boxes + "</mujoco>")
                  ->opt.Enabled(kEnableBoxClip));
  EXPECT_FALSE(LoadModelFromString("<mujoco><size memory=\"1M\"/><option><flag "
                                   "boxclip=\"disable\"/></option>" +
                                   boxes + "</mujoco>")
                   ->opt.Enabled(kEnableBoxClip));
  EXPECT_TRUE(LoadModelFromString("<mujoco><option><flag boxclip=\"enable\"/></option>" + boxes +
                                  "</mujoco>")
                  ->opt.Enabled(kEnableBoxClip));
}

}  // namespace
}  // namespace gauss::test
