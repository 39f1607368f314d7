// iLQR trajectory optimization (gauss/trajopt.h).
#include "gauss/trajopt.h"

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>

#include "gauss/box_qp.h"
#include "gauss/error.h"
#include "gauss/state.h"
#include "gauss/transition_implicit.h"

namespace gauss {
namespace {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

void CheckSize(const std::vector<double>& v, int n, const char* name, bool optional) {
  if (optional && v.empty()) return;
  if (static_cast<int>(v.size()) != n) {
    throw Error(std::string("trajectory problem: ") + name + " has " + std::to_string(v.size()) +
                " values, the model needs " + std::to_string(n));
  }
}

}  // namespace

// The trajectory being improved and the work arrays of one Solve.
struct Ilqr::Impl {
  const Engine& engine;
  const Model& m;
  const IlqrProblem& p;
  int T, nx, nu, nphys, ninteg;
  TransitionFD fd;
  std::unique_ptr<TransitionImplicit> implicit;  // when p.implicit
  Data d;
  std::vector<double> integ;        // ((T+1) x ninteg) full integration state before each step
  std::vector<double> phys;         // ((T+1) x nphys) qpos, qvel, act
  std::vector<double> ctrl;         // (T x nu)
  std::vector<Matrix> A, B, K;      // per step
  std::vector<Vector> k;
  Vector tangent;                   // nv scratch
  bool box_controls;                // p.control_limits == kBox and some control is limited
  double expected_decrease = 0;     // of the last Backward: the local model's cost decrease
  Vector w_run, w_term;             // (nx) diagonal cost weights
  std::vector<Vector> waypoint_weights;  // (nx) per p.waypoints entry
  // goal constraint c = scale .* (x_T - goal) (zero scale: free entry), its multipliers and
  // penalty; the terminal cost gets lambda^T c + 1/2 rho |c|^2 (augmented Lagrangian)
  bool constrained;
  Vector scale, lambda;
  double rho = 0;
  double objective = 0;             // J (without the multiplier terms) of the last rollout
  Vector terminal_error;            // x_T - goal of the last rollout (nx)
  bool linearized = false;          // A, B belong to the current trajectory

  Impl(const Engine& e, const IlqrProblem& problem, ThreadPool* pool)
      : engine(e), m(e.model()), p(problem), T(problem.horizon), nx(2 * m.nv + m.na), nu(m.nu),
        nphys(m.nq + m.nv + m.na), ninteg(StateSize(m, kStateIntegration)), fd(e, pool),
        d(e.MakeData()), integ((T + 1) * ninteg), phys((T + 1) * nphys), ctrl(T * nu),
        A(T, Matrix(nx, nx)), B(T, Matrix(nx, nu)), K(T, Matrix::Zero(nu, nx)),
        k(T, Vector::Zero(nu)), tangent(m.nv), terminal_error(Vector::Zero(nx)) {
    if (p.implicit) implicit = std::make_unique<TransitionImplicit>(e);
    w_run = Weights(p.running_qpos_weight, p.running_qvel_weight);
    w_term = Weights(p.terminal_qpos_weight, p.terminal_qvel_weight);
    for (const IlqrWaypoint& w : p.waypoints) {
      waypoint_weights.push_back(Weights(w.qpos_weight, w.qvel_weight));
    }
    constrained = p.goal_constraint.enabled();
    scale = Weights(p.goal_constraint.qpos, p.goal_constraint.qvel);
    lambda = Vector::Zero(nx);
    rho = constrained ? p.goal_constraint.penalty : 0.0;
    box_controls = false;
    for (int a = 0; a < nu; ++a) box_controls = box_controls || m.actuator_ctrllimited[a];
    box_controls = box_controls && p.control_limits == IlqrControlLimits::kBox;
  }

  // dx (nx) = x - x_ref in the tangent space, for states (qpos, qvel, act).
  void Difference(const double* x, const double* x_ref, double* dx) {
    DifferentiatePosition(m, dx, 1.0, x_ref, x);
    for (int i = 0; i < m.nv + m.na; ++i) dx[m.nv + i] = x[m.nq + i] - x_ref[m.nq + i];
  }

