// The public simulation API: an Engine binds a compiled Model to its resolved options and
// plugins; Data holds the state of one simulation.
//
//   auto model = gauss::LoadModel("models/pendulum.xml");   // mjcf.h
//   gauss::Engine engine(model);                             // plugins named by the model
//   gauss::Data data = engine.MakeData();
//   for (int i = 0; i < 1000; ++i) engine.Step(data);
//
// An Engine is immutable after construction (except for the control and sensor callbacks) and
// may be shared by threads that each own a Data.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gauss/config.h"
#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/registry.h"

namespace gauss {

class Integrator;
class ConstraintSolver;
class Collider;
class ActuatorDynamics;
class Sensor;

// Called in every forward evaluation after the velocity stage and before actuation, so that a
// controller can set d.ctrl (and qfrc_applied, xfrc_applied) from the current state.
using ControlCallback = std::function<void(const Model&, Data&)>;

// Computes the user sensors (MJCF <user>, Model::sensor_plugin "user") that need `stage`:
// writes sensordata[sensor_adr[id] .. + sensor_dim[id]) for ids[0..n), in sensor order. Called
// after the position, velocity and acceleration stages when the model has user sensors needing
// that stage (needstage "none": never), before noise and cutoff are applied. Like every sensor
// evaluation it must not allocate: a step may not.
using SensorCallback =
    std::function<void(const Model&, Data&, Stage stage, const int* ids, int n)>;

class Engine {
 public:
  // Copies `model`, applies `config` to its options and creates the plugins it names, using
  // `registry` (or a default registry plus config.plugin_paths when null). Throws gauss::Error
  // when a plugin cannot be found or refuses its parameters.
  explicit Engine(std::shared_ptr<const Model> model, const Config& config = Config(),
                  PluginRegistry* registry = nullptr);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  const Model& model() const { return *model_; }
  const Options& options() const { return model_->opt; }
  const Config& config() const { return config_; }

  // A Data for this model, at the reference configuration (Reset applied).
  Data MakeData() const;
  // Back to qpos0, zero velocity/activation/inputs, mocap at the model pose, time 0.
  void Reset(Data& d) const;
  // Reset, then load keyframe `key`.
  void ResetToKeyframe(Data& d, int key) const;

  // One timestep: check qpos/qvel, Forward, check qacc, integrate. Divergent states (NaN or
  // |value| > kMaxVal) raise a warning counter and reset the data, as MuJoCo does.
  void Step(Data& d) const;
  // Step whose forward evaluation reuses the stages before `skip` (as ForwardSkip; the caller
  // guarantees d holds them for the current qpos/qvel) and skips sensors when skip_sensors. For
  // finite differences (transition_fd.h): Step == StepSkip(d, Stage::kNone, false).
  void StepSkip(Data& d, Stage skip, bool skip_sensors) const;
  // Step split in two, so that ctrl can be set from position/velocity-dependent quantities:
  // Step1 = checks + position and velocity stages; Step2 = actuation, acceleration, constraint
  // solve, acceleration sensors, check, integrate.
  void Step1(Data& d) const;
  void Step2(Data& d) const;

  // Continuous-time forward dynamics at the current state: fills qacc (and everything derived).
  void Forward(Data& d) const;
  // Forward, reusing the stages before `skip` (kPosition: reuse position stage; kVelocity: reuse
  // position and velocity stages); sensors are skipped when skip_sensors. Used by multi-stage
  // integrators.
  void ForwardSkip(Data& d, Stage skip, bool skip_sensors) const;
  // Only the position and velocity stages of Forward (and their sensors unless skip_sensors):
  // what ForwardSkip(d, Stage::kVelocity, ...) reuses, without the constraint solve.
  void PositionVelocityStages(Data& d, bool skip_sensors) const;
  // ForwardSkip(d, skip, true) up to the constraint solve: kinematics, the constraint problem,
  // actuation and qacc_smooth; the solve does not run (qacc, efc_force, qfrc_constraint keep
  // their old values). For implicit gradients (transition_implicit.h), which replace the solve
  // by its linearization.
  void ForwardWithoutSolve(Data& d, Stage skip) const;

