// Sensor plugin interface: writes sensordata for the sensors it owns at one pipeline stage.
//
// Each sensor names its plugin (Model::sensor_plugin, "builtin" by default) and the stage it
// needs (Model::sensor_needstage). After the position, velocity and acceleration stages the
// kernel calls each plugin with the ids of its sensors for that stage; cutoff and noise are
// applied by the kernel afterwards.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/plugin.h"

namespace gauss {

class Sensor : public Plugin {
 public:
  // (state derived up to `stage`) => sensordata[sensor_adr[id] .. + sensor_dim[id]) for ids.
  void Evaluate(const Model& m, Data& d, Stage stage, const int* ids, int n) const {
    DoEvaluate(m, d, stage, ids, n);
  }

  // Throws gauss::Error (naming the sensor and what is unsupported) if this plugin cannot
  // evaluate one of the sensors ids[0..n) of model m. Called once when an Engine is created.
  virtual void Check(const Model& m, const int* ids, int n) const {
    (void)m; (void)ids; (void)n;
  }

 protected:
  virtual void DoEvaluate(const Model& m, Data& d, Stage stage, const int* ids, int n) const = 0;
};

}  // namespace gauss
