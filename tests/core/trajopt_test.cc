// iLQR (core/src/trajopt.cc): on the sliding box with contacts, the accepted costs never rise
// and the optimized rollout reaches the goal; the same problem over a 2-thread pool gives the
// same controls bit for bit; on a linear problem with active control limits it reaches the
// constrained optimum (KKT); with the goal as an augmented-Lagrangian terminal constraint it
// meets the goal and the KKT conditions of the constrained problem (closed form on a double
// integrator, differences of rollouts on a pendulum); wrong sizes are refused naming the field.
#include "gauss/trajopt.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "gauss/transition_implicit.h"
#include "support/test_support.h"

namespace gauss {
namespace {

IlqrProblem PushProblem() {
  IlqrProblem p;
  p.horizon = 60;
  p.goal_qpos = {0.5, 0, 0};  // slide offsets: 0.5 m along x on the ground
  p.goal_qvel = {0, 0, 0};
  p.terminal_qpos_weight = {1000, 1000, 1000};
  p.terminal_qvel_weight = {100, 100, 100};
  p.control_weight = 1e-3;
  p.max_iterations = 40;
  return p;
}

TEST(Ilqr, PushesTheBoxToItsGoalWithNonIncreasingCost) {
  const Engine engine(LoadModel(test::RepoModel("box_slide.xml")));
  const Data start = engine.MakeData();
  Ilqr ilqr(engine, PushProblem());
  const IlqrResult r = ilqr.Solve(start, std::vector<double>(60 * 3, 0.0));
  ASSERT_GE(r.history.size(), 2u);
  for (std::size_t i = 1; i < r.history.size(); ++i) {
    EXPECT_LE(r.history[i].cost, r.history[i - 1].cost);
  }
  EXPECT_LT(r.cost, 0.05 * r.history.front().cost);
  EXPECT_LT(r.goal_violation, 0.02);
  const int nphys = 6;  // nq + nv
  EXPECT_NEAR(r.states[60 * nphys + 0], 0.5, 0.02);
  // the controls respect ctrlrange (+-20 N)
  for (double u : r.controls) EXPECT_LE(std::fabs(u), 20.0);
}

TEST(Ilqr, PoolGivesTheSameControls) {
  const Engine engine(LoadModel(test::RepoModel("box_slide.xml")));
  const Data start = engine.MakeData();
  IlqrProblem p = PushProblem();
  p.max_iterations = 5;
  ThreadPool pool(2);
  Ilqr serial(engine, p), parallel(engine, p, &pool);
  const std::vector<double> u0(60 * 3, 0.0);
  EXPECT_EQ(serial.Solve(start, u0).controls, parallel.Solve(start, u0).controls);
}

// A 1 kg point mass on a frictionless horizontal rail, force u limited to +-4 N, euler at h:
// v' = v + h u, q' = q + h v', so q_T = h^2 sum_t (T - t) u_t and v_T = h sum_t u_t are linear
// in the controls and the cost 1/2 r |u|^2 + 1/2 (w_q (q_T - 1)^2 + w_v v_T^2) is a convex QP
// over the box. Its minimizer is characterized by the KKT conditions, checked here on the
// gradient computed from these closed forms (independent of iLQR's Jacobians).
constexpr char kRail[] = R"(
<mujoco>
  <option timestep="0.02" gravity="0 0 0"/>
  <worldbody>
    <body>
      <joint name="x" type="slide" axis="1 0 0"/>
      <geom type="sphere" size="0.1" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator><motor joint="x" ctrllimited="true" ctrlrange="-4 4"/></actuator>
</mujoco>)";

struct RailCost {
  int T;
  double h, r, w_q, w_v;
  // the gradient of the cost with respect to u_t for the controls u (start at rest at 0)
  std::vector<double> Gradient(const std::vector<double>& u) const {
    double q = 0, v = 0;
    for (int t = 0; t < T; ++t) {
      q += h * h * (T - t) * u[t];
      v += h * u[t];
    }
    std::vector<double> g(T);
    for (int t = 0; t < T; ++t) g[t] = r * u[t] + w_q * (q - 1) * h * h * (T - t) + w_v * v * h;
    return g;
  }
};

TEST(Ilqr, ReachesTheOptimumOfALinearProblemWithActiveControlLimits) {
  Config config;
  config.integrator = "euler";
  const Engine engine(LoadModelFromString(kRail), config);
  IlqrProblem p;
  p.horizon = 50;  // 1 s: reaching 1 m and stopping needs 4 m/s^2 for most of it
  p.goal_qpos = {1};
  p.goal_qvel = {0};
  p.terminal_qpos_weight = {1e4};
  p.terminal_qvel_weight = {1e3};
  p.control_weight = 1e-2;
  p.max_iterations = 50;
  p.tolerance = 1e-12;
  p.control_limits = IlqrControlLimits::kBox;
  const RailCost cost{50, 0.02, 1e-2, 1e4, 1e3};
  const IlqrResult box = Ilqr(engine, p).Solve(engine.MakeData(), std::vector<double>(50, 0.0));
  EXPECT_TRUE(box.converged);
  const std::vector<double> g = cost.Gradient(box.controls);
  int at_bound = 0;
  for (int t = 0; t < 50; ++t) {
    const double u = box.controls[t];
    ASSERT_LE(std::fabs(u), 4.0);
    if (u >= 4.0) {
      EXPECT_LE(g[t], 1e-6) << t;  // pushing past the upper bound would lower the cost
      ++at_bound;
    } else if (u <= -4.0) {
      EXPECT_GE(g[t], -1e-6) << t;
      ++at_bound;
    } else {
      EXPECT_NEAR(g[t], 0, 1e-6) << t;  // free: stationary
    }
  }
  EXPECT_GT(at_bound, 10);  // the limits are active (the test is about them)

  // without the box QP the backward pass counts on the clamped controls: it stops at a worse cost
  p.control_limits = IlqrControlLimits::kClamp;
  const IlqrResult clamp = Ilqr(engine, p).Solve(engine.MakeData(), std::vector<double>(50, 0.0));
  EXPECT_GT(clamp.cost, box.cost * (1 + 1e-6));
}

// The implicit gradients iLQR linearizes with, checked where it uses them: along the hopper's
// trajectory after one iteration of hopper_goal_ip.yaml's problem (ip at kappa 1e-3, h = 0.05,
// stance, lift-off and touch-down), against centered differences of the same ip step. The step
// is solved onto the central path (kappa_tol = kappa (1 + 1e-9), r_tol 1e-13): with the loose
// tolerances of the problem files the solve stops at an iterate off the central path, a different
// smooth function (measured up to 1.2e-2 relative from the implicit gradient).
TEST(Ilqr, ImplicitGradientsAlongAHopperTrajectoryMatchDifferencesOfTheStep) {
  Config config;
  config.solver = "ip";
  config.integrator = "euler";
  config.timestep = 0.05;
  config.solver_params.Set("kappa_floor", "1e-3");
  config.solver_params.Set("kappa_tol", "1.000000001e-3");
  config.solver_params.Set("r_tol", "1e-13");
  config.solver_params.Set("max_iterations", "200");
  const Engine engine(LoadModel(test::RepoModel("gymnasium/hopper.xml")), config);
  IlqrProblem p;
  p.horizon = 30;
  p.goal_qpos = {0.5, 1.25, 0, 0, 0, 0};
  p.terminal_qpos_weight = {1000, 1000, 1000, 10, 10, 10};
  p.terminal_qvel_weight = std::vector<double>(6, 100);
  p.control_weight = 1e-2;
  p.max_iterations = 1;
  p.implicit = true;
  // the trajectory the bound was measured on (the clamp mode's first iteration gives another
  // one, on which the state at t = 4 disagrees with the differences by 0.1)
  p.control_limits = IlqrControlLimits::kBox;
  const IlqrResult r = Ilqr(engine, p).Solve(engine.MakeData(), std::vector<double>(30 * 3, 0.0));
  ASSERT_EQ(r.iterations, 1);

  TransitionImplicit implicit(engine);
  TransitionFD fd(engine);
  const int nx = implicit.nx(), nu = implicit.nu();
  std::vector<double> A(nx * nx), B(nx * nu), Afd(nx * nx), Bfd(nx * nu);
  Data d = engine.MakeData();
  int in_contact = 0;
  double worst = 0;
  for (int t = 0; t < p.horizon; ++t) {
    for (int a = 0; a < nu; ++a) d.ctrl[a] = r.controls[t * nu + a];
    // t = 0: the start pose has the foot exactly at the contact margin, where a nudge creates
    // the contact row (the step is not differentiable there; its A is not used, x_0 is fixed)
    if (t > 0) {
      engine.Forward(d);
      in_contact += d.ncon > 0;
      implicit.Compute(d, {1e-6, false}, A.data(), B.data());
      fd.Compute(d, {1e-7, true}, Afd.data(), Bfd.data(), nullptr, nullptr);
      const double err = std::max(test::MaxRelError(A.data(), Afd.data(), nx * nx),
                                  test::MaxRelError(B.data(), Bfd.data(), nx * nu));
      EXPECT_LE(err, 1e-4) << "t = " << t;  // measured worst 6.7e-5
      worst = std::max(worst, err);
    }
    engine.Step(d);
  }
  std::printf("worst relative difference along the trajectory: %.2e\n", worst);
  EXPECT_GE(in_contact, 10);  // the trajectory is mostly in contact (the case that matters)
  EXPECT_LT(in_contact, p.horizon - 1);  // and also has flight phases
}

// The goal as a hard terminal constraint (augmented Lagrangian): a 1 kg point mass on a
// frictionless rail, without control limits and without any cost but the effort 1/2 r |u|^2,
// must end at q = 1 at rest. q_T = h^2 sum_t (T - t) u_t and v_T = h sum_t u_t are linear,
// G u = g, so the optimum is the minimum-norm solution u* = G^T (G G^T)^-1 g with the
// multipliers nu = -r (G G^T)^-1 g (r u + G^T nu = 0). A quadratic terminal penalty instead
// stops short of the goal.
constexpr char kFreeRail[] = R"(
<mujoco>
  <option timestep="0.02" gravity="0 0 0"/>
  <worldbody>
    <body>
      <joint name="x" type="slide" axis="1 0 0"/>
      <geom type="sphere" size="0.1" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator><motor joint="x"/></actuator>
</mujoco>)";

