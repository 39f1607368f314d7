// MuJoCo 3.x freejoint align / compiler alignfree (core/src/mjcf/align_free.cc): which free
// bodies are re-framed at their inertia, what moves with them, and the refusals.
// tests/reference/mjcf3_test.cc compares tests/models/mjcf3/align.xml with MuJoCo 3.12.1.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"

namespace gauss {
namespace {

std::shared_ptr<const Model> Load(const std::string& inside) {
  return LoadModelFromString("<mujoco>" + inside + "</mujoco>", "align.xml");
}

// A body with an off-center box and a site, written with its free joint's `align`.
std::string Box(const std::string& align, const std::string& compiler = "") {
  return compiler + R"(<worldbody><body pos="0 0 1" euler="0 0 30"><freejoint )" + align +
         R"(/><geom type="box" size=".1 .2 .3" pos=".3 .1 0"/><site name="s" pos="0 0 .5"/>
         </body></worldbody>)";
}

TEST(AlignFree, TheBodyFrameMovesToTheInertialFrameAndTheContentsStayInPlace) {
  auto plain = Load(Box(""));
  auto aligned = Load(Box(R"(align="true")"));
  // unaligned: the inertial frame is off the body frame; aligned: they coincide
  EXPECT_NEAR(plain->body_ipos[3], 0.3, 1e-15);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(aligned->body_ipos[3 + i], 0);
  EXPECT_EQ(aligned->body_iquat[4], 1);
  // qpos0 is the new body frame, whose origin is the box's center in the world
  const double c = std::sqrt(3.0) / 2, s = 0.5;  // 30 degrees
  EXPECT_NEAR(aligned->qpos0[0], 0.3 * c - 0.1 * s, 1e-12);
  EXPECT_NEAR(aligned->qpos0[1], 0.3 * s + 0.1 * c, 1e-12);
  EXPECT_NEAR(aligned->qpos0[2], 1, 1e-12);
  // every geom and site keeps its place in the world: same kinematics at qpos0
  Engine a(aligned), p(plain);
  Data da = a.MakeData(), dp = p.MakeData();
  a.Forward(da);
  p.Forward(dp);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(da.geom_xpos[i], dp.geom_xpos[i], 1e-12);
    EXPECT_NEAR(da.site_xpos[i], dp.site_xpos[i], 1e-12);
    EXPECT_NEAR(da.xipos[3 + i], dp.xipos[3 + i], 1e-12);
  }
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(da.geom_xmat[i], dp.geom_xmat[i], 1e-12);
}

TEST(AlignFree, CompilerAlignfreeIsTheDefaultThatAlignFalseOverrides) {
  const std::string on = R"(<compiler alignfree="true"/>)";
  EXPECT_EQ(Load(Box("", on))->body_ipos[3], 0);
  EXPECT_NE(Load(Box(R"(align="false")", on))->body_ipos[3], 0);
  EXPECT_EQ(Load(Box(R"(align="auto")", on))->body_ipos[3], 0);
  EXPECT_NE(Load(Box(R"(align="auto")"))->body_ipos[3], 0);
}

TEST(AlignFree, ABodyWithChildBodiesStaysAsWritten) {
  // MuJoCo 3.12.1 aligns only childless free bodies, even with align="true"
  auto m = Load(R"(<worldbody><body><freejoint align="true"/><geom size=".1" pos=".2 0 0"/>
      <body pos="1 0 0"><joint/><geom size=".1"/></body></body></worldbody>)");
  EXPECT_GT(m->body_ipos[3], 0.1);
}

TEST(AlignFree, AConnectNamingTheAlignedBodyIsRefused) {
  std::string error;
  try {
    Load(R"(<worldbody><body name="b"><freejoint align="true"/><geom size=".1" pos=".2 0 0"/>
        </body></worldbody><equality><connect body1="b" anchor="0 0 0"/></equality>)");
  } catch (const Error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("not supported yet: a connect or weld naming the aligned free body 'b'"),
            std::string::npos) << error;
}

}  // namespace
}  // namespace gauss