  // Error (nx; act part zero) of state x to the target (qpos, qvel; empty qvel: zero).
  Vector TargetError(const double* x, const std::vector<double>& qpos,
                     const std::vector<double>& qvel) const {
    Vector e = Vector::Zero(nx);
    DifferentiatePosition(m, e.data(), 1.0, qpos.data(), x);
    for (int i = 0; i < m.nv; ++i) e[m.nv + i] = x[m.nq + i] - (qvel.empty() ? 0.0 : qvel[i]);
    return e;
  }
  Vector GoalError(const double* x) const { return TargetError(x, p.goal_qpos, p.goal_qvel); }

  // The waypoint at step t (nullptr: none) and its diagonal weights.
  const IlqrWaypoint* WaypointAt(int t, Vector* weights) const {
    for (std::size_t i = 0; i < p.waypoints.size(); ++i) {
      if (p.waypoints[i].step == t) {
        *weights = waypoint_weights[i];
        return &p.waypoints[i];
      }
    }
    return nullptr;
  }

  Vector Weights(const std::vector<double>& qpos_w, const std::vector<double>& qvel_w) {
    Vector w = Vector::Zero(nx);
    for (int i = 0; i < m.nv; ++i) {
      if (!qpos_w.empty()) w[i] = qpos_w[i];
      if (!qvel_w.empty()) w[m.nv + i] = qvel_w[i];
    }
    return w;
  }

  // The multiplier and penalty terms of the terminal cost for the terminal error e.
  double ConstraintTerms(const Vector& e) const {
    if (!constrained) return 0;
    const Vector c = scale.cwiseProduct(e);
    return lambda.dot(c) + 0.5 * rho * c.squaredNorm();
  }

  // The merit iLQR minimizes: J plus the constraint terms, of the last rollout.
  double Merit() const { return objective + ConstraintTerms(terminal_error); }

  // Of the last rollout: max |c_i| with a goal constraint, else |x_T - goal| over the entries
  // with a terminal weight.
  double Violation() const {
    if (constrained) return scale.cwiseProduct(terminal_error).lpNorm<Eigen::Infinity>();
    double sum = 0;
    for (int i = 0; i < nx; ++i) sum += w_term[i] > 0 ? terminal_error[i] * terminal_error[i] : 0.0;
    return std::sqrt(sum);
  }

  // Simulates from `start` with controls ctrl_ref + step k + K (x - x_ref) (feedback only when
  // `ref` is given) into integ/phys/ctrl, objective and terminal_error; returns the merit.
  double Rollout(const std::vector<double>& start, const std::vector<double>* ref_phys,
                 const std::vector<double>* ref_ctrl, double step) {
    SetState(m, d, kStateIntegration, start.data());
    Vector dx(nx);
    double cost = 0;
    for (int t = 0; t <= T; ++t) {
      GetState(m, d, kStateIntegration, integ.data() + t * ninteg);
      GetState(m, d, kStatePhysics, phys.data() + t * nphys);
      const double* x = phys.data() + t * nphys;
      const Vector e = GoalError(x);
      if (t == T) {
        cost += 0.5 * e.dot(w_term.cwiseProduct(e));
        terminal_error = e;
        break;
      }
      double* u = ctrl.data() + t * nu;
      if (ref_phys) {
        Difference(x, ref_phys->data() + t * nphys, dx.data());
        const Vector du = step * k[t] + K[t] * dx;
        for (int a = 0; a < nu; ++a) u[a] = (*ref_ctrl)[t * nu + a] + du[a];
      }
      for (int a = 0; a < nu; ++a) {
        if (m.actuator_ctrllimited[a]) {
          u[a] = std::clamp(u[a], m.actuator_ctrlrange[2 * a], m.actuator_ctrlrange[2 * a + 1]);
        }
        d.ctrl[a] = u[a];
      }
      cost += 0.5 * e.dot(w_run.cwiseProduct(e));
      Vector w_wp;
      if (const IlqrWaypoint* wp = WaypointAt(t, &w_wp)) {
        const Vector e_wp = TargetError(x, wp->qpos, wp->qvel);
        cost += 0.5 * e_wp.dot(w_wp.cwiseProduct(e_wp));
      }
      for (int a = 0; a < nu; ++a) cost += 0.5 * p.control_weight * u[a] * u[a];
      engine.Step(d);
    }
    objective = cost;
    return Merit();
  }

