// The pipeline driver: Forward() and Step() read like the spec's "Simulation pipeline" list,
// one line per stage. Plugin calls are marked [plugin].
#include "gauss/engine.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "actuation.h"
#include "constraint_assembly.h"
#include "data_alloc.h"
#include "engine_plugins.h"
#include "gauss/actuator.h"
#include "gauss/crash_report.h"
#include "gauss/error.h"
#include "gauss/integrate.h"
#include "gauss/integrator.h"
#include "gauss/solver.h"
#include "gauss/sparse_inertia.h"
#include "island.h"
#include "sleep.h"
#include "trees.h"
#include "pipeline.h"
#include "profile_timer.h"
#include "sensors.h"

namespace gauss {
namespace {

void IntegratePlugin(const Engine& engine, const Integrator& integrator, const char* name, Data& d);

// The integrator plugin's step; when profiling, its time without the forward evaluations it
// calls goes to the integration timer and to the integrator's plugin timer (slot 0).
void IntegrateTimed(const Engine& engine, const Integrator& integrator, const char* name, Data& d) {
  const Model& m = engine.model();
  if (SleepEnabled(m)) {
    if (EverythingAsleep(m, d)) {  // nothing moves
      d.time += m.opt.timestep;
      return;
    }
    // the countdown and falling asleep; sleeping trees, those that fell asleep now included,
    // keep their qpos from before the step and zero qvel whatever the integrator did (sleep.h)
    ArenaScope scope(d.arena);
    double* before = d.arena.Doubles(m.nq);
    SaveSleepingPositions(d, before);
    IntegratePlugin(engine, integrator, name, d);
    UpdateSleep(m, d);
    FreezeSleepingPositions(m, d, before);
    return;
  }
  IntegratePlugin(engine, integrator, name, d);
}

// IntegrateTimed without the sleeping bookkeeping.
void IntegratePlugin(const Engine& engine, const Integrator& integrator, const char* name, Data& d) {
  const PluginCallScope mark("integrator", name, "integration");
  if (!d.profile.enabled) {
    integrator.Integrate(engine, d);
    return;
  }
  const double nested_before = d.profile[Timer::kForward].duration;
  const std::int64_t start = ProfileClockNs();
  integrator.Integrate(engine, d);
  const double own = static_cast<double>(ProfileClockNs() - start) -
                     (d.profile[Timer::kForward].duration - nested_before);
  for (TimerStat* stat : {StageStat(d, Timer::kIntegration), PluginStat(d, 0)}) {
    if (!stat) continue;
    stat->duration += own;
    ++stat->number;
  }
}

}  // namespace

Engine::Engine(std::shared_ptr<const Model> model, const Config& config, PluginRegistry* registry)
    : model_(std::make_shared<Model>(*model)), config_(config) {
  ApplyConfig(config_, model_->opt);
  if (model_->body_treeid.size() != static_cast<std::size_t>(model_->nbody)) CompileTrees(*model_);
  plugins_ = std::make_unique<Plugins>(*model_, config_, registry);
  arena_doubles_ = ScratchSize(*model_) + plugins_->ScratchDoubles(*model_);
}

Engine::~Engine() = default;

void Engine::SetSensorCallback(SensorCallback callback) {
  // a model without user sensors never calls it: nothing to keep
  if (plugins_->user_sensors) plugins_->user_sensors->SetCallback(std::move(callback));
}

Data Engine::MakeData() const {
  Data d;
  AllocateData(*model_, d, plugins_->ScratchDoubles(*model_));
  d.solver_memory.assign(plugins_->solver.instance->MemoryDoubles(*model_), 0.0);
  d.profile.plugin.assign(plugins_->InUse().size(), TimerStat());
  return d;
}

void Engine::Reset(Data& d) const { ResetData(*model_, d); }

void Engine::ResetToKeyframe(Data& d, int key) const {
  const Model& m = *model_;
  if (key < 0 || key >= m.nkey) {
    throw Error("keyframe " + std::to_string(key) + " does not exist (the model has " +
                std::to_string(m.nkey) + ")");
  }
  ResetData(m, d);
  d.time = m.key_time[key];
  std::copy_n(m.key_qpos.begin() + key * m.nq, m.nq, d.qpos.begin());
  std::copy_n(m.key_qvel.begin() + key * m.nv, m.nv, d.qvel.begin());
  std::copy_n(m.key_act.begin() + key * m.na, m.na, d.act.begin());
  std::copy_n(m.key_ctrl.begin() + key * m.nu, m.nu, d.ctrl.begin());
  std::copy_n(m.key_mpos.begin() + key * 3 * m.nmocap, 3 * m.nmocap, d.mocap_pos.begin());
  std::copy_n(m.key_mquat.begin() + key * 4 * m.nmocap, 4 * m.nmocap, d.mocap_quat.begin());
}

// ---------------------------------------------------------------- forward dynamics

void Engine::RequireOwnData(const Data& d, const char* call) const {
  const DataMisfit misfit = FindDataMisfit(*model_, d, arena_doubles_);
  if (!misfit.array) return;
  throw Error(std::string("Engine::") + call + ": this Data was not made for this engine (its " +
              misfit.array + " has " + std::to_string(misfit.size) + " entries, the engine's " +
              "model and configuration need " + std::to_string(misfit.needed) +
              "); make it with this Engine's MakeData(), and move a state between engines " +
              "with GetState/SetState (gauss/state.h)");
}

void Engine::Forward(Data& d) const {
  ForwardSkip(d, Stage::kNone, false);
  if (options().Enabled(kEnableFwdinv)) CompareForwardInverse(d);  // 24. diagnostics
}

void Engine::ForwardSkip(Data& d, Stage skip, bool skip_sensors) const {
  RequireOwnData(d, "Forward");
  ForwardStages(d, skip, skip_sensors, /*solve=*/true);
}

void Engine::ForwardWithoutSolve(Data& d, Stage skip) const {
  RequireOwnData(d, "Forward");
  ForwardStages(d, skip, /*skip_sensors=*/true, /*solve=*/false);
}

// The caller has checked d (RequireOwnData): a step checks once, not once per stage group.
void Engine::ForwardStages(Data& d, Stage skip, bool skip_sensors, bool solve) const {
  const ScopedTimer timer(StageStat(d, Timer::kForward));
  if (skip == Stage::kNone && SleepEnabled(*model_) && d.ntree_awake == 0) {
    // every tree asleep and nothing woke one: every result stays as it was (sleep.h)
    WakeTrees(*model_, d);
    if (EverythingAsleep(*model_, d)) {
      std::fill(d.qacc.begin(), d.qacc.end(), 0.0);
      if (control_) control_(*model_, d);
      return;
    }
  }
  if (skip == Stage::kNone) {
    PositionStage(d);
    if (!skip_sensors) EvaluateSensors(*model_, d, Stage::kPosition, plugins_->sensor_groups);
  }
  if (skip == Stage::kNone || skip == Stage::kPosition) {
    VelocityStage(d);
    if (!skip_sensors) EvaluateSensors(*model_, d, Stage::kVelocity, plugins_->sensor_groups);
  }
  if (control_) control_(*model_, d);
  AccelerationStage(d, skip_sensors, solve);
}

void Engine::PositionVelocityStages(Data& d, bool skip_sensors) const {
  RequireOwnData(d, "PositionVelocityStages");
  PositionStage(d);
  if (!skip_sensors) EvaluateSensors(*model_, d, Stage::kPosition, plugins_->sensor_groups);
  VelocityStage(d);
  if (!skip_sensors) EvaluateSensors(*model_, d, Stage::kVelocity, plugins_->sensor_groups);
}

// Stages 2-12: everything that depends on qpos only.
void Engine::PositionStage(Data& d) const {
  const Model& m = *model_;
  const ScopedTimer timer(StageStat(d, Timer::kPosition));
  if (SleepEnabled(m)) WakeTrees(m, d);  // user inputs, mocap motion, couplings (sleep.h)
  {
    const ScopedTimer kinematics(StageStat(d, Timer::kPosKinematics));
    Kinematics(m, d);          //  2. body, joint, geom and site poses
    ComPosition(m, d);         //  3. subtree com, cinert, cdof
    CameraPoses(m, d);         //  3b. camera poses (track modes need the subtree com)
    Tendons(m, d);             //  5. tendon lengths and moment arms
  }
  {
    const ScopedTimer inertia(StageStat(d, Timer::kPosInertia));
    CompositeInertia(m, d);    //  6. qM by the composite rigid-body algorithm
    FactorInertia(m, d);       //  7. qLD = L'DL factor of qM
  }
  Collision(m, d, plugins_->collision_table);  //  8. contacts [plugin: Collider]
  {
    const ScopedTimer constraint(StageStat(d, Timer::kPosConstraint));
    MakeConstraints(m, d);     //  9. constraint rows, Jacobian, soft parameters (11.)
    if (UsesIslands(m)) FindIslands(m, d);  // trees coupled by rows (island.h)
  }
  {
    const ScopedTimer transmission(StageStat(d, Timer::kPosTransmission));
    Transmission(m, d);        // 10. actuator lengths and moment arms
  }
  if (m.opt.Enabled(kEnableEnergy)) PotentialEnergy(m, d);  // 12.
}

// Stages 13-18: everything that depends on qpos and qvel.
void Engine::VelocityStage(Data& d) const {
  const Model& m = *model_;
  const ScopedTimer timer(StageStat(d, Timer::kVelocity));
  TendonVelocity(m, d);                                    // 13. tendon and actuator
  ActuatorVelocity(m, d);                                  //     velocities
  ComVelocity(m, d);                                       // 14. cvel, cdof_dot
  PassiveForces(m, d);                                     // 15. springs, dampers
  ReferenceAcceleration(m, d);                             // 17. efc_vel, efc_aref
  if (m.opt.Enabled(kEnableEnergy)) KineticEnergy(m, d);   // 16.
  RecursiveNewtonEuler(m, d, false, d.qfrc_bias.data());   // 18. bias force c(q, v)
}

// Stages 19-22: actuation, smooth acceleration, constraint forces, acceleration sensors.
void Engine::AccelerationStage(Data& d, bool skip_sensors, bool solve) const {
  const Model& m = *model_;
  ZeroBadControls(m, d);  // bad controls are zeroed first (MuJoCo's rule)
  Actuation(m, d, plugins_->actuator_groups);  // 19. actuation [plugin: ActuatorDynamics]
  SmoothAcceleration(m, d);                    // 20. qacc_smooth = M^-1 qfrc_smooth
  if (!solve) return;  // ForwardWithoutSolve
  SolveConstraints(d);                         // 21. constraint forces [plugin: ConstraintSolver]
  // 22. sensors that need accelerations and forces [plugin: Sensor]
  if (!skip_sensors) EvaluateSensors(m, d, Stage::kAcceleration, plugins_->sensor_groups);
  // trees asleep now were evaluated at rest: from the next evaluation on, stages skip them
  if (SleepEnabled(m)) MarkFrozenTrees(m, d);
}

// (constraint problem, qacc_smooth, qacc_warmstart) => (qacc, efc_force, efc_state,
// qfrc_constraint, solver_iter, solver_trace, qacc_warmstart for the next evaluation)
void Engine::SolveConstraints(Data& d) const {
  const Model& m = *model_;
  const ScopedTimer timer(StageStat(d, Timer::kConstraint));
  if (d.nefc == 0) {
    std::fill(d.qfrc_constraint.begin(), d.qfrc_constraint.end(), 0.0);
    std::copy(d.qacc_smooth.begin(), d.qacc_smooth.end(), d.qacc.begin());
    d.solver_iter = 0;
  } else {
    // the whole problem's solver multiplies by M and solves with it at every iteration: M's
    // column indices once per step, held through the solve (islands make their own)
    ArenaScope hold(d.arena);
    int* colind = nullptr;
    if (!UsesIslands(m)) {
      colind = d.arena.Ints(m.nM);
      FillTreeSparseColumns(m.nv, m.dof_Madr.data(), m.dof_parentid.data(), colind);
    }
    const FactoredInertia ops(m, d, colind);
    ConstraintProblem problem = MakeProblem(m, d, ops);
    problem.single_step_integrator = plugins_->single_step_integrator;
    // what the solver keeps between solves is for the whole problem (islands are solved apart)
    const ConstraintSolver& solver = *plugins_->solver.instance;
    if (!UsesIslands(m) && !d.solver_memory.empty() &&
        d.solver_memory.size() == solver.MemoryDoubles(m)) {
      problem.solver_memory = d.solver_memory.data();
      problem.matrices_id = d.matrices_id;
    }
    // J' force straight into qfrc_constraint when the solver holds it at its solution, bit
    // for bit as MulJT below would sum it (gauss/solver.h)
    SolveByproducts byproducts;
    byproducts.qfrc_constraint = d.qfrc_constraint.data();
    problem.byproducts = &byproducts;
    SolverResult result;
    {
      const PluginCallScope mark("solver", plugins_->solver.info.name.c_str(), "constraint solve");
      const ScopedTimer plugin_timer(PluginStat(d, 1));  // the solver's slot
      result = UsesIslands(m) ? SolveByIsland(problem, solver, d, d.solver_trace.data())
                              : solver.Solve(problem, d.arena, d.qacc.data(),
                                             d.efc_force.data(), d.solver_trace.data());
    }
    d.solver_iter = result.iterations;
    if (!byproducts.qfrc_constraint_given) {
      MulJT(problem, d.efc_force.data(), d.qfrc_constraint.data());
    }
    // row states at the solution (what the force law is doing), for sensors and reports
    ArenaScope scope(d.arena);
    double* jar = d.arena.Doubles(d.nefc);
    MulJ(problem, d.qacc.data(), jar);
    for (int i = 0; i < d.nefc; ++i) jar[i] -= d.efc_aref[i];
    ConstraintCost(problem, jar, nullptr, d.efc_state.data());
  }
  if (SleepEnabled(m)) ZeroSleepingAcceleration(m, d);  // frozen trees do not accelerate
  // the solver's warmstart for the next evaluation is this acceleration
  std::copy(d.qacc.begin(), d.qacc.end(), d.qacc_warmstart.begin());
}

void Engine::ComputeEnergy(Data& d) const {
  PotentialEnergy(*model_, d);
  KineticEnergy(*model_, d);
}

// ---------------------------------------------------------------- time stepping

// When a value is NaN or beyond kMaxVal: the warning counted, and the data reset unless the
// autoreset flag is disabled. True when the data was reset.
bool Engine::CheckState(Data& d, Warning which, const std::vector<double>& values) const {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (std::isfinite(v) && std::fabs(v) <= kMaxVal) continue;
    // MuJoCo 3.x <flag autoreset="disable"/>: warn only, the bad state goes on
    const bool reset = !model_->opt.Disabled(kDisableAutoreset);
    if (reset) ResetData(*model_, d);
    ++d.warning_count[static_cast<int>(which)];
    d.warning_index[static_cast<int>(which)] = static_cast<int>(i);
    return reset;
  }
  return false;
}

