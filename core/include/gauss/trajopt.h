// Trajectory optimization with iLQR (iterative linear-quadratic regulator; Li & Todorov 2004,
// Tassa et al. 2012) on the transition Jacobians of TransitionFD: the controls u_0..u_{T-1} of a
// T-step simulation from a fixed start state are optimized for
//
//   J = sum_t [ 1/2 |x_t - goal|^2_Wrun + 1/2 r |u_t|^2 ] + 1/2 |x_T - goal|^2_Wterm
//
// with x - goal measured in the position tangent space (DifferentiatePosition) and in qvel;
// the weights are diagonal (per dof). Wrun makes the running term a tracking cost, r the
// control effort. Each iteration: Jacobians A_t, B_t along the current trajectory, a backward
// Riccati pass with Levenberg-Marquardt regularization of Q_uu, and a forward rollout with a
// backtracking line search on the feedforward step. With control limits the backward pass
// solves a box QP per step (box-constrained DDP, Tassa et al. 2014; IlqrControlLimits) and the
// rollout clamps to ctrlrange.
//
//   gauss::IlqrProblem problem{...};
//   gauss::Ilqr ilqr(engine, problem);
//   gauss::IlqrResult result = ilqr.Solve(start, initial_controls);
#pragma once

#include <string>
#include <vector>

#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/thread_pool.h"
#include "gauss/transition_fd.h"

namespace gauss {

// How the backward pass treats actuators with ctrlrange (the rollout clamps them either way).
enum class IlqrControlLimits {
  kBox,    // feedforward step by a box QP within the range, no feedback on clamped controls
  kClamp,  // unconstrained backward pass; the rollout's clamp alone enforces the range
};

struct IlqrProblem {
  int horizon = 100;                     // T steps of the engine's timestep
  std::vector<double> goal_qpos;         // (nq) goal configuration
  std::vector<double> goal_qvel;         // (nv) goal velocity (empty: zero)
  std::vector<double> terminal_qpos_weight;  // (nv) Wterm on the position tangent error
  std::vector<double> terminal_qvel_weight;  // (nv) Wterm on the velocity error
  std::vector<double> running_qpos_weight;   // (nv) Wrun (empty: zero; tracking the goal)
  std::vector<double> running_qvel_weight;   // (nv)
  double control_weight = 1e-3;          // r
  int max_iterations = 50;
  double tolerance = 1e-6;               // stop when the relative cost decrease is below
  TransitionFDOptions derivatives;       // eps and scheme of the finite differences
  // A, B through the solver's implicit gradients (gauss/transition_implicit.h; solver=ip)
  // instead of finite differences of the step
  bool implicit = false;
  IlqrControlLimits control_limits = IlqrControlLimits::kClamp;
};

struct IlqrIteration {
  double cost = 0;     // after the iteration's accepted step (iteration 0: the initial rollout)
  double step = 0;     // accepted line-search step (0: none accepted)
  double mu = 0;       // regularization used
  double seconds = 0;  // wall time since Solve started
};

struct IlqrResult {
  std::vector<double> controls;     // (T x nu) optimized controls
  std::vector<double> states;       // ((T + 1) x (nq + nv + na)) qpos, qvel, act along them
  std::vector<IlqrIteration> history;
  double cost = 0;
  double goal_violation = 0;  // |x_T - goal| over the dofs with a terminal weight (tangent)
  int iterations = 0;         // backward/forward passes done
  bool converged = false;     // stopped by the tolerance (not by max_iterations or mu)
  // why it stopped: "tolerance" (a full step decreased the cost by less than the tolerance),
  // "stationary" (the local model's decrease is below it), "no decrease" (the line search
  // failed up to mu = 1e10: a point where the Jacobians' model and the simulated cost disagree),
  // "iteration limit"
  std::string stop_reason = "iteration limit";
  double seconds = 0;
};

class Ilqr {
 public:
  // Checks the sizes in `problem` against the engine's model (throws gauss::Error naming the
  // field). The engine (and pool, used for the Jacobian columns) must outlive this object.
  Ilqr(const Engine& engine, IlqrProblem problem, ThreadPool* pool = nullptr);

  // (start's integration state, controls (T x nu)) => the optimized trajectory.
  IlqrResult Solve(const Data& start, std::vector<double> controls);

 private:
  struct Impl;
  const Engine& engine_;
  IlqrProblem problem_;
  ThreadPool* pool_;
};

}  // namespace gauss
