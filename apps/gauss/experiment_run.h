// One run of an experiment: simulate one (engine, seed) pair and measure it.
//
// RunOne owns no memory of its own in the step loop: it steps the `run` Data of a Workspace
// (one per worker thread and sweep point, made before the run) and evaluates probes on the
// `probe` and `ref` Data of the same Workspace, so that a step allocates nothing and the
// timing covers Engine::Step1/Step2 alone. Metrics that do not apply (energy without the energy
// flag, reference error without a reference) are NaN.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "gauss/engine.h"

namespace gauss::cli {

// The metrics of a run, in results.csv column order (names in kMetricNames).
enum Metric : int {
  kMetricSteps,             // steps completed
  kMetricSimTime,           // simulated seconds completed
  kMetricWallTime,          // seconds spent in Step1 + Step2 (probes and I/O excluded)
  kMetricStepTimeUs,        // wall time per step, microseconds
  kMetricStepsPerSecond,
  kMetricSolverIterMean,    // constraint solver iterations per step
  kMetricSolverIterMax,
  kMetricSolverCost,        // cost and scaled gradient norm at the solver's last iteration
  kMetricSolverGradient,    //   of the final step (0 when the step had no constraints)
  kMetricNconMean,
  kMetricNefcMean,
  kMetricPenetrationMax,    // max over steps and contacts of -dist (0 when none penetrate)
  kMetricEqResidualMax,     // max |efc_pos| of equality rows
  kMetricLimitViolationMax, // max of -efc_pos over limit rows (0 when within limits)
  kMetricEnergyInitial,     // total energy (potential + kinetic) at t = 0 (energy flag)
  kMetricEnergyFinal,       //   and at the final state
  kMetricEnergyDrift,       // max over steps of |E(t) - E(0)|
  kMetricFwdInvResidual,    // max over probes of |qfrc_inverse - qfrc_actuator - qfrc_applied|
  kMetricRefErrorMax,       // max over probes of max_i |qacc_i - ref_i| / max(1, |ref_i|)
  kMetricRefErrorMean,      //   and its mean over probes
  kMetricDiverged,          // 1 when the state diverged (kernel warning or max_qvel), else 0
  kMetricDivergeTime,       // simulated time of the state that diverged
  kMetricTrackX,            // final position of the tracked body
  kMetricTrackY,
  kMetricTrackZ,
  kMetricTrackTravel,       // its horizontal displacement along its initial velocity
  kMetricTrackDrift,        //   and across it (signed, positive to the left)
  kMetricWarnings,          // kernel warnings other than divergence (e.g. buffers full)
  kNumMetrics
};
extern const char* const kMetricNames[kNumMetrics];

enum class RunStatus { kOk, kDiverged, kFailed, kInterrupted };
const char* RunStatusName(RunStatus status);

// What a run needs, shared read-only by every worker.
struct RunSetup {
  const Engine* engine = nullptr;
  const Engine* reference = nullptr;  // tightly converged configuration, or null
  long steps = 0;
  int keyframe = -1;                  // initial keyframe, -1 = qpos0
  double qvel_noise = 0;
  enum class Control { kZero, kNoise, kTable } control = Control::kZero;
  double control_sigma = 0;
  const std::vector<std::vector<double>>* control_rows = nullptr;  // kTable: row i before step i
  std::vector<int> control_actuator;  // kTable: actuator of each column
  int sample_every = 10;
  int track_body = -1;
  int trace_every = 0;
  double wall_time_limit = 0;  // seconds, 0 = none
  double max_qvel = 0;         // 0 = only the kernel's divergence checks
};

// The Data a worker simulates with for one sweep point.
struct Workspace {
  Data run;
  Data probe;  // the run's engine evaluated at a copy of the state
  Data ref;    // the reference engine at the same copy
};
Workspace MakeWorkspace(const RunSetup& setup);

struct RunResult {
  RunStatus status = RunStatus::kOk;
  std::string reason;
  std::array<double, kNumMetrics> metrics{};
  std::vector<double> trace;  // row-major, TraceColumns(setup).size() values per row
};

// Column names of a run's trace (time, energy, solver statistics, ..., qpos).
std::vector<std::string> TraceColumns(const RunSetup& setup);

// (setup, seed) => the run's metrics and trace. Returns kInterrupted as soon as `stop` is set;
// adds completed steps to `steps_done` now and then (progress). Does not catch exceptions.
RunResult RunOne(const RunSetup& setup, std::uint64_t seed, Workspace& ws,
                 const std::atomic<bool>& stop, std::atomic<long>* steps_done);

}  // namespace gauss::cli
