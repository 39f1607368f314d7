// iLQR trajectory optimization (gauss/trajopt.h).
#include "gauss/trajopt.h"

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
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

  Impl(const Engine& e, const IlqrProblem& problem, ThreadPool* pool)
      : engine(e), m(e.model()), p(problem), T(problem.horizon), nx(2 * m.nv + m.na), nu(m.nu),
        nphys(m.nq + m.nv + m.na), ninteg(StateSize(m, kStateIntegration)), fd(e, pool),
        d(e.MakeData()), integ((T + 1) * ninteg), phys((T + 1) * nphys), ctrl(T * nu),
        A(T, Matrix(nx, nx)), B(T, Matrix(nx, nu)), K(T, Matrix::Zero(nu, nx)),
        k(T, Vector::Zero(nu)), tangent(m.nv) {
    if (p.implicit) implicit = std::make_unique<TransitionImplicit>(e);
    box_controls = false;
    for (int a = 0; a < nu; ++a) box_controls = box_controls || m.actuator_ctrllimited[a];
    box_controls = box_controls && p.control_limits == IlqrControlLimits::kBox;
  }

  // dx (nx) = x - x_ref in the tangent space, for states (qpos, qvel, act).
  void Difference(const double* x, const double* x_ref, double* dx) {
    DifferentiatePosition(m, dx, 1.0, x_ref, x);
    for (int i = 0; i < m.nv + m.na; ++i) dx[m.nv + i] = x[m.nq + i] - x_ref[m.nq + i];
  }

  // Error to the goal (nx; act part zero) of state x.
  Vector GoalError(const double* x) {
    Vector e = Vector::Zero(nx);
    DifferentiatePosition(m, e.data(), 1.0, p.goal_qpos.data(), x);
    for (int i = 0; i < m.nv; ++i) {
      e[m.nv + i] = x[m.nq + i] - (p.goal_qvel.empty() ? 0.0 : p.goal_qvel[i]);
    }
    return e;
  }

  Vector Weights(const std::vector<double>& qpos_w, const std::vector<double>& qvel_w) {
    Vector w = Vector::Zero(nx);
    for (int i = 0; i < m.nv; ++i) {
      if (!qpos_w.empty()) w[i] = qpos_w[i];
      if (!qvel_w.empty()) w[m.nv + i] = qvel_w[i];
    }
    return w;
  }

  // Simulates from `start` with controls ctrl_ref + step k + K (x - x_ref) (feedback only when
  // `ref` is given) into integ/phys/ctrl; returns the cost.
  double Rollout(const std::vector<double>& start, const std::vector<double>* ref_phys,
                 const std::vector<double>* ref_ctrl, double step, const Vector& w_run,
                 const Vector& w_term) {
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
      for (int a = 0; a < nu; ++a) cost += 0.5 * p.control_weight * u[a] * u[a];
      engine.Step(d);
    }
    return cost;
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
  bool Backward(double mu, const Vector& w_run, const Vector& w_term) {
    Vector Vx = w_term.cwiseProduct(GoalError(phys.data() + T * nphys));
    Matrix Vxx = w_term.asDiagonal();
    expected_decrease = 0;
    for (int t = T - 1; t >= 0; --t) {
      const Vector e = GoalError(phys.data() + t * nphys);
      const Eigen::Map<const Vector> u(ctrl.data() + t * nu, nu);
      const Matrix VA = Vxx * A[t];
      const Vector Qx = w_run.cwiseProduct(e) + A[t].transpose() * Vx;
      const Vector Qu = p.control_weight * u + B[t].transpose() * Vx;
      Matrix Qxx = A[t].transpose() * VA;
      Qxx.diagonal() += w_run;
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
}

IlqrResult Ilqr::Solve(const Data& start, std::vector<double> controls) {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  Impl s(engine_, problem_, pool_);
  const IlqrProblem& p = problem_;
  CheckSize(controls, s.T * s.nu, "initial controls (horizon x nu)", false);
  const Vector w_run = s.Weights(p.running_qpos_weight, p.running_qvel_weight);
  const Vector w_term = s.Weights(p.terminal_qpos_weight, p.terminal_qvel_weight);
  const std::vector<double> start_state = GetState(s.m, start, kStateIntegration);

  IlqrResult result;
  s.ctrl = controls;
  double cost = s.Rollout(start_state, nullptr, nullptr, 0, w_run, w_term);
  result.history.push_back({cost, 0, 0, elapsed()});
  double mu = 1e-6;
  const double mu_min = 1e-9, mu_max = 1e10;
  bool linearized = false;  // A, B belong to the current trajectory
  for (int it = 0; it < p.max_iterations; ++it) {
    // after a failed line search the trajectory is unchanged: only the regularization grows
    if (!linearized) s.Linearize();
    linearized = true;
    while (!s.Backward(mu, w_run, w_term)) {
      mu = std::max(mu * 10, mu_min);
      if (mu > mu_max) break;
    }
    if (mu > mu_max) {
      result.stop_reason = "no decrease";
      break;
    }
    // stationary: the local model, barely regularized, promises (almost) nothing within the
    // control limits (a large mu shrinks the step, so it says nothing then; Tassa et al. 2012)
    if (mu <= 1e-5 && s.expected_decrease < p.tolerance * std::fabs(cost)) {
      result.converged = true;
      result.stop_reason = "stationary";
      break;
    }
    const std::vector<double> ref_phys = s.phys, ref_integ = s.integ, ref_ctrl = s.ctrl;
    double accepted = 0, new_cost = cost;
    for (double step = 1; step > 1e-4; step *= 0.5) {
      const double c = s.Rollout(start_state, &ref_phys, &ref_ctrl, step, w_run, w_term);
      if (c < cost) {
        accepted = step;
        new_cost = c;
        break;
      }
    }
    ++result.iterations;
    if (accepted == 0) {  // no decrease: restore and regularize more
      s.phys = ref_phys;
      s.integ = ref_integ;
      s.ctrl = ref_ctrl;
      mu = std::max(mu * 10, mu_min);
      result.history.push_back({cost, 0, mu, elapsed()});
      if (mu > mu_max) {
        result.stop_reason = "no decrease";
        break;
      }
      continue;
    }
    linearized = false;
    const double decrease = (cost - new_cost) / std::max(std::fabs(cost), 1e-300);
    cost = new_cost;
    result.history.push_back({cost, accepted, mu, elapsed()});
    mu = std::max(mu / 10, mu_min);
    // a small decrease means convergence only for the full step (a short one may be small
    // because the step was cut, not because the model has nothing left to give)
    if (decrease < p.tolerance && accepted == 1) {
      result.converged = true;
      result.stop_reason = "tolerance";
      break;
    }
  }
  result.controls = s.ctrl;
  result.states = s.phys;
  result.cost = cost;
  const Vector e = s.GoalError(s.phys.data() + s.T * s.nphys);
  double violation = 0;
  for (int i = 0; i < s.nx; ++i) violation += w_term[i] > 0 ? e[i] * e[i] : 0.0;
  result.goal_violation = std::sqrt(violation);
  result.seconds = elapsed();
  return result;
}

}  // namespace gauss
