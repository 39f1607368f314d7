// Sensor stages (spec stages 12, 16 and 22): after the position, velocity and acceleration
// stages, each Sensor plugin evaluates the sensors it owns that need that stage; the kernel
// then adds each sensor's noise (when the sensornoise flag is enabled) and applies its cutoff
// (see sensors.cc for the data types and the deterministic noise generator).
#pragma once

#include <vector>

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/sensor.h"

namespace gauss {

// The sensors handled by one Sensor plugin, split by the stage they need.
struct SensorGroup {
  const Sensor* plugin = nullptr;
  std::vector<int> ids[3];  // [0]: position, [1]: velocity, [2]: acceleration stage
};

// (state derived up to `stage`, sensor_noise_state) => sensordata of every sensor needing
// `stage` (and the advanced sensor_noise_state).
void EvaluateSensors(const Model& m, Data& d, Stage stage, const std::vector<SensorGroup>& groups);

}  // namespace gauss
