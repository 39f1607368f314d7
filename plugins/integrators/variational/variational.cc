// `variational`: a discrete variational integrator in generalized coordinates on the
// configuration Lie group (hinge/slide: R, ball: SO(3), free: R^3 x SO(3)), solved by Newton's
// method each step. docs/integrators.md has the derivation; in short:
//
// Discrete Lagrangian (trapezoidal, symmetric, so the method is second order):
//   L_d(q_k, xi) = h/2 [L(q_k, xi) + L(q_k+1, xi)],   q_k+1 = q_k "+" h xi
// where xi is the step's velocity (qvel layout) and "+" is IntegratePosition (the exponential
// map on the quaternions). Its discrete Euler-Lagrange equations in position-momentum form,
// with p = M(q) v the generalized momentum, are
//   (1)  A pi = p_k + h/2 (g(q_k, xi) + f_k)          (solved for xi)
//   (2)  p_k+1 = A' pi + h/2 (g(q_k+1, xi) + f_k)
// with pi = [M(q_k) + M(q_k+1)] xi / 2, g = dL/dq + qfrc_passive (lagrangian.h; springs,
// damping and fluid forces are evaluated at both ends with the step velocity xi, which makes
// joint damping implicit), and A = identity except on the rotation blocks of ball and free
// joints, where A = dexp^-1 of h xi (left-trivialized). Because A' = R' A with R = exp(h xi),
// (2) is evaluated as p_k+1 = R' (p_k + h/2 (g_k + f_k)) + h/2 (g_k+1 + f_k): the body-frame
// momentum is carried by the exact relative rotation, so a free body's world angular momentum
// is preserved by construction. The stored velocity is v_k+1 = M(q_k+1)^-1 p_k+1.
//
// f_k (actuator, applied and constraint forces) is the engine's forward evaluation at the
// step's start, held constant over the step: it enters (1) and (2) with h/2 each, so the whole
// impulse h f_k reaches the momentum, as in the single-step integrators. With
// constraint_impulse=start the constraint part enters (1) whole (h qfrc_constraint) and (2) not
// at all, so that the position update moves with the constraint-corrected velocity, as a
// velocity-level hard-contact solver (ip) assumes. That is the only
// forward evaluation (and the only constraint solve) of the step; the Newton iterations
// evaluate kinematics, M and passive forces only (EvaluateSmoothTerms).
//
// Newton: residual of (1); analytic Jacobian M(q_k) - h/2 D with D = d qfrc_smooth / d v at the
// start (passive and RNE terms, derivative.h) in M's sparsity, factored once per step (tree
// LU). It drops terms of order (h v)^2, so the iteration converges linearly at that rate (a few
// iterations per step); when it contracts slowly the Jacobian is replaced by finite
// differences at the current iterate (kMaxDenseDofs). A residual that is not finite, grows, or
// stays above `tolerance` after `max_iterations` raises gauss::Error naming the step.
#include <cmath>
#include <cstdio>
#include <string>

#include "gauss/derivative.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/integrate.h"
#include "gauss/integrator.h"
#include "gauss/lagrangian.h"
#include "gauss/math.h"
#include "gauss/sparse_inertia.h"
#include "dense_lu.h"
#include "so3_blocks.h"

namespace gauss {
namespace {

// Newton refreshes its Jacobian when an iteration reduces the residual by less than this.
constexpr double kRefreshRatio = 0.1;
// Models up to this many dofs start with the full analytic Jacobian and refresh with the
// finite-difference one (dense, nv^2 doubles of scratch). Larger models start without the RNE
// term (its derivative costs O(nv nbody), more than a few iterations there) and add it, at
// the current iterate, when the contraction is slow.
constexpr int kMaxDenseDofs = 64;

double MaxAbs(const double* x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i) r = std::max(r, std::fabs(x[i]));
  return r;
}

// What the residual of (1) depends on besides xi: the step's start and its held forces.
struct StepStart {
  const double* q0;     // (nq) q_k
  const double* p0;     // (nv) M(q_k) v_k
  const double* force;  // (nv) f_k as it enters (1)
  double h;
};

// The arrays one residual evaluation fills.
struct ResidualTerms {
  double* residual;  // (nv) A pi - p_k - h/2 (g_k + f_k)
  double* g0;        // (nv) g(q_k, xi)
  double* g1;        // (nv) g(q_k+1, xi)
  double* pi;        // (nv) [M(q_k) + M(q_k+1)] xi / 2
  double* work;      // (nv)
};

class VariationalIntegrator : public Integrator {
 public:
  void Configure(const Params& params) override {
    tolerance_ = params.GetDouble("tolerance");
    max_iterations_ = params.GetInt("max_iterations");
    const std::string impulse = params.GetString("constraint_impulse");
    if (impulse != "start" && impulse != "split") {
      throw Error(params.context() + ": constraint_impulse must be 'start' or 'split', got '" +
                  impulse + "'");
    }
    split_constraint_ = impulse == "split";
    if (!(tolerance_ > 0) || max_iterations_ < 1) {
      throw Error(params.context() + ": tolerance must be > 0 and max_iterations >= 1");
    }
  }

