// Trajectory optimization with iLQR (iterative linear-quadratic regulator; Li & Todorov 2004,
// Tassa et al. 2012) on the transition Jacobians of TransitionFD: the controls u_0..u_{T-1} of a
// T-step simulation from a fixed start state are optimized for
//
//   J = sum_t [ 1/2 |x_t - goal|^2_Wrun + 1/2 r |u_t|^2 ] + 1/2 |x_T - goal|^2_Wterm
//
// (plus the optional waypoint terms 1/2 |x_t - target|^2_W at chosen steps, IlqrWaypoint)
// with x - goal measured in the position tangent space (DifferentiatePosition) and in qvel;
// the weights are diagonal (per dof). Wrun makes the running term a tracking cost, r the
// control effort. Each iteration: Jacobians A_t, B_t along the current trajectory, a backward
// Riccati pass with Levenberg-Marquardt regularization of Q_uu, and a forward rollout with a
// backtracking line search on the feedforward step. With control limits the backward pass
// solves a box QP per step (box-constrained DDP, Tassa et al. 2014; IlqrControlLimits) and the
// rollout clamps to ctrlrange.
//
// Optionally the goal is a hard terminal constraint c(x_T) = S (x_T - goal) = 0 on chosen
// entries (IlqrGoalConstraint) instead of (or besides) a penalty: an augmented Lagrangian
// (Hestenes 1969, Powell 1969; as in AL-iLQR / ALTRO, Howell et al. 2019) adds
// lambda^T c + 1/2 rho |c|^2 to the terminal cost, each outer iteration minimizes that with
// iLQR and then updates lambda <- lambda + rho c and rho <- rho * penalty_scale, until
// max |c| <= tolerance. The constrained optimum is where J's gradient is -lambda^T dc/du.
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

// A terminal equality constraint S (x_T - goal) = 0 with S diagonal: qpos (on the position
// tangent, nv) and qvel (nv) give each entry's scale; an entry with scale 0 is not constrained.
// The scale converts units (a rad and a m/s count alike with scale 1) and weighs the entries
// in the penalty. Disabled while both are empty or all zero.
struct IlqrGoalConstraint {
  std::vector<double> qpos;     // (nv) scale of the position tangent entries
  std::vector<double> qvel;     // (nv) scale of the velocity entries
  double tolerance = 1e-3;      // met when max_i |c_i| <= tolerance
  double penalty = 1.0;         // initial rho
  double penalty_scale = 10.0;  // rho <- rho * penalty_scale after each outer iteration
  double penalty_max = 1e8;     // rho stops growing here (the inner problems get ill-conditioned)
  int max_outer = 10;           // outer iterations (inner iLQR solves) at most
  bool enabled() const;
};

// Cost shaping on an intermediate state (as the Dojo paper's hopper, pulled towards an
// in-air state mid-way): 1/2 |x_t - target|^2_W added at step t = `step` (0 < step < horizon).
struct IlqrWaypoint {
  int step = 0;
  std::vector<double> qpos;         // (nq) target configuration
  std::vector<double> qvel;         // (nv) target velocity (empty: zero)
  std::vector<double> qpos_weight;  // (nv) W on the position tangent error (empty: zero)
  std::vector<double> qvel_weight;  // (nv) W on the velocity error (empty: zero)
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
  int max_iterations = 50;               // backward/forward passes, over all outer iterations
  double tolerance = 1e-6;               // stop when the relative cost decrease is below
  TransitionFDOptions derivatives;       // eps and scheme of the finite differences
  // A, B through the solver's implicit gradients (gauss/transition_implicit.h; solver=ip)
  // instead of finite differences of the step
  bool implicit = false;
  IlqrControlLimits control_limits = IlqrControlLimits::kClamp;
  IlqrGoalConstraint goal_constraint;    // augmented Lagrangian terminal constraint (optional)
  std::vector<IlqrWaypoint> waypoints;   // intermediate-state costs (optional)
};

struct IlqrIteration {
  double cost = 0;     // J after the iteration's accepted step (iteration 0: the initial
                       // rollout); without the augmented Lagrangian terms
  double step = 0;     // accepted line-search step (0: none accepted)
  double mu = 0;       // regularization used
  double seconds = 0;  // wall time since Solve started
  double violation = 0;  // max |c| of the goal constraint, or IlqrResult::goal_violation's
                         // measure without one
  int outer = 0;         // outer (augmented Lagrangian) iteration it belongs to
};

struct IlqrResult {
  std::vector<double> controls;     // (T x nu) optimized controls
  std::vector<double> states;       // ((T + 1) x (nq + nv + na)) qpos, qvel, act along them
  std::vector<IlqrIteration> history;
  double cost = 0;
  double goal_violation = 0;  // |x_T - goal| over the dofs with a terminal weight (tangent)
  // with a goal constraint: max |c_i| (what Table III of the Dojo paper calls the violation),
  // its multipliers (nx = 2 nv + na, zero on free entries; of the scaled constraint c, the
  // estimate lambda + rho c of the last inner solve, with which grad J + lambda^T dc/du = 0),
  // the last penalty rho and the inner solves run
  double constraint_violation = 0;
  bool constraint_met = false;
  std::vector<double> multipliers;
  double penalty = 0;
  int outer_iterations = 0;
  int iterations = 0;         // backward/forward passes done
  bool converged = false;     // stopped by the tolerance (not by max_iterations or mu), and
                              // with a goal constraint, the constraint met
  // why it stopped: "tolerance" (a full step decreased the cost by less than the tolerance),
  // "stationary" (the local model's decrease is below it), "no decrease" (the line search
  // failed up to mu = 1e10: a point where the Jacobians' model and the simulated cost disagree),
  // "iteration limit"; with a goal constraint the last inner solve's reason, or "outer limit"
  // (max_outer inner solves and the constraint still violated)
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
