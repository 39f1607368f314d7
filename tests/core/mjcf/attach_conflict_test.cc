// <compiler conflict> with MuJoCo 3.x <attach> (core/src/mjcf/attach_conflict.cc): how the
// attached model's <option>, <flag> and <size> settings join the parent's, each case measured
// on MuJoCo 3.12.1 (its compiled options, or its error); tests/reference/mjcf3_test.cc runs
// tests/models/mjcf3/conflict_merge.xml against it.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// A parent with `conflict` and <option `parent`> attaching a one-hinge child whose <option>
// holds `child` (attributes, then `>` and its content). Returns the model, or the error in
// *error.
std::shared_ptr<const Model> Attach(const std::string& conflict, const std::string& parent,
                                    const std::string& child, std::string* error) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "gauss_attach_conflict_test.xml").string();
  {
    std::ofstream f(path);
    f << "<mujoco model=\"c\"><option " << child << "</option><size nkey=\"2\"/><worldbody>"
      << "<body name=\"cb\"><joint damping=\"1\"/><geom size=\".1\"/></body></worldbody>"
      << "</mujoco>";
  }
  std::shared_ptr<const Model> m;
  *error = test::ErrorMessage([&] {
    m = LoadModelFromString("<mujoco model=\"p\"><compiler conflict=\"" + conflict +
                                "\"/><option " + parent + "/><asset><model name=\"c\" file=\"" +
                                path + "\"/></asset><worldbody><body name=\"pb\"><geom " +
                                "size=\".2\"/><attach model=\"c\" body=\"cb\" prefix=\"c\"/>" +
                                "</body></worldbody></mujoco>",
                            "parent.xml");
  });
  std::remove(path.c_str());
  return m;
}

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(AttachConflict, MergeTakesTheSmallerStepTheLargerCountAndAdoptsWhatOnlyTheChildWrites) {
  std::string error;
  auto m = Attach("merge", R"(timestep="0.005" iterations="20" tolerance="1e-6")",
                  R"(timestep="0.002" iterations="50" tolerance="1e-5" integrator="RK4"
                     impratio="3" gravity="0 0 -10">)",
                  &error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->opt.timestep, 0.002);
  EXPECT_EQ(m->opt.iterations, 50);
  EXPECT_EQ(m->opt.tolerance, 1e-6);  // the minimum of both written values
  EXPECT_EQ(m->opt.integrator, "rk4");
  EXPECT_EQ(m->opt.impratio, 3.0);
  EXPECT_EQ(m->opt.gravity[2], -10.0);
  EXPECT_EQ(m->nkey, 2);  // sizes: the larger
}

TEST(AttachConflict, MergeAddsTheFlagsTheChildSets) {
  std::string error;
  auto m = Attach("merge", "", R"(><flag gravity="disable" warmstart="enable" energy="enable"
                                     damper="disable"/>)",
                  &error);
  ASSERT_TRUE(m) << error;
  EXPECT_TRUE(m->opt.Disabled(kDisableGravity));
  EXPECT_FALSE(m->opt.Disabled(kDisableWarmstart));
  EXPECT_TRUE(m->opt.Enabled(kEnableEnergy));
  EXPECT_TRUE(m->opt.DampersDisabled());
  EXPECT_FALSE(m->opt.SpringsDisabled());
}

TEST(AttachConflict, MergeRefusesSettingsWithoutAMergeThatBothWriteDifferently) {
  std::string error;
  EXPECT_FALSE(Attach("merge", R"(integrator="implicit")", R"(integrator="RK4">)", &error));
  EXPECT_TRUE(Contains(error, "parent.xml")) << error;
  EXPECT_TRUE(Contains(error, "element 'attach'")) << error;
  EXPECT_TRUE(Contains(error, "integrator: parent has implicit, child has RK4")) << error;
  EXPECT_FALSE(Attach("merge", R"(gravity="0 0 -5")", R"(gravity="0 0 -10">)", &error));
  EXPECT_TRUE(Contains(error, "gravity: parent has 0 0 -5, child has 0 0 -10")) << error;
  // the same value written twice is no conflict
  EXPECT_TRUE(Attach("merge", R"(gravity="0 0 -10")", R"(gravity="0 0 -10.0">)", &error))
      << error;
}

TEST(AttachConflict, ErrorRefusesWhatBothWriteAndKeepsTheParentsOtherwise) {
  std::string error;
  EXPECT_FALSE(Attach("error", R"(timestep="0.01")", R"(timestep="0.001" iterations="7">)",
                      &error));
  EXPECT_TRUE(Contains(error, "conflict=\"error\"")) << error;
  EXPECT_TRUE(Contains(error, "timestep: parent has 0.01, child has 0.001")) << error;
  EXPECT_FALSE(Contains(error, "iterations")) << error;  // only the child writes it
  auto m = Attach("error", "", R"(timestep="0.001">)", &error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->opt.timestep, 0.002);
  EXPECT_EQ(m->nkey, 0);
}

TEST(AttachConflict, WarningKeepsTheParentsSettings) {
  std::string error;
  auto m = Attach("warning", R"(timestep="0.005")",
                  R"(timestep="0.001" integrator="RK4"><flag gravity="disable"/>)", &error);
  ASSERT_TRUE(m) << error;
  EXPECT_EQ(m->opt.timestep, 0.005);
  EXPECT_EQ(m->opt.integrator, "euler");
  EXPECT_FALSE(m->opt.Disabled(kDisableGravity));
}

// MuJoCo's own test file (tests/models/mjcf3/mujoco/parent_merge.xml, attaching
// child_mergable.xml): 3.12.1 compiles timestep 0.002, 100 iterations, gravity -10 and the
// damper flag disabled (measured).
TEST(AttachConflict, MujocosParentMergeFileLoads) {
  auto m = LoadModel(test::TestModel("mjcf3/mujoco/parent_merge.xml"));
  EXPECT_EQ(m->opt.timestep, 0.002);
  EXPECT_EQ(m->opt.iterations, 100);
  EXPECT_EQ(m->opt.gravity[2], -10.0);
  EXPECT_TRUE(m->opt.DampersDisabled());
  EXPECT_FALSE(m->opt.SpringsDisabled());
  EXPECT_EQ(m->ngeom, 2);
}

}  // namespace
}  // namespace gauss