  std::size_t ScratchDoubles(const Model& m) const override {
    const std::size_t nv = m.nv, nM = m.nM;
    const std::size_t dense = m.nv <= kMaxDenseDofs ? nv * nv + 2 * nv : 0;
    // own arrays; the dense Jacobian; the velocity derivative's declared plan; the gradient's
    return m.nq + 14 * nv + 2 * nM + 64 + dense + SmoothVelocityDerivativePlan(m).doubles() +
           LagrangianGradientScratch(m);
  }

 protected:
  // (qpos, qvel, act, qM, qacc, qfrc_*, act_dot at the step's start) => (qpos, qvel, act, time)
  void DoIntegrate(const Engine& engine, Data& d) const override {
    const Model& m = engine.model();
    const int nv = m.nv, nq = m.nq;
    const double h = m.opt.timestep;
    ArenaScope scope(d.arena);
    double* q0 = d.arena.Doubles(nq);
    double* v0 = d.arena.Doubles(nv);
    double* p0 = d.arena.Doubles(nv);
    double* force = d.arena.Doubles(nv);      // forcing in (1)
    double* force_end = d.arena.Doubles(nv);  // forcing in (2)
    double* xi = d.arena.Doubles(nv);  // step velocity (the unknown)
    double* zero = d.arena.Doubles(nv);
    ResidualTerms terms{d.arena.Doubles(nv), d.arena.Doubles(nv), d.arena.Doubles(nv),
                        d.arena.Doubles(nv), d.arena.Doubles(nv)};
    double* lower = d.arena.Doubles(m.nM);  // Newton matrix M - h/2 D, LU factors
    double* upper = d.arena.Doubles(m.nM);
    double* dense = nullptr;                // or the finite-difference Newton matrix
    int* pivot = nullptr;
    std::copy(d.qpos.begin(), d.qpos.end(), q0);
    std::copy(d.qvel.begin(), d.qvel.end(), v0);
    MulTreeSparse(m, d.qM.data(), v0, p0);
    for (int i = 0; i < nv; ++i) {
      // actuator + applied (+ J'xfrc_applied) = smooth - passive + bias; then the constraint
      // impulse h qfrc_constraint: all of it in (1), or half in each
      force_end[i] = d.qfrc_smooth[i] - d.qfrc_passive[i] + d.qfrc_bias[i];
      force[i] = force_end[i] + (split_constraint_ ? 1 : 2) * d.qfrc_constraint[i];
      if (split_constraint_) force_end[i] += d.qfrc_constraint[i];
      xi[i] = v0[i] + 0.5 * h * d.qacc[i];  // midpoint velocity of the explicit step
      zero[i] = 0;
    }
    bool with_rne = nv <= kMaxDenseDofs;
    FactorNewtonMatrix(engine, d, h, with_rne, lower, upper);
    const StepStart start{q0, p0, force, h};

    double first = -1, previous = -1;
    for (int iteration = 1;; ++iteration) {
      double scale = 0;
      const double norm = Residual(m, d, start, xi, terms, &scale);  // d holds q_k+1 now
      if (first < 0) first = norm;
      if (norm <= tolerance_ * scale) break;
      if (!std::isfinite(norm) || norm > 1e6 * std::max(first, tolerance_ * scale) ||
          iteration >= max_iterations_) {
        std::copy(q0, q0 + nq, d.qpos.begin());
        std::copy(v0, v0 + nv, d.qvel.begin());
        throw Error(FailureMessage(d, h, iteration, norm, scale));
      }
      // Slow contraction (fast motion: the analytic Jacobian misses terms of order (h v)^2, or
      // h v without the RNE term): switch to the finite-difference Jacobian at the current
      // iterate (small models), or refresh the full analytic one there (d holds (q_k+1, xi)).
      if (previous > 0 && norm > kRefreshRatio * previous) {
        if (nv <= kMaxDenseDofs) {
          if (!dense) {
            dense = d.arena.Doubles(static_cast<std::size_t>(nv) * nv + nv);
            pivot = d.arena.Ints(nv);
          }
          FiniteDifferenceJacobian(m, d, start, xi, terms, dense, pivot);
        } else {
          with_rne = true;
          FactorNewtonMatrix(engine, d, h, with_rne, lower, upper);
        }
      }
      previous = norm;
      if (dense) {
        dense::SolveLU(dense, pivot, nv, terms.residual);
      } else {
        SolveTreeLU(m, lower, upper, terms.residual);
      }
      for (int i = 0; i < nv; ++i) xi[i] -= terms.residual[i];
    }

    // (2): momentum at the end, rotation blocks carried by R' = exp(-h xi)
    double* p1 = terms.residual;
    for (int i = 0; i < nv; ++i) p1[i] = p0[i] + 0.5 * h * (terms.g0[i] + force[i]);
    ForEachRotationBlock(m, [&](int adr) {
      const double x[3] = {h * xi[adr], h * xi[adr + 1], h * xi[adr + 2]};
      so3::RotateBack(x, p1 + adr);
    });
    for (int i = 0; i < nv; ++i) p1[i] += 0.5 * h * (terms.g1[i] + force_end[i]);
    SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), p1);  // factor of M(q_k+1)

