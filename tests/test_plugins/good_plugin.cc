// A small working plugin library for the registry tests: two plugins of different kinds in one
// shared object, each with an effect a test can check.
//
//   actuator "test_gain":    actuator_force = gain * ctrl, act_dot = 0 (gain from Configure)
//   integrator "test_clock": advances only d.time, by `scale` timesteps (scale from Configure)
//   solver "test_pyramidal": ignores the constraints (qacc = qacc_smooth, zero force) and
//                            declares only pyramidal cones and dense Jacobians, so that the
//                            engine's capability check has something to refuse
#include <algorithm>

#include "gauss/actuator.h"
#include "gauss/engine.h"
#include "gauss/integrator.h"
#include "gauss/plugin.h"
#include "gauss/solver.h"

namespace {

class TestGain : public gauss::ActuatorDynamics {
 public:
  // (params: gain) => gain_
  void Configure(const gauss::Params& params) override {
    gain_ = params.GetDouble("gain");
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
    scale_ = params.GetDouble("scale");
  }

 protected:
  // (time) => (time + scale * timestep); the state is left alone on purpose.
  void DoIntegrate(const gauss::Engine& engine, gauss::Data& d) const override {
    d.time += scale_ * engine.options().timestep;
  }

 private:
  double scale_ = 1.0;
};

class TestPyramidal : public gauss::ConstraintSolver {
 protected:
  // (qacc_smooth) => (qacc = qacc_smooth, force = 0): the unconstrained motion
  gauss::SolverResult DoSolve(const gauss::ConstraintProblem& p, gauss::Arena&, double* qacc,
                              double* force, gauss::SolverIteration*) const override {
    std::copy(p.qacc_smooth, p.qacc_smooth + p.nv, qacc);
    std::fill(force, force + p.nefc, 0.0);
    gauss::SolverResult result;
    result.converged = p.nefc == 0;
    return result;
  }
};

}  // namespace

namespace {
constexpr gauss::ParamSpec kGainParams[] = {
    {"gain", gauss::ParamType::kDouble, "1", "force per unit control"}};
constexpr gauss::ParamSpec kClockParams[] = {
    {"scale", gauss::ParamType::kDouble, "1", "timesteps added to time per step"}};
}  // namespace

GAUSS_ACTUATOR_PLUGIN(TestGain, test_gain, "2.5.1", "force = gain * ctrl (registry test)",
                      gauss::kCapNone, kGainParams)
GAUSS_INTEGRATOR_PLUGIN(TestClock, test_clock, "0.3.0", "advances time only (registry test)",
                        gauss::kCapNone, kClockParams)
GAUSS_SOLVER_PLUGIN(TestPyramidal, test_pyramidal, "0.1.0",
                    "ignores constraints; pyramidal cones and dense Jacobians only (test)",
                    gauss::kCapPyramidalCone | gauss::kCapDenseJacobian, gauss::kNoParams)
