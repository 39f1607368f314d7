// A plugin library whose load-time constructor crashes (SIGSEGV) as soon as the dynamic loader
// runs it: plugin discovery must probe it in a child process and skip it with a reason, never
// crash (tests/core/plugin_probe_test.cc, tests/experiments/experiment_faults_test.cc). It exports
// a solver "test_crash_on_load" so that it looks like a plugin to the ELF scan.
#include "gauss/plugin.h"
#include "gauss/solver.h"

namespace {

// Runs when the library is loaded. The pointer is volatile itself so that the compiler cannot
// see it is null and drop (or replace) the write.
__attribute__((constructor)) void CrashOnLoad() {
  volatile int* volatile null_pointer = nullptr;
  *null_pointer = 1;
}

class NeverUsed : public gauss::ConstraintSolver {
 protected:
  gauss::SolverResult DoSolve(const gauss::ConstraintProblem&, gauss::Arena&, double*, double*,
                              gauss::SolverIteration*) const override {
    return {};
  }
};

}  // namespace

GAUSS_SOLVER_PLUGIN(NeverUsed, test_crash_on_load, "0.0.1", "test: crashes when loaded",
                    gauss::kCapAllSolverFeatures, gauss::kNoParams)
