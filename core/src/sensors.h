// The sensor groups of the sensor stages (spec stages 12, 16 and 22, EvaluateSensors in
// pipeline.h): after the position, velocity and acceleration stages, each Sensor plugin
// evaluates the sensors it owns that need that stage; the kernel then adds each sensor's noise
// (when the sensornoise flag is enabled) and applies its cutoff (see sensors.cc for the data
// types and the deterministic noise generator).
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
  int profile_slot = -1;    // the plugin's timer in Data::profile.plugin (-1: none)
};

}  // namespace gauss
