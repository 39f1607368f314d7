// The MuJoCo 3.x additions to the loader (core/src/mjcf/parse_mjcf3.cc and the 3.x parts of
// the parser and compiler): what each accepted attribute compiles to, and the "not supported
// yet" refusals, each located at its element and attribute.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/config.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

std::shared_ptr<const Model> Load(const std::string& body, const std::string& head = "") {
  return LoadModelFromString("<mujoco>" + head + "<worldbody>" + body + "</worldbody></mujoco>",
                             "mjcf3.xml");
}

// The message of the error loading `xml` raises ("" if it loads).
std::string ErrorOf(const std::string& xml) {
  return test::ErrorMessage([&] { LoadModelFromString(xml, "mjcf3.xml"); });
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* kSlider = R"(<body><joint name="j" type="slide" axis="1 0 0" armature="0.5"/>
                         <geom type="sphere" size="0.1" mass="2"/></body>)";

TEST(Mjcf3, MemoryBudgetSizesContactsAndRows) {
  auto m = Load(kSlider, R"(<size memory="1M"/>)");
  // half of 1 MiB each: contacts of sizeof(Contact), rows of 8 (nv + 16) bytes
  EXPECT_EQ(m->nconmax, static_cast<int>(0.5 * 1048576 / sizeof(Contact)));
  EXPECT_EQ(m->njmax, static_cast<int>(0.5 * 1048576 / (8.0 * (1 + 16))));
  auto k = Load(kSlider, R"(<size memory="64k" nconmax="7"/>)");
  EXPECT_EQ(k->nconmax, 7);
  EXPECT_EQ(k->njmax, static_cast<int>(0.5 * 65536 / (8.0 * 17)));
  auto unset = Load(kSlider, R"(<size memory="-1"/>)");
  EXPECT_EQ(unset->nconmax, 100);
  for (const char* bad : {"10Q", "M", "1.5M", "-5"}) {
    const std::string e = ErrorOf(std::string("<mujoco><size memory=\"") + bad + "\"/></mujoco>");
    EXPECT_TRUE(Contains(e, "attribute 'memory'") && Contains(e, "suffix")) << bad << ": " << e;
  }
  EXPECT_TRUE(Contains(ErrorOf(R"(<mujoco><size memory="1M" njmax="5"/></mujoco>)"),
                       "memory and njmax cannot both be written"));
}

TEST(Mjcf3, OptionsFlagsAndVisualAttributes) {
  auto m = Load(kSlider, R"(<option integrator="implicitfast" ccd_iterations="12"
      ccd_tolerance="1e-7" ls_iterations="20" ls_tolerance="0.001" sleep_tolerance="1e-4"
      o_friction="1 1 0.005 0.0001 0.0001">
      <flag spring="disable" damper="disable" island="enable" midphase="disable"
            nativeccd="disable"/></option>
      <visual><global realtime="0.5" orthographic="true"/></visual>)");
  EXPECT_EQ(m->opt.integrator, "implicitfast");
  EXPECT_EQ(m->opt.ccd_iterations, 12);
  EXPECT_EQ(m->opt.ccd_tolerance, 1e-7);
  EXPECT_TRUE(m->opt.Disabled(kDisablePassive));  // spring and damper both off
  const std::string one = ErrorOf(R"(<mujoco><option><flag spring="disable"/></option></mujoco>)");
  EXPECT_TRUE(Contains(one, "attribute 'spring': not supported yet")) << one;
  const std::string invdiscrete =
      ErrorOf(R"(<mujoco><option><flag invdiscrete="enable"/></option></mujoco>)");
  EXPECT_TRUE(Contains(invdiscrete, "not supported yet")) << invdiscrete;
  // 3.x disable flags of their own; enabled by default
  EXPECT_FALSE(Load(kSlider)->opt.Disabled(kDisableEulerdamp));
  EXPECT_FALSE(Load(kSlider)->opt.Disabled(kDisableAutoreset));
  auto flags = Load(kSlider, R"(<option><flag eulerdamp="disable" autoreset="disable"/></option>)");
  EXPECT_TRUE(flags->opt.Disabled(kDisableEulerdamp));
  EXPECT_TRUE(flags->opt.Disabled(kDisableAutoreset));
  EXPECT_TRUE(Contains(ErrorOf(R"(<mujoco><option o_friction="2"><flag override="enable"/>
                                  </option></mujoco>)"),
                       "not supported yet: o_friction"));
}

