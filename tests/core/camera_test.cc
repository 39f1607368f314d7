// Camera poses by mode, the camprojection pinhole and the pixel rays of camera rangefinders
// (camera.cc), checked against geometry worked out by hand; MuJoCo 3.12.1 agreement is in tests/reference/mjcf3_test.cc (cameras.xml).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "gauss/engine.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "gauss/sensor_support.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kPi = 3.14159265358979323846;

// An arm turning about z at the origin with cameras of each mode; a target body at (0, 3, 2).
const char* kModel = R"(<mujoco><option gravity="0 0 0"/><worldbody>
  <body name="arm"><joint name="hinge" axis="0 0 1"/>
    <geom type="capsule" fromto="0 0 0 1 0 0" size="0.1"/>
    <geom type="sphere" pos="1 0 0" size="0.3"/>
    <camera name="fixed" pos="1 0 0.5"/>
    <camera name="track" pos="1 0 0.5" euler="0 0 30" mode="track"/>
    <camera name="trackcom" pos="1 0 0.5" mode="trackcom"/>
    <camera name="target" pos="1 0 0.5" mode="targetbody" target="goal"/>
    <camera name="lens" pos="0 0 0" resolution="200 100" fovy="90"/>
    <camera name="sensor" resolution="400 300" sensorsize="0.004 0.003" focal="0.002 0.0015"/>
    <camera name="ortho" pos="0 0 1" resolution="4 2" fovy="3" projection="orthographic"/>
  </body>
  <body name="goal" pos="0 3 2"><geom size="0.1"/></body></worldbody></mujoco>)";

struct Scene {
  std::shared_ptr<const Model> model = LoadModelFromString(kModel);
  Engine engine{std::make_shared<Model>(*model)};
  Data d = engine.MakeData();
  void Turn(double angle) {
    d.qpos[0] = angle;
    engine.Forward(d);
  }
  const double* Pos(int cam) const { return d.cam_xpos.data() + 3 * cam; }
  const double* Mat(int cam) const { return d.cam_xmat.data() + 9 * cam; }
};

TEST(CameraPoses, EachModeMovesAsDocumented) {
  Scene s;
  const Model& m = s.engine.model();
  s.Turn(0);
  double com0[3];
  math::Copy3(com0, s.d.subtree_com.data() + 3 * m.BodyId("arm"));
  s.Turn(kPi / 2);
  // fixed: turns with the arm, (1, 0, 0.5) -> (0, 1, 0.5), x axis -> world y
  EXPECT_NEAR(s.Pos(0)[0], 0, 1e-15);
  EXPECT_NEAR(s.Pos(0)[1], 1, 1e-15);
  EXPECT_NEAR(s.Mat(0)[3], 1, 1e-15);
  // track: the qpos0 offset from the body origin (on the axis, so it stays) and orientation
  EXPECT_NEAR(s.Pos(1)[0], 1, 1e-15);
  EXPECT_NEAR(s.Pos(1)[1], 0, 1e-15);
  EXPECT_NEAR(s.Mat(1)[0], std::cos(kPi / 6), 1e-15);
  EXPECT_NEAR(s.Mat(1)[3], std::sin(kPi / 6), 1e-15);
  // trackcom: the qpos0 offset from the subtree com, which turned with the arm
  const double* com = s.d.subtree_com.data() + 3 * m.BodyId("arm");
  for (int k = 0; k < 3; ++k) {
    const double offset0 = (k == 0 ? 1.0 : 0.0) + (k == 2 ? 0.5 : 0.0) - com0[k];
    EXPECT_NEAR(s.Pos(2)[k] - com[k], offset0, 1e-15) << k;
  }
  EXPECT_NEAR(s.Mat(2)[0], 1, 1e-15);
  // targetbody: at the fixed position, z pointing away from the target, x horizontal,
  // an orthonormal right-handed frame
  const double* p = s.Pos(3);
  const double* r = s.Mat(3);
  double away[3] = {p[0] - 0, p[1] - 3, p[2] - 2};
  math::Normalize3(away);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(r[3 * k + 2], away[k], 1e-15);
  EXPECT_NEAR(r[6], 0, 1e-15);  // x axis has no world z component
  const double x[3] = {r[0], r[3], r[6]}, y[3] = {r[1], r[4], r[7]}, z[3] = {r[2], r[5], r[8]};
  double xy[3];
  math::Cross3(xy, x, y);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(xy[k], z[k], 1e-15);
  EXPECT_NEAR(math::Dot3(x, x), 1, 1e-15);
}