  // Inverse dynamics (spec "Inverse dynamics"): from (qpos, qvel, qacc) computes the constraint
  // forces analytically (the soft-constraint model makes the problem diagonal) and the applied
  // generalized force qfrc_inverse = M qacc + c(q, v) - passive - J'f. For an exactly solved
  // forward problem it equals qfrc_actuator + qfrc_applied + J'xfrc_applied.
  void Inverse(Data& d) const;

  // Potential and kinetic energy of the current state into d.energy (needs Forward's position
  // and velocity stages). Computed automatically in Forward when the energy flag is enabled.
  void ComputeEnergy(Data& d) const;

  // The common end of single-step integrators (the spec's semi-implicit update): act advances
  // with act_dot (exactly for filterexact, then clamped to actrange), qvel += h qacc, qpos is
  // integrated with `qvel_for_position` (the new qvel when null), time += h.
  void Advance(Data& d, const double* act_dot, const double* qacc,
               const double* qvel_for_position) const;

  // dfdv (nu) = d actuator_force / d actuator_velocity from each actuator's plugin, zero where
  // the force is clamped to forcerange. False if some actuator plugin cannot provide it.
  bool ActuatorForceVelocityDerivative(const Data& d, double* dfdv) const;

  void SetControlCallback(ControlCallback callback) { control_ = std::move(callback); }
  // The callback of this engine's user sensors (none: they keep their values, zero after a
  // reset, as MuJoCo 2.2.2 leaves them without mjcb_sensor). Set it before stepping: an
  // engine's Data may be stepped from several threads, which all call it.
  void SetSensorCallback(SensorCallback callback);

  // The plugins this engine uses ("integrator euler 1.0.0 /path/libgauss_euler.so", ...).
  std::vector<PluginInfo> PluginsInUse() const;

  const Integrator& integrator() const;
  // The constraint solver plugin and the capabilities its entry declares (plugin.h), e.g. for
  // its sensitivity products (solver.h, kCapSolutionSensitivity).
  const ConstraintSolver& solver() const;
  std::uint64_t solver_capabilities() const;
  // The integrator's part of a step alone, on d as Forward left it (single-step integrators:
  // the update from qacc, qfrc_smooth + qfrc_constraint and act_dot). For implicit gradients
  // (transition_implicit.h), which replace the solver's output before integrating.
  void Integrate(Data& d) const;

 private:
  void PositionStage(Data& d) const;
  void VelocityStage(Data& d) const;
  void ForwardStages(Data& d, Stage skip, bool skip_sensors, bool solve) const;
  // stages 19-22; with !solve only 19-20 (actuation, qacc_smooth)
  void AccelerationStage(Data& d, bool skip_sensors, bool solve) const;
  void SolveConstraints(Data& d) const;
  void CompareForwardInverse(Data& d) const;
  bool CheckState(Data& d, Warning which, const std::vector<double>& values) const;
  // Throws gauss::Error, naming `call` and the first array that does not fit, when d was not
  // made for this engine's model and configuration (data_alloc.h: FindDataMisfit).
  void RequireOwnData(const Data& d, const char* call) const;

  std::shared_ptr<Model> model_;
  Config config_;
  ControlCallback control_;
  struct Plugins;
  std::unique_ptr<Plugins> plugins_;
  std::size_t arena_doubles_ = 0;  // scratch a step takes at most: the kernel's and the plugins'
};

// (solver_trace, solver_iter, nisland, island_iter of the last forward) => the statistics of
// its solver's last iteration. With islands (docs/islands.md) each island's solve ends on its
// own last iteration: the cost is their sum (the problem separates by island), gradient,
// improvement and the other statistics the largest of any island. All zero when the solver
// did not iterate. Reads m.opt.iterations (the stride of the islands' traces).
SolverIteration FinalSolverIteration(const Model& m, const Data& d);

}  // namespace gauss