TEST(Mjcf3, TausmoothIsDynprm2OfMusclesAndNoDefaultAttribute) {
  const std::string act = R"(<actuator><muscle joint="j" lengthrange="0 1" tausmooth="0.3"/>
      <muscle joint="j" lengthrange="0 1"/></actuator>)";
  auto m = LoadModelFromString("<mujoco><worldbody>" + std::string(kSlider) + "</worldbody>" +
                                   act + "</mujoco>", "mjcf3.xml");
  EXPECT_EQ(m->actuator_dynprm[kNDyn * 0 + 2], 0.3);
  EXPECT_EQ(m->actuator_dynprm[kNDyn * 1 + 2], 0);
  // MuJoCo 3.12.1's schema has no tausmooth in <default><muscle> (measured)
  const std::string e =
      ErrorOf(R"(<mujoco><default><muscle tausmooth="0.3"/></default></mujoco>)");
  EXPECT_TRUE(Contains(e, "tausmooth")) << e;
}

TEST(Mjcf3, ActuatorGroupDisableSetsOneBitPerGroup) {
  auto m = Load(kSlider, R"(<option actuatorgroupdisable="3 1 30 1"/>)");
  EXPECT_EQ(m->opt.disableactuator, (1u << 1) | (1u << 3) | (1u << 30));
  EXPECT_EQ(Load(kSlider, R"(<option actuatorgroupdisable=" "/>)")->opt.disableactuator, 0u);
  EXPECT_EQ(Load(kSlider)->opt.disableactuator, 0u);
  // MuJoCo 3.12.1 refuses groups beyond 0..30 and non-integers (measured)
  for (const char* bad : {"31", "-1", "1.5", "2 x"}) {
    const std::string e = ErrorOf(std::string("<mujoco><option actuatorgroupdisable=\"") + bad +
                                  "\"/></mujoco>");
    EXPECT_TRUE(Contains(e, "mjcf3.xml:1: element 'option', attribute 'actuatorgroupdisable'"))
        << e;
  }
  EXPECT_TRUE(Contains(ErrorOf(R"(<mujoco><option actuatorgroupdisable="31"/></mujoco>)"),
                       "integers from 0 to 30; found '31'"));
}

// Constraint islands follow the version the file is written for (docs/islands.md, "Default"):
// MuJoCo 3.x solves each island on its own unless told not to, 2.2.2 has no islands.
TEST(Mjcf3, IslandsAreOnByDefaultOnlyInFilesUsingMujoco3Features) {
  // two boxes resting apart on a plane: two islands when islands are on
  const std::string boxes = R"(<geom type="plane" size="2 2 0.1"/>
      <body pos="-0.5 0 0.099"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
      <body pos="0.5 0 0.099"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>)";
  auto islands_found = [](const std::shared_ptr<const Model>& m, const std::string& yaml) {
    const Engine engine(m, ParseConfig(yaml, "test.yaml"));
    Data d = engine.MakeData();
    engine.Forward(d);
    EXPECT_GT(d.nefc, 0);
    return d.nisland;
  };
  const auto v2 = Load(boxes);  // nothing only MuJoCo 3.x has
  EXPECT_FALSE(v2->opt.Enabled(kEnableIsland));
  EXPECT_EQ(islands_found(v2, ""), 0);
  // a 3.x option, a 3.x element, a tendon dead band (springlength with two values)
  for (const auto& [head, extra] :
       {std::pair<std::string, std::string>{R"(<option integrator="implicitfast"/>)", ""},
        {"", R"(<frame pos="0 0 1"><site/></frame>)"},
        {"", R"(<site name="a"/><site name="b" pos="0 0 1"/>)"}}) {
    std::string tendon;
    if (extra.find("name=\"a\"") != std::string::npos) {
      tendon = R"(<tendon><spatial springlength="0.5 0.7"><site site="a"/><site site="b"/>
                  </spatial></tendon>)";
    }
    const auto v3 = LoadModelFromString("<mujoco>" + head + "<worldbody>" + boxes + extra +
                                            "</worldbody>" + tendon + "</mujoco>",
                                        "mjcf3.xml");
    EXPECT_TRUE(v3->opt.Enabled(kEnableIsland)) << head << extra;
    EXPECT_EQ(islands_found(v3, ""), 2) << head << extra;
    // the configuration still decides last
    EXPECT_EQ(islands_found(v3, "flags:\n  island: false\n"), 0) << head << extra;
  }
  // written in the file: disable wins in a 3.x file, enable turns islands on in any file
  const auto off = Load(boxes, R"(<option integrator="implicitfast"><flag island="disable"/>
                                  </option>)");
  EXPECT_FALSE(off->opt.Enabled(kEnableIsland));
  EXPECT_EQ(islands_found(off, ""), 0);
  EXPECT_EQ(islands_found(off, "flags:\n  island: true\n"), 2);
  const auto on = Load(boxes, R"(<option><flag island="enable"/></option>)");
  EXPECT_TRUE(on->opt.Enabled(kEnableIsland));
  EXPECT_EQ(islands_found(v2, "flags:\n  island: true\n"), 2);
}

