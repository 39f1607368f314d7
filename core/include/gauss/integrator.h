// Integrator plugin interface: advances (qpos, qvel, act, time) by one timestep.
//
// The engine calls Integrate() after Forward() has filled qacc and act_dot at the current state
// (the spec's stage 25). A multi-stage method (RK4) calls engine.ForwardSkip() for its further
// evaluations. Implementations are stateless between calls (one instance serves every Data) and
// take temporaries from Data::arena; integrate.h has the shared building blocks.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/plugin.h"

namespace gauss {

class Engine;

class Integrator : public Plugin {
 public:
  // (qpos, qvel, act, time, qacc, act_dot, qfrc_smooth, qfrc_constraint) => (qpos, qvel, act,
  // time) one timestep later.
  void Integrate(const Engine& engine, Data& d) const { DoIntegrate(engine, d); }

  // Called once when an Engine is created with this integrator: throws gauss::Error if the
  // engine's model or plugins cannot give what the integrator needs (e.g. velocity derivatives).
  virtual void CheckEngine(const Engine& engine) const { (void)engine; }

 protected:
  virtual void DoIntegrate(const Engine& engine, Data& d) const = 0;
};

}  // namespace gauss
