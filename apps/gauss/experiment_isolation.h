// Runs one experiment run in a child process, so that a plugin that crashes, aborts, throws
// something that is not a std::exception or never returns costs that run only.
//
// The layer sits between the scheduler (threads in experiment.cc, or processes of a distributed
// runner) and RunOne (experiment_run.h): whoever decides *which* run to do calls RunIsolated,
// which forks, runs RunOne (and the caller's `finish` step, e.g. writing the trace) in the
// child, and turns whatever happened to the child into a RunResult:
//   - the child reported a result      => that result (ok, diverged, failed with its reason);
//   - the child died of a signal       => kFailed, "crashed with SIGSEGV (...)" + last stderr;
//   - the child ran past the wall time => SIGTERM, then SIGKILL after a grace period, kFailed;
//   - interrupts >= 1 (Ctrl-C)         => the child is asked to stop (SIGINT), kInterrupted;
//   - interrupts >= 2                  => the child is killed at once (SIGKILL), kInterrupted.
// The child's stdout and stderr go to a pipe; the last lines are kept for the failure reason.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "experiment_run.h"

namespace gauss::cli {

struct IsolationLimits {
  double wall_time = 0;     // limits.wall_time in seconds (0 = no limit)
  double overrun = 1.0;     // seconds past wall_time before SIGTERM: a run that still steps
                            // reports the limit itself (RunOne checks it every 64 steps)
  double term_grace = 2.0;  // seconds between SIGTERM and SIGKILL
};

// Work done in the child after RunOne returned ok/diverged (e.g. writing the run's trace, which
// is not sent back to the parent). May throw: the run then fails with the message.
using ChildFinish = std::function<void(const RunResult&)>;

// (setup, seed, ws) => the run's result, computed in a child process (see the file comment).
// `interrupts` counts Ctrl-C presses (read only); completed steps are added to `steps_done` as
// the child reports them. The returned result never carries a trace. Throws gauss::Error only
// when no child can be started (fork or pipe failed).
RunResult RunIsolated(const RunSetup& setup, std::uint64_t seed, Workspace& ws,
                      const IsolationLimits& limits, const std::atomic<int>& interrupts,
                      std::atomic<long>* steps_done, const ChildFinish& finish);

// "SIGSEGV (Segmentation fault)" for a signal number.
std::string SignalText(int signal_number);

}  // namespace gauss::cli
