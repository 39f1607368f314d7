// One test per class of bad input: the gauss::Error must name the file, the line, the element
// and (where one is to blame) the attribute, and say what was expected. The models are in
// tests/models/bad_*.xml; the line numbers below are those of the offending element.
#include <gtest/gtest.h>

#include <cmath>

#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

using test::TestModel;

struct Expected {
  std::string file;  // file the error must point to (tests/models/...)
  int line;
  std::string element;
  std::string attribute;  // "" when the element as a whole is at fault
  std::string fragment;   // part of the explanation
};

// Loads `model` and checks the error against `want`, both its fields and its text.
void ExpectLoadError(const std::string& model, const Expected& want) {
  SCOPED_TRACE(model);
  try {
    LoadModel(TestModel(model));
    FAIL() << model << " loaded but should be refused";
  } catch (const Error& e) {
    const std::string text = e.what();
    const ErrorLocation& w = e.where();
    EXPECT_EQ(w.file, TestModel(want.file)) << text;
    EXPECT_EQ(w.line, want.line) << text;
    EXPECT_EQ(w.element, want.element) << text;
    EXPECT_EQ(w.attribute, want.attribute) << text;
    EXPECT_NE(text.find(TestModel(want.file) + ":" + std::to_string(want.line)), std::string::npos)
        << text;
    EXPECT_NE(text.find("element '" + want.element + "'"), std::string::npos) << text;
    if (!want.attribute.empty()) {
      EXPECT_NE(text.find("attribute '" + want.attribute + "'"), std::string::npos) << text;
    }
    EXPECT_NE(text.find(want.fragment), std::string::npos) << text;
  }
}

TEST(MjcfErrors, UnknownElement) {
  ExpectLoadError("bad_unknown_element.xml",
                  {"bad_unknown_element.xml", 4, "bdy", "", "unknown element <bdy> inside <body>"});
}

TEST(MjcfErrors, UnknownAttribute) {
  ExpectLoadError("bad_unknown_attribute.xml",
                  {"bad_unknown_attribute.xml", 4, "geom", "colour", "unknown attribute"});
}

TEST(MjcfErrors, BadNumber) {
  ExpectLoadError("bad_number.xml",
                  {"bad_number.xml", 2, "option", "timestep", "'fast' is not a number"});
}

TEST(MjcfErrors, WrongNumberOfValues) {
  ExpectLoadError("bad_number_count.xml",
                  {"bad_number_count.xml", 3, "body", "pos", "expected 3 values, found 2"});
}

TEST(MjcfErrors, UnknownKeywordListsTheValidOnes) {
  ExpectLoadError("bad_keyword.xml",
                  {"bad_keyword.xml", 2, "option", "integrator",
                   "invalid value 'euler'; expected one of: Euler, RK4, implicit"});
}

TEST(MjcfErrors, UndefinedClass) {
  ExpectLoadError("bad_class.xml",
                  {"bad_class.xml", 4, "geom", "class", "undefined default class 'leg'"});
}

TEST(MjcfErrors, UnknownJointOfActuator) {
  ExpectLoadError("bad_actuator_joint.xml",
                  {"bad_actuator_joint.xml", 9, "motor", "joint", "unknown joint 'elbow'"});
}

TEST(MjcfErrors, UnknownSiteOfSensor) {
  ExpectLoadError("bad_sensor_site.xml",
                  {"bad_sensor_site.xml", 6, "accelerometer", "site", "unknown site 'imu2'"});
}

TEST(MjcfErrors, UnknownBodyOfEquality) {
  ExpectLoadError("bad_equality_body.xml",
                  {"bad_equality_body.xml", 6, "connect", "body2", "unknown body 'ghost'"});
}

TEST(MjcfErrors, UnknownJointOfTendon) {
  ExpectLoadError("bad_tendon_joint.xml",
                  {"bad_tendon_joint.xml", 7, "joint", "joint", "unknown joint 'b'"});
}

TEST(MjcfErrors, DuplicateName) {
  ExpectLoadError("bad_duplicate_name.xml",
                  {"bad_duplicate_name.xml", 4, "body", "name", "'arm' is already used"});
}

