// The `ip` hard-contact solver (plugins/solvers/ip): physics targets of issue 13 on small
// models (models/ip/), its exactness without constraints, and the optimality conditions of
// its solution (the KKT conditions of docs/solvers.md, "The ip solver").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "gauss/sparse_inertia.h"
#include "support/test_support.h"

namespace gauss {
namespace {

Config IpConfig(double tol = 1e-8) {
  Config config;
  config.solver = "ip";
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", tol);
  config.solver_params.Set("r_tol", text);
  config.solver_params.Set("kappa_tol", text);
  return config;
}

std::unique_ptr<Engine> MakeEngine(const std::string& model, const Config& config) {
  return std::make_unique<Engine>(LoadModel(test::RepoModel(model)), config);
}

// Deepest penetration (-dist) over the contacts of d (0 when none penetrates).
double Penetration(const Data& d) {
  double worst = 0;
  for (int k = 0; k < d.ncon; ++k) worst = std::max(worst, -d.contact[k].dist);
  return worst;
}

// A box, a sphere and a capsule dropped from 0.4 m stop at the surface at every rate: the
// hard contact allows no penetration beyond the linearization of the rotation (none here).
TEST(IpSolver, DroppedBodiesDoNotPenetrate) {
  for (const char* shape : {"box", "sphere", "capsule"}) {
    for (double timestep : {0.05, 0.02, 0.01, 0.002}) {
      Config config = IpConfig();
      config.timestep = timestep;
      auto engine = MakeEngine(std::string("ip/drop_") + shape + ".xml", config);
      Data d = engine->MakeData();
      double worst = 0;
      int contact_steps = 0;
      const int steps = static_cast<int>(std::ceil(1.5 / timestep));
      for (int k = 0; k < steps; ++k) {
        engine->Step(d);
        worst = std::max(worst, Penetration(d));
        contact_steps += d.ncon > 0;
      }
      SCOPED_TRACE(std::string(shape) + " at h = " + std::to_string(timestep));
      EXPECT_GT(contact_steps, steps / 3);  // it did land
      EXPECT_LE(worst, 1e-6);
      // at rest on the plane: its centre at the shape's half height
      const double rest = std::string(shape) == "capsule" ? 0.05 : 0.1;
      EXPECT_NEAR(d.qpos[2], rest, 1e-6);
      EXPECT_LT(std::fabs(d.qvel[2]), 1e-6);
    }
  }
}

// Box launched at 45 degrees to the contact frame's axes: with the exact cone the friction
// force opposes the velocity, so the path is straight, and it stops after v^2/(2 mu g) up to
// the time discretization (- h v0 / 2). Pyramidal and elliptic options give the same physics.
TEST(IpSolver, SlidingBoxStopsStraightAtTheCoulombDistance) {
  for (Cone cone : {Cone::kElliptic, Cone::kPyramidal}) {
    Config config = IpConfig();
    config.cone = cone;
    auto engine = MakeEngine("ip/slide.xml", config);
    Data d = engine->MakeData();
    engine->ResetToKeyframe(d, 0);
    for (int k = 0; k < 1500; ++k) engine->Step(d);
    const double x = d.qpos[0], y = d.qpos[1];
    const double travel = (x + y) / std::sqrt(2.0), drift = (y - x) / std::sqrt(2.0);
    const double expected = 3.0 * 3.0 / (2 * 0.5 * 9.81);
    EXPECT_LT(std::fabs(drift), 1e-9);
    EXPECT_NEAR(travel / expected, 1.0, 0.005);
    EXPECT_LT(std::fabs(d.qvel[0]) + std::fabs(d.qvel[1]), 1e-9);  // stopped
  }
}

// Incline at tan(theta) = 0.98 mu: the box sticks; the creep velocity is of order kappa / force,
// so a tight kappa_tol keeps 5 s of creep below 1e-9 m. At 1.02 mu it slides with
// a = g (sin theta - mu cos theta): x_n = a h^2 n (n + 1) / 2 under the semi-implicit step.
TEST(IpSolver, InclineSticksBelowAndSlidesAboveTheFrictionAngle) {
  {
    auto engine = MakeEngine("ip/incline_stick.xml", IpConfig(1e-12));
    Data d = engine->MakeData();
    for (int k = 0; k < 2500; ++k) engine->Step(d);
    EXPECT_LT(std::fabs(d.qpos[0]), 1e-9);
    EXPECT_LT(std::fabs(d.qpos[1]), 1e-9);
  }
  {
    auto engine = MakeEngine("ip/incline_slide.xml", IpConfig());
    Data d = engine->MakeData();
    const int n = 2500;
    for (int k = 0; k < n; ++k) engine->Step(d);
    const double theta = std::atan(0.51);
    const double a = 9.81 * (std::sin(theta) - 0.5 * std::cos(theta));
    const double h = engine->model().opt.timestep;
    const double measured = 2 * d.qpos[0] / (h * h * n * (n + 1.0));
    EXPECT_NEAR(measured / a, 1.0, 0.005);
    EXPECT_LT(std::fabs(d.qpos[1]), 1e-9);
  }
}

// No constraint rows: qacc is qacc_smooth exactly, after zero iterations.
TEST(IpSolver, ContactFreeModelGivesTheSmoothAcceleration) {
  Config config = IpConfig();
  config.integrator = "euler";  // the model's rk4 is refused by a velocity-level solver
  auto engine = MakeEngine("double_pendulum.xml", config);
  Data d = engine->MakeData();
  d.qpos[0] = 0.7;
  d.qvel[1] = -1.3;
  for (int k = 0; k < 50; ++k) {
    engine->Forward(d);
    ASSERT_EQ(d.nefc, 0);
    EXPECT_EQ(d.solver_iter, 0);
    for (int i = 0; i < engine->model().nv; ++i) EXPECT_EQ(d.qacc[i], d.qacc_smooth[i]);
    engine->Step(d);
  }
}

// The optimality conditions at a solution with sliding and sticking contacts: dynamics
// M (qacc - qacc_smooth) = J' f (as qfrc_constraint), normal forces >= 0, next-step distance
// dist + h J_n v+ >= 0 and complementary to the force, friction inside the exact cone, and
// opposite to the sliding velocity (maximum dissipation).
TEST(IpSolver, SolutionSatisfiesTheKktConditions) {
  Config config = IpConfig();
  config.cone = Cone::kElliptic;
  auto engine = MakeEngine("ip/slide.xml", config);
  const Model& m = engine->model();
  Data d = engine->MakeData();
  engine->ResetToKeyframe(d, 0);
  for (int k = 0; k < 100; ++k) engine->Step(d);  // sliding
  engine->Forward(d);
  ASSERT_GT(d.ncon, 0);
  EXPECT_LT(d.solver_trace[d.solver_iter - 1].residual, 1e-8);
  EXPECT_LT(d.solver_trace[d.solver_iter - 1].complementarity, 1e-8);
  const double h = m.opt.timestep;
  std::vector<double> vplus(m.nv);
  for (int i = 0; i < m.nv; ++i) vplus[i] = d.qvel[i] + h * d.qacc[i];
  // dynamics: M (qacc - qacc_smooth) - qfrc_constraint (the kernel computed J' f)
  std::vector<double> da(m.nv), Mda(m.nv);
  for (int i = 0; i < m.nv; ++i) da[i] = d.qacc[i] - d.qacc_smooth[i];
  MulTreeSparse(m, d.qM.data(), da.data(), Mda.data());
  for (int i = 0; i < m.nv; ++i) EXPECT_NEAR(Mda[i], d.qfrc_constraint[i], 1e-7);
  for (int k = 0; k < d.ncon; ++k) {
    const Contact& c = d.contact[k];
    const int adr = c.efc_address;
    ASSERT_GE(adr, 0);
    auto row_velocity = [&](int row) {
      double v = 0;
      for (int i = 0; i < m.nv; ++i) v += d.efc_J[row * m.nv + i] * vplus[i];
      return v;
    };
    const double fn = d.efc_force[adr];
    const double gap = c.dist + h * row_velocity(adr);
    EXPECT_GE(fn, 0);
    EXPECT_GE(gap, -1e-10);
    EXPECT_LT(fn * gap / h, 1e-7);
    const double ft[2] = {d.efc_force[adr + 1], d.efc_force[adr + 2]};
    const double vt[2] = {row_velocity(adr + 1), row_velocity(adr + 2)};
    const double ft_norm = std::hypot(ft[0], ft[1]), vt_norm = std::hypot(vt[0], vt[1]);
    EXPECT_LE(ft_norm, c.friction[0] * fn * (1 + 1e-8) + 1e-12);
    if (vt_norm > 1e-3) {
      // sliding: on the cone's surface, exactly against the velocity
      EXPECT_NEAR(ft_norm, c.friction[0] * fn, 1e-6 * fn);
      EXPECT_NEAR((ft[0] * vt[0] + ft[1] * vt[1]) / (ft_norm * vt_norm), -1.0, 1e-8);
    }
  }
}

// The velocity-level solver refuses multi-stage integrators; bad parameters are refused.
TEST(IpSolver, RefusesRk4AndBadParameters) {
  Config config = IpConfig();
  config.integrator = "rk4";
  try {
    MakeEngine("ip/drop_box.xml", config);
    ADD_FAILURE() << "rk4 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("single-step"), std::string::npos) << e.what();
  }
  Config bad = IpConfig();
  bad.solver_params.Set("kappa_tol", "-1");
  try {
    MakeEngine("ip/drop_box.xml", bad);
    ADD_FAILURE() << "negative kappa_tol accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kappa_tol"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gauss
