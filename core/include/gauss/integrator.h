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

  // Discrete-time inverse dynamics (enable flag invdiscrete, MuJoCo 3.x): a single-step
  // integrator advances qvel with a_d = Mhat^-1 M qacc, where Mhat is the matrix it solves with
  // (M + h diag(damping) for euler, M - h D for the implicit ones). This maps such a step's
  // a_d back to the continuous-time qacc = M^-1 Mhat a_d that Forward would have computed.
  // (position- and velocity-stage data, qM and its factor qLD, qacc = a_d) => (qacc: the
  // continuous-time acceleration). Returns false when the integrator has no such inverse (the
  // default: multi-stage methods); the engine then refuses the flag.
  bool ContinuousAcceleration(const Engine& engine, Data& d, double* qacc) const {
    return DoContinuousAcceleration(engine, d, qacc);
  }

 protected:
  virtual void DoIntegrate(const Engine& engine, Data& d) const = 0;
  virtual bool DoContinuousAcceleration(const Engine& engine, Data& d, double* qacc) const {
    (void)engine;
    (void)d;
    (void)qacc;
    return false;
  }
};

}  // namespace gauss