TEST(Mjcf3, AutolimitsDefaultsToTrue) {
  auto m = Load(R"(<body><joint range="-30 30"/><geom size="0.1"/></body>)");
  EXPECT_EQ(m->jnt_limited[0], 1);
  EXPECT_NEAR(m->jnt_range[1], 30 * M_PI / 180, 1e-15);
  const std::string e = ErrorOf(R"(<mujoco><compiler autolimits="false"/><worldbody><body>
      <joint range="-30 30"/><geom size="0.1"/></body></worldbody></mujoco>)");
  EXPECT_TRUE(Contains(e, "range is given but limited is not")) << e;
}

TEST(Mjcf3, DampRatioSetsKvFromTheReflectedInertia) {
  // M = mass + armature = 2.5; gear 4 reflects M / 16; kv = dampratio 2 sqrt(kp M / 16)
  auto s = LoadModelFromString(std::string("<mujoco><worldbody>") + kSlider + R"(</worldbody>
      <actuator><position joint="j" kp="30" dampratio="0.6" gear="4"/>
                <position joint="j" kp="30" kv="2"/></actuator></mujoco>)", "dr.xml");
  EXPECT_NEAR(s->actuator_biasprm[2], -0.6 * 2 * std::sqrt(30 * 2.5 / 16), 1e-14);
  EXPECT_EQ(s->actuator_biasprm[1], -30);
  EXPECT_EQ(s->actuator_biasprm[10 + 2], -2);
  EXPECT_TRUE(Contains(ErrorOf(std::string("<mujoco><worldbody>") + kSlider + R"(</worldbody>
      <actuator><position joint="j" kv="1" dampratio="1"/></actuator></mujoco>)"),
                       "kv and dampratio cannot both be written"));
}

TEST(Mjcf3, ServoClassesTimeconstAndInheritrange) {
  auto m = LoadModelFromString(R"(<mujoco><default><position kp="9" kv="3"/>
      <default class="filtered"><position timeconst="0.2"/></default></default>
      <worldbody><body><joint name="h" range="-60 30"/><geom size="0.1"/></body></worldbody>
      <actuator><position joint="h" inheritrange="0.5"/>
                <position joint="h" class="filtered" kp="4"/></actuator></mujoco>)", "s.xml");
  // the class's kv survives an element that writes only kp (MuJoCo 3.x)
  EXPECT_EQ(m->actuator_biasprm[2], -3);
  EXPECT_EQ(m->actuator_biasprm[10 + 2], -3);
  EXPECT_EQ(m->actuator_biasprm[10 + 1], -4);
  // inheritrange 0.5 of [-60, 30] degrees: the middle -15 +- 22.5
  EXPECT_EQ(m->actuator_ctrllimited[0], 1);
  EXPECT_NEAR(m->actuator_ctrlrange[0], -37.5 * M_PI / 180, 1e-15);
  EXPECT_NEAR(m->actuator_ctrlrange[1], 7.5 * M_PI / 180, 1e-15);
  // timeconst: a first-order filter (filterexact) on the control, one activation
  EXPECT_EQ(m->actuator_dyntype[1], DynType::kFilterExact);
  EXPECT_EQ(m->actuator_dynprm[10], 0.2);
  EXPECT_EQ(m->na, 1);
  const std::string e = ErrorOf(R"(<mujoco><worldbody><body><joint name="h"/><geom size="1"/>
      </body></worldbody><actuator><position joint="h" inheritrange="1"/></actuator></mujoco>)");
  EXPECT_TRUE(Contains(e, "inheritrange needs a limited hinge, slide or tendon")) << e;
}

