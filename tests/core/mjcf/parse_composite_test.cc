// Reading <composite> (core/src/mjcf/parse_composite.cc): the type defaults (what a default
// class does not reach, groups, soft and hard constraints, attributes overriding them) and
// the located errors for composites MuJoCo 2.2.2 refuses or Gauss does not support.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"

namespace gauss {
namespace {

std::string Model(const std::string& worldbody, const std::string& head = "") {
  return "<mujoco>" + head + "<worldbody>\n" + worldbody + "\n</worldbody></mujoco>";
}

// The error of loading `xml`; fails the test when it loads.
Error LoadError(const std::string& xml) {
  try {
    LoadModelFromString(xml, "composite.xml");
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "loaded, but should be refused:\n" << xml;
  return Error("none");
}

// The error is located at line 2 (the composite or its child) of composite.xml and says `what`.
void ExpectError(const std::string& worldbody, const std::string& element,
                 const std::string& what, const std::string& head = "") {
  SCOPED_TRACE(worldbody);
  const Error e = LoadError(Model(worldbody, head));
  const std::string text = e.what();
  EXPECT_EQ(e.where().file, "composite.xml") << text;
  EXPECT_EQ(e.where().line, 2) << text;
  EXPECT_EQ(e.where().element, element) << text;
  EXPECT_NE(text.find(what), std::string::npos) << text;
}

TEST(ParseComposite, BuiltInDefaultsNotClassesAndTypeSpecificSettings) {
  auto m = LoadModelFromString(
      Model(R"(<body><freejoint/><composite type="box" count="3 3 3" spacing="0.1">
                 <geom size="0.01"/><joint kind="main" damping="0.2" solreffix="0.05 1"/>
               </composite></body>)",
            R"(<default><geom friction="0.2"/><joint damping="9"/></default>)"),
      "composite.xml");
  // the class's friction does not reach composite geoms; the <joint> child's damping does
  EXPECT_EQ(m->geom_friction[3 * 1], 1);
  EXPECT_EQ(m->dof_damping[6], 0.2);
  EXPECT_EQ(m->geom_contype[1], 0);  // shells do not collide with themselves
  // joint fix constraints: soft (0.02 ... 0.9 0.9) but for the written solreffix
  EXPECT_EQ(m->eq_type[0], EqType::kJoint);
  EXPECT_EQ(m->eq_solref[0], 0.05);
  EXPECT_EQ(m->eq_solimp[0], 0.9);
  // the volume (tendon) constraint is hard
  const int last = m->neq - 1;
  EXPECT_EQ(m->eq_solref[2 * last], 0.01);
  EXPECT_EQ(m->eq_solimp[5 * last + 1], 0.99);
  // generated joints in group 3; without a skin the geoms stay visible (group 0)
  EXPECT_EQ(m->jnt_group[1], 3);
  EXPECT_EQ(m->geom_group[1], 0);
}

TEST(ParseComposite, RefusedComposites) {
  ExpectError(R"(<composite type="blob" count="2 1 1" spacing="0.1"/>)", "composite",
              "one of");
  ExpectError(R"(<composite type="grid" count="1 3 1" spacing="0.1"><geom size="0.01"/>
              </composite>)",
              "composite", "counts equal to 1 must come last");
  ExpectError(R"(<composite type="grid" count="3 3 1" spacing="0"/>)", "composite",
              "spacing must be positive");
  ExpectError(R"(<composite type="grid" count="3 3 1" spacing="0.1"><geom type="box"/>
              </composite>)",
              "composite", "sphere, capsule or ellipsoid");
  ExpectError(R"(<composite type="grid" count="3 2 1" spacing="0.1"><skin subgrid="2"/>
              </composite>)",
              "composite", "at least 3x3");
  ExpectError(R"(<composite type="grid" count="3 1 1" spacing="0.1"><skin/></composite>)",
              "composite", "skin needs a 2D grid");
  ExpectError(R"(<composite type="box" count="3 3 1" spacing="0.1"/>)", "composite",
              "three-dimensional");
  ExpectError(R"(<composite type="particle" count="1000 1000 2" spacing="0.1"/>)", "composite",
              "at most 1000000");
  ExpectError(R"(<composite type="grid" count="9 9 1" spacing="0.1"><skin subgrid="5000"/>
              </composite>)",
              "composite", "too many vertices");
  ExpectError(R"(<body name="rope"><composite type="rope" count="5 1 1" spacing="0.1"/></body>)",
              "composite", "must be named B<x>");
  ExpectError(R"(<body name="B7"><composite type="rope" count="5 1 1" spacing="0.1"/></body>)",
              "composite", "outside");
  ExpectError(R"(<body name="B1"><composite type="cloth" count="3 3 1" spacing="0.1"/></body>)",
              "composite", "must be named B<x>_<y>");
}

TEST(ParseComposite, RefusedChildrenAndUnsupportedForms) {
  // a bad kind is located at the <joint> child (line 2)
  ExpectError("<composite type=\"grid\" count=\"3 3 1\" spacing=\"0.1\"><joint kind=\"bend\"/>"
              "</composite>",
              "joint", "one of");
  ExpectError(R"(<composite type="cable" count="3 1 1" spacing="0.1"/>)", "composite",
              "not supported yet");
  ExpectError(R"(<frame><composite type="particle" count="3 1 1" spacing="0.1"/></frame>)",
              "composite", "not supported yet");
  ExpectError(R"(<composite type="particle" count="3 1 1" spacing="0.1"/>)", "composite",
              "local coordinates", R"(<compiler coordinate="global"/>)");
}

}  // namespace
}  // namespace gauss
