// One experiment run (experiment_run.h): the step loop, its probes and its metrics.
//
// Each step i:
//   1. controls for step i (zero, noise from the run's generator, or row i of the table);
//   2. every sample_every steps, a probe: the state is copied into ws.probe (and ws.ref), the
//      run's engine (and the reference engine) evaluate Forward there, and the probe's Inverse
//      gives the forward/inverse residual. Probes are not timed and do not touch ws.run;
//   3. Step1 (timed): position and velocity stages at the state t_i. Energy, contacts and
//      constraint residuals are read here, where they describe t_i for every integrator (a
//      multi-stage integrator leaves Data describing its last stage after Step2);
//   4. Step2 (timed): acceleration, constraint solve, integration. Solver statistics are read.
// Divergence (the kernel's bad qpos/qvel/qacc warnings, or |qvel| > max_qvel) ends the run.
#include "experiment_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "gauss/constraint.h"
#include "gauss/error.h"
#include "noise.h"

namespace gauss::cli {

const char* const kMetricNames[kNumMetrics] = {
    "steps",          "sim_time",         "wall_time",           "step_time_us",
    "steps_per_second", "solver_iter_mean", "solver_iter_max",   "solver_cost",
    "solver_gradient", "ncon_mean",       "nefc_mean",           "penetration_max",
    "eq_residual_max", "limit_violation_max", "energy_initial",  "energy_final",
    "energy_drift",   "fwdinv_residual",  "ref_error_max",       "ref_error_mean",
    "diverged",       "diverge_time",     "track_x",             "track_y",
    "track_z",        "track_travel",     "track_drift",         "warnings"};

const char* RunStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::kOk: return "ok";
    case RunStatus::kDiverged: return "diverged";
    case RunStatus::kFailed: return "failed";
    case RunStatus::kInterrupted: return "interrupted";
  }
  return "?";
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using Clock = std::chrono::steady_clock;

// Fixed trace columns before the tracked body and qpos (see TraceColumns).
const char* const kTraceBase[] = {"time",    "energy",      "solver_iter", "solver_cost",
                                  "solver_gradient", "ncon", "nefc",       "penetration",
                                  "eq_residual", "limit_violation", "max_qvel",
                                  "awake_trees", "step_rate"};
constexpr int kNumTraceBase = sizeof(kTraceBase) / sizeof(kTraceBase[0]);

// (src state and inputs) => dst: everything Forward reads. Equal sizes: no allocation.
void CopyState(const Data& src, Data& dst) {
  dst.time = src.time;
  std::copy(src.qpos.begin(), src.qpos.end(), dst.qpos.begin());
  std::copy(src.qvel.begin(), src.qvel.end(), dst.qvel.begin());
  std::copy(src.act.begin(), src.act.end(), dst.act.begin());
  std::copy(src.qacc_warmstart.begin(), src.qacc_warmstart.end(), dst.qacc_warmstart.begin());
  std::copy(src.ctrl.begin(), src.ctrl.end(), dst.ctrl.begin());
  std::copy(src.qfrc_applied.begin(), src.qfrc_applied.end(), dst.qfrc_applied.begin());
  std::copy(src.xfrc_applied.begin(), src.xfrc_applied.end(), dst.xfrc_applied.begin());
  std::copy(src.mocap_pos.begin(), src.mocap_pos.end(), dst.mocap_pos.begin());
  std::copy(src.mocap_quat.begin(), src.mocap_quat.end(), dst.mocap_quat.begin());
  std::copy(src.eq_active.begin(), src.eq_active.end(), dst.eq_active.begin());
  dst.sensor_noise_state = src.sensor_noise_state;
}

// Kernel divergence warnings raised so far (the kernel resets the data when it raises one).
int DivergenceWarnings(const Data& d) {
  return d.warning_count[static_cast<int>(Warning::kBadQpos)] +
         d.warning_count[static_cast<int>(Warning::kBadQvel)] +
         d.warning_count[static_cast<int>(Warning::kBadQacc)];
}

// A simulated time in a message: 9 significant digits ("0.0245").
std::string FormatTime(double t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", t);
  return text;
}

double MaxAbs(const std::vector<double>& v) {
  double out = 0;
  for (double x : v) out = std::max(out, std::fabs(x));
  return out;
}

