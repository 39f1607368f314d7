// A test-only constraint solver ("test_failing") that throws from every solve, so that the
// experiment tests can check that a run failing in the middle of a sweep is recorded as failed
// with its reason while the other runs finish. Built into the test directory only, never
// installed (tests/experiments/CMakeLists.txt).
#include "gauss/error.h"
#include "gauss/plugin.h"
#include "gauss/solver.h"

namespace {

class FailingSolver : public gauss::ConstraintSolver {
 protected:
  // (problem) => throws: the engine only calls a solver when there are constraint rows
  gauss::SolverResult DoSolve(const gauss::ConstraintProblem& problem, gauss::Arena&, double*,
                              double*, gauss::SolverIteration*) const override {
    throw gauss::Error("test_failing solver: refusing a problem with " +
                       std::to_string(problem.nefc) + " constraint rows");
  }
};

}  // namespace

GAUSS_SOLVER_PLUGIN(FailingSolver, test_failing, "0.0.1", "test: throws from every solve",
                    gauss::kCapAllSolverFeatures, gauss::kNoParams)