TEST(Mjcf3, FramesPoseWhatTheyHold) {
  // a frame rotated 90 degrees about z at (1, 0, 0): a geom at (0.5, 0, 0) in it sits at
  // (1, 0.5, 0) in the body, a slide axis x becomes y, a child body follows
  auto m = Load(R"(<body name="b"><joint type="slide" name="s0"/>
      <frame pos="1 0 0" euler="0 0 90">
        <geom name="g" size="0.1" pos="0.5 0 0"/>
        <joint name="s" type="slide" axis="1 0 0" pos="0 0 0.2"/>
        <site name="t" pos="0 0 1"/>
        <frame pos="0 1 0"><body name="c" pos="0 0 0.5"><geom size="0.1"/></body></frame>
      </frame></body>)");
  EXPECT_NEAR(m->geom_pos[0], 1, 1e-15);
  EXPECT_NEAR(m->geom_pos[1], 0.5, 1e-15);
  EXPECT_NEAR(m->jnt_axis[3 * 1 + 1], 1, 1e-15);
  EXPECT_NEAR(m->jnt_axis[3 * 1 + 0], 0, 1e-15);
  EXPECT_NEAR(m->jnt_pos[3 * 1 + 2], 0.2, 1e-15);
  EXPECT_NEAR(m->site_pos[2], 1, 1e-15);
  // body c: the inner frame's (0, 1, 0) is (-1, 0, 0) in the outer one, which sits at
  // (1, 0, 0): the frames cancel out, and c keeps its (0, 0, 0.5) turned 90 degrees
  EXPECT_NEAR(m->body_pos[3 * 2 + 0], 0, 1e-15);
  EXPECT_NEAR(m->body_pos[3 * 2 + 1], 0, 1e-15);
  EXPECT_NEAR(m->body_pos[3 * 2 + 2], 0.5, 1e-15);
  EXPECT_NEAR(std::fabs(m->body_quat[4 * 2 + 0]), std::sqrt(0.5), 1e-15);
  // childclass of a frame reaches its children
  auto c = LoadModelFromString(R"(<mujoco><default><default class="k"><geom size="0.3"/>
      </default></default><worldbody><frame childclass="k"><geom/></frame></worldbody>
      </mujoco>)", "k.xml");
  EXPECT_EQ(c->geom_size[0], 0.3);
}

TEST(Mjcf3, SiteConnectAndWeldCompileToTheirBodies) {
  const char* bodies = R"(<site name="w" pos="0 0 1"/>
      <body name="a" pos="0.3 0 1"><freejoint/><geom size="0.1"/>
        <site name="sa" pos="0.1 0.2 0.3" euler="0 0 40"/></body>)";
  auto m = LoadModelFromString(std::string("<mujoco><worldbody>") + bodies + R"(</worldbody>
      <equality><connect site1="sa" site2="w"/><weld site1="sa" site2="w"/></equality>
      </mujoco>)", "s.xml");
  EXPECT_EQ(m->eq_obj1id[0], 1);
  EXPECT_EQ(m->eq_obj2id[0], 0);
  const double* c = &m->eq_data[0];
  EXPECT_EQ(c[0], 0.1);
  EXPECT_EQ(c[2], 0.3);
  EXPECT_EQ(c[5], 1);  // site w in the world frame
  const double* w = &m->eq_data[11];
  EXPECT_EQ(w[2], 1);   // anchor: site2 in body2
  EXPECT_EQ(w[5], 0.3);  // site1 in body1
  EXPECT_NEAR(w[6], std::cos(20 * M_PI / 180), 1e-15);  // relquat = site1's orientation
  EXPECT_NEAR(w[9], std::sin(20 * M_PI / 180), 1e-15);
  // the rotational residual's frame: site2's orientation in body2 (identity for w)
  EXPECT_EQ(m->eq_frame2quat[4], 1);
  auto rotated = LoadModelFromString(std::string("<mujoco><worldbody>") + bodies +
                                     R"(</worldbody><equality><weld site1="w" site2="sa"/>
                                     </equality></mujoco>)", "s.xml");
  EXPECT_NEAR(rotated->eq_frame2quat[0], std::cos(20 * M_PI / 180), 1e-15);
  EXPECT_NEAR(rotated->eq_frame2quat[3], std::sin(20 * M_PI / 180), 1e-15);
  const std::string half = ErrorOf(std::string("<mujoco><worldbody>") + bodies +
                                   R"(</worldbody><equality><connect site1="sa"/></equality>
                                   </mujoco>)");
  EXPECT_TRUE(Contains(half, "attribute 'site2': required attribute missing")) << half;
  const std::string mixed = ErrorOf(std::string("<mujoco><worldbody>") + bodies +
                                    R"(</worldbody><equality><connect site1="sa" site2="w"
                                    body1="a"/></equality></mujoco>)");
  EXPECT_TRUE(Contains(mixed, "takes no body1")) << mixed;
}

TEST(Mjcf3, JointActuatorForceRangeClampsTheTotal) {
  auto model = LoadModelFromString(R"(<mujoco><worldbody><body>
      <joint name="h" axis="0 1 0" actuatorfrcrange="-1 0.5"/><geom size="0.1" mass="1"/>
      </body></worldbody>
      <actuator><motor joint="h" gear="3"/><motor joint="h"/></actuator>
      <sensor><jointactuatorfrc joint="h"/></sensor></mujoco>)",
                                   "f.xml");
  EXPECT_EQ(model->jnt_actfrclimited[0], 1);
  EXPECT_EQ(model->jnt_actfrcrange[1], 0.5);
}