  // A_t, B_t along the current trajectory.
  void Linearize() {
    RowMajor a(nx, nx), b(nx, nu);
    for (int t = 0; t < T; ++t) {
      SetState(m, d, kStateIntegration, integ.data() + t * ninteg);
      if (implicit) {
        implicit->Compute(d, p.derivatives, a.data(), b.data());
      } else {
        fd.Compute(d, p.derivatives, a.data(), b.data(), nullptr, nullptr);
      }
      A[t] = a;
      B[t] = b;
    }
  }

  // Riccati recursion into k, K and the model's predicted decrease of the cost for the full
  // feedforward step (expected_decrease); false when Q_uu + mu I is not positive definite
  // somewhere. With control limits the feedforward step of each time step minimizes the local
  // model within ctrlrange (box QP, gauss/box_qp.h) and the clamped controls get no feedback
  // (Tassa et al. 2014): otherwise the value function would count on controls the
  // rollout clamps away.
  bool Backward(double mu) {
    const Vector e_T = GoalError(phys.data() + T * nphys);
    Vector Vx = w_term.cwiseProduct(e_T);
    Vector hessian = w_term;
    if (constrained) {  // d/dx of lambda^T c + 1/2 rho |c|^2 with c = scale .* e
      Vx += scale.cwiseProduct(lambda + rho * scale.cwiseProduct(e_T));
      hessian += rho * scale.cwiseProduct(scale);
    }
    Matrix Vxx = hessian.asDiagonal();
    expected_decrease = 0;
    for (int t = T - 1; t >= 0; --t) {
      const Vector e = GoalError(phys.data() + t * nphys);
      const Eigen::Map<const Vector> u(ctrl.data() + t * nu, nu);
      const Matrix VA = Vxx * A[t];
      const Vector Qu = p.control_weight * u + B[t].transpose() * Vx;
      Vector Qx = w_run.cwiseProduct(e) + A[t].transpose() * Vx;
      Matrix Qxx = A[t].transpose() * VA;
      Qxx.diagonal() += w_run;
      Vector w_wp;
      if (const IlqrWaypoint* wp = WaypointAt(t, &w_wp)) {
        Qx += w_wp.cwiseProduct(TargetError(phys.data() + t * nphys, wp->qpos, wp->qvel));
        Qxx.diagonal() += w_wp;
      }
      Matrix Quu = B[t].transpose() * Vxx * B[t];
      Quu.diagonal().array() += p.control_weight;
      const Matrix Qux = B[t].transpose() * VA;
      Matrix Quu_reg = Quu;
      Quu_reg.diagonal().array() += mu;
      if (box_controls) {
        Vector lower(nu), upper(nu);
        for (int a = 0; a < nu; ++a) {
          const bool limited = m.actuator_ctrllimited[a];
          lower[a] = limited ? m.actuator_ctrlrange[2 * a] - u[a] : -kInfinity;
          upper[a] = limited ? m.actuator_ctrlrange[2 * a + 1] - u[a] : kInfinity;
        }
        const BoxQpResult qp = SolveBoxQp(Quu_reg, Qu, lower, upper, k[t]);
        if (!qp.ok) return false;
        k[t] = qp.x;
        K[t].setZero();
        if (!qp.clamped.all()) {
          Matrix Qux_free((!qp.clamped).count(), nx);
          for (int a = 0, f = 0; a < nu; ++a) {
            if (!qp.clamped[a]) Qux_free.row(f++) = Qux.row(a);
          }
          const Matrix K_free = -qp.free_factor.solve(Qux_free);
          for (int a = 0, f = 0; a < nu; ++a) {
            if (!qp.clamped[a]) K[t].row(a) = K_free.row(f++);
          }
        }
      } else {
        const Eigen::LLT<Matrix> llt(Quu_reg);
        if (llt.info() != Eigen::Success) return false;
        k[t] = -llt.solve(Qu);
        K[t] = -llt.solve(Qux);
      }
      expected_decrease -= k[t].dot(Qu) + 0.5 * k[t].dot(Quu * k[t]);
      Vx = Qx + K[t].transpose() * Quu * k[t] + K[t].transpose() * Qu + Qux.transpose() * k[t];
      Vxx = Qxx + K[t].transpose() * Quu * K[t] + K[t].transpose() * Qux + Qux.transpose() * K[t];
      Vxx = 0.5 * (Vxx + Vxx.transpose()).eval();
    }
    return true;
  }