TEST(MjcfErrors, MalformedXml) {
  try {
    LoadModel(TestModel("bad_malformed.xml"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where().file, TestModel("bad_malformed.xml"));
    EXPECT_GT(e.where().line, 0);
    EXPECT_NE(std::string(e.what()).find("malformed XML"), std::string::npos) << e.what();
  }
}

// Malformed XML is explained with the tags involved and their lines, not tinyxml2's codes.
TEST(MjcfErrors, MalformedXmlInWords) {
  struct Case {
    const char* model;
    int line;
    const char* message;
  };
  for (const Case& c : {Case{"bad_mismatched_tag.xml", 5,
                             "malformed XML: the closing tag </body> at line 5 does not match "
                             "the open tag <geom> of line 4"},
                        Case{"bad_stray_closing_tag.xml", 6,
                             "malformed XML: stray closing tag </body> at line 6: no <body> is "
                             "open there (the innermost open tag is <worldbody> of line 2)"},
                        Case{"bad_malformed.xml", 4,
                             "malformed XML: the tag <geom> opened at line 4 is not ended with "
                             "'>' or '/>' before the next tag (line 5)"}}) {
    SCOPED_TRACE(c.model);
    try {
      LoadModel(TestModel(c.model));
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.where().line, c.line) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find("ErrorID"), std::string::npos) << e.what();
    }
  }
}

TEST(MjcfErrors, StrayClosingTagAtTopLevel) {
  try {
    LoadModelFromString("<mujoco>\n</worldbody>\n</mujoco>\n", "stray.xml");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stray closing tag </worldbody> at line 2"),
              std::string::npos) << e.what();
  }
  try {
    LoadModelFromString("<mujoco>\n  <worldbody>\n</mujoco>\n", "unclosed.xml");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("</mujoco> at line 3 does not match the open tag "
                                         "<worldbody> of line 2"),
              std::string::npos) << e.what();
  }
  try {
    LoadModelFromString("<mujoco>\n  <worldbody>\n", "unended.xml");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("<worldbody> opened at line 2 is never closed"),
              std::string::npos) << e.what();
  }
}

// noslip post-processing is not supported yet: asking for it is refused, not ignored.
TEST(MjcfErrors, NoslipIterationsRefused) {
  ExpectLoadError("bad_noslip.xml", {"bad_noslip.xml", 2, "option", "noslip_iterations",
                                     "not supported yet: noslip post-processing"});
}

