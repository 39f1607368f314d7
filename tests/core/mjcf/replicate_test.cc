// MuJoCo 3.x <replicate> (core/src/mjcf/replicate.cc): the copies' poses, name suffixes,
// nesting, the referencing elements that follow the copies, and the errors. The rules were
// measured on MuJoCo 3.12.1; tests/reference/mjcf3_test.cc compares whole models with it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

std::shared_ptr<const Model> Load(const std::string& inside) {
  return LoadModelFromString("<mujoco>" + inside + "</mujoco>", "replicate.xml");
}

std::string ErrorOf(const std::string& inside) {
  return test::ErrorMessage([&] { Load(inside); });
}

TEST(Replicate, CopiesArePosedByAccumulatedOffsetAndRotation) {
  // copy k = T^k with T = (offset, 90 degrees about z): the offset is taken in the previous
  // copy's frame, so the body (0, 0.5, 0) of each copy walks a square
  auto m = Load(R"(<worldbody><replicate count="4" offset="1 0 0" euler="0 0 90">
      <body name="b" pos="0 0.5 0"><freejoint/><geom size=".1"/></body>
      </replicate></worldbody>)");
  ASSERT_EQ(m->nbody, 5);
  const double expected[4][3] = {{0, 0.5, 0}, {0.5, 0, 0}, {1, 0.5, 0}, {0.5, 1, 0}};
  const double s = std::sqrt(0.5);
  const double quats[4][4] = {{1, 0, 0, 0}, {s, 0, 0, s}, {0, 0, 0, 1}, {-s, 0, 0, s}};
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(m->body_pos[3 * (k + 1) + i], expected[k][i], 1e-15);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(m->body_quat[4 * (k + 1) + i], quats[k][i], 1e-15);
  }
}

TEST(Replicate, NamesGetSeparatorAndIndexWithTheDigitsOfCount) {
  auto ten = Load(R"(<worldbody><replicate count="10"><body name="b"><joint name="j"/>
      <geom size=".1"/></body></replicate><replicate count="9" sep="_"><body name="c">
      <joint/><geom size=".1"/></body></replicate></worldbody>)");
  EXPECT_EQ(ten->body_name[1], "b00");
  EXPECT_EQ(ten->body_name[10], "b09");
  EXPECT_EQ(ten->jnt_name[9], "j09");
  EXPECT_EQ(ten->body_name[11], "c_0");
  EXPECT_EQ(ten->body_name[19], "c_8");
  EXPECT_EQ(ten->jnt_name[10], "");  // unnamed stays unnamed
  // nested: the inner replicate is expanded first, so its suffix comes first
  auto nested = Load(R"(<worldbody><replicate count="2" sep="-"><replicate count="11" sep="+">
      <body name="b"><joint/><geom size=".1"/></body></replicate></replicate></worldbody>)");
  ASSERT_EQ(nested->nbody, 23);
  EXPECT_EQ(nested->body_name[1], "b+00-0");
  EXPECT_EQ(nested->body_name[11], "b+10-0");
  EXPECT_EQ(nested->body_name[12], "b+00-1");
}

TEST(Replicate, ReferencingElementsFollowTheCopiesToTheEndOfTheirSection) {
  auto m = Load(R"(<worldbody><site name="out" pos="0 0 1"/>
      <replicate count="2" sep="_"><body name="b"><joint name="j"/><geom size=".1"/>
        <site name="s"/></body></replicate></worldbody>
      <tendon><spatial name="t"><site site="out"/><site site="s"/></spatial></tendon>
      <actuator><motor name="m" joint="j"/></actuator>
      <sensor><tendonpos name="len" tendon="t"/><framepos name="o" objtype="site" objname="out"/>
        <actuatorfrc name="f" actuator="m"/></sensor>)");
  ASSERT_EQ(m->ntendon, 2);
  EXPECT_EQ(m->tendon_name[0], "t_0");
  EXPECT_EQ(m->tendon_name[1], "t_1");
  ASSERT_EQ(m->nu, 2);
  EXPECT_EQ(m->actuator_trnid[2], 1);  // m_1 drives j_1
  // the sensor naming only the outside keeps its place; the others follow copy by copy
  const std::vector<std::string> sensors = {"o", "len_0", "f_0", "len_1", "f_1"};
  ASSERT_EQ(m->nsensor, 5);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(m->sensor_name[i], sensors[i]);
  EXPECT_EQ(m->sensor_objid[3], 1);  // len_1 reads t_1
}

TEST(Replicate, EqualityBetweenACopyAndTheOutsideIsDropped) {
  // MuJoCo 3.12.1 keeps (and copies) equalities inside the copies, drops mixed ones
  auto m = Load(R"(<worldbody><body name="hub"><joint name="spin"/><geom size=".1"/>
      <replicate count="3"><body name="arm"><joint name="a"/><geom size=".1"/>
        <body name="hand"><joint name="w"/><geom size=".1"/></body></body></replicate>
      </body></worldbody>
      <equality><joint joint1="w" joint2="a"/><joint joint1="w" joint2="spin"/>
        <connect body1="hand" body2="world" anchor="0 0 0"/>
        <connect body1="hub" anchor="0 0 0"/></equality>)");
  // the outside-only connect (on body hub = 1) keeps its place; then w_k = a_k for each copy
  // (joint ids: spin 0, a0 1, w0 2, a1 3, w1 4, a2 5, w2 6)
  ASSERT_EQ(m->neq, 4);
  EXPECT_EQ(m->eq_obj1id[0], 1);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(m->eq_obj1id[1 + k], 2 + 2 * k);
    EXPECT_EQ(m->eq_obj2id[1 + k], 1 + 2 * k);
  }
}

TEST(Replicate, ErrorsAreLocated) {
  EXPECT_NE(ErrorOf(R"(<worldbody><replicate count="0"><geom size="1"/></replicate></worldbody>)")
                .find("replicate.xml:1: element 'replicate', attribute 'count': must be positive"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"(<worldbody><replicate><geom size="1"/></replicate></worldbody>)")
                .find("attribute 'count'"),
            std::string::npos);
  const std::string key = ErrorOf(R"(<worldbody><replicate count="2"><body><joint/>
      <geom size="1"/></body></replicate></worldbody><keyframe><key qpos="0 0"/></keyframe>)");
  EXPECT_NE(key.find("element 'keyframe': not supported yet: keyframes in a model with "
                     "<replicate>"),
            std::string::npos)
      << key;
}

}  // namespace
}  // namespace gauss
