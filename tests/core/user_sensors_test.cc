// User sensors (core/src/user_sensors.cc, the Engine's SensorCallback) and sensors of MJCF
// <plugin> elements (core/src/mjcf/parse_plugins.cc, compile_plugins.cc, created by
// core/src/plugin/engine_plugins.cc):
//  - the callback is called once per stage with the ids of that stage's user sensors (needstage
//    "none": never), after the stage: positions see the stage's kinematics, accelerations the
//    solved qacc; cutoffs apply to what it writes (real: both ways, positive: from above);
//  - without a callback the values are left alone (zero after a reset), as MuJoCo 2.2.2 does;
//  - <extension> instances and <sensor><plugin> name the Gauss sensor plugin "test_constant"
//    (tests/test_plugins/stripped_plugin.cc) with its declared parameter "value"; an undeclared
//    config key is refused listing the declared ones; sensors with different configurations get
//    different instances.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

const char* kUserXml = R"(
<mujoco>
  <worldbody>
    <body name="b" pos="0 0 1">
      <joint name="h" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <site name="tip" pos="0.5 0 0"/>
    </body>
  </worldbody>
  <actuator><motor joint="h"/></actuator>
  <sensor>
    <user name="pos3" objtype="site" objname="tip" dim="3" needstage="pos" cutoff="1.2"/>
    <clock/>
    <user name="vel" objtype="joint" objname="h" dim="1" needstage="vel"/>
    <user name="acc" dim="2" needstage="acc" cutoff="0.5"/>
    <user name="pos1" dim="1" needstage="pos" datatype="positive" cutoff="0.25"/>
    <user name="none" dim="1" needstage="none"/>
  </sensor>
</mujoco>)";

struct Call {
  Stage stage;
  std::vector<int> ids;
};

double Value(const Engine& e, const Data& d, const char* name, int k = 0) {
  const Model& m = e.model();
  for (int s = 0; s < m.nsensor; ++s) {
    if (m.sensor_name[s] == name) return d.sensordata[m.sensor_adr[s] + k];
  }
  ADD_FAILURE() << "no sensor " << name;
  return 0;
}

TEST(UserSensors, CallbackGetsEachStagesSensorsAfterThatStage) {
  Engine engine(LoadModelFromString(kUserXml));
  std::vector<Call> calls;
  engine.SetSensorCallback([&calls](const Model& m, Data& d, Stage stage, const int* ids, int n) {
    calls.push_back({stage, std::vector<int>(ids, ids + n)});
    for (int k = 0; k < n; ++k) {
      double* out = d.sensordata.data() + m.sensor_adr[ids[k]];
      const std::string& name = m.sensor_name[ids[k]];
      if (name == "pos3") {
        for (int i = 0; i < 3; ++i) out[i] = 2 * d.site_xpos[i];  // z = 2 > cutoff 1.2
      } else if (name == "vel") {
        out[0] = d.qvel[0];
      } else if (name == "acc") {
        out[0] = d.qacc[0];
        out[1] = -d.qacc[0];
      } else if (name == "pos1") {
        out[0] = d.site_xpos[2] - 1;  // positive datatype: negative values are not clamped
      } else {
        out[0] = 99;
      }
    }
  });
  Data d = engine.MakeData();
  d.qpos[0] = 0.3;  // the tip below the hinge: site z = 1 - 0.5 sin(0.3)
  d.qvel[0] = -0.7;
  d.ctrl[0] = 0.01;
  engine.Forward(d);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].stage, Stage::kPosition);
  EXPECT_EQ(calls[0].ids, (std::vector<int>{0, 4}));
  EXPECT_EQ(calls[1].stage, Stage::kVelocity);
  EXPECT_EQ(calls[1].ids, (std::vector<int>{2}));
  EXPECT_EQ(calls[2].stage, Stage::kAcceleration);
  EXPECT_EQ(calls[2].ids, (std::vector<int>{3}));
  // dim 3 at its address, x and y as written, z cut at 1.2
  EXPECT_DOUBLE_EQ(Value(engine, d, "pos3", 0), 2 * d.site_xpos[0]);
  EXPECT_DOUBLE_EQ(Value(engine, d, "pos3", 1), 0);
  EXPECT_EQ(Value(engine, d, "pos3", 2), 1.2);
  EXPECT_EQ(Value(engine, d, "vel"), -0.7);
  // the acceleration stage's callback saw the final qacc; the cutoff 0.5 clamps both signs
  ASSERT_GT(std::fabs(d.qacc[0]), 0.5) << "gravity should swing the arm";
  EXPECT_EQ(Value(engine, d, "acc", 0), d.qacc[0] > 0 ? 0.5 : -0.5);
  EXPECT_EQ(Value(engine, d, "acc", 1), d.qacc[0] > 0 ? -0.5 : 0.5);
  EXPECT_DOUBLE_EQ(Value(engine, d, "pos1"), -0.5 * std::sin(0.3));
  EXPECT_EQ(Value(engine, d, "none"), 0) << "needstage none is never evaluated";
  EXPECT_EQ(d.sensordata[3], 0);  // the clock

  // positive datatype above its cutoff: clamped from above
  d.qpos[0] = -0.8;
  engine.Forward(d);
  EXPECT_EQ(Value(engine, d, "pos1"), 0.25);
}