TEST(Mjcf3, JointActuatorForceSensorReadsTheClampedForce) {
  const Engine engine(LoadModelFromString(R"(<mujoco><worldbody><body>
      <joint name="h" axis="0 1 0" actuatorfrcrange="-1 0.5"/><geom size="0.1" mass="1"/>
      </body></worldbody><actuator><motor joint="h" gear="3"/><motor joint="h"/></actuator>
      <sensor><jointactuatorfrc joint="h"/></sensor></mujoco>)", "f.xml"));
  Data d = engine.MakeData();
  d.ctrl[0] = 0.1;
  d.ctrl[1] = 0.1;  // 0.4 in range
  engine.Forward(d);
  EXPECT_DOUBLE_EQ(d.qfrc_actuator[0], 0.4);
  EXPECT_DOUBLE_EQ(d.sensordata[0], 0.4);
  d.ctrl[0] = 1;  // 3.1, clamped to 0.5
  engine.Forward(d);
  EXPECT_EQ(d.qfrc_actuator[0], 0.5);
  EXPECT_EQ(d.sensordata[0], 0.5);
  EXPECT_EQ(d.actuator_force[0], 1);  // the actuators' own forces are not clamped
  d.ctrl[0] = d.ctrl[1] = -2;
  engine.Forward(d);
  EXPECT_EQ(d.qfrc_actuator[0], -1);
}

// MuJoCo 3.12.1 (measured) accepts actuatorfrcrange on ball and free joints and on models with
// the implicit integrators; on ball and free joints it has no effect.
TEST(Mjcf3, JointActuatorForceRangeLoadsOnEveryJointAndIntegrator) {
  for (const char* integrator : {"implicit", "implicitfast"}) {
    auto m = LoadModelFromString(std::string("<mujoco><option integrator=\"") + integrator +
                                     R"("/><worldbody><body><joint actuatorfrcrange="-1 1"/>
                                     <geom size="1"/></body></worldbody></mujoco>)",
                                 "implicit.xml");
    EXPECT_EQ(m->jnt_actfrclimited[0], 1) << integrator;
  }
  auto m = Load(R"(<body><joint type="free" actuatorfrcrange="-1 1"/><geom size="0.1"/></body>
                   <body><joint type="ball" actuatorfrcrange="-0.5 2"/><geom size="0.1"/></body>)");
  EXPECT_EQ(m->jnt_actfrclimited[0], 1);
  EXPECT_EQ(m->jnt_actfrcrange[3], 2);
  const std::string inverted = ErrorOf(R"(<mujoco><worldbody><body><joint type="ball"
      actuatorfrcrange="1 -1"/><geom size="1"/></body></worldbody></mujoco>)");
  EXPECT_TRUE(Contains(inverted, "element 'joint', attribute 'actuatorfrcrange'") &&
              Contains(inverted, "lower <= upper"))
      << inverted;
}

// Two slides, a fixed tendon on both (coefficients 1, 0.5) and two motors on it (gears 1, 3)
// plus one on the first joint: the tendon's actuatorfrcrange scales the tendon motors' forces.
const char* kTendonClamp = R"(<mujoco><option gravity="0 0 0"/><worldbody>
    <body><joint name="j0" type="slide" axis="1 0 0"/><geom size="0.1" mass="1"/></body>
    <body pos="0 1 0"><joint name="j1" type="slide" axis="1 0 0"/><geom size="0.1" mass="1"/>
    </body></worldbody>
  <tendon><fixed name="t" actuatorfrclimited="true" actuatorfrcrange="-1 1.5">
    <joint joint="j0" coef="1"/><joint joint="j1" coef="0.5"/></fixed></tendon>
  <actuator><motor tendon="t"/><motor tendon="t" gear="3"/><motor joint="j0"/></actuator>
  <sensor><tendonactuatorfrc tendon="t"/></sensor></mujoco>)";

TEST(Mjcf3, TendonActuatorForceRangeScalesTheTendonsActuators) {
  const Engine engine(LoadModelFromString(kTendonClamp, "clamp.xml"));
  const Model& m = engine.model();
  EXPECT_EQ(m.tendon_actfrclimited[0], 1);
  Data d = engine.MakeData();
  d.ctrl = {1, 2, 5};  // sum 3 > 1.5: both scaled by 1/2 (measured on MuJoCo 3.12.1)
  engine.Forward(d);
  EXPECT_DOUBLE_EQ(d.actuator_force[0], 0.5);
  EXPECT_DOUBLE_EQ(d.actuator_force[1], 1);
  EXPECT_DOUBLE_EQ(d.actuator_force[2], 5);  // a joint transmission is not the tendon's
  EXPECT_DOUBLE_EQ(d.sensordata[0], 1.5);
  EXPECT_DOUBLE_EQ(d.qacc[0], 0.5 * 1 + 1 * 3 + 5);  // moments gear * J
  EXPECT_DOUBLE_EQ(d.qacc[1], 0.5 * (0.5 + 3));
  d.ctrl = {3, -2, 0};  // sum 1: in range, forces as they are
  engine.Forward(d);
  EXPECT_EQ(d.actuator_force[0], 3);
  EXPECT_EQ(d.actuator_force[1], -2);
  for (const char* bad : {"0.5 1", "-1 -0.5", "1 -1"}) {
    std::string xml = kTendonClamp;
    xml.replace(xml.find("-1 1.5"), 6, bad);
    const std::string e = ErrorOf(xml);
    EXPECT_TRUE(Contains(e, "attribute 'actuatorfrcrange'")) << bad << ": " << e;
  }
  std::string open_range = kTendonClamp;
  open_range.replace(open_range.find("-1 1.5"), 6, "0.5 1");
  EXPECT_TRUE(Contains(ErrorOf(open_range), "lower < upper and contain 0"));
}

