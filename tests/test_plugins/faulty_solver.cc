// Deliberately faulty constraint solvers for the fault-containment tests (issue 19): each one
// misbehaves inside its solve in one way, chosen at compile time by GAUSS_TEST_FAULT, and is
// built into tests/test_plugins/faulty/ (never installed):
//   test_segfault  writes through a null pointer (SIGSEGV)
//   test_abort     calls std::abort (SIGABRT)
//   test_throw42   throws the int 42, which is not a std::exception
//   test_hang      never returns (sleeps in a loop), so only a wall-time limit or a kill ends it
// Each writes one line to stderr first, so that the tests can check that a failed row carries
// the last lines the run printed.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "gauss/plugin.h"
#include "gauss/solver.h"

namespace {

class FaultySolver : public gauss::ConstraintSolver {
 protected:
  // (problem) => never a result: the fault named by GAUSS_TEST_FAULT
  gauss::SolverResult DoSolve(const gauss::ConstraintProblem& problem, gauss::Arena&, double*,
                              double*, gauss::SolverIteration*) const override {
    std::fprintf(stderr, "faulty solver %s: about to fail on %d rows\n", GAUSS_TEST_FAULT_NAME,
                 problem.nefc);
    std::fflush(stderr);
#if GAUSS_TEST_FAULT == 1
    volatile int* volatile null_pointer = nullptr;  // volatile: the write cannot be dropped
    *null_pointer = 1;
#elif GAUSS_TEST_FAULT == 2
    std::abort();
#elif GAUSS_TEST_FAULT == 3
    throw 42;
#else
    for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(100));
#endif
    return {};
  }
};

}  // namespace

GAUSS_SOLVER_PLUGIN(FaultySolver, GAUSS_TEST_FAULT_SYMBOL, "0.0.1", "test: faulty on purpose",
                    gauss::kCapAllSolverFeatures, gauss::kNoParams)