TEST(MjcfErrors, MissingModelFile) {
  try {
    LoadModel(TestModel("no_such_model.xml"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_model.xml"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("file not found"), std::string::npos);
  }
}

TEST(MjcfErrors, NotSupportedYetNamesTheFeature) {
  ExpectLoadError("bad_flexcomp.xml",
                  {"bad_flexcomp.xml", 3, "flexcomp", "", "not supported yet: <flexcomp>"});
}

TEST(MjcfErrors, MissingMeshFile) {
  // the path is resolved from the model's folder: tests/models/mug.obj does not exist
  ExpectLoadError("bad_mesh.xml", {"bad_mesh.xml", 3, "mesh", "file", "mesh file 'mug.obj' not found: tried /"});
  ExpectLoadError("bad_mesh.xml", {"bad_mesh.xml", 3, "mesh", "file", "tests/models/mug.obj (the model's folder"});
}

TEST(MjcfErrors, MuscleLengthRangeThatCannotConverge) {
  // a muscle on an unlimited hinge has no length range: the simulation that looks for it keeps
  // turning (MuJoCo 2.2.2 refuses the model the same way)
  ExpectLoadError("bad_muscle.xml", {"bad_muscle.xml", 6, "muscle", "",
                                     "length-range computation did not converge"});
}

TEST(MjcfErrors, WrappingTendonSpringLength) {
  // the spring length of a wrapping tendon is its length at qpos_spring, around the geom: from
  // (-1, 0, 0) to (1, 0, 0) over a sphere of radius 0.1 at the origin, two tangent segments of
  // length sqrt(1 - 0.01) and an arc of pi - 2 acos(0.1) radians
  const std::string xml = R"(<mujoco><worldbody>
      <site name="a" pos="-1 0 0"/><site name="b" pos="1 0 0"/><geom name="g" size="0.1"/>
    </worldbody>
    <tendon><spatial><site site="a"/>
      <geom geom="g"/><site site="b"/></spatial></tendon></mujoco>)";
  const double expected = 2 * std::sqrt(0.99) + 0.1 * (M_PI - 2 * std::acos(0.1));
  EXPECT_NEAR(LoadModelFromString(xml, "wrap.xml")->tendon_lengthspring[0], expected, 1e-12);
  // a given spring length is kept
  const std::string given = std::string(xml).replace(xml.find("<spatial>"), 9,
                                                     "<spatial springlength=\"2\">");
  EXPECT_EQ(LoadModelFromString(given, "wrap.xml")->tendon_lengthspring[0], 2);
}

TEST(MjcfErrors, MovingBodyWithoutMass) {
  ExpectLoadError("bad_massless_body.xml",
                  {"bad_massless_body.xml", 3, "body", "", "mass and inertia of moving bodies"});
}

TEST(MjcfErrors, FreeJointBelowTopLevel) {
  ExpectLoadError("bad_free_joint_nested.xml",
                  {"bad_free_joint_nested.xml", 4, "freejoint", "", "child of the world"});
}

TEST(MjcfErrors, RangeWithoutLimited) {
  ExpectLoadError("bad_range_without_limited.xml",
                  {"bad_range_without_limited.xml", 6, "joint", "range", "autolimits"});
}

TEST(MjcfErrors, ErrorsFromStringsUseTheVirtualPath) {
  try {
    LoadModelFromString("<mujoco>\n  <option timestep=\"1 2\"/>\n</mujoco>", "inline.xml");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where().file, "inline.xml");
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.where().attribute, "timestep");
  }
}

TEST(MjcfErrors, StrictNumbers) {
  for (const char* value : {"1e-3x", "0x10", "nan", "1,5", ""}) {
    const std::string xml = std::string("<mujoco><option timestep=\"") + value + "\"/></mujoco>";
    EXPECT_THROW(LoadModelFromString(xml, "numbers.xml"), Error) << value;
  }
  EXPECT_THROW(
      LoadModelFromString(
          R"(<mujoco><worldbody><geom size="1" condim="3.5"/></worldbody></mujoco>)", "int.xml"),
      Error);
}

}  // namespace
}  // namespace gauss

namespace gauss {
namespace {

// Keyframe mocap poses: given ones are stored (quaternions normalized), missing ones are the
// mocap bodies' own poses, a zero quaternion or a wrong count is refused.
TEST(MjcfKeyframes, MocapPosesLoad) {
  const std::string head =
      "<mujoco>\n  <worldbody>\n    <body name=\"m\" mocap=\"true\" pos=\"1 2 3\"><geom size=\"0.1\"/></body>\n"
      "  </worldbody>\n  <keyframe>\n";
  const auto m = LoadModelFromString(
      head + "    <key mpos=\"4 5 6\" mquat=\"0 2 0 0\"/>\n    <key/>\n  </keyframe>\n</mujoco>\n",
      "mocap.xml");
  ASSERT_EQ(m->nkey, 2);
  EXPECT_EQ(m->key_mpos, (std::vector<double>{4, 5, 6, 1, 2, 3}));
  EXPECT_EQ(m->key_mquat, (std::vector<double>{0, 1, 0, 0, 1, 0, 0, 0}));
  for (const char* bad : {"<key mquat=\"0 0 0 0\"/>", "<key mpos=\"1 2\"/>"}) {
    try {
      LoadModelFromString(head + "    " + bad + "\n  </keyframe>\n</mujoco>\n", "bad.xml");
      FAIL() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.where().line, 6) << e.what();
      EXPECT_NE(std::string(e.what()).find("attribute 'm"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gauss