// Unlike the joint's, a tendon's actuatorfrclimited defaults to false, not auto: MuJoCo 3.12.1
// (measured) ignores a tendon's actuatorfrcrange unless actuatorfrclimited is written true (or
// auto, resolved by autolimits), whatever the range.
TEST(Mjcf3, TendonActuatorForceRangeIsLimitedOnlyWhenWritten) {
  std::string xml = kTendonClamp;
  xml.replace(xml.find(" actuatorfrclimited=\"true\""), 26, "");
  xml.replace(xml.find("-1 1.5"), 6, "0.5 1");  // not a valid limited range: never checked
  const Engine engine(LoadModelFromString(xml, "unlimited.xml"));
  EXPECT_EQ(engine.model().tendon_actfrclimited[0], 0);
  Data d = engine.MakeData();
  d.ctrl = {1, 2, 5};
  engine.Forward(d);
  EXPECT_EQ(d.actuator_force[0], 1);
  EXPECT_EQ(d.actuator_force[1], 2);
  std::string written_auto = kTendonClamp;
  written_auto.replace(written_auto.find("\"true\""), 6, "\"auto\"");
  EXPECT_EQ(LoadModelFromString(written_auto, "auto.xml")->tendon_actfrclimited[0], 1);
}

// MuJoCo 3.12.1 (measured) scales a tendon's actuator forces before each actuator's own
// forcerange: a motor clamped by its forcerange still counts with its unclamped force.
TEST(Mjcf3, TendonActuatorForceRangeScalesBeforeForceRange) {
  std::string xml = kTendonClamp;
  xml.replace(xml.find("<motor tendon=\"t\" gear=\"3\"/>"), 28,
              "<motor tendon=\"t\" gear=\"3\" forcerange=\"-0.3 0.3\"/>");
  const Engine engine(LoadModelFromString(xml, "order.xml"));
  Data d = engine.MakeData();
  d.ctrl = {0.5, 2.5, 0};  // sum 3 -> 1.5: both halved, then 1.25 clamped to 0.3
  engine.Forward(d);
  EXPECT_DOUBLE_EQ(d.actuator_force[0], 0.25);
  EXPECT_EQ(d.actuator_force[1], 0.3);
  EXPECT_DOUBLE_EQ(d.sensordata[0], 0.55);  // below the bound 1.5
  d.ctrl = {1, 0.2, 0};  // sum 1.2 in range: only the forcerange acts
  engine.Forward(d);
  EXPECT_EQ(d.actuator_force[0], 1);
  EXPECT_EQ(d.actuator_force[1], 0.2);
}

TEST(Mjcf3, ActearlyForceUsesTheNextActivation) {
  const Engine engine(LoadModelFromString(R"(<mujoco><option timestep="0.01"/><worldbody>
      <body><joint name="a" type="slide" axis="1 0 0"/><geom size="0.1" mass="1"/></body>
      <body><joint name="b" type="slide" axis="1 0 0"/><geom size="0.1" mass="1"/></body>
      </worldbody><actuator>
      <general joint="a" dyntype="integrator" gainprm="2" actearly="true" actrange="-1 0.105"/>
      <general joint="b" dyntype="filterexact" dynprm="0.05" gainprm="3" actearly="true"/>
      </actuator></mujoco>)", "actearly.xml"));
  Data d = engine.MakeData();
  d.act = {0.1, 0.2};
  d.ctrl = {0.4, 1};
  engine.Forward(d);
  // integrator: 0.1 + 0.01 * 0.4 = 0.104, inside actrange
  EXPECT_DOUBLE_EQ(d.actuator_force[0], 2 * 0.104);
  // filterexact: exact integral over the step
  EXPECT_NEAR(d.actuator_force[1], 3 * (1 + (0.2 - 1) * std::exp(-0.01 / 0.05)), 1e-14);
  d.ctrl[0] = 1;  // 0.11 is clamped to actrange's 0.105
  engine.Forward(d);
  EXPECT_DOUBLE_EQ(d.actuator_force[0], 2 * 0.105);
  const std::string plugin = ErrorOf(R"(<mujoco><worldbody><body><joint name="a"/>
      <geom size="1"/></body></worldbody><actuator><general joint="a" dyntype="dcmotor"
      actearly="true"/></actuator></mujoco>)");
  EXPECT_TRUE(Contains(plugin, "actearly needs the builtin actuator dynamics")) << plugin;
}

// A sphere resting on a box (its own frame rotated 90 degrees about z) at the contact point
// (0, 0, 0): friction rows' velocities under a surface velocity of the box.
std::string SurfaceScene(const std::string& cone, const std::string& surfacevel,
                         const std::string& pair = "") {
  return R"(<mujoco><option cone=")" + cone + R"("/><worldbody>
      <geom name="belt" type="box" size="1 1 0.1" pos="0.2 0 -0.1" euler="0 0 90" condim="6"
            surfacevel=")" + surfacevel + R"("/>
      <body name="ball" pos="0 0 0.0999"><freejoint/>
        <geom name="ball" type="sphere" size="0.1" condim="6"/></body></worldbody>)" + pair +
         "</mujoco>";
}

