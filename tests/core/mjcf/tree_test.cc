// Kinematic-tree bookkeeping of the compiler on a small branched model, against values
// derived by hand: ids in preorder, parent/root/weld ids, qpos/dof addresses, dof parents,
// the tree-sparse inertia addresses, reference and spring configurations.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/mjcf.h"

namespace gauss {
namespace {

// world
//  +- torso (free)            dofs 0..5
//  |   +- thigh (hinge)       dof 6
//  |   |   +- shin (slide, hinge)  dofs 7, 8
//  |   +- head (no joint)     welded to torso
//  |       +- eye (ball)      dofs 9..11
//  +- block (no joint)
const char* kModel = R"(<mujoco>
  <worldbody>
    <body name="torso" pos="1 2 3" quat="2 0 0 0">
      <freejoint/>
      <geom size="0.2"/>
      <body name="thigh">
        <joint name="hip" ref="90" springref="45"/>
        <geom size="0.1"/>
        <body name="shin">
          <joint name="knee_slide" type="slide" ref="0.5" springref="0.25"/>
          <joint name="knee" axis="1 0 0"/>
          <geom size="0.1"/>
        </body>
      </body>
      <body name="head">
        <geom size="0.1"/>
        <body name="eye"><joint type="ball"/><geom size="0.05"/></body>
      </body>
    </body>
    <body name="block"><geom size="0.1"/></body>
  </worldbody>
</mujoco>)";

TEST(MjcfTree, BookkeepingOfABranchedTree) {
  auto m = LoadModelFromString(kModel, "tree.xml");
  ASSERT_EQ(m->nbody, 7);
  EXPECT_EQ(m->body_name,
            (std::vector<std::string>{"world", "torso", "thigh", "shin", "head", "eye", "block"}));
  EXPECT_EQ(m->body_parentid, (std::vector<int>{0, 0, 1, 2, 1, 4, 0}));
  EXPECT_EQ(m->body_rootid, (std::vector<int>{0, 1, 1, 1, 1, 1, 6}));
  EXPECT_EQ(m->body_weldid, (std::vector<int>{0, 1, 2, 3, 1, 5, 0}));
  EXPECT_EQ(m->body_jntnum, (std::vector<int>{0, 1, 1, 2, 0, 1, 0}));
  EXPECT_EQ(m->body_dofadr, (std::vector<int>{-1, 0, 6, 7, -1, 9, -1}));
  EXPECT_EQ(m->jnt_qposadr, (std::vector<int>{0, 7, 8, 9, 10}));
  EXPECT_EQ(m->jnt_dofadr, (std::vector<int>{0, 6, 7, 8, 9}));
  ASSERT_EQ(m->nq, 14);
  ASSERT_EQ(m->nv, 12);
  // dof parents: a chain inside each joint, then the nearest ancestor's last dof
  EXPECT_EQ(m->dof_parentid, (std::vector<int>{-1, 0, 1, 2, 3, 4, 5, 6, 7, 5, 9, 10}));
  // dof i takes 1 + (number of ancestors) entries: 1..6 for the free joint, 7, 8, 9 for
  // thigh and shin, and 7, 8, 9 for the ball
  std::vector<int> madr;
  int adr = 0;
  for (int n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 7, 8, 9}) {
    madr.push_back(adr);
    adr += n;
  }
  EXPECT_EQ(m->dof_Madr, madr);
  EXPECT_EQ(m->nM, adr);
}

TEST(MjcfTree, ReferenceAndSpringConfigurations) {
  auto m = LoadModelFromString(kModel, "tree.xml");
  const std::vector<double> free0 = {1, 2, 3, 1, 0, 0, 0};  // the body's frame, normalized
  for (int k = 0; k < 7; ++k) {
    EXPECT_DOUBLE_EQ(m->qpos0[k], free0[k]);
    EXPECT_DOUBLE_EQ(m->qpos_spring[k], free0[k]);
  }
  EXPECT_DOUBLE_EQ(m->qpos0[7], M_PI / 2);  // degrees by default
  EXPECT_DOUBLE_EQ(m->qpos_spring[7], M_PI / 4);
  EXPECT_DOUBLE_EQ(m->qpos0[8], 0.5);  // slide: no conversion
  EXPECT_DOUBLE_EQ(m->qpos_spring[8], 0.25);
  EXPECT_DOUBLE_EQ(m->qpos0[9], 0);
  const std::vector<double> ball = {1, 0, 0, 0};
  for (int k = 0; k < 4; ++k) EXPECT_DOUBLE_EQ(m->qpos0[10 + k], ball[k]);
}

TEST(MjcfTree, GeomsAndSitesFollowBodyOrder) {
  const std::string xml = R"(<mujoco><worldbody>
      <body name="a"><geom name="a1" size="1"/><site name="sa"/>
        <body name="b"><geom name="b1" size="1"/></body><geom name="a2" size="1"/></body>
      <geom name="w" size="1"/><site name="sw"/>
    </worldbody></mujoco>)";
  auto m = LoadModelFromString(xml, "order.xml");
  EXPECT_EQ(m->geom_name, (std::vector<std::string>{"w", "a1", "a2", "b1"}));
  EXPECT_EQ(m->geom_bodyid, (std::vector<int>{0, 1, 1, 2}));
  EXPECT_EQ(m->body_geomadr, (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(m->body_geomnum, (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(m->site_name, (std::vector<std::string>{"sw", "sa"}));
}

TEST(MjcfTree, SensorAndActivationAddresses) {
  const std::string xml = R"(<mujoco><worldbody>
      <body><joint name="j"/><joint name="b" type="ball"/><geom size="1"/><site name="s"/></body>
    </worldbody>
    <actuator>
      <motor joint="j"/><general joint="j" dyntype="integrator"/>
      <general joint="j" dyntype="filter"/>
    </actuator>
    <sensor><jointpos joint="j"/><ballquat joint="b"/><accelerometer site="s"/><clock/></sensor>
  </mujoco>)";
  auto m = LoadModelFromString(xml, "addresses.xml");
  EXPECT_EQ(m->na, 2);
  EXPECT_EQ(m->actuator_actadr, (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(m->actuator_actnum, (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(m->sensor_dim, (std::vector<int>{1, 4, 3, 1}));
  EXPECT_EQ(m->sensor_adr, (std::vector<int>{0, 1, 5, 8}));
  EXPECT_EQ(m->nsensordata, 9);
  EXPECT_EQ(m->sensor_needstage[2], Stage::kAcceleration);
  EXPECT_EQ(m->sensor_objtype[2], ObjType::kSite);
  EXPECT_EQ(m->sensor_plugin[0], "builtin");
  EXPECT_EQ(m->actuator_plugin[0], "builtin");
}

TEST(MjcfTree, StatelessActuatorsComeFirst) {
  const std::string xml =
      R"(<mujoco><worldbody><body><joint name="j"/><geom size="1"/></body></worldbody>
    <actuator><general joint="j" dyntype="integrator"/><motor joint="j"/></actuator></mujoco>)";
  EXPECT_THROW(LoadModelFromString(xml, "order.xml"), Error);
}

}  // namespace
}  // namespace gauss