  // Inner iLQR solve of the current merit (J plus the constraint terms for the current lambda
  // and rho) from the current trajectory, until convergence, a failed line search at the
  // largest mu, or `iteration_limit` passes in `result` (counted over all inner solves).
  // Reads/writes the trajectory, merit (of the current trajectory) and result's history and
  // iterations; sets result.stop_reason and result.converged for this solve.
  void Minimize(const std::vector<double>& start, double& merit, int outer, int iteration_limit,
                const std::function<double()>& elapsed, IlqrResult& result) {
    double mu = 1e-6;
    const double mu_min = 1e-9, mu_max = 1e10;
    result.stop_reason = "iteration limit";
    result.converged = false;
    while (result.iterations < iteration_limit) {
      // after a failed line search the trajectory is unchanged: only the regularization grows
      if (!linearized) Linearize();
      linearized = true;
      while (!Backward(mu)) {
        mu = std::max(mu * 10, mu_min);
        if (mu > mu_max) break;
      }
      if (mu > mu_max) {
        result.stop_reason = "no decrease";
        return;
      }
      // stationary: the local model, barely regularized, promises (almost) nothing within the
      // control limits (a large mu shrinks the step, so it says nothing then; Tassa et al. 2012)
      if (mu <= 1e-5 && expected_decrease < p.tolerance * std::fabs(merit)) {
        result.converged = true;
        result.stop_reason = "stationary";
        return;
      }
      const std::vector<double> ref_phys = phys, ref_integ = integ, ref_ctrl = ctrl;
      const double ref_objective = objective;
      const Vector ref_error = terminal_error;
      double accepted = 0, new_merit = merit;
      for (double step = 1; step > 1e-4; step *= 0.5) {
        const double c = Rollout(start, &ref_phys, &ref_ctrl, step);
        if (c < merit) {
          accepted = step;
          new_merit = c;
          break;
        }
      }
      ++result.iterations;
      if (accepted == 0) {  // no decrease: restore and regularize more
        phys = ref_phys;
        integ = ref_integ;
        ctrl = ref_ctrl;
        objective = ref_objective;
        terminal_error = ref_error;
        mu = std::max(mu * 10, mu_min);
        result.history.push_back({objective, 0, mu, elapsed(), Violation(), outer});
        if (mu > mu_max) {
          result.stop_reason = "no decrease";
          return;
        }
        continue;
      }
      linearized = false;
      const double decrease = (merit - new_merit) / std::max(std::fabs(merit), 1e-300);
      merit = new_merit;
      result.history.push_back({objective, accepted, mu, elapsed(), Violation(), outer});
      mu = std::max(mu / 10, mu_min);
      // a small decrease means convergence only for the full step (a short one may be small
      // because the step was cut, not because the model has nothing left to give)
      if (decrease < p.tolerance && accepted == 1) {
        result.converged = true;
        result.stop_reason = "tolerance";
        return;
      }
    }
  }
};

Ilqr::Ilqr(const Engine& engine, IlqrProblem problem, ThreadPool* pool)
    : engine_(engine), problem_(std::move(problem)), pool_(pool) {
  const Model& m = engine.model();
  if (problem_.horizon < 1) throw Error("trajectory problem: horizon must be at least 1");
  CheckSize(problem_.goal_qpos, m.nq, "goal qpos", false);
  CheckSize(problem_.goal_qvel, m.nv, "goal qvel", true);
  CheckSize(problem_.terminal_qpos_weight, m.nv, "terminal qpos weight", true);
  CheckSize(problem_.terminal_qvel_weight, m.nv, "terminal qvel weight", true);
  CheckSize(problem_.running_qpos_weight, m.nv, "running qpos weight", true);
  CheckSize(problem_.running_qvel_weight, m.nv, "running qvel weight", true);
  if (!(problem_.derivatives.eps > 0)) throw Error("trajectory problem: eps must be positive");
  for (const IlqrWaypoint& w : problem_.waypoints) {
    if (w.step <= 0 || w.step >= problem_.horizon) {
      throw Error("trajectory problem: waypoint step " + std::to_string(w.step) +
                  " is not inside the horizon (1.." + std::to_string(problem_.horizon - 1) + ")");
    }
    CheckSize(w.qpos, m.nq, "waypoint qpos", false);
    CheckSize(w.qvel, m.nv, "waypoint qvel", true);
    CheckSize(w.qpos_weight, m.nv, "waypoint qpos weight", true);
    CheckSize(w.qvel_weight, m.nv, "waypoint qvel weight", true);
  }
  const IlqrGoalConstraint& gc = problem_.goal_constraint;
  CheckSize(gc.qpos, m.nv, "goal constraint qpos", true);
  CheckSize(gc.qvel, m.nv, "goal constraint qvel", true);
  if (gc.enabled()) {
    if (!(gc.tolerance > 0)) throw Error("trajectory problem: goal constraint tolerance must be positive");
    if (!(gc.penalty > 0)) throw Error("trajectory problem: goal constraint penalty must be positive");
    if (!(gc.penalty_scale >= 1)) {
      throw Error("trajectory problem: goal constraint penalty_scale must be at least 1");
    }
    if (gc.max_outer < 1) throw Error("trajectory problem: goal constraint max_outer must be at least 1");
  }
}

bool IlqrGoalConstraint::enabled() const {
  const auto nonzero = [](double v) { return v != 0; };
  return std::any_of(qpos.begin(), qpos.end(), nonzero) ||
         std::any_of(qvel.begin(), qvel.end(), nonzero);
}

IlqrResult Ilqr::Solve(const Data& start, std::vector<double> controls) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::function<double()> elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  Impl s(engine_, problem_, pool_);
  const IlqrGoalConstraint& gc = problem_.goal_constraint;
  CheckSize(controls, s.T * s.nu, "initial controls (horizon x nu)", false);
  const std::vector<double> start_state = GetState(s.m, start, kStateIntegration);