TEST(Mjcf3, SurfaceVelocityShiftsTheFrictionRows) {
  // linear (1, 0, 0) in the box frame = (0, 1, 0) in the world; angular (0, 0, 2) about the
  // box center (0.2, 0, -0.1): at the contact point (0, 0, 0) it adds (0, 0, 2) x (-0.2, 0,
  // 0.1) = (0, -0.4, 0): the belt's surface moves by (0, 0.6, 0), spinning at 2 about z.
  const Engine engine(LoadModelFromString(SurfaceScene("elliptic", "1 0 0 0 0 2"), "s.xml"));
  Data d = engine.MakeData();
  engine.Forward(d);
  ASSERT_EQ(d.ncon, 1);
  const Contact& c = d.contact[0];
  // rows see geom2's surface velocity minus geom1's
  const double s = c.geom1 == engine.model().GeomId("belt") ? -1 : 1;
  const double lin[3] = {0, 0.6 * s, 0}, ang[3] = {0, 0, 2 * s};
  auto dot = [](const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
  EXPECT_NEAR(d.efc_vel[c.efc_address], 0, 1e-15);  // the normal row is unchanged
  EXPECT_NEAR(d.efc_vel[c.efc_address + 1], dot(c.frame + 3, lin), 1e-12);
  EXPECT_NEAR(d.efc_vel[c.efc_address + 2], dot(c.frame + 6, lin), 1e-12);
  EXPECT_NEAR(d.efc_vel[c.efc_address + 3], dot(c.frame, ang), 1e-12);
  EXPECT_NEAR(d.efc_vel[c.efc_address + 4], dot(c.frame + 3, ang), 1e-12);
  // pyramidal edges J_n +- mu_k J_k
  const Engine pyramid(LoadModelFromString(SurfaceScene("pyramidal", "1 0 0 0 0 2"), "p.xml"));
  Data p = pyramid.MakeData();
  pyramid.Forward(p);
  const Contact& e = p.contact[0];
  const double first = e.friction[0] * dot(e.frame + 3, lin);
  EXPECT_NEAR(p.efc_vel[e.efc_address], first, 1e-12);
  EXPECT_NEAR(p.efc_vel[e.efc_address + 1], -first, 1e-12);
  EXPECT_NEAR(p.efc_vel[e.efc_address + 4], e.friction[2] * dot(e.frame, ang), 1e-12);
}

TEST(Mjcf3, PairSolreffrictionSetsTheEllipticFrictionDamping) {
  const std::string pair = R"(<contact><pair geom1="belt" geom2="ball" condim="3"
      solref="0.02 1" solimp="0.9 0.95 0.001 0.5 2" solreffriction="0.1 0.5"/>
      <exclude body1="world" body2="ball"/></contact>)";
  for (const char* cone : {"elliptic", "pyramidal"}) {
    const Engine engine(LoadModelFromString(SurfaceScene(cone, "0 0 0 0 0 0", pair), "f.xml"));
    Data d = engine.MakeData();
    engine.Forward(d);
    ASSERT_GE(d.ncon, 1);
    const int a = d.contact[0].efc_address;
    const bool elliptic = std::string(cone) == "elliptic";
    // B = 2 / (dmax timeconst): the normal's from solref, elliptic friction rows' from
    // solreffriction; pyramidal edges keep solref (measured on MuJoCo 3.12.1)
    EXPECT_NEAR(d.efc_KBIP[4 * a + 1], 2 / (0.95 * 0.02), 1e-9) << cone;
    EXPECT_NEAR(d.efc_KBIP[4 * (a + 1) + 1], 2 / (0.95 * (elliptic ? 0.1 : 0.02)), 1e-9) << cone;
  }
}

