// The "user" Sensor: MJCF <user> sensors, evaluated by the Engine's SensorCallback (engine.h),
// which plays the part of MuJoCo's global mjcb_sensor but belongs to one Engine. It is not
// loaded from a library: Engine::Plugins creates it for the sensors whose plugin is "user".
#include "sensors.h"

#include "gauss/error.h"

namespace gauss {

// (sensordata, callback) => sensordata of ids as the callback writes it; untouched without one
void UserSensors::DoEvaluate(const Model& m, Data& d, Stage stage, const int* ids,
                             int n) const {
  if (callback_) callback_(m, d, stage, ids, n);
}

PluginInstance<Sensor> MakeUserSensors() {
  PluginInstance<Sensor> p;
  p.instance = std::make_unique<UserSensors>();
  p.info.kind = PluginKind::kSensor;
  p.info.name = kUserSensorPlugin;
  p.info.version = "1.0.0";
  p.info.description = "user sensors: the Engine's sensor callback";
  p.info.usable = true;
  return p;
}

}  // namespace gauss
