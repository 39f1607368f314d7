// MuJoCo 3.x <attach> and <model> assets (core/src/mjcf/attach.cc): prefixed names, the order
// of the grafted elements, the attached model's own default classes, the elements left behind,
// and the refusals. The rules were measured on MuJoCo 3.12.1; tests/reference/mjcf3_test.cc
// compares tests/models/mjcf3/attach.xml with it (counts, names, 200-step trajectory).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// A document beside tests/models/mjcf3/attach_arm.xml, so that file="attach_arm.xml" is found.
std::shared_ptr<const Model> Load(const std::string& inside) {
  return LoadModelFromString("<mujoco>" + inside + "</mujoco>",
                             test::TestModel("mjcf3/virtual.xml"));
}

std::string ErrorOf(const std::string& inside) {
  return test::ErrorMessage([&] { Load(inside); });
}

int Index(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

const char kArm[] = R"(<asset><model name="arm" file="attach_arm.xml"/></asset>)";

TEST(Attach, GraftsThePrefixedSubtreeWhereItIsWritten) {
  auto m = LoadModel(test::TestModel("mjcf3/attach.xml"));
  // preorder: the attached bodies follow the body (or frame) holding <attach>
  const std::vector<std::string> bodies = {"world",  "mount",  "a_base",   "a_fore", "b_base",
                                           "b_fore", "c_holder", "c_base", "c_fore", "c_other"};
  ASSERT_EQ(m->body_name, bodies);
  EXPECT_EQ(m->body_parentid[2], 1);  // a_base hangs below mount
  EXPECT_EQ(m->body_parentid[4], 0);  // b_base: in a frame of the world
  // the attached body keeps its pose, now relative to the place of <attach>
  EXPECT_NEAR(m->body_pos[3 * 2 + 0], 0.1, 1e-15);
  EXPECT_NEAR(m->body_pos[3 * 2 + 2], 0.05, 1e-15);
  EXPECT_NEAR(m->body_pos[3 * 4 + 0], 0.8, 1e-15);    // frame pos 0.8 0 0.3, rotated 90
  EXPECT_NEAR(m->body_pos[3 * 4 + 1], 0.1, 1e-15);    // degrees about z: (0.1, 0) -> (0, 0.1)
  EXPECT_NEAR(m->body_pos[3 * 4 + 2], 0.35, 1e-15);
  // actuators and sensors of the child come after the parent's own, attachment by attachment
  const std::vector<std::string> actuators = {"ms",   "a_m0", "a_p1", "a_mt", "b_m0", "b_p1",
                                              "b_mt", "c_m0", "c_p1", "c_mt", "c_mx"};
  EXPECT_EQ(m->actuator_name, actuators);
  EXPECT_EQ(m->ntendon, 6);
}

TEST(Attach, ElementsNamingAnythingOutsideTheSubtreeStayBehind) {
  auto m = LoadModel(test::TestModel("mjcf3/attach.xml"));
  // "mx" drives and "fo" measures the child's body "other", which only c_ attaches
  EXPECT_EQ(Index(m->actuator_name, "a_mx"), -1);
  EXPECT_EQ(Index(m->sensor_name, "a_fo"), -1);
  EXPECT_GE(Index(m->sensor_name, "c_fo"), 0);
  EXPECT_EQ(m->nsensor, 10);
}

TEST(Attach, TheAttachedModelUsesItsOwnDefaultClasses) {
  auto m = LoadModel(test::TestModel("mjcf3/attach.xml"));
  // the parent's main class (damping 3, friction 0.3) does not reach the arm; the childclass
  // "soft" of the arm's body "holder" (above the attached body) does
  const int slide = Index(m->jnt_name, "slide"), shoulder = Index(m->jnt_name, "a_shoulder");
  EXPECT_EQ(m->dof_damping[m->jnt_dofadr[slide]], 3);
  EXPECT_EQ(m->dof_damping[m->jnt_dofadr[shoulder]], 0.05);
  EXPECT_EQ(m->dof_armature[m->jnt_dofadr[shoulder]], 0.01);
  EXPECT_EQ(m->jnt_stiffness[shoulder], 2);
  // the parent's geoms are the unnamed world plane and the mount's box; every other one is
  // the arm's. The arm's class "link" makes capsules, the parent's class of that name boxes.
  const int mount = Index(m->body_name, "mount"), a_base = Index(m->body_name, "a_base");
  int checked = 0;
  for (int g = 0; g < m->ngeom; ++g) {
    const bool parents = m->geom_bodyid[g] == mount || (m->geom_bodyid[g] == 0 &&
                                                        m->geom_name[g].empty());
    EXPECT_EQ(m->geom_friction[3 * g], parents ? 0.3 : 0.7) << g;
    if (m->geom_bodyid[g] == mount) {
      EXPECT_EQ(m->geom_type[g], GeomType::kBox);
    }
    if (m->geom_bodyid[g] == a_base) {
      EXPECT_EQ(m->geom_type[g], GeomType::kCapsule);
    }
    checked += m->geom_bodyid[g] == mount || m->geom_bodyid[g] == a_base;
  }
  EXPECT_EQ(checked, 2);
}

TEST(Attach, WholeWorldAndRepeatedAttachments) {
  auto m = Load(std::string(kArm) + R"(<worldbody><attach model="arm" prefix="x"/>
      <body name="b"><attach model="arm" body="fore" prefix="y"/></body></worldbody>)");
  EXPECT_EQ(Index(m->body_name, "xholder"), 1);
  EXPECT_GE(Index(m->body_name, "yfore"), 0);
  EXPECT_EQ(Index(m->body_name, "ybase"), -1);
  EXPECT_GE(Index(m->geom_name, "xground"), 0);
  // the exclude base/fore needs both bodies: only x's comes along
  EXPECT_EQ(m->nexclude, 1);
}

TEST(Attach, RefusesWhatItCannotGraft) {
  EXPECT_NE(ErrorOf(std::string(kArm) + R"(<worldbody><attach model="leg" prefix="a"/>
      </worldbody>)").find("unknown model asset 'leg'"), std::string::npos);
  EXPECT_NE(ErrorOf(std::string(kArm) + R"(<worldbody><attach model="arm" body="hand"
      prefix="a"/></worldbody>)").find("has no body 'hand'"), std::string::npos);
  EXPECT_NE(ErrorOf(std::string(kArm) + R"(<worldbody><attach model="arm" frame="f"
      prefix="a"/></worldbody>)").find("not supported yet: <attach frame"), std::string::npos);
  EXPECT_NE(ErrorOf(std::string(kArm) + R"(<compiler angle="radian"/><worldbody>
      <attach model="arm" prefix="a"/></worldbody>)").find("compiler angle differs"),
            std::string::npos);
}

// MuJoCo 3.12 (measured): an unnamed <model> asset is known by its file's `model` attribute
// (attach_arm.xml: "arm"), not by the file's stem, and "MuJoCo Model" when the
// file's root has none.
TEST(Attach, AnUnnamedModelAssetTakesTheModelNameOfItsFile) {
  auto m = Load(R"(<asset><model file="attach_arm.xml"/></asset><worldbody>
      <attach model="arm" body="base" prefix="a_"/></worldbody>)");
  EXPECT_GE(Index(m->body_name, "a_base"), 0);
  EXPECT_NE(ErrorOf(R"(<asset><model file="attach_arm.xml"/></asset><worldbody>
      <attach model="attach_arm" body="base" prefix="a"/></worldbody>)")
                .find("unknown model asset 'attach_arm'"),
            std::string::npos);
  const std::string path =
      (std::filesystem::temp_directory_path() / "gauss_attach_unnamed_test.xml").string();
  {
    std::ofstream f(path);
    f << R"(<mujoco><worldbody><body name="b"><geom size="1"/></body></worldbody></mujoco>)";
  }
  const std::string error = ErrorOf("<asset><model file=\"" + path + R"("/></asset><worldbody>
      <attach model="MuJoCo Model" body="b" prefix="u"/></worldbody>)");
  std::remove(path.c_str());
  EXPECT_EQ(error, "");
}

TEST(Attach, AModelAttachingItselfIsAnError) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "gauss_attach_self_test.xml").string();
  {
    std::ofstream f(path);
    f << R"(<mujoco><asset><model name="me" file="gauss_attach_self_test.xml"/></asset>
        <worldbody><body name="b"><geom size="1"/><attach model="me" body="b" prefix="p"/>
        </body></worldbody></mujoco>)";
  }
  std::string error;
  try {
    LoadModel(path);
  } catch (const Error& e) {
    error = e.what();
  }
  std::remove(path.c_str());
  EXPECT_NE(error.find("nested deeper than 16 levels"), std::string::npos) << error;
}

}  // namespace
}  // namespace gauss