// Constraint residuals at the current position stage: (penetration, equality, limit).
struct Violation {
  double penetration = 0, equality = 0, limit = 0;
};
Violation MeasureViolation(const Data& d) {
  Violation v;
  for (int c = 0; c < d.ncon; ++c) v.penetration = std::max(v.penetration, -d.contact[c].dist);
  for (int r = 0; r < d.nefc; ++r) {
    const ConstraintType type = d.efc_type[r];
    if (type == ConstraintType::kEquality) {
      v.equality = std::max(v.equality, std::fabs(d.efc_pos[r]));
    } else if (type == ConstraintType::kLimitJoint || type == ConstraintType::kLimitTendon) {
      v.limit = std::max(v.limit, -d.efc_pos[r]);
    }
  }
  return v;
}

// Running sums of the per-step quantities, turned into metrics at the end.
struct Accumulator {
  long steps = 0;
  double wall = 0;
  double iter_sum = 0, iter_max = 0, ncon_sum = 0, nefc_sum = 0;
  double cost = 0, gradient = 0;
  Violation worst;
  bool energy = false;
  double energy0 = kNaN, drift = 0;
  double fwdinv = 0;
  long probes = 0;
  double ref_max = 0, ref_sum = 0;
  double track0[3] = {0, 0, 0}, track1[3] = {0, 0, 0};  // tracked body at steps 0 and 1
};

}  // namespace

std::vector<std::string> TraceColumns(const RunSetup& setup) {
  std::vector<std::string> out(kTraceBase, kTraceBase + kNumTraceBase);
  if (setup.track_body >= 0) {
    for (const char* c : {"track_x", "track_y", "track_z"}) out.push_back(c);
  }
  for (int i = 0; i < setup.engine->model().nq; ++i) out.push_back("qpos" + std::to_string(i));
  return out;
}

Workspace MakeWorkspace(const RunSetup& setup) {
  Workspace ws{setup.engine->MakeData(), setup.engine->MakeData(), Data()};
  if (setup.reference) ws.ref = setup.reference->MakeData();
  return ws;
}