    std::copy(q0, q0 + nq, d.qpos.begin());
    std::copy(p1, p1 + nv, d.qvel.begin());
    engine.Advance(d, d.act_dot.data(), zero, xi);  // act; qpos = q_k "+" h xi; time
  }

 private:
  // (start, xi) => terms, *scale (the momentum scale the tolerance is relative to); returns
  // |residual|_inf. Leaves d evaluated at (q_k+1, xi).
  static double Residual(const Model& m, Data& d, const StepStart& start, const double* xi,
                         const ResidualTerms& t, double* scale) {
    const int nv = m.nv;
    const double h = start.h;
    Evaluate(m, d, start.q0, xi, h, false, t.g0, t.pi);
    Evaluate(m, d, start.q0, xi, h, true, t.g1, t.work);
    for (int i = 0; i < nv; ++i) {
      t.pi[i] = 0.5 * (t.pi[i] + t.work[i]);
      t.residual[i] = t.pi[i];
      t.work[i] = t.g0[i] + start.force[i];
    }
    ForEachRotationBlock(m, [&](int adr) {
      const double x[3] = {h * xi[adr], h * xi[adr + 1], h * xi[adr + 2]};
      so3::MulDexpInv(x, t.residual + adr, false);
    });
    for (int i = 0; i < nv; ++i) t.residual[i] -= start.p0[i] + 0.5 * h * t.work[i];
    *scale = std::max({MaxAbs(start.p0, nv), MaxAbs(t.pi, nv), 0.5 * h * MaxAbs(t.work, nv)});
    return MaxAbs(t.residual, nv);
  }

  // (start, xi, t.residual at xi) => jac: LU factors of d residual / d xi by forward
  // differences (one residual evaluation per dof); t.residual is kept, the other terms and d
  // are left at a perturbed xi (the next iteration re-evaluates).
  static void FiniteDifferenceJacobian(const Model& m, Data& d, const StepStart& start,
                                       double* xi, const ResidualTerms& t, double* jac,
                                       int* pivot) {
    const int nv = m.nv;
    double* base = jac + static_cast<std::size_t>(nv) * nv;  // the residual at xi
    std::copy(t.residual, t.residual + nv, base);
    const ResidualTerms column{t.work, t.g0, t.g1, t.pi, t.residual};
    double scale;
    for (int j = 0; j < nv; ++j) {
      const double saved = xi[j];
      const double eps = 1e-7 * std::max(1.0, std::fabs(saved));
      xi[j] = saved + eps;
      Residual(m, d, start, xi, column, &scale);
      xi[j] = saved;
      for (int i = 0; i < nv; ++i) jac[i * nv + j] = (column.residual[i] - base[i]) / eps;
    }
    std::copy(base, base + nv, t.residual);
    const int singular = dense::FactorLU(jac, pivot, nv);
    if (singular >= 0) {
      throw Error("integrator 'variational': finite-difference Newton matrix is singular at dof " +
                  std::to_string(singular) + " (time " + std::to_string(d.time) + ")");
    }
  }

  // (velocity-stage data of d, qM) => lower, upper: LU of M - h/2 D, D with or without the
  // RNE (Coriolis, centrifugal, gyroscopic) term
  void FactorNewtonMatrix(const Engine& engine, Data& d, double h, bool with_rne, double* lower,
                          double* upper) const {
    const Model& m = engine.model();
    DerivativeTerms terms;
    terms.actuator = false;  // actuator forces are held over the step
    terms.rne = with_rne;
    SmoothVelocityDerivative(engine, d, terms, lower, upper);
    for (int k = 0; k < m.nM; ++k) {
      lower[k] = d.qM[k] - 0.5 * h * lower[k];
      upper[k] = d.qM[k] - 0.5 * h * upper[k];
    }
    const int pivot = FactorTreeLU(m, lower, upper);
    if (pivot >= 0) {
      throw Error("integrator 'variational': Newton matrix M - h/2 D is singular at dof " +
                  std::to_string(pivot) + " (time " + std::to_string(d.time) + ")");
    }
  }

  // (q0, xi) => d at the state q0 (end = false) or q0 "+" h xi (end = true) with qvel = xi;
  // g = dL/dq + qfrc_passive there, mxi = M xi.
  static void Evaluate(const Model& m, Data& d, const double* q0, const double* xi, double h,
                       bool end, double* g, double* mxi) {
    std::copy(q0, q0 + m.nq, d.qpos.begin());
    if (end) IntegratePosition(m, d.qpos.data(), xi, h);
    std::copy(xi, xi + m.nv, d.qvel.begin());
    EvaluateSmoothTerms(m, d);
    LagrangianPositionGradient(m, d, g);
    for (int i = 0; i < m.nv; ++i) g[i] += d.qfrc_passive[i];
    MulTreeSparse(m, d.qM.data(), xi, mxi);
  }

  // Calls visit(dof address) for the three rotation dofs of every ball and free joint.
  template <typename Visit>
  static void ForEachRotationBlock(const Model& m, Visit visit) {
    for (int j = 0; j < m.njnt; ++j) {
      if (m.jnt_type[j] == JointType::kBall) visit(m.jnt_dofadr[j]);
      if (m.jnt_type[j] == JointType::kFree) visit(m.jnt_dofadr[j] + 3);
    }
  }

  // "integrator 'variational': Newton iteration diverged at step N (time t): ..."
  std::string FailureMessage(const Data& d, double h, int iterations, double norm,
                             double scale) const {
    const char* what = !std::isfinite(norm)            ? "produced a non-finite residual"
                       : iterations >= max_iterations_ ? "did not converge"
                                                       : "diverged";
    char numbers[160];
    std::snprintf(numbers, sizeof numbers,
                  "(time %.9g): relative residual %.3e after %d iterations, tolerance %.3e", d.time,
                  norm / scale, iterations, tolerance_);
    return "integrator 'variational': Newton iteration " + std::string(what) + " at step " +
           std::to_string(std::lround(d.time / h)) + " " + numbers +
           "; reduce the timestep or raise integrator.params.max_iterations";
  }

  double tolerance_ = 1e-12;
  bool split_constraint_ = true;
  int max_iterations_ = 30;
};

}  // namespace
}  // namespace gauss

namespace {
constexpr gauss::ParamSpec kVariationalParams[] = {
    {"tolerance", gauss::ParamType::kDouble, "1e-12",
     "Newton stops when |residual|_inf <= tolerance * |momentum|_inf"},
    {"max_iterations", gauss::ParamType::kInt, "30",
     "Newton iterations per step before the step fails with an error"},
    {"constraint_impulse", gauss::ParamType::kString, "split",
     "where the constraint impulse h qfrc_constraint enters: 'split' (half before, half after "
     "the position update; soft-contact solvers) or 'start' (all before it, as velocity-level "
     "hard-contact solvers such as ip assume)"}};
}  // namespace

GAUSS_INTEGRATOR_PLUGIN(gauss::VariationalIntegrator, variational, "1.0.0",
                        "discrete variational (trapezoidal Lagrangian, Lie-group) integrator, "
                        "Newton-solved; constraint forces held from the step's start",
                        gauss::kCapSingleStep, kVariationalParams)