TEST(Ilqr, GoalConstraintReachesTheMinimumEffortSolutionAndItsMultipliers) {
  Config config;
  config.integrator = "euler";
  const Engine engine(LoadModelFromString(kFreeRail), config);
  const int T = 50;
  const double h = 0.02, r = 1e-2;
  IlqrProblem p;
  p.horizon = T;
  p.goal_qpos = {1};
  p.goal_qvel = {0};
  p.control_weight = r;
  p.max_iterations = 100;
  p.tolerance = 1e-12;
  p.goal_constraint.qpos = {1};
  p.goal_constraint.qvel = {1};
  p.goal_constraint.tolerance = 1e-8;
  const IlqrResult al = Ilqr(engine, p).Solve(engine.MakeData(), std::vector<double>(T, 0.0));
  EXPECT_TRUE(al.converged) << al.stop_reason;
  EXPECT_TRUE(al.constraint_met);
  EXPECT_LE(al.constraint_violation, 1e-8);
  EXPECT_GT(al.outer_iterations, 1);  // the first inner solve (penalty 1) misses the goal
  EXPECT_NEAR(al.states[T * 2 + 0], 1.0, 1e-8);
  EXPECT_NEAR(al.states[T * 2 + 1], 0.0, 1e-8);

  // closed form: G G^T (2 x 2) and its inverse applied to g = (1, 0)
  double gqq = 0, gqv = 0, gvv = 0;
  for (int t = 0; t < T; ++t) {
    gqq += std::pow(h * h * (T - t), 2);
    gqv += h * h * (T - t) * h;
    gvv += h * h;
  }
  const double det = gqq * gvv - gqv * gqv;
  const double y_q = gvv / det, y_v = -gqv / det;  // (G G^T)^-1 (1, 0)
  double worst = 0, largest = 0;
  for (int t = 0; t < T; ++t) {
    const double u_star = h * h * (T - t) * y_q + h * y_v;
    worst = std::max(worst, std::fabs(al.controls[t] - u_star));
    largest = std::max(largest, std::fabs(u_star));
  }
  EXPECT_LE(worst, 1e-6 * largest) << "largest control " << largest;
  ASSERT_EQ(al.multipliers.size(), 2u);
  EXPECT_NEAR(al.multipliers[0], -r * y_q, 1e-5 * r * std::fabs(y_q));
  EXPECT_NEAR(al.multipliers[1], -r * y_v, 1e-5 * r * std::fabs(y_v));
  for (std::size_t i = 1; i < al.history.size(); ++i) {
    EXPECT_GE(al.history[i].outer, al.history[i - 1].outer);
  }

  // the same goal as a quadratic penalty (terminal weight 1e3) is not met: its minimizer trades
  // the terminal error against effort
  IlqrProblem penalty = p;
  penalty.goal_constraint = {};
  penalty.terminal_qpos_weight = {1e3};
  penalty.terminal_qvel_weight = {1e3};
  const IlqrResult pen = Ilqr(engine, penalty).Solve(engine.MakeData(), std::vector<double>(T, 0.0));
  EXPECT_EQ(pen.outer_iterations, 1);
  EXPECT_GT(pen.goal_violation, 1e3 * al.constraint_violation);
  EXPECT_GT(pen.goal_violation, 1e-4);
}

