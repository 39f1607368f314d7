// Actuator-dynamics plugin interface (the spec's "Actuation model": activation dynamics and
// force generation).
//
// Each actuator names the plugin that computes its activation derivative and force
// (Model::actuator_plugin, "builtin" by default). The kernel computes transmissions (length,
// velocity, moment arms), groups actuators by plugin and calls each plugin once per stage with
// its actuator ids.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/plugin.h"

namespace gauss {

class GAUSS_API ActuatorDynamics : public Plugin {
 public:
  // (ctrl, act, actuator_length, actuator_velocity) => (act_dot, actuator_force) for the
  // actuators in ids[0..n). `ctrl` (nu) are the controls after clamping to ctrlrange (use it,
  // not d.ctrl). actuator_force is the scalar force before clamping to forcerange.
  void Compute(const Model& m, Data& d, const double* ctrl, const int* ids, int n) const {
    DoCompute(m, d, ctrl, ids, n);
  }

  // Throws gauss::Error (naming the actuator and what is unsupported) if this plugin cannot
  // handle one of the actuators ids[0..n) of model m. Called once when an Engine is created.
  virtual void Check(const Model& m, const int* ids, int n) const {
    (void)m; (void)ids; (void)n;
  }

  // dfdv[k] = d actuator_force[ids[k]] / d actuator_velocity[ids[k]] at the current state
  // (before clamping to forcerange), for implicit integrators. Implement it and declare
  // kCapVelocityDerivative in the entry together (plugin.h).
  virtual void ForceVelocityDerivative(const Model& m, const Data& d, const int* ids, int n,
                                       double* dfdv) const {
    (void)m; (void)d; (void)ids;
    for (int k = 0; k < n; ++k) dfdv[k] = 0;
  }

  // Activation after one step of length h from act with derivative act_dot, for actuator id.
  // The default is explicit Euler; exact integrators (filterexact) override it.
  double NextActivation(const Model& m, const Data& d, int id, double act, double act_dot,
                        double h) const {
    return DoNextActivation(m, d, id, act, act_dot, h);
  }

 protected:
  virtual void DoCompute(const Model& m, Data& d, const double* ctrl, const int* ids,
                         int n) const = 0;
  virtual double DoNextActivation(const Model&, const Data&, int, double act, double act_dot,
                                  double h) const {
    return act + h * act_dot;
  }
};

}  // namespace gauss