namespace {

// (ws.run at the state before step i) => probe metrics: forward/inverse residual of the run's
// engine and the acceleration error against the reference engine.
void Probe(const RunSetup& setup, Workspace& ws, Accumulator& acc) {
  const Engine& engine = *setup.engine;
  CopyState(ws.run, ws.probe);
  engine.Forward(ws.probe);
  ++acc.probes;
  if (setup.reference) {
    CopyState(ws.run, ws.ref);
    setup.reference->Forward(ws.ref);
    double err = 0;
    for (std::size_t i = 0; i < ws.ref.qacc.size(); ++i) {
      const double b = ws.ref.qacc[i];
      err = std::max(err, std::fabs(ws.probe.qacc[i] - b) / std::max(1.0, std::fabs(b)));
    }
    acc.ref_max = std::max(acc.ref_max, err);
    acc.ref_sum += err;
  }
  engine.Inverse(ws.probe);  // reads qacc of the forward evaluation above
  for (std::size_t i = 0; i < ws.probe.qfrc_inverse.size(); ++i) {
    const double applied = ws.probe.qfrc_actuator[i] + ws.probe.qfrc_applied[i];
    acc.fwdinv = std::max(acc.fwdinv, std::fabs(ws.probe.qfrc_inverse[i] - applied));
  }
}

// (step index, noise) => ws.run.ctrl for step i.
void SetControls(const RunSetup& setup, long i, NoiseSource& noise, Data& d) {
  if (setup.control == RunSetup::Control::kNoise) {
    noise.DrawControls(setup.control_sigma, d);
  } else if (setup.control == RunSetup::Control::kTable) {
    const auto& rows = *setup.control_rows;
    const std::vector<double>& row = rows[std::min<std::size_t>(i, rows.size() - 1)];
    for (std::size_t j = 0; j < row.size(); ++j) d.ctrl[setup.control_actuator[j]] = row[j];
  }
}

// (accumulated sums, final state) => result.metrics.
void Finish(const RunSetup& setup, Workspace& ws, const Accumulator& acc, RunResult& result) {
  auto& m = result.metrics;
  const double n = static_cast<double>(std::max(1L, acc.steps));
  m[kMetricSteps] = static_cast<double>(acc.steps);
  m[kMetricSimTime] = acc.steps * setup.engine->options().timestep;
  m[kMetricWallTime] = acc.wall;
  m[kMetricStepTimeUs] = acc.steps > 0 ? acc.wall / acc.steps * 1e6 : kNaN;
  m[kMetricStepsPerSecond] = acc.wall > 0 ? acc.steps / acc.wall : kNaN;
  m[kMetricSolverIterMean] = acc.iter_sum / n;
  m[kMetricSolverIterMax] = acc.iter_max;
  m[kMetricSolverCost] = acc.cost;
  m[kMetricSolverGradient] = acc.gradient;
  m[kMetricNconMean] = acc.ncon_sum / n;
  m[kMetricNefcMean] = acc.nefc_sum / n;
  m[kMetricPenetrationMax] = std::max(0.0, acc.worst.penetration);
  m[kMetricEqResidualMax] = acc.worst.equality;
  m[kMetricLimitViolationMax] = std::max(0.0, acc.worst.limit);
  m[kMetricFwdInvResidual] = acc.probes > 0 ? acc.fwdinv : kNaN;
  const bool probed_ref = setup.reference && acc.probes > 0;
  m[kMetricRefErrorMax] = probed_ref ? acc.ref_max : kNaN;
  m[kMetricRefErrorMean] = probed_ref ? acc.ref_sum / acc.probes : kNaN;
  const bool diverged = result.status == RunStatus::kDiverged;
  m[kMetricDiverged] = diverged ? 1 : 0;
  int warnings = 0;
  for (int w = 0; w < kNumWarnings; ++w) warnings += ws.run.warning_count[w];
  m[kMetricWarnings] = warnings - DivergenceWarnings(ws.run);

  // The final state: one Forward on the probe gives its energy and body positions.
  m[kMetricEnergyInitial] = acc.energy ? acc.energy0 : kNaN;
  m[kMetricEnergyFinal] = kNaN;
  m[kMetricEnergyDrift] = acc.energy ? acc.drift : kNaN;
  for (int k = kMetricTrackX; k <= kMetricTrackDrift; ++k) m[k] = kNaN;
  if (diverged || acc.steps == 0) return;
  CopyState(ws.run, ws.probe);
  setup.engine->Forward(ws.probe);
  if (acc.energy) {
    const double e = ws.probe.energy[0] + ws.probe.energy[1];
    m[kMetricEnergyFinal] = e;
    m[kMetricEnergyDrift] = std::max(acc.drift, std::fabs(e - acc.energy0));
  }
  if (setup.track_body >= 0) {
    const double* p = ws.probe.xpos.data() + 3 * setup.track_body;
    m[kMetricTrackX] = p[0];
    m[kMetricTrackY] = p[1];
    m[kMetricTrackZ] = p[2];
    // horizontal unit vector along the initial motion (steps 0 -> 1), world z up
    double u[2] = {acc.track1[0] - acc.track0[0], acc.track1[1] - acc.track0[1]};
    const double norm = std::hypot(u[0], u[1]);
    const double dx = p[0] - acc.track0[0], dy = p[1] - acc.track0[1];
    if (norm > 0 && acc.steps > 1) {
      u[0] /= norm;
      u[1] /= norm;
      m[kMetricTrackTravel] = dx * u[0] + dy * u[1];
      m[kMetricTrackDrift] = u[0] * dy - u[1] * dx;
    }
  }
}

}  // namespace

