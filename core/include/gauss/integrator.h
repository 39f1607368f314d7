// Integrator plugin interface: advances (qpos, qvel, act, time) by one timestep.
//
// The engine calls Integrate() after Forward() has filled qacc and act_dot at the current state
// (the spec's stage 25). A multi-stage method (RK4) calls engine.ForwardSkip() for its further
// evaluations. Implementations are stateless between calls (one instance serves every Data) and
// take temporaries from Data::arena; integrate.h has the shared building blocks. What an
// integrator needs from the other plugins (kCapNeedsVelocityDerivative) and whether it
// evaluates forward dynamics once per step (kCapSingleStep) is declared in its entry
// (plugin.h) and checked when the Engine is built.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/plugin.h"

namespace gauss {

class Engine;

class GAUSS_API Integrator : public Plugin {
 public:
  // (qpos, qvel, act, time, qacc, act_dot, qfrc_smooth, qfrc_constraint) => (qpos, qvel, act,
  // time) one timestep later.
  void Integrate(const Engine& engine, Data& d) const { DoIntegrate(engine, d); }

 protected:
  virtual void DoIntegrate(const Engine& engine, Data& d) const = 0;
};

}  // namespace gauss
