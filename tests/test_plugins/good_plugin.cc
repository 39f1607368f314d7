// A small working plugin library for the registry tests: two plugins of different kinds in one
// shared object, each with an effect a test can check.
//
//   actuator "test_gain":    actuator_force = gain * ctrl, act_dot = 0 (gain from Configure)
//   integrator "test_clock": advances only d.time, by `scale` timesteps (scale from Configure)
#include "gauss/actuator.h"
#include "gauss/engine.h"
#include "gauss/integrator.h"
#include "gauss/plugin.h"

namespace {

class TestGain : public gauss::ActuatorDynamics {
 public:
  // (params: gain) => gain_
  void Configure(const gauss::Params& params) override {
    params.Require({"gain"});
    gain_ = params.GetDouble("gain", 1.0);
  }

 protected:
  // (ctrl) => (actuator_force, act_dot for actuators that have an activation)
  void DoCompute(const gauss::Model& m, gauss::Data& d, const double* ctrl, const int* ids,
                 int n) const override {
    for (int i = 0; i < n; ++i) {
      const int id = ids[i];
      d.actuator_force[id] = gain_ * ctrl[id];
      if (id < static_cast<int>(m.actuator_actadr.size()) && m.actuator_actadr[id] >= 0) {
        d.act_dot[m.actuator_actadr[id]] = 0;
      }
    }
  }

 private:
  double gain_ = 1.0;  // per instance: two instances may hold different gains
};

class TestClock : public gauss::Integrator {
 public:
  // (params: scale) => scale_
  void Configure(const gauss::Params& params) override {
    params.Require({"scale"});
    scale_ = params.GetDouble("scale", 1.0);
  }

 protected:
  // (time) => (time + scale * timestep); the state is left alone on purpose.
  void DoIntegrate(const gauss::Engine& engine, gauss::Data& d) const override {
    d.time += scale_ * engine.options().timestep;
  }

 private:
  double scale_ = 1.0;
};

}  // namespace

GAUSS_ACTUATOR_PLUGIN(TestGain, test_gain, "2.5.1", "force = gain * ctrl (registry test)")
GAUSS_INTEGRATOR_PLUGIN(TestClock, test_clock, "0.3.0", "advances time only (registry test)")
