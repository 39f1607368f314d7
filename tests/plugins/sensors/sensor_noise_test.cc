// The kernel's sensor post-processing (core/src/sensors.cc): cutoff clamping by data type, and
// deterministic Gaussian noise under the sensornoise flag - its statistics, that it keeps unit
// quaternions and axes unit, leaves "nothing sensed" readings alone, is reproducible from
// Data::sensor_noise_state and Reset, and is off without the flag.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gauss/engine.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"

namespace gauss {
namespace {

// A hinge at qpos = 0.3 with several sensors of each data type.
const char* kModel = R"(
<mujoco>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .5 0 0" size=".05" contype="0" conaffinity="0"/>
      <site name="tip" pos=".5 0 0" euler="10 20 30"/>
    </body>
  </worldbody>
  <sensor>
    <jointpos name="q" joint="hinge" noise="0.1"/>
    <jointpos name="q_clip" joint="hinge" cutoff="0.1"/>
    <framepos name="pos" objtype="site" objname="tip" noise="0.05" cutoff="0.4"/>
    <framequat name="quat" objtype="site" objname="tip" noise="0.1"/>
    <framexaxis name="axis" objtype="site" objname="tip" noise="0.2"/>
    <rangefinder name="range" site="tip" noise="0.1"/>
    <touch name="touch" site="tip" noise="0.1"/>
  </sensor>
</mujoco>)";

Config NoiseOn() {
  Config c;
  c.flags["sensornoise"] = true;
  return c;
}

struct Bench {
  Engine engine;
  Data d;
  explicit Bench(const Config& config) : engine(LoadModelFromString(kModel), config) {
    d = engine.MakeData();
    d.qpos[0] = 0.3;
  }
  std::vector<double> Evaluate() {
    engine.Forward(d);
    return d.sensordata;
  }
  int Adr(const std::string& name) const {
    const Model& m = engine.model();
    for (int s = 0; s < m.nsensor; ++s) {
      if (m.sensor_name[s] == name) return m.sensor_adr[s];
    }
    return -1;
  }
};

TEST(SensorCutoff, ClampsRealValuesBothWaysAndPositiveOnlyFromAbove) {
  Bench b{Config()};
  std::vector<double> out = b.Evaluate();
  EXPECT_EQ(out[b.Adr("q")], 0.3);
  EXPECT_EQ(out[b.Adr("q_clip")], 0.1);
  b.d.qpos[0] = -0.3;
  out = b.Evaluate();
  EXPECT_EQ(out[b.Adr("q_clip")], -0.1);
  // framepos (0.5 cos q, 0, 1 - 0.5 sin q) with each component clamped to +-0.4
  const double* pos = out.data() + b.Adr("pos");
  EXPECT_EQ(pos[0], 0.4);
  EXPECT_NEAR(pos[1], 0, 1e-15);
  EXPECT_EQ(pos[2], 0.4);
  b.d.qpos[0] = 1.5;
  out = b.Evaluate();
  EXPECT_NEAR(out[b.Adr("pos")], 0.5 * std::cos(1.5), 1e-15);  // within the cutoff: unchanged
}

TEST(SensorNoise, IsOffWithoutTheFlag) {
  Bench b{Config()};
  const std::vector<double> first = b.Evaluate();
  EXPECT_EQ(first[b.Adr("q")], 0.3);
  EXPECT_EQ(b.Evaluate(), first);
}

TEST(SensorNoise, RealValuesGetZeroMeanGaussianNoiseOfTheirStd) {
  Bench b{NoiseOn()};
  const int n = 20000;
  double sum = 0, sum2 = 0, sum4 = 0;
  for (int i = 0; i < n; ++i) {
    const double e = b.Evaluate()[b.Adr("q")] - 0.3;
    sum += e;
    sum2 += e * e;
    sum4 += e * e * e * e;
  }
  const double mean = sum / n, var = sum2 / n - mean * mean;
  EXPECT_NEAR(mean, 0, 4 * 0.1 / std::sqrt(n));
  EXPECT_NEAR(std::sqrt(var), 0.1, 0.1 * 0.03);
  // Gaussian: fourth moment 3 sigma^4 (a uniform distribution would give 1.8)
  EXPECT_NEAR(sum4 / n / (var * var), 3, 0.2);
}

TEST(SensorNoise, UnitQuaternionsAndAxesStayUnitAndTurnBySigma) {
  Bench clean{Config()};
  const std::vector<double> exact = clean.Evaluate();
  Bench b{NoiseOn()};
  const int n = 5000;
  double angle_sum = 0;
  for (int i = 0; i < n; ++i) {
    const std::vector<double> out = b.Evaluate();
    const double* q = out.data() + b.Adr("quat");
    const double* axis = out.data() + b.Adr("axis");
    ASSERT_NEAR(std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), 1, 1e-12);
    ASSERT_NEAR(math::Norm3(axis), 1, 1e-12);
    // rotation angle between the noisy and the exact orientation
    double inv[4], rel[4];
    math::NegQuat(inv, exact.data() + b.Adr("quat"));
    math::MulQuat(rel, inv, q);
    angle_sum += 2 * std::acos(std::min(1.0, std::fabs(rel[0])));
  }
  // |N(0, sigma)| has mean sigma sqrt(2 / pi)
  EXPECT_NEAR(angle_sum / n, 0.1 * std::sqrt(2 / M_PI), 0.1 * 0.05);
}

TEST(SensorNoise, NothingSensedStaysNothingSensed) {
  Bench b{NoiseOn()};
  for (int i = 0; i < 100; ++i) {
    const std::vector<double> out = b.Evaluate();
    EXPECT_EQ(out[b.Adr("range")], -1);  // the tip's z axis meets no geom
    EXPECT_EQ(out[b.Adr("touch")], 0);   // no contacts
  }
}

TEST(SensorNoise, IsReproducibleFromTheDataState) {
  Bench a{NoiseOn()};
  Bench b{NoiseOn()};
  std::vector<std::vector<double>> first;
  for (int i = 0; i < 10; ++i) first.push_back(a.Evaluate());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(b.Evaluate(), first[i]) << i;
  // Reset restarts the stream from kSensorNoiseSeed
  a.engine.Reset(a.d);
  a.d.qpos[0] = 0.3;
  EXPECT_EQ(a.d.sensor_noise_state, kSensorNoiseSeed);
  EXPECT_EQ(a.Evaluate(), first[0]);
  // another state gives another stream; a copy of a Data continues the same one
  b.engine.Reset(b.d);
  b.d.qpos[0] = 0.3;
  b.d.sensor_noise_state = 12345;
  const std::vector<double> other = b.Evaluate();
  EXPECT_NE(other[b.Adr("q")], first[0][b.Adr("q")]);
  Data copy = b.d;
  b.engine.Forward(copy);
  EXPECT_EQ(b.Evaluate(), copy.sensordata);
}

}  // namespace
}  // namespace gauss