void Engine::Step(Data& d) const { StepSkip(d, Stage::kNone, false); }

void Engine::StepSkip(Data& d, Stage skip, bool skip_sensors) const {
  RequireOwnData(d, "Step");
  const ScopedTimer timer(StageStat(d, Timer::kStep));
  // a reset by a divergence check invalidates the stages the caller wanted to reuse
  bool reset = CheckState(d, Warning::kBadQpos, d.qpos);  //  1. divergence checks
  reset = CheckState(d, Warning::kBadQvel, d.qvel) || reset;
  ForwardStages(d, reset ? Stage::kNone : skip, skip_sensors, /*solve=*/true);  //  2-22
  if (options().Enabled(kEnableFwdinv)) CompareForwardInverse(d);  // 24.
  if (CheckState(d, Warning::kBadQacc, d.qacc)) Forward(d);  // 23.
  IntegrateTimed(*this, *plugins_->integrator.instance, plugins_->integrator.info.name.c_str(), d);  // 25. [plugin: Integrator]
}

void Engine::Step1(Data& d) const {
  RequireOwnData(d, "Step1");
  // Step1 + Step2 are one step: the time of both, one call (counted by Step2)
  TimerStat* step = StageStat(d, Timer::kStep);
  const std::int64_t start = step ? ProfileClockNs() : 0;
  CheckState(d, Warning::kBadQpos, d.qpos);
  CheckState(d, Warning::kBadQvel, d.qvel);
  PositionStage(d);
  EvaluateSensors(*model_, d, Stage::kPosition, plugins_->sensor_groups);
  VelocityStage(d);
  EvaluateSensors(*model_, d, Stage::kVelocity, plugins_->sensor_groups);
  if (control_) control_(*model_, d);
  if (step) step->duration += static_cast<double>(ProfileClockNs() - start);
}