RunResult RunOne(const RunSetup& setup, std::uint64_t seed, Workspace& ws,
                 const std::atomic<bool>& stop, std::atomic<long>* steps_done) {
  const Engine& engine = *setup.engine;
  Data& d = ws.run;
  RunResult result;
  result.metrics.fill(kNaN);
  const std::size_t ncol = TraceColumns(setup).size();
  if (setup.trace_every > 0) {
    result.trace.reserve(ncol * static_cast<std::size_t>(setup.steps / setup.trace_every + 1));
  }

  // initial state: reference configuration or keyframe, plus seeded velocity noise
  NoiseSource noise(seed);
  if (setup.keyframe >= 0) {
    engine.ResetToKeyframe(d, setup.keyframe);
  } else {
    engine.Reset(d);
  }
  noise.PerturbQvel(setup.qvel_noise, d);

  Accumulator acc;
  acc.energy = engine.options().Enabled(kEnableEnergy);
  const Clock::time_point start = Clock::now();
  long reported = 0;
  long i = 0;  // the step in progress, for the message of a failure
  try {
  for (i = 0; i < setup.steps; ++i) {
    if (stop.load(std::memory_order_relaxed)) {
      result.status = RunStatus::kInterrupted;
      result.reason = "interrupted";
      return result;
    }
    SetControls(setup, i, noise, d);
    if (setup.sample_every > 0 && i % setup.sample_every == 0) Probe(setup, ws, acc);
    const double time_before = d.time;

    const Clock::time_point t0 = Clock::now();
    engine.Step1(d);
    const Clock::time_point t1 = Clock::now();
    if (DivergenceWarnings(d) > 0) {
      result.status = RunStatus::kDiverged;
      result.metrics[kMetricDivergeTime] = time_before;
      break;
    }
    const Violation v = MeasureViolation(d);
    acc.worst.penetration = std::max(acc.worst.penetration, v.penetration);
    acc.worst.equality = std::max(acc.worst.equality, v.equality);
    acc.worst.limit = std::max(acc.worst.limit, v.limit);
    acc.ncon_sum += d.ncon;
    acc.nefc_sum += d.nefc;
    const double energy = d.energy[0] + d.energy[1];
    if (acc.energy) {
      if (i == 0) acc.energy0 = energy;
      acc.drift = std::max(acc.drift, std::fabs(energy - acc.energy0));
    }
    if (setup.track_body >= 0 && i < 2) {
      std::copy_n(d.xpos.data() + 3 * setup.track_body, 3, i == 0 ? acc.track0 : acc.track1);
    }
    // the trace row describes t_i: appended now (capacity reserved: no allocation), its solver
    // columns filled after Step2
    const bool trace_due = setup.trace_every > 0 && i % setup.trace_every == 0;
    const std::size_t row = result.trace.size();
    if (trace_due) {
      const double base[kNumTraceBase] = {
          time_before, acc.energy ? energy : kNaN, 0, 0, 0, static_cast<double>(d.ncon),
          static_cast<double>(d.nefc), std::max(0.0, v.penetration), v.equality,
          std::max(0.0, v.limit), MaxAbs(d.qvel), static_cast<double>(d.ntree_awake), 0};
      result.trace.insert(result.trace.end(), base, base + kNumTraceBase);
      if (setup.track_body >= 0) {
        const double* p = d.xpos.data() + 3 * setup.track_body;
        result.trace.insert(result.trace.end(), p, p + 3);
      }
      result.trace.insert(result.trace.end(), d.qpos.begin(), d.qpos.end());
    }
    const Clock::time_point t2 = Clock::now();
    engine.Step2(d);
    const Clock::time_point t3 = Clock::now();
    acc.wall += std::chrono::duration<double>((t1 - t0) + (t3 - t2)).count();
    ++acc.steps;

    if (DivergenceWarnings(d) > 0) {
      result.status = RunStatus::kDiverged;
      result.metrics[kMetricDivergeTime] = time_before;
      break;
    }
    acc.iter_sum += d.solver_iter;
    acc.iter_max = std::max(acc.iter_max, static_cast<double>(d.solver_iter));
    acc.cost = 0;
    acc.gradient = 0;
    if (d.solver_iter > 0) {
      const SolverIteration last = FinalSolverIteration(engine.model(), d);  // over islands
      acc.cost = last.cost;
      acc.gradient = last.gradient;
    }
    if (trace_due) {
      result.trace[row + 2] = d.solver_iter;
      result.trace[row + 3] = acc.cost;
      result.trace[row + 4] = acc.gradient;
      // this step's rate (steps per second of wall time), for plots of speed over time
      result.trace[row + 12] = 1 / std::chrono::duration<double>((t1 - t0) + (t3 - t2)).count();
    }
    if (setup.max_qvel > 0 && MaxAbs(d.qvel) > setup.max_qvel) {
      result.status = RunStatus::kDiverged;
      result.metrics[kMetricDivergeTime] = d.time;
      break;
    }
    if (steps_done && (i + 1) % 256 == 0) {
      steps_done->fetch_add(i + 1 - reported, std::memory_order_relaxed);
      reported = i + 1;
    }
    if (setup.wall_time_limit > 0 && i % 64 == 63) {
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      if (elapsed > setup.wall_time_limit) {
        throw Error("wall-time limit of " + std::to_string(setup.wall_time_limit) +
                    " s exceeded");
      }
    }
  }
  } catch (const std::exception& e) {
    // The row says where the run stopped: the steps completed and the simulated time reached
    // are measured; everything else is NaN (not measured).
    result.status = RunStatus::kFailed;
    result.reason = "failed at step " + std::to_string(i) + " (t=" + FormatTime(d.time) +
                    " s): " + e.what();
    result.metrics[kMetricSteps] = static_cast<double>(acc.steps);
    result.metrics[kMetricSimTime] = acc.steps * engine.options().timestep;
    if (steps_done) steps_done->fetch_add(setup.steps - reported, std::memory_order_relaxed);
    return result;
  }
  if (steps_done) steps_done->fetch_add(setup.steps - reported, std::memory_order_relaxed);
  Finish(setup, ws, acc, result);
  return result;
}

}  // namespace gauss::cli
