// The sensor groups of the sensor stages (spec stages 12, 16 and 22, EvaluateSensors in
// pipeline.h): after the position, velocity and acceleration stages, each Sensor plugin
// evaluates the sensors it owns that need that stage; the kernel then adds each sensor's noise
// (when the sensornoise flag is enabled) and applies its cutoff (see sensors.cc for the data
// types and the deterministic noise generator).
#pragma once

#include <vector>

#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/model.h"
#include "gauss/registry.h"
#include "gauss/sensor.h"
#include "internal.h"

namespace gauss {

// The sensors handled by one Sensor plugin, split by the stage they need.
struct SensorGroup {
  const Sensor* plugin = nullptr;
  std::vector<int> ids[3];  // [0]: position, [1]: velocity, [2]: acceleration stage
  int profile_slot = -1;    // the plugin's timer in Data::profile.plugin (-1: none)
};

// The plugin name of user sensors (Model::sensor_plugin): not a library, the Engine's callback.
inline constexpr const char* kUserSensorPlugin = "user";

// user_sensors.cc: the Sensor that hands user sensors to the Engine's SensorCallback.
class GAUSS_INTERNAL UserSensors : public Sensor {
 public:
  void SetCallback(SensorCallback callback) { callback_ = std::move(callback); }

 protected:
  void DoEvaluate(const Model& m, Data& d, Stage stage, const int* ids, int n) const override;

 private:
  SensorCallback callback_;
};

// A UserSensors instance dressed as a loaded plugin (no library), named kUserSensorPlugin.
GAUSS_INTERNAL PluginInstance<Sensor> MakeUserSensors();

}  // namespace gauss