void Engine::Step2(Data& d) const {
  RequireOwnData(d, "Step2");
  const ScopedTimer timer(StageStat(d, Timer::kStep));
  AccelerationStage(d, false, /*solve=*/true);
  if (CheckState(d, Warning::kBadQacc, d.qacc)) Forward(d);
  if (options().Enabled(kEnableFwdinv)) CompareForwardInverse(d);
  IntegrateTimed(*this, *plugins_->integrator.instance, plugins_->integrator.info.name.c_str(), d);
}

void Engine::Advance(Data& d, const double* act_dot, const double* qacc,
                     const double* qvel_for_position) const {
  const Model& m = *model_;
  const double h = m.opt.timestep;
  // activations: each actuator's plugin knows how to integrate its own dynamics
  for (const auto& group : plugins_->actuator_groups) {
    for (int a : group.ids) {
      const int adr = m.actuator_actadr[a];
      if (adr < 0) continue;
      for (int k = adr; k < adr + m.actuator_actnum[a]; ++k) {
        // a disabled actuator (3.x actuatorgroupdisable) keeps its activation, within actrange
        double act = ActuatorDisabled(m, a)
                         ? d.act[k]
                         : group.plugin->NextActivation(m, d, a, d.act[k], act_dot[k], h);
        if (m.actuator_actlimited[a]) {
          act = std::clamp(act, m.actuator_actrange[2 * a], m.actuator_actrange[2 * a + 1]);
        }
        d.act[k] = act;
      }
    }
  }
  for (int i = 0; i < m.nv; ++i) d.qvel[i] += h * qacc[i];
  IntegratePosition(m, d.qpos.data(), qvel_for_position ? qvel_for_position : d.qvel.data(), h);
  d.time += h;
}

