// Sensor stages: plugin evaluation per stage, then noise (when the sensornoise flag is enabled)
// and cutoff, in that order, as MuJoCo 2.2.2 applies them.
//
// How a value is perturbed and clamped depends on its data type (Model::sensor_datatype,
// MuJoCo's mjtDataType): "positive" values (touch, rangefinder: 0 or -1 mean "nothing sensed")
// are left alone when not positive and clamped only from above; unit quaternions (framequat,
// ballquat) and unit vectors (frame[xyz]axis) are rotated by noise and not clamped; "real"
// values get additive noise and are clamped both ways. User and plugin sensors declare theirs.
// Sensors with needstage "none" (user sensors only) get neither, as in MuJoCo.
//
// Noise is deterministic: no global generator. Each Data carries the 64-bit state of a
// splitmix64 generator (Data::sensor_noise_state), which ResetData sets to kSensorNoiseSeed.
// Every standard normal number takes two draws u1, u2 (53-bit uniforms in [0, 1)) and is
// sqrt(-2 ln(1 - u1)) cos(2 pi u2) (Box-Muller, one value per pair). Draws are taken per stage in
// sensor order: a real or positive sensor takes one normal per component (positive: only for
// components > 0); a quaternion or axis takes four normals: angle = noise * n0, axis =
// normalize(n1, n2, n3), and the value is rotated by that (q <- q * r for quaternions,
// v <- r v r^-1 for axes). The same state and the same sequence of evaluations give the same
// noise; copying a Data copies its stream.
#include "sensors.h"

#include <algorithm>
#include <cmath>

#include "gauss/crash_report.h"
#include "gauss/math.h"
#include "pipeline.h"
#include "profile_timer.h"

namespace gauss {
namespace {

// sensor_noise_state => next 64 random bits (splitmix64).
std::uint64_t NextBits(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// sensor_noise_state => a standard normal number (Box-Muller on two uniforms).
double StandardNormal(std::uint64_t& state) {
  const double scale = 1.0 / 9007199254740992.0;  // 2^-53
  const double u1 = static_cast<double>(NextBits(state) >> 11) * scale;
  const double u2 = static_cast<double>(NextBits(state) >> 11) * scale;
  return std::sqrt(-2 * std::log(1 - u1)) * std::cos(6.283185307179586 * u2);
}

// (sensordata of sensor s, sensor_noise, sensor_noise_state) => noisy sensordata
void AddNoise(const Model& m, Data& d, int s) {
  double* value = d.sensordata.data() + m.sensor_adr[s];
  const double sigma = m.sensor_noise[s];
  std::uint64_t& state = d.sensor_noise_state;
  switch (m.sensor_datatype[s]) {
    case SensorDataType::kReal:
      for (int k = 0; k < m.sensor_dim[s]; ++k) value[k] += sigma * StandardNormal(state);
      break;
    case SensorDataType::kPositive:
      // zero (no contact) and -1 (no hit) carry meaning: perturb only positive readings
      for (int k = 0; k < m.sensor_dim[s]; ++k) {
        if (value[k] > 0) value[k] = std::max(0.0, value[k] + sigma * StandardNormal(state));
      }
      break;
    case SensorDataType::kAxis:
    case SensorDataType::kQuaternion: {
      // stay a unit vector / quaternion: rotate by a random angle about a random axis
      const double angle = sigma * StandardNormal(state);
      double axis[3];
      for (double& a : axis) a = StandardNormal(state);
      math::Normalize3(axis);
      double rot[4];
      math::AxisAngleToQuat(rot, axis, angle);
      if (m.sensor_datatype[s] == SensorDataType::kAxis) {
        math::RotVecQuat(value, value, rot);
      } else {
        math::MulQuat(value, value, rot);
      }
      break;
    }
  }
}

// (sensordata of sensor s, sensor_cutoff) => clamped sensordata. A fromto sensor's cutoff is the
// largest distance it measures, not a clamp (MuJoCo 3.12: its points are never clamped).
void ApplyCutoff(const Model& m, Data& d, int s) {
  if (m.sensor_type[s] == "fromto") return;
  const double cutoff = m.sensor_cutoff[s];
  double* value = d.sensordata.data() + m.sensor_adr[s];
  switch (m.sensor_datatype[s]) {
    case SensorDataType::kReal:
      for (int k = 0; k < m.sensor_dim[s]; ++k) value[k] = std::clamp(value[k], -cutoff, cutoff);
      break;
    case SensorDataType::kPositive:
      for (int k = 0; k < m.sensor_dim[s]; ++k) value[k] = std::min(value[k], cutoff);
      break;
    default:
      break;  // unit vectors and quaternions are not clamped
  }
}

}  // namespace

// (state derived up to `stage`, sensor_noise_state) => (sensordata, sensor_noise_state)
void EvaluateSensors(const Model& m, Data& d, Stage stage, const std::vector<SensorGroup>& groups) {
  if (m.nsensor == 0 || m.opt.Disabled(kDisableSensor)) return;
  const ScopedTimer timer(StageStat(d, Timer::kSensors));
  const int slot = static_cast<int>(stage) - static_cast<int>(Stage::kPosition);
  bool any = false;
  for (const SensorGroup& group : groups) {
    const std::vector<int>& ids = group.ids[slot];
    if (ids.empty()) continue;
    const PluginCallScope mark("sensor", nullptr, "sensor evaluation");
    const ScopedTimer plugin_timer(PluginStat(d, group.profile_slot));
    group.plugin->Evaluate(m, d, stage, ids.data(), static_cast<int>(ids.size()));
    any = true;
  }
  if (!any) return;
  // noise, then cutoff, in sensor order over all plugins (the order fixes the noise stream)
  const bool noise = m.opt.Enabled(kEnableSensornoise);
  for (int s = 0; s < m.nsensor; ++s) {
    if (m.sensor_needstage[s] == Stage::kNone) continue;
    const int need = std::clamp(static_cast<int>(m.sensor_needstage[s]), 1, 3);
    if (need - 1 != slot) continue;
    if (noise && m.sensor_noise[s] > 0) AddNoise(m, d, s);
    if (m.sensor_cutoff[s] > 0) ApplyCutoff(m, d, s);
  }
}

}  // namespace gauss