// A waypoint with the goal constraint, still linear-quadratic: the point mass must pass near
// q = 0.5 at step 25 (cost 1/2 w (q_25 - 0.5)^2) and end back at 0 at rest (constraint G u = 0).
// The optimum solves the KKT system [r I + w a a^T, G^T; G, 0] [u; nu] = [0.5 w a; 0] with
// q_25 = a^T u, a_t = h^2 (25 - t) for t < 25.
TEST(Ilqr, WaypointAndGoalConstraintReachTheOptimumOfTheKktSystem) {
  Config config;
  config.integrator = "euler";
  const Engine engine(LoadModelFromString(kFreeRail), config);
  const int T = 50, mid = 25;
  const double h = 0.02, r = 1e-2, w = 100, target = 0.5;
  IlqrProblem p;
  p.horizon = T;
  p.goal_qpos = {0};
  p.control_weight = r;
  p.max_iterations = 100;
  p.tolerance = 1e-12;
  p.waypoints.push_back({mid, {target}, {}, {w}, {}});
  p.goal_constraint.qpos = {1};
  p.goal_constraint.qvel = {1};
  p.goal_constraint.tolerance = 1e-9;
  const IlqrResult al = Ilqr(engine, p).Solve(engine.MakeData(), std::vector<double>(T, 0.0));
  EXPECT_TRUE(al.converged) << al.stop_reason;

  Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(T + 2, T + 2);
  Eigen::VectorXd a = Eigen::VectorXd::Zero(T), rhs = Eigen::VectorXd::Zero(T + 2);
  for (int t = 0; t < mid; ++t) a[t] = h * h * (mid - t);
  kkt.topLeftCorner(T, T) = r * Eigen::MatrixXd::Identity(T, T) + w * a * a.transpose();
  for (int t = 0; t < T; ++t) {
    kkt(T, t) = kkt(t, T) = h * h * (T - t);  // q_T
    kkt(T + 1, t) = kkt(t, T + 1) = h;        // v_T
  }
  rhs.head(T) = w * target * a;
  const Eigen::VectorXd solution = kkt.fullPivLu().solve(rhs);
  const double largest = solution.head(T).cwiseAbs().maxCoeff();
  for (int t = 0; t < T; ++t) EXPECT_NEAR(al.controls[t], solution[t], 1e-6 * largest) << t;
  const double q_mid = al.states[mid * 2];
  EXPECT_NEAR(q_mid, a.dot(solution.head(T)), 1e-6);
  EXPECT_GT(q_mid, 0.2);  // the waypoint pulls (measured 0.255; without it the mass stays at 0)
  EXPECT_NEAR(al.states[T * 2], 0.0, 1e-9);
}