  IlqrResult result;
  s.ctrl = controls;
  double merit = s.Rollout(start_state, nullptr, nullptr, 0);
  result.history.push_back({s.objective, 0, 0, elapsed(), s.Violation(), 0});
  // augmented Lagrangian outer loop (one pass without a constraint): the trajectory and its
  // Jacobians carry over from one inner solve to the next, only the terminal cost changes
  const int outer_max = s.constrained ? gc.max_outer : 1;
  for (int outer = 0; outer < outer_max; ++outer) {
    // each inner solve may use an equal share of the passes left: on contact problems iLQR's
    // tail is slow (many tiny decreases or failed line searches), and a first inner solve that
    // took the whole budget would leave none for the multiplier updates
    const int outer_left = outer_max - outer;
    const int share = (problem_.max_iterations - result.iterations + outer_left - 1) / outer_left;
    s.Minimize(start_state, merit, outer, result.iterations + share, elapsed, result);
    result.outer_iterations = outer + 1;
    if (!s.constrained) break;
    result.constraint_met = s.Violation() <= gc.tolerance;
    if (result.constraint_met || result.iterations >= problem_.max_iterations) break;
    if (outer + 1 == outer_max) {
      result.stop_reason = "outer limit";
      break;
    }
    s.lambda += s.rho * s.scale.cwiseProduct(s.terminal_error);  // lambda += rho c
    s.rho = std::min(s.rho * gc.penalty_scale, std::max(gc.penalty_max, gc.penalty));
    merit = s.Merit();
  }
  result.converged = result.converged && (!s.constrained || result.constraint_met);
  result.controls = s.ctrl;
  result.states = s.phys;
  result.cost = s.objective;
  double violation = 0;
  for (int i = 0; i < s.nx; ++i) {
    violation += s.w_term[i] > 0 ? s.terminal_error[i] * s.terminal_error[i] : 0.0;
  }
  result.goal_violation = std::sqrt(violation);
  if (s.constrained) {
    result.constraint_violation = s.Violation();
    // the first-order estimate lambda + rho c: the inner solve made the gradient of
    // J + lambda^T c + 1/2 rho |c|^2 zero, i.e. of J + (lambda + rho c)^T c (KKT)
    const Vector estimate = s.lambda + s.rho * s.scale.cwiseProduct(s.terminal_error);
    result.multipliers.assign(estimate.data(), estimate.data() + s.nx);
    result.penalty = s.rho;
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace gauss
