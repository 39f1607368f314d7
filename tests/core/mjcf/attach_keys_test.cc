// Keyframes with MuJoCo 3.x <attach> (core/src/mjcf/attach_keys.cc): the parent's keys first,
// then each attachment's keys, prefixed, holding values only for the joints, actuators and
// mocap bodies the attachment brought. tests/models/mjcf3/attach_keys.xml attaches
// attach_keys_arm.xml twice and attach_keys_target.xml once; tests/reference/mjcf3_test.cc
// compares all its keys with MuJoCo 3.12.1's.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

std::shared_ptr<const Model> Load(const std::string& inside) {
  return LoadModelFromString("<mujoco>" + inside + "</mujoco>",
                             test::TestModel("mjcf3/virtual.xml"));
}

int Index(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// key k's values of one field, from index `from` on, `n` of them
std::vector<double> Slice(const std::vector<double>& field, int size, int k, int from, int n) {
  const auto begin = field.begin() + static_cast<long>(k) * size + from;
  return std::vector<double>(begin, begin + n);
}

TEST(AttachKeys, ParentKeysFirstThenEachAttachmentsKeysPrefixed) {
  auto m = LoadModel(test::TestModel("mjcf3/attach_keys.xml"));
  const std::vector<std::string> keys = {"home",   "l_reach", "l_", "l_push",
                                         "r_reach", "r_",     "r_push", "t_aim"};
  ASSERT_EQ(m->key_name, keys);  // an unnamed key of the child is named by the prefix
  EXPECT_EQ(m->key_time[0], 0.5);
  EXPECT_EQ(m->key_time[1], 1.5);  // the child's time comes along
  EXPECT_EQ(m->key_time[4], 1.5);
  EXPECT_EQ(m->key_time[2], 0.0);
  // the parent's key is read against the whole model, as written
  EXPECT_EQ(Slice(m->key_qpos, m->nq, 0, 0, 1), std::vector<double>{0.1});
  EXPECT_EQ(Slice(m->key_qpos, m->nq, 0, m->nq - 1, 1), std::vector<double>{0.3});
}

TEST(AttachKeys, AnAttachedKeyHoldsTheValuesOfWhatItsAttachmentBrought) {
  auto m = LoadModel(test::TestModel("mjcf3/attach_keys.xml"));
  const int l_free = m->jnt_qposadr[Index(m->jnt_name, "l_free")];
  const int r_free = m->jnt_qposadr[Index(m->jnt_name, "r_free")];
  const int l_dof = m->jnt_dofadr[Index(m->jnt_name, "l_free")];
  const int reach = Index(m->key_name, "l_reach");
  // the free joint's key position is copied as written (the child's world coordinates), not
  // moved into the rotated frame of the attachment
  EXPECT_EQ(Slice(m->key_qpos, m->nq, reach, l_free, 12),
            (std::vector<double>{0.1, 0.2, 1.1, 0.8, 0, 0.6, 0, 0.7, 0.6, 0, 0.8, 0}));
  EXPECT_EQ(Slice(m->key_qvel, m->nv, reach, l_dof, 10),
            (std::vector<double>{1, 2, 3, 0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8}));
  // the other attachment of the same model, the cart and the target keep qpos0 and zeros
  EXPECT_EQ(Slice(m->key_qpos, m->nq, reach, r_free, 12), Slice(m->qpos0, m->nq, 0, r_free, 12));
  EXPECT_EQ(m->key_qpos[reach * m->nq + 0], 0.0);
  // controls: the arm's "lift" motor (outside the subtree) stayed behind with its 9
  EXPECT_EQ(Slice(m->key_ctrl, m->nu, reach, 0, m->nu),
            (std::vector<double>{0, 0.5, -0.5, 0, 0, 0}));
  EXPECT_EQ(Slice(m->key_act, m->na, reach, 0, m->na), (std::vector<double>{0}));
  // the same key of the second attachment lands on its own joints and actuators
  const int r_reach = Index(m->key_name, "r_reach");
  EXPECT_EQ(Slice(m->key_qpos, m->nq, r_reach, r_free, 3), (std::vector<double>{0.1, 0.2, 1.1}));
  EXPECT_EQ(Slice(m->key_ctrl, m->nu, r_reach, 0, m->nu),
            (std::vector<double>{0, 0, 0, 0.5, -0.5, 0}));
}

TEST(AttachKeys, FieldsTheChildsKeyDoesNotWriteTakeTheWholeModelsDefaults) {
  auto m = LoadModel(test::TestModel("mjcf3/attach_keys.xml"));
  // "push" writes only ctrl: the arm's joints are at their attached qpos0 (pose in the frame)
  const int push = Index(m->key_name, "l_push");
  EXPECT_EQ(Slice(m->key_qpos, m->nq, push, 0, m->nq), m->qpos0);
  EXPECT_EQ(Slice(m->key_ctrl, m->nu, push, 0, m->nu), (std::vector<double>{0, -1, 1, 0, 0, 0}));
  const int l_free = m->jnt_qposadr[Index(m->jnt_name, "l_free")];
  EXPECT_NEAR(m->qpos0[l_free + 2], 1.5, 1e-15);  // base z 1 + frame z 0.5
  // the unnamed key writes only qvel: the arm's 10 dofs (the stand's first value is dropped)
  const int unnamed = Index(m->key_name, "l_");
  const int l_dof = m->jnt_dofadr[Index(m->jnt_name, "l_free")];
  EXPECT_EQ(Slice(m->key_qvel, m->nv, unnamed, l_dof, 10),
            (std::vector<double>{2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(Slice(m->key_qvel, m->nv, unnamed, 0, 1), std::vector<double>{0});
}

TEST(AttachKeys, MocapBodiesOfAWholeWorldAttachment) {
  auto m = LoadModel(test::TestModel("mjcf3/attach_keys.xml"));
  ASSERT_EQ(m->nmocap, 1);
  const int aim = Index(m->key_name, "t_aim");
  EXPECT_EQ(Slice(m->key_mpos, 3, aim, 0, 3), (std::vector<double>{0.1, 0.2, 1.3}));
  EXPECT_EQ(Slice(m->key_mquat, 4, aim, 0, 4), (std::vector<double>{0, 1, 0, 0}));
  EXPECT_EQ(m->key_qpos[aim * m->nq + m->nq - 1], 0.2);  // t_ball_x
  EXPECT_EQ(Slice(m->key_act, m->na, aim, 0, m->na), std::vector<double>{0.25});  // t_push
  EXPECT_EQ(m->key_ctrl[aim * m->nu + m->nu - 1], -0.5);
  // every other key holds the target's own pose, moved by the attachment's frame
  for (int k = 0; k < m->nkey; ++k) {
    if (k == aim) continue;
    EXPECT_EQ(Slice(m->key_mpos, 3, k, 0, 3), (std::vector<double>{1, 0.5, 1})) << k;
  }
}

// Gauss prefixes the keys of a nested attachment again (MuJoCo 3.12.1 keeps the inner names
// and warns that they "will not be namespaced correctly"), and the values still reach the
// right joints two levels down.
TEST(AttachKeys, NestedAttachmentsPrefixTheirKeysAgain) {
  auto m = Load(R"(<asset><model name="scene" file="attach_keys.xml"/></asset><worldbody>
      <body name="stage" pos="0 0 3"><joint name="turn" axis="0 0 1"/><geom size=".1"/></body>
      <frame pos="0 0 3"><attach model="scene" prefix="n_"/></frame></worldbody>
      <keyframe><key name="mine" qpos="2 0.1 0 0 1 1 0 0 0 0 1 0 0 0 0 0 2 1 0 0 0 0 1 0 0 0 0.3"/>
      </keyframe>)");
  const std::vector<std::string> keys = {"mine",     "n_home",  "n_l_reach", "n_l_",
                                         "n_l_push", "n_r_reach", "n_r_",    "n_r_push",
                                         "n_t_aim"};
  ASSERT_EQ(m->key_name, keys);
  // the scene's own key gives all of the scene's joints, not the stage's hinge (qpos0 0)
  EXPECT_EQ(m->key_qpos[1 * m->nq + 0], 0.0);
  EXPECT_EQ(m->key_qpos[1 * m->nq + 1], 0.1);
  const int free = m->jnt_qposadr[Index(m->jnt_name, "n_l_free")];
  EXPECT_EQ(Slice(m->key_qpos, m->nq, 2, free, 3), (std::vector<double>{0.1, 0.2, 1.1}));
  EXPECT_EQ(m->key_qpos[2 * m->nq + 1], 0.0);  // n_cart: not written by "reach"
  EXPECT_EQ(m->key_time[2], 1.5);
}

// MuJoCo's own test file (tests/models/mjcf3/mujoco/contact_subtree.xml): its humanoid,
// attached twice, brings its four keys twice (3.12.1: 8 keys, the other copy at qpos0).
TEST(AttachKeys, MujocosContactSubtreeFileLoads) {
  auto m = LoadModel(test::TestModel("mjcf3/mujoco/contact_subtree.xml"));
  const std::vector<std::string> keys = {"1squat", "1stand_on_left_leg", "1prone", "1supine",
                                         "2squat", "2stand_on_left_leg", "2prone", "2supine"};
  ASSERT_EQ(m->key_name, keys);
  EXPECT_EQ(m->nq, 56);
  const int second = m->jnt_qposadr[Index(m->jnt_name, "2root")];
  EXPECT_EQ(Slice(m->key_qpos, m->nq, 0, 0, 3), (std::vector<double>{0, 0, 0.596}));
  EXPECT_EQ(Slice(m->key_qpos, m->nq, 0, second, 28), Slice(m->qpos0, m->nq, 0, second, 28));
  EXPECT_EQ(Slice(m->key_qpos, m->nq, 4, second, 3), (std::vector<double>{0, 0, 0.596}));
}

TEST(AttachKeys, ErrorsNameTheFileAndTheKey) {
  // a child's key of the wrong size: the child's own compile error, located in the child
  const std::string path =
      (std::filesystem::temp_directory_path() / "gauss_attach_keys_test.xml").string();
  {
    std::ofstream f(path);
    f << R"(<mujoco><worldbody><body name="b"><joint/><geom size="1"/></body></worldbody>
        <keyframe><key name="k" qpos="1 2"/></keyframe></mujoco>)";
  }
  const std::string wrong = test::ErrorMessage([&] {
    Load("<asset><model name=\"c\" file=\"" + path + R"("/></asset><worldbody>
        <attach model="c" body="b" prefix="c_"/></worldbody>)");
  });
  std::remove(path.c_str());
  EXPECT_NE(wrong.find(path + ":2"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("expected 1 values, found 2"), std::string::npos) << wrong;
  // a prefixed name that the parent's own key already uses
  const std::string clash = test::ErrorMessage([] {
    Load(R"(<asset><model name="target" file="attach_keys_target.xml"/></asset><worldbody>
        <attach model="target" prefix="t_"/></worldbody>
        <keyframe><key name="t_aim"/></keyframe>)");
  });
  EXPECT_NE(clash.find("t_aim"), std::string::npos) << clash;
  EXPECT_NE(clash.find("keyframe"), std::string::npos) << clash;
}

}  // namespace
}  // namespace gauss
