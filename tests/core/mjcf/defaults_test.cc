// Default classes: inheritance, childclass, explicit class, the main class, copy-at-creation,
// and actuator shortcuts sharing one template per class.
#include <gtest/gtest.h>

#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"

namespace gauss {
namespace {

std::shared_ptr<const Model> Load(const std::string& body) {
  return LoadModelFromString("<mujoco>" + body + "</mujoco>", "defaults.xml");
}

TEST(Defaults, NestedClassesInheritAndOverride) {
  auto m = Load(R"(
    <default>
      <joint damping="1" armature="0.5"/>
      <default class="a"><joint damping="2"/>
        <default class="b"><joint stiffness="3"/></default>
      </default>
    </default>
    <worldbody><body><geom size="1"/>
      <joint name="main"/><joint name="a" class="a"/><joint name="b" class="b" axis="1 0 0"/>
    </body></worldbody>)");
  EXPECT_EQ(m->dof_damping[0], 1);
  EXPECT_EQ(m->dof_damping[1], 2);
  EXPECT_EQ(m->dof_damping[2], 2);     // b inherits a
  EXPECT_EQ(m->dof_armature[2], 0.5);  // ... and main
  EXPECT_EQ(m->jnt_stiffness[2], 3);
  EXPECT_EQ(m->jnt_stiffness[1], 0);
}

TEST(Defaults, ChildclassAppliesToTheSubtreeAndClassWins) {
  auto m = Load(R"(
    <default>
      <default class="a"><geom size="0.2"/></default>
      <default class="b"><geom size="0.3"/></default>
    </default>
    <worldbody>
      <body childclass="a"><geom/><geom class="b"/><geom class="main" size="0.4"/>
        <body><geom/><body childclass="b"><geom/></body></body>
      </body>
      <geom size="0.5"/>
    </worldbody>)");
  // world geom first (body 0), then preorder
  EXPECT_EQ(m->geom_size[0], 0.5);
  EXPECT_EQ(m->geom_size[3], 0.2);   // childclass a
  EXPECT_EQ(m->geom_size[6], 0.3);   // own class b
  EXPECT_EQ(m->geom_size[9], 0.4);   // class main
  EXPECT_EQ(m->geom_size[12], 0.2);  // inherited childclass through a body without one
  EXPECT_EQ(m->geom_size[15], 0.3);  // nested childclass
}

TEST(Defaults, ClassIsCopiedWhenDefined) {
  // a class copies its parent when read: a later top-level <default> does not reach it
  auto m = Load(R"(
    <default><default class="a"/></default>
    <default><joint damping="3"/></default>
    <worldbody><body><geom size="1"/><joint class="a"/><joint axis="1 0 0"/></body></worldbody>)");
  EXPECT_EQ(m->dof_damping[0], 0);
  EXPECT_EQ(m->dof_damping[1], 3);
}

TEST(Defaults, TemplatesAreReadBeforeNestedClasses) {
  auto m = Load(R"(
    <default><default class="a"/><joint damping="3"/></default>
    <worldbody><body><geom size="1"/><joint class="a"/></body></worldbody>)");
  EXPECT_EQ(m->dof_damping[0], 3);
}

TEST(Defaults, TopLevelClassAttributeRenamesMain) {
  auto m = Load(R"(
    <default class="base"><joint damping="4"/></default>
    <worldbody><body><geom size="1"/><joint class="base"/></body></worldbody>)");
  EXPECT_EQ(m->dof_damping[0], 4);
}

TEST(Defaults, DefaultsWrittenAfterTheWorldStillApply) {
  auto m = Load(R"(
    <worldbody><body><geom size="1"/><joint/></body></worldbody>
    <default><joint damping="5"/></default>)");
  EXPECT_EQ(m->dof_damping[0], 5);
}

TEST(Defaults, ActuatorShortcutsShareOneTemplate) {
  auto m = Load(R"(
    <default>
      <position kp="30" ctrlrange="-1 1" ctrllimited="true"/>
      <default class="v"><velocity kv="7"/></default>
    </default>
    <worldbody><body><geom size="1"/><joint name="j"/></body></worldbody>
    <actuator>
      <motor joint="j"/><position joint="j"/><velocity joint="j"/>
      <position joint="j" class="v"/><general joint="j"/>
    </actuator>)");
  const int n = kNGain;
  // motor: unit gain, no bias, but the position bias parameters stay in the template
  EXPECT_EQ(m->actuator_gainprm[0], 1);
  EXPECT_EQ(m->actuator_biastype[0], BiasType::kNone);
  EXPECT_EQ(m->actuator_biasprm[1], -30);
  // position: kp from the class
  EXPECT_EQ(m->actuator_gainprm[n], 30);
  EXPECT_EQ(m->actuator_biasprm[n + 1], -30);
  EXPECT_EQ(m->actuator_biastype[1], BiasType::kAffine);
  // velocity without kv: kv defaults to the template's gain
  EXPECT_EQ(m->actuator_gainprm[2 * n], 30);
  EXPECT_EQ(m->actuator_biasprm[2 * n + 2], -30);
  EXPECT_EQ(m->actuator_biasprm[2 * n + 1], 0);
  // position in class v: kp defaults to kv = 7
  EXPECT_EQ(m->actuator_gainprm[3 * n], 7);
  EXPECT_EQ(m->actuator_biasprm[3 * n + 1], -7);
  EXPECT_EQ(m->actuator_biasprm[3 * n + 2], 0);
  // general: the template as it is
  EXPECT_EQ(m->actuator_biastype[4], BiasType::kAffine);
  EXPECT_EQ(m->actuator_ctrllimited[4], 1);
}

TEST(Defaults, UndefinedClassIsAnError) {
  try {
    Load(R"(<worldbody><body childclass="nope"><geom size="1"/></body></worldbody>)");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where().attribute, "childclass");
    EXPECT_NE(std::string(e.what()).find("'nope'"), std::string::npos);
  }
}

TEST(Defaults, RepeatedClassNameIsAnError) {
  EXPECT_THROW(Load(R"(<default><default class="a"/><default class="a"/></default>)"), Error);
}

}  // namespace
}  // namespace gauss