TEST(Mjcf3, FeaturesWithoutSemanticsAreRefusedWhereWritten) {
  const struct {
    const char* xml;
    const char* expected;
  } cases[] = {
      {"<worldbody><flexcomp type=\"grid\" count=\"2 2 1\"/></worldbody>",
       "element 'flexcomp': not supported yet"},
      {"<extension><plugin plugin=\"mujoco.elasticity.cable\"><instance name=\"c\"/></plugin>"
       "</extension><worldbody><body><plugin instance=\"c\"/><geom size=\"1\"/></body>"
       "</worldbody>",
       "element 'plugin': not supported yet"},
      {"<worldbody><geom name=\"a\" size=\"1\"/><geom name=\"b\" type=\"ellipsoid\" "
       "size=\"1 1 2\"/></worldbody><sensor><distance geom1=\"a\" geom2=\"b\"/></sensor>",
       "element 'distance': not supported yet: distance sensor between sphere and ellipsoid"},
      {"<deformable/>", "element 'deformable': not supported yet"},
      {"<worldbody><site name=\"s0\"/><geom name=\"g\" size=\"0.1\" pos=\"0 0 1\"/>"
       "<site name=\"s1\" pos=\"0 0 2\"/></worldbody><tendon><spatial armature=\"1\">"
       "<site site=\"s0\"/><geom geom=\"g\"/><site site=\"s1\"/></spatial></tendon>",
       "attribute 'armature': not supported yet: armature on a tendon that wraps"},
      {"<option integrator=\"implicit\"/><worldbody><body><joint name=\"a\"/>"
       "<geom size=\"1\"/></body></worldbody><tendon><fixed armature=\"1\">"
       "<joint joint=\"a\" coef=\"1\"/></fixed></tendon>",
       "attribute 'armature': not supported yet: tendon armature with the implicit"},
      {"<worldbody><site name=\"s\"/></worldbody><sensor><camprojection site=\"s\" "
       "camera=\"c\"/></sensor>", "attribute 'camera': unknown camera 'c'"},
      {"<worldbody><site name=\"s\"/></worldbody><sensor><camprojection site=\"s\"/>"
       "</sensor>", "camera"},
  };
  for (const auto& c : cases) {
    const std::string e = ErrorOf(std::string("<mujoco>") + c.xml + "</mujoco>");
    EXPECT_TRUE(Contains(e, c.expected)) << c.xml << "\n  gave: " << e;
  }
}

// Elements and attributes without physics that 3.x files write: custom text and tuple (checked,
// not stored), light texture (image-based lighting); compiler conflict: "warning" is Gauss's
// attach behavior, "merge" and "error" are refused where written.
TEST(Mjcf3, CustomTextTupleLightTextureAndAttachConflict) {
  auto m = Load(R"(<geom name="g" size="0.1"/><light type="image" texture="sky"/>)",
                R"(<compiler conflict="warning"/><asset><texture name="sky" type="skybox"
                   builtin="gradient" width="8" height="8"/></asset><custom>
                   <numeric name="n" data="1 2"/><text name="t" data="abc"/><tuple name="tu">
                   <element objtype="geom" objname="g" prm="2"/></tuple></custom>)");
  EXPECT_EQ(m->nnumeric, 1);
  EXPECT_EQ(m->numeric_data[1], 2);
  const std::string no_data = ErrorOf(R"(<mujoco><custom><text name="t"/></custom></mujoco>)");
  EXPECT_TRUE(Contains(no_data, "attribute 'data': required attribute missing")) << no_data;
  const std::string no_name = ErrorOf(R"(<mujoco><custom><tuple name="tu"><element
      objtype="geom"/></tuple></custom></mujoco>)");
  EXPECT_TRUE(Contains(no_name, "attribute 'objname': required attribute missing")) << no_name;
  const std::string merge = ErrorOf(R"(<mujoco><compiler conflict="merge"/></mujoco>)");
  EXPECT_TRUE(Contains(merge, "compiler', attribute 'conflict': not supported yet: compiler "
                              "conflict=\"merge\"")) << merge;
  const std::string bad = ErrorOf(R"(<mujoco><compiler conflict="ignore"/></mujoco>)");
  EXPECT_TRUE(Contains(bad, "attribute 'conflict'")) << bad;
  // an SDF geom is refused by name, not as an unknown geom type
  const std::string sdf = ErrorOf(R"(<mujoco><asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0
      0 0 1"/></asset><worldbody><geom type="sdf" mesh="m"/></worldbody></mujoco>)");
  EXPECT_TRUE(Contains(sdf, "attribute 'type': not supported yet: geom type=\"sdf\"")) << sdf;
}

}  // namespace
}  // namespace gauss
