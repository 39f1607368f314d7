// Every Gymnasium model loads (the swimmer's fluid options included), and the loader keeps
// what the file says about the whole model (name, options, sizes).
#include <gtest/gtest.h>

#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

TEST(MjcfLoader, EveryGymnasiumModelLoads) {
  const std::vector<std::string> models = test::GymnasiumModels();
  ASSERT_GE(models.size(), 14u);
  for (const std::string& path : models) {
    SCOPED_TRACE(path);
    try {
      auto m = LoadModel(path);
      EXPECT_GT(m->nbody, 1);
      EXPECT_EQ(m->source_file, path);
      EXPECT_EQ(static_cast<int>(m->qpos0.size()), m->nq);
    } catch (const Error& e) {
      // the only acceptable refusal names a feature Gauss does not have yet
      EXPECT_NE(std::string(e.what()).find("not supported yet: "), std::string::npos) << e.what();
    }
  }
}

TEST(MjcfLoader, SwimmerKeepsItsFluidOptions) {
  auto m = LoadModel(test::SharedModel("gymnasium/swimmer.xml"));
  EXPECT_EQ(m->name, "swimmer");
  EXPECT_EQ(m->opt.density, 4000);
  EXPECT_EQ(m->opt.viscosity, 0.1);
  EXPECT_EQ(m->opt.integrator, "rk4");
  EXPECT_EQ(m->opt.timestep, 0.01);
}

TEST(MjcfLoader, OptionsAndFlags) {
  const std::string xml = R"(<mujoco model="opts">
    <option solver="PGS" integrator="implicit" cone="elliptic" iterations="7" gravity="0 0 -1">
      <flag gravity="disable" contact="disable" energy="enable" warmstart="enable"/>
    </option>
    <size njmax="40" nconmax="8"/>
  </mujoco>)";
  auto m = LoadModelFromString(xml, "opts.xml");
  EXPECT_EQ(m->name, "opts");
  EXPECT_EQ(m->source_file, "");
  EXPECT_EQ(m->opt.solver, "pgs");
  EXPECT_EQ(m->opt.integrator, "implicit");
  EXPECT_EQ(m->opt.cone, Cone::kElliptic);
  EXPECT_EQ(m->opt.iterations, 7);
  EXPECT_EQ(m->opt.gravity[2], -1);
  EXPECT_TRUE(m->opt.Disabled(kDisableGravity));
  EXPECT_TRUE(m->opt.Disabled(kDisableContact));
  EXPECT_FALSE(m->opt.Disabled(kDisableWarmstart));
  EXPECT_TRUE(m->opt.Enabled(kEnableEnergy));
  EXPECT_EQ(m->njmax, 40);
  EXPECT_EQ(m->nconmax, 8);
}

TEST(MjcfLoader, SizesDefaultLikeMujoco) {
  auto m = LoadModelFromString("<mujoco/>", "empty.xml");
  EXPECT_EQ(m->nbody, 1);
  EXPECT_EQ(m->body_name[0], "world");
  EXPECT_EQ(m->njmax, 500);
  EXPECT_EQ(m->nconmax, 100);
}

TEST(MjcfLoader, StatisticOverridesComputedConstants) {
  const std::string xml = R"(<mujoco><statistic meaninertia="2.5" meanmass="3" extent="4"/>
    <worldbody><body><joint/><geom size="1"/></body></worldbody></mujoco>)";
  auto m = LoadModelFromString(xml, "stat.xml");
  EXPECT_EQ(m->stat_meaninertia, 2.5);
  EXPECT_EQ(m->stat_meanmass, 3);
  EXPECT_EQ(m->stat_extent, 4);
}

}  // namespace
}  // namespace gauss