TEST(UserSensors, WithoutCallbackValuesAreLeftAlone) {
  Engine engine(LoadModelFromString(kUserXml));
  Data d = engine.MakeData();
  d.qvel[0] = 1;
  engine.Step(d);
  for (int i = 0; i < engine.model().nsensordata; ++i) {
    if (i != 3) {  // 3: the clock, at time 0
      EXPECT_EQ(d.sensordata[i], 0) << i;
    }
  }
  d.sensordata[4] = 3;  // "vel": kept, as MuJoCo keeps a user sensor nobody computes
  engine.Forward(d);
  EXPECT_EQ(d.sensordata[4], 3);
}

TEST(UserSensors, ParserAcceptsMujoco3DefaultsAndRefusesBadDims) {
  const auto m = LoadModelFromString(kUserXml);
  EXPECT_EQ(m->sensor_objid[3], -1);  // no object (3.x)
  EXPECT_EQ(m->sensor_objtype[3], ObjType::kUnknown);
  EXPECT_EQ(m->sensor_datatype[0], SensorDataType::kReal);
  EXPECT_EQ(m->sensor_datatype[4], SensorDataType::kPositive);
  EXPECT_EQ(m->sensor_plugin[0], "user");
  const std::string bad = R"(<mujoco><sensor><user dim="-1"/></sensor></mujoco>)";
  try {
    LoadModelFromString(bad);
    FAIL() << "negative dim accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dim"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------- MJCF plugin sensors

std::string PluginXml(const std::string& extension, const std::string& sensors) {
  return R"(
<mujoco>
  <extension>)" + extension + R"(</extension>
  <worldbody>
    <body name="b"><joint type="slide"/><geom type="sphere" size=".1"/></body>
  </worldbody>
  <sensor>)" + sensors + R"(</sensor>
</mujoco>)";
}

Config WithTestPlugins() {
  Config config;
  config.plugin_paths.push_back(test::TestPluginDir() + "/stripped");
  return config;
}

TEST(PluginSensors, InstancesAndInlineConfigsReachThePlugin) {
  const std::string xml = PluginXml(
      R"(<plugin plugin="test_constant">
           <instance name="seven"><config key="value" value="7"/></instance>
         </plugin>)",
      R"(<plugin name="a" instance="seven" dim="2" needstage="pos"/>
         <plugin name="b" plugin="test_constant" dim="1" cutoff="1.5">
           <config key="value" value="-2.5"/>
         </plugin>
         <plugin name="c" instance="seven" dim="1" needstage="vel" objtype="body" objname="b"/>)");
  const auto model = LoadModelFromString(xml);
  EXPECT_EQ(model->sensor_plugin[0], "test_constant");
  EXPECT_EQ(model->sensor_plugin_config[1].at("value"), "-2.5");
  EXPECT_EQ(model->sensor_objid[2], 1);
  Engine engine(model, WithTestPlugins());
  // two configurations of one plugin: two instances
  int instances = 0;
  for (const PluginInfo& p : engine.PluginsInUse()) instances += p.name == "test_constant";
  EXPECT_EQ(instances, 2);
  Data d = engine.MakeData();
  engine.Forward(d);
  EXPECT_EQ(d.sensordata, (std::vector<double>{7, 7, -1.5, 7}));  // b cut at -1.5
}

TEST(PluginSensors, UnknownConfigKeyListsTheDeclaredParameters) {
  const std::string xml = PluginXml(
      "", R"(<plugin name="bad" plugin="test_constant" dim="1"><config key="valeu" value="1"/>
             </plugin>)");
  try {
    Engine engine(LoadModelFromString(xml), WithTestPlugins());
    FAIL() << "an undeclared key was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("sensor 'bad'"), std::string::npos) << what;
    EXPECT_NE(what.find("valeu"), std::string::npos) << what;
    EXPECT_NE(what.find("value (double, default 0)"), std::string::npos) << what;
  }
}

TEST(PluginSensors, BadReferencesAreLocatedErrors) {
  auto expect_error = [](const std::string& xml, const std::string& part) {
    try {
      LoadModelFromString(xml);
      ADD_FAILURE() << "accepted: " << xml;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_error(PluginXml("", R"(<plugin instance="nope" dim="1"/>)"),
               "unknown plugin instance 'nope'");
  expect_error(PluginXml("", R"(<plugin dim="1"/>)"), "exactly one of 'plugin'");
  expect_error(PluginXml("", R"(<plugin plugin="test_constant"/>)"), "'dim'");
  expect_error(PluginXml(R"(<plugin plugin="p"><instance name="i"/></plugin>)",
                         R"(<plugin instance="i" dim="1"><config key="k" value="1"/></plugin>)"),
               "configure the instance in <extension>");
  expect_error(PluginXml(R"(<plugin plugin="p"><instance name="i"/><instance name="i"/></plugin>)",
                         ""),
               "repeated plugin instance name 'i'");
}

TEST(PluginSensors, UnknownPluginNameIsRefusedByTheEngine) {
  const std::string xml = PluginXml("", R"(<plugin plugin="mujoco.sensor.touch_grid" dim="1"/>)");
  try {
    Engine engine(LoadModelFromString(xml));
    FAIL() << "an unknown plugin was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mujoco.sensor.touch_grid"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gauss