// ---------------------------------------------------------------- plugins

bool Engine::ActuatorForceVelocityDerivative(const Data& d, double* dfdv) const {
  const Model& m = *model_;
  for (int a = 0; a < m.nu; ++a) dfdv[a] = 0;
  if (m.nu == 0 || m.opt.Disabled(kDisableActuation)) return true;
  bool available = true;
  for (std::size_t g = 0; g < plugins_->actuator_groups.size(); ++g) {
    const ActuatorGroup& group = plugins_->actuator_groups[g];
    if (!(plugins_->actuator_plugins[g].info.capabilities & kCapVelocityDerivative)) {
      available = false;
      continue;
    }
    for (std::size_t k = 0; k < group.ids.size(); ++k) {
      double value = 0;
      group.plugin->ForceVelocityDerivative(m, d, &group.ids[k], 1, &value);
      dfdv[group.ids[k]] = value;
    }
  }
  // a clamped force does not change with velocity, a disabled actuator has none (MuJoCo 3.12.1
  // measured: the clamps of joint and tendon actuatorfrcrange are not seen here)
  for (int a = 0; a < m.nu; ++a) {
    if (ActuatorDisabled(m, a)) dfdv[a] = 0;
    if (!m.actuator_forcelimited[a]) continue;
    const double f = d.actuator_force[a];
    if (f <= m.actuator_forcerange[2 * a] || f >= m.actuator_forcerange[2 * a + 1]) dfdv[a] = 0;
  }
  return available;
}

const Integrator& Engine::integrator() const { return *plugins_->integrator.instance; }

const ConstraintSolver& Engine::solver() const { return *plugins_->solver.instance; }

std::uint64_t Engine::solver_capabilities() const {
  return plugins_->solver.info.capabilities;
}

void Engine::Integrate(Data& d) const {
  IntegrateTimed(*this, *plugins_->integrator.instance, plugins_->integrator.info.name.c_str(), d);
}

std::vector<PluginInfo> Engine::PluginsInUse() const { return plugins_->InUse(); }

}  // namespace gauss