TEST(CameraProjection, PinholeFromFovyAndFromSensorSize) {
  Scene s;
  const Model& m = s.engine.model();
  s.Turn(0);
  const int lens = m.CameraId("lens"), sensor = m.CameraId("sensor");
  // a point 2 in front of the camera (along -z), 0.5 along x and 0.25 along y: fovy 90 gives
  // f = height / 2 = 50 pixels; u = -f x / z + width / 2, v = f y / z + height / 2
  const double point[3] = {0.5, 0.25, -2};  // the camera sits at the origin, identity frame
  double pixel[2];
  CameraProjection(m, s.d, lens, point, pixel);
  const double f = 100 / (2 * std::tan(kPi / 4));
  EXPECT_NEAR(pixel[0], 100 + f * 0.5 / 2, 1e-12);
  EXPECT_NEAR(pixel[1], 50 - f * 0.25 / 2, 1e-12);
  // sensor size: fx = focal / sensorsize * width = 200, fy = 150 (to float precision)
  CameraProjection(m, s.d, sensor, point, pixel);
  EXPECT_NEAR(pixel[0], 200 + 200 * 0.5 / 2, 1e-4);
  EXPECT_NEAR(pixel[1], 150 - 150 * 0.25 / 2, 1e-4);
  // a point in the camera's plane: the depth is clamped, no division by zero
  const double side[3] = {1, 0, 0};
  CameraProjection(m, s.d, lens, side, pixel);
  EXPECT_TRUE(std::isfinite(pixel[0]));
}

TEST(CameraPixelRay, PerspectiveRaysGoThroughThePixelCentres) {
  Scene s;
  const Model& m = s.engine.model();
  s.Turn(0.3);
  const int lens = m.CameraId("lens");
  for (int row : {0, 37, 99}) {
    for (int col : {0, 120, 199}) {
      double origin[3], dir[3];
      ASSERT_TRUE(CameraPixelRay(m, s.d, lens, col, row, origin, dir));
      EXPECT_NEAR(math::Norm3(dir), 1, 1e-15);
      for (int k = 0; k < 3; ++k) EXPECT_EQ(origin[k], s.Pos(lens)[k]);
      // a point along the ray projects back onto the pixel's centre
      double point[3], pixel[2];
      for (int k = 0; k < 3; ++k) point[k] = origin[k] + 2.5 * dir[k];
      CameraProjection(m, s.d, lens, point, pixel);
      EXPECT_NEAR(pixel[0], col + 0.5, 1e-10) << row << " " << col;
      EXPECT_NEAR(pixel[1], row + 0.5, 1e-10) << row << " " << col;
    }
  }
  // a sensor-size camera has focal lengths and a principal point: not handled
  double origin[3], dir[3];
  EXPECT_FALSE(CameraPixelRay(m, s.d, m.CameraId("sensor"), 0, 0, origin, dir));
}

TEST(CameraPixelRay, OrthographicRaysAreParallelAndSpanFovyEachWay) {
  Scene s;
  const Model& m = s.engine.model();
  s.Turn(0);  // identity frame at (0, 0, 1): the image is the plane z = 1, rays along -z
  const int ortho = m.CameraId("ortho");
  // 4 x 2 pixels over 3 x 3 (MuJoCo 3.12: fovy in both directions, whatever the aspect):
  // centres at x = -1.125 .. 1.125 (0.75 apart), y = +-0.75
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 4; ++col) {
      double origin[3], dir[3];
      ASSERT_TRUE(CameraPixelRay(m, s.d, ortho, col, row, origin, dir));
      EXPECT_NEAR(origin[0], -1.125 + 0.75 * col, 1e-15);
      EXPECT_NEAR(origin[1], 0.75 - 1.5 * row, 1e-15);
      EXPECT_NEAR(origin[2], 1, 1e-15);
      EXPECT_NEAR(dir[0], 0, 1e-15);
      EXPECT_NEAR(dir[1], 0, 1e-15);
      EXPECT_NEAR(dir[2], -1, 1e-15);
    }
  }
}

}  // namespace
}  // namespace gauss::test
