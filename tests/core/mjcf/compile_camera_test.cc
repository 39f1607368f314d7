// Camera compilation (compile_camera.cc): pose in the body frame (frames, default classes,
// global coordinates, aligned free bodies), mode and target, and the 3.x intrinsics in MuJoCo's
// single precision; bad input gives an error naming the attribute.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::shared_ptr<const Model> Load(const std::string& body) {
  return LoadModelFromString("<mujoco>" + body + "</mujoco>");
}

TEST(CompileCamera, PoseModeTargetAndDefaultClass) {
  const auto m = Load(R"(<default><default class="c"><camera fovy="70" ipd="0.1"/></default>
    </default><worldbody><body name="b" pos="0 0 1"><joint/><geom size="0.1"/>
      <frame pos="1 0 0" euler="0 0 90"><camera name="f" pos="0 2 0" class="c"/></frame>
      <camera name="t" mode="targetbodycom" target="o"/>
    </body><body name="o"><geom size="0.1"/></body></worldbody>)");
  ASSERT_EQ(m->ncam, 2);
  EXPECT_EQ(m->CameraId("t"), 1);
  // frame rotation of 90 degrees about z takes (0, 2, 0) to (-2, 0, 0), then + (1, 0, 0)
  EXPECT_NEAR(m->cam_pos[0], -1, 1e-15);
  EXPECT_NEAR(m->cam_pos[1], 0, 1e-15);
  EXPECT_NEAR(m->cam_quat[0], std::cos(kPi / 4), 1e-15);
  EXPECT_NEAR(m->cam_quat[3], std::sin(kPi / 4), 1e-15);
  EXPECT_EQ(m->cam_fovy[0], 70);   // from the class
  EXPECT_EQ(m->cam_ipd[0], 0.1);
  EXPECT_EQ(m->cam_fovy[1], 45);   // MuJoCo's default
  EXPECT_EQ(m->cam_mode[1], CamMode::kTargetBodyCom);
  EXPECT_EQ(m->cam_targetbodyid[1], m->BodyId("o"));
  EXPECT_EQ(m->cam_targetbodyid[0], -1);
  EXPECT_EQ(m->cam_bodyid[0], m->BodyId("b"));
  // without a sensor size: focal entries = znear 0.01 (float), resolution 1 x 1
  EXPECT_EQ(m->cam_intrinsic[0], static_cast<float>(0.01));
  EXPECT_EQ(m->cam_resolution[0], 1);
  // qpos0 constants: pos0 = world offset from the body, mat0 = world orientation
  EXPECT_NEAR(m->cam_pos0[0], -1, 1e-15);
  EXPECT_NEAR(m->cam_mat0[1], -1, 1e-15);  // y_cam = -x_world
  EXPECT_NEAR(m->cam_mat0[3], 1, 1e-15);   // x_cam = y_world
}

TEST(CompileCamera, IntrinsicsFromSensorSizeInSinglePrecision) {
  const auto m = Load(R"(<worldbody><camera resolution="640 480" sensorsize="0.0036 0.0027"
      focalpixel="500 520" principalpixel="310 250"/>
    <camera resolution="100 50" sensorsize="0.01 0.005" focal="0.02 0.03" fovy="10"/>
    </worldbody>)");
  const double* in = m->cam_intrinsic.data();
  // focal = pixels / (resolution / sensorsize), in float
  const float density[2] = {640 / 0.0036f, 480 / 0.0027f};
  EXPECT_EQ(in[0], 500 / density[0]);
  EXPECT_EQ(in[1], 520 / density[1]);
  EXPECT_EQ(in[2], 310 / density[0]);
  EXPECT_EQ(in[3], 250 / density[1]);
  EXPECT_NEAR(in[0], 500 * 0.0036 / 640, 1e-9);
  // fovy follows from the focal length, replacing a written fovy
  EXPECT_NEAR(m->cam_fovy[0], 2 * std::atan(0.00135 / in[1]) * 180 / kPi, 1e-5);
  EXPECT_EQ(in[4], 0.02f);
  EXPECT_NEAR(m->cam_fovy[1], 2 * std::atan(0.0025 / 0.03) * 180 / kPi, 1e-5);
  EXPECT_EQ(m->cam_sensorsize[2], 0.01f);
}

TEST(CompileCamera, GlobalCoordinatesAndAlignedFreeBodiesKeepTheWorldPose) {
  const auto global = Load(R"(<compiler coordinate="global"/><worldbody>
    <body pos="1 2 3"><joint/><geom size="0.1"/><camera pos="1 2 4"/></body></worldbody>)");
  EXPECT_NEAR(global->cam_pos[2], 1, 1e-15);
  EXPECT_NEAR(global->cam_pos[0], 0, 1e-15);
  // alignfree moves the body frame to the com: the camera keeps its place in the world
  const std::string body = R"(<worldbody><body pos="0 0 1"><freejoint/>
      <geom type="box" size="0.1 0.2 0.3" pos="0.5 0 0" euler="0 0 30"/>
      <camera pos="1 1 0" euler="10 20 30"/></body></worldbody>)";
  const auto plain = Load(body);
  const auto aligned = Load("<compiler alignfree=\"true\"/>" + body);
  for (const auto& m : {plain, aligned}) {
    const Engine engine(std::make_shared<Model>(*m));
    Data d = engine.MakeData();
    engine.Forward(d);
    EXPECT_NEAR(d.cam_xpos[0], 1, 1e-14);
    EXPECT_NEAR(d.cam_xpos[1], 1, 1e-14);
    EXPECT_NEAR(d.cam_xpos[2], 1, 1e-14);
  }
  EXPECT_NE(aligned->cam_pos[0], plain->cam_pos[0]);  // re-expressed in the new body frame
}

TEST(CompileCamera, BadCamerasAreRefusedWithTheAttribute) {
  struct Case {
    const char* xml;
    const char* expected;
  };
  const Case cases[] = {
      {"<worldbody><camera fovy=\"180\"/></worldbody>", "attribute 'fovy': fovy must be below"},
      {"<worldbody><camera sensorsize=\"1 1\" focal=\"1 1\" focalpixel=\"2 2\"/></worldbody>",
       "attribute 'focal': focal and focalpixel"},
      {"<worldbody><camera principal=\"1 0\" principalpixel=\"2 0\"/></worldbody>",
       "attribute 'principal': principal and principalpixel"},
      {"<worldbody><camera resolution=\"0 10\"/></worldbody>", "attribute 'resolution'"},
      {"<worldbody><camera mode=\"targetbody\" target=\"nobody\"/></worldbody>",
       "attribute 'target': unknown body 'nobody'"},
      {"<worldbody><body name=\"b\"><camera target=\"b\"/></body></worldbody>",
       "cannot target its own body"},
      {"<worldbody><camera name=\"c\"/><camera name=\"c\"/></worldbody>", "camera"},
  };
  for (const Case& c : cases) {
    const std::string e = ErrorMessage([&] { Load(c.xml); });
    EXPECT_NE(e.find(c.expected), std::string::npos) << c.xml << "\n  gave: " << e;
  }
}

}  // namespace
}  // namespace gauss::test