// A nonlinear case: a damped pendulum swung from hanging to 1 rad at rest in 1 s. At the
// solution the constraint holds and the KKT condition grad J + lambda^T dc/du = 0 holds for
// the returned multipliers, with both gradients taken by central differences of whole
// rollouts (independent of iLQR's Jacobians and Riccati pass).
constexpr char kPendulum[] = R"(
<mujoco>
  <option timestep="0.02"/>
  <worldbody>
    <body>
      <joint name="hinge" type="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05" mass="1"/>
    </body>
  </worldbody>
  <actuator><motor joint="hinge"/></actuator>
</mujoco>)";

TEST(Ilqr, GoalConstraintOnAPendulumSatisfiesTheKktConditions) {
  Config config;
  config.integrator = "euler";
  const Engine engine(LoadModelFromString(kPendulum), config);
  const int T = 50;
  const double r = 1e-2, w_vel = 0.1, goal = 1.0;
  IlqrProblem p;
  p.horizon = T;
  p.goal_qpos = {goal};
  p.goal_qvel = {0};
  p.running_qvel_weight = {w_vel};
  p.control_weight = r;
  p.max_iterations = 200;
  p.tolerance = 1e-13;
  p.goal_constraint.qpos = {1};
  p.goal_constraint.qvel = {1};
  p.goal_constraint.tolerance = 1e-7;
  const IlqrResult al = Ilqr(engine, p).Solve(engine.MakeData(), std::vector<double>(T, 0.0));
  EXPECT_TRUE(al.constraint_met) << al.stop_reason;
  EXPECT_LE(al.constraint_violation, 1e-7);
  EXPECT_NEAR(al.states[T * 2], goal, 1e-7);

  // J and c of the rollout of u
  Data d = engine.MakeData();
  auto rollout = [&](const std::vector<double>& u, double c[2]) {
    engine.Reset(d);
    double J = 0;
    for (int t = 0; t < T; ++t) {
      J += 0.5 * w_vel * d.qvel[0] * d.qvel[0] + 0.5 * r * u[t] * u[t];
      d.ctrl[0] = u[t];
      engine.Step(d);
    }
    c[0] = d.qpos[0] - goal;
    c[1] = d.qvel[0];
    return J;
  };
  double c[2];
  EXPECT_NEAR(rollout(al.controls, c), al.cost, 1e-12 * al.cost);  // the same objective
  const double eps = 1e-6;
  double worst = 0, scale = 0;
  for (int t = 0; t < T; ++t) {
    std::vector<double> up = al.controls, down = al.controls;
    up[t] += eps;
    down[t] -= eps;
    double cp[2], cm[2];
    const double dJ = (rollout(up, cp) - rollout(down, cm)) / (2 * eps);
    const double dc_q = (cp[0] - cm[0]) / (2 * eps), dc_v = (cp[1] - cm[1]) / (2 * eps);
    const double residual = dJ + al.multipliers[0] * dc_q + al.multipliers[1] * dc_v;
    worst = std::max(worst, std::fabs(residual));
    scale = std::max(scale, std::fabs(dJ));
  }
  std::printf("pendulum KKT residual %.2e (largest |dJ/du| %.2e)\n", worst, scale);
  EXPECT_GT(scale, 1e-3);           // the constraint is active: J's gradient is not zero
  EXPECT_LE(worst, 1e-4 * scale);
}

TEST(Ilqr, BadGoalConstraintSettingsAreRefused) {
  const Engine engine(LoadModel(test::RepoModel("box_slide.xml")));
  IlqrProblem p = PushProblem();
  p.goal_constraint.qpos = {1, 1};
  EXPECT_THROW(Ilqr(engine, p), Error);
  p.goal_constraint.qpos = {1, 1, 1};
  p.goal_constraint.penalty_scale = 0.5;
  try {
    Ilqr ilqr(engine, p);
    FAIL() << "a shrinking penalty was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("penalty_scale"), std::string::npos) << e.what();
  }
}

TEST(Ilqr, WrongSizesAreRefused) {
  const Engine engine(LoadModel(test::RepoModel("box_slide.xml")));
  IlqrProblem p = PushProblem();
  p.goal_qpos = {1, 2};
  try {
    Ilqr ilqr(engine, p);
    FAIL() << "a 2-value goal for nq = 3 was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("goal qpos"), std::string::npos) << e.what();
  }
  Ilqr ok(engine, PushProblem());
  EXPECT_THROW(ok.Solve(engine.MakeData(), std::vector<double>(5, 0.0)), Error);
}

}  // namespace
}  // namespace gauss
