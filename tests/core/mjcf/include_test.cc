// <include>: splicing in place, paths relative to the including file, errors located in the
// included file, cycles, repeated files, missing files and foreign roots.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

using test::TestModel;

std::string Message(const std::string& model) {
  try {
    LoadModel(TestModel(model));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(MjcfInclude, SplicesChildrenInPlace) {
  // compile_include.xml: defaults and compiler from one file, bodies into <worldbody>
  auto m = LoadModel(TestModel("compile_include.xml"));
  ASSERT_EQ(m->nbody, 3);
  EXPECT_EQ(m->body_name[1], "arm");  // included body comes first, where the include was
  EXPECT_EQ(m->body_name[2], "base");
  EXPECT_EQ(m->geom_type[0], GeomType::kCapsule);  // class "part" from the other file
  EXPECT_EQ(m->dof_damping[0], 0.3);
  EXPECT_NEAR(m->body_quat[4], std::cos(0.25), 1e-15);  // angle="radian" from the include
}

TEST(MjcfInclude, NestedIncludesAreRelativeToTheIncludingFile) {
  auto m = LoadModel(TestModel("include_nested.xml"));
  ASSERT_EQ(m->nbody, 4);
  EXPECT_EQ(m->body_name[1], "level1");
  EXPECT_EQ(m->body_name[2], "level2");
  EXPECT_EQ(m->body_parentid[2], 1);
  EXPECT_EQ(m->body_name[3], "after");
  EXPECT_EQ(m->site_name[0], "level2_site");
  EXPECT_EQ(m->site_bodyid[0], 1);
}

TEST(MjcfInclude, ErrorsInsideNameTheIncludedFile) {
  try {
    LoadModel(TestModel("bad_include_error_inside.xml"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where().file, TestModel("include_parts/bad_attribute.xml"));
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.where().element, "geom");
    EXPECT_EQ(e.where().attribute, "colour");
  }
}

TEST(MjcfInclude, CycleIsAnError) {
  const std::string text = Message("bad_include_cycle.xml");
  EXPECT_NE(text.find("include cycle"), std::string::npos) << text;
  EXPECT_NE(text.find("cycle_a.xml"), std::string::npos) << text;
  EXPECT_NE(text.find("cycle_b.xml:3"), std::string::npos) << text;  // where the cycle closes
}

TEST(MjcfInclude, SameFileTwiceIsAnError) {
  const std::string text = Message("bad_include_twice.xml");
  EXPECT_NE(text.find("already included"), std::string::npos) << text;
  EXPECT_NE(text.find("bad_include_twice.xml:3"), std::string::npos) << text;
}

TEST(MjcfInclude, MissingFileIsAnError) {
  try {
    LoadModel(TestModel("bad_include_missing.xml"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where().file, TestModel("bad_include_missing.xml"));
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.where().element, "include");
    EXPECT_EQ(e.where().attribute, "file");
    EXPECT_NE(std::string(e.what()).find("does_not_exist.xml"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("file not found"), std::string::npos);
  }
}

TEST(MjcfInclude, IncludedRootMustBeMujoco) {
  const std::string text = Message("bad_include_root.xml");
  EXPECT_NE(text.find("not_mujoco.xml:1"), std::string::npos) << text;
  EXPECT_NE(text.find("must be <mujoco>, found <robot>"), std::string::npos) << text;
}

TEST(MjcfInclude, IncludeTakesOnlyAFile) {
  EXPECT_THROW(LoadModelFromString(R"(<mujoco><include/></mujoco>)", "x.xml"), Error);
  EXPECT_THROW(
      LoadModelFromString(R"(<mujoco><include file="a.xml" other="1"/></mujoco>)", "x.xml"), Error);
  EXPECT_THROW(
      LoadModelFromString(R"(<mujoco><include file="a.xml"><option/></include></mujoco>)", "x.xml"),
      Error);
}

}  // namespace
}  // namespace gauss
