// `ip`: a primal-dual interior-point solver for hard contact (the Dojo paper, spec 001,
// section IV and Algorithm 2), at the velocity level of the time step in generalized
// coordinates. docs/solvers.md ("The ip solver") states the problem and maps it onto the
// paper's equations; in short, with v+ = qvel + h a:
//   M (a - qacc_smooth) = J' f                                    (dynamics, eq. 26 F = 0)
//   equality rows:   pos/h + J v+ = 0                             (hard, no Baumgarte terms)
//   orthant rows:    s = pos/h + J v+ >= 0,  gamma >= 0,  gamma s = kappa      (eq. 1-3)
//   friction cones:  eta~ = T v+,  xi1 = gamma (or frictionloss),  xi o eta = kappa e,
//                    xi, eta in the second-order cone                     (eq. 20-23)
// Each iteration: Newton's matrix reduced to nv x nv (every row's unknowns eliminated, see
// ip_solve.h), a predictor with kappa = 0, Mehrotra's centering sigma = (mu_aff/mu)^3,
// a corrector at kappa = max(sigma mu, kappa_tol/5), the cone-aware fraction-to-boundary step
// and a backtracking search until r_vio or kappa_vio decreases.
#include <algorithm>
#include <cmath>
#include <string>

#include "ip_sensitivity.h"
#include "ip_solve.h"

#include "gauss/error.h"
#include "gauss/model.h"
#include "gauss/primal.h"
#include "gauss/solver.h"

namespace gauss {
namespace {

inline constexpr ParamSpec kIpParams[] = {
    {"r_tol", ParamType::kDouble, "1e-8",
     "stop when the constraint violation r_vio (m/s, velocity-scaled) is below this"},
    {"kappa_tol", ParamType::kDouble, "1e-8",
     "stop when the complementarity violation kappa_vio (N m/s) is below this"},
    {"kappa_init", ParamType::kDouble, "1e4",
     "complementarity of the starting point (N m/s): gamma s = kappa_init"},
    {"kappa_floor", ParamType::kDouble, "0",
     "smallest central-path target kappa (N m/s); 0: kappa_tol / 5 as in Algorithm 2. Set it "
     "(with kappa_tol above it) to simulate the smoothed contact of that kappa"},
    {"max_iterations", ParamType::kInt, "100",
     "iteration limit (also bounded by solver.iterations, the trace capacity)"},
    {"tau_soc_max", ParamType::kDouble, "0.99", "largest fraction-to-boundary factor in cones"},
    {"tau_min", ParamType::kDouble, "0.95", "smallest fraction-to-boundary factor"},
    {"backtrack", ParamType::kDouble, "0.5", "step decay of the backtracking search (beta)"},
    {"gradient_kappa", ParamType::kDouble, "0",
     "central-path kappa (N m/s) at which the sensitivities (implicit gradients) are taken: the "
     "solve is repeated to end there, the simulation keeps its own kappa; 0: the solve's kappa"}};

class IpSolver : public ConstraintSolver {
 public:
  void Configure(const Params& params) override {
    ip::IpSettings& s = settings_;
    s.r_tol = params.GetDouble("r_tol");
    s.kappa_tol = params.GetDouble("kappa_tol");
    s.kappa_init = params.GetDouble("kappa_init");
    s.kappa_floor = params.GetDouble("kappa_floor");
    s.max_iterations = params.GetInt("max_iterations");
    s.tau_soc_max = params.GetDouble("tau_soc_max");
    s.tau_min = params.GetDouble("tau_min");
    s.backtrack = params.GetDouble("backtrack");
    s.gradient_kappa = params.GetDouble("gradient_kappa");
    auto check = [](bool ok, const char* key, const char* expected) {
      if (!ok) throw Error(std::string("solver 'ip': parameter '") + key + "' must be " + expected);
    };
    check(s.r_tol > 0, "r_tol", "a positive tolerance");
    check(s.kappa_tol > 0, "kappa_tol", "a positive tolerance");
    check(s.kappa_init > 0, "kappa_init", "a positive complementarity");
    check(s.kappa_floor >= 0 && s.kappa_floor < s.kappa_tol, "kappa_floor",
          "0 or a positive value below kappa_tol");
    check(s.max_iterations >= 1, "max_iterations", "at least 1");
    check(s.tau_soc_max > 0 && s.tau_soc_max < 1, "tau_soc_max", "in (0, 1)");
    check(s.tau_min > 0 && s.tau_min < 1, "tau_min", "in (0, 1)");
    check(s.backtrack > 0 && s.backtrack < 1, "backtrack", "in (0, 1)");
    check(s.gradient_kappa >= 0, "gradient_kappa", "0 or a positive complementarity");
  }

  std::size_t ScratchDoubles(const Model& m) const override {
    return ip::IpScratch(m);
  }

 protected:
  SolverResult DoSolve(const ConstraintProblem& p, Arena& arena, double* qacc, double* force,
                       SolverIteration* trace) const override {
    if (p.nefc == 0) return SolveWithoutConstraints(p, qacc);
    GAUSS_DEMAND(p.timestep > 0, "the problem carries the step's timestep");
    return ip::SolveInteriorPoint(p, settings_, arena, qacc, force, trace);
  }

  // Implicit-function-theorem products at the solution (ip_sensitivity.h); the state of the
  // solve is kept per thread, not in `scratch`, so that the products after the first reuse it.
  void DoSensitivityForward(const ConstraintProblem& p, const double* qacc, const double* force,
                            const ProblemTangent& d_data, SolutionTangent& d_solution,
                            Arena& /*scratch*/) const override {
    GAUSS_DEMAND(p.nefc > 0, "sensitivities of a problem with constraint rows");
    ip::IpSensitivity::ForThisThread().Forward(this, p, settings_, qacc, force, d_data,
                                               d_solution);
  }
  void DoSensitivityReverse(const ConstraintProblem& p, const double* qacc, const double* force,
                            const SolutionTangent& g_solution, ProblemTangent& g_data,
                            Arena& /*scratch*/) const override {
    GAUSS_DEMAND(p.nefc > 0, "sensitivities of a problem with constraint rows");
    ip::IpSensitivity::ForThisThread().Reverse(this, p, settings_, qacc, force, g_solution,
                                               g_data);
  }
  // the solution, or with gradient_kappa the same problem solved to that kappa
  void DoSensitivityPoint(const ConstraintProblem& p, const double* qacc, const double* force,
                          double* point_qacc, double* point_force, Arena& scratch) const override {
    if (p.nefc == 0 || settings_.gradient_kappa == 0) {
      ConstraintSolver::DoSensitivityPoint(p, qacc, force, point_qacc, point_force, scratch);
      return;
    }
    ip::IpSensitivity::ForThisThread().Point(this, p, settings_, qacc, force, point_qacc,
                                             point_force);
  }

 private:
  ip::IpSettings settings_;
};

}  // namespace
}  // namespace gauss

GAUSS_SOLVER_PLUGIN(gauss::IpSolver, ip, "1.0.0",
                    "primal-dual interior point on hard contact (Dojo): exact friction cones, "
                    "hard limits and equalities, velocity level",
                    gauss::kCapPyramidalCone | gauss::kCapEllipticCone |
                        gauss::kCapDenseJacobian | gauss::kCapSparseJacobian |
                        gauss::kCapNeedsSingleStepIntegrator | gauss::kCapHardContact |
                        gauss::kCapSolutionSensitivity,
                    gauss::kIpParams)
