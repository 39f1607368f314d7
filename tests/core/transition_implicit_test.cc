// TransitionImplicit (core/src/transition_implicit.cc): with solver=ip at a large central-path
// kappa (the smooth regime) its A and B equal finite differences of the ip step (TransitionFD,
// centered) to 1e-4 relative on models with sliding, resting and pushed contacts; solvers
// without sensitivities are refused; no heap allocation after the first call. With
// solver.params.gradient_kappa they are the derivatives of the step solved at that larger kappa
// (while the step stays the simulation's) and see a lift-off force before the box moves.
#include "gauss/transition_implicit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "gauss/transition_fd.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// ip on its central path at kappa (kappa_tol just above kappa_floor), tight elsewhere.
Config IpAtKappa(double kappa) {
  Config config;
  config.solver = "ip";
  config.integrator = "euler";
  char floor[32], tol[32];
  std::snprintf(floor, sizeof(floor), "%.17g", kappa);
  std::snprintf(tol, sizeof(tol), "%.17g", kappa * (1 + 1e-9));
  config.solver_params.Set("kappa_floor", floor);
  config.solver_params.Set("kappa_tol", tol);
  config.solver_params.Set("r_tol", "1e-13");
  config.solver_params.Set("max_iterations", "200");
  config.iterations = 200;
  return config;
}

struct Case {
  const char* model;
  int steps;        // simulated first
  bool keyframe;    // start from keyframe 0
  double push[3];   // constant controls (box_slide: forces along x, y, z)
};

// Worst |a - b| / max(1, |b|) over the entries.
double WorstRelative(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i])));
  }
  return worst;
}

TEST(TransitionImplicit, MatchesDifferencesOfTheIpStepAtLargeKappa) {
  const Case cases[] = {
      {"box_slide.xml", 30, false, {8, 3, 0}},     // pushed: sliding on the ground
      {"box_slide.xml", 30, false, {1, 0, 4}},     // resting: static friction holds it
      {"ip/slide.xml", 60, true, {0, 0, 0}},       // free box sliding diagonally
      {"ip/drop_box.xml", 80, false, {0, 0, 0}}};  // free box at rest on four corners
  for (const Case& cs : cases) {
    SCOPED_TRACE(cs.model + std::string(" push ") + std::to_string(cs.push[0]));
    Engine engine(LoadModel(test::RepoModel(cs.model)), IpAtKappa(1e-2));
    const Model& m = engine.model();
    Data d = engine.MakeData();
    if (cs.keyframe) engine.ResetToKeyframe(d, 0);
    for (int a = 0; a < m.nu; ++a) d.ctrl[a] = cs.push[a];
    for (int k = 0; k < cs.steps; ++k) engine.Step(d);
    engine.Forward(d);
    ASSERT_GT(d.ncon, 0);

    TransitionImplicit implicit(engine);
    TransitionFD fd(engine);
    const int nx = implicit.nx(), nu = implicit.nu();
    std::vector<double> A(nx * nx), B(nx * nu), Afd(nx * nx), Bfd(nx * nu);
    // centered, eps 1e-7: both methods' error is the O(eps^2) truncation of the strongly curved
    // contact response (measured: 1.5e-3 on the sliding box at 1e-6, 1.5e-5 at 1e-7)
    const TransitionFDOptions options{1e-7, true};
    implicit.Compute(d, options, A.data(), B.data());
    fd.Compute(d, options, Afd.data(), Bfd.data(), nullptr, nullptr);
    const double errA = WorstRelative(A, Afd), errB = WorstRelative(B, Bfd);
    std::printf("%s: A worst relative %.2e, B %.2e\n", cs.model, errA, errB);
    EXPECT_LE(errA, 1e-4);
    EXPECT_LE(errB, 1e-4);
    EXPECT_EQ(implicit.next_state(), fd.next_state());  // the same nominal step

    if (test::AllocationCountAvailable()) {
      const long before = test::AllocationCount();
      implicit.Compute(d, options, A.data(), B.data());
      EXPECT_EQ(test::AllocationCount() - before, 0);
    }
  }
}

// solver.params.gradient_kappa: the simulation at a small kappa, the gradients from the same
// problem solved to a larger one (Dojo IV-D). They equal differences of the step solved at
// that kappa, and see a resting box's lift-off force where the simulation's own are flat.
TEST(TransitionImplicit, GradientKappaDifferentiatesTheStepAtThatKappa) {
  const double kappa_sim = 1e-4, kappa_grad = 1e-1;
  // the hopper (h = 0.05) standing on its foot: M and J depend on the joints, so the smooth
  // stages must be evaluated at the point the gradients are taken at, not at the simulated one
  const Case cases[] = {{"box_slide.xml", 30, false, {8, 3, 0}},          // sliding
                        {"box_slide.xml", 30, false, {1, 0, 4}},          // held by static friction
                        {"gymnasium/hopper.xml", 12, false, {0, 0, 0}}};
  for (const Case& cs : cases) {
    SCOPED_TRACE(cs.model + std::string(" push ") + std::to_string(cs.push[0]));
    const bool hopper = std::string(cs.model) == "gymnasium/hopper.xml";
    Config sim_config = IpAtKappa(kappa_sim), grad_config = IpAtKappa(kappa_grad);
    if (hopper) sim_config.timestep = grad_config.timestep = 0.05;
    sim_config.solver_params.Set("gradient_kappa", "0.1");
    Engine sim(LoadModel(test::RepoModel(cs.model)), sim_config);
    Engine at_grad(LoadModel(test::RepoModel(cs.model)), grad_config);
    Data d = sim.MakeData();
    for (int a = 0; a < sim.model().nu; ++a) d.ctrl[a] = cs.push[a];
    for (int k = 0; k < cs.steps; ++k) sim.Step(d);
    sim.Forward(d);
    ASSERT_GT(d.ncon, 0);

    TransitionImplicit implicit(sim);
    TransitionFD fd(at_grad), fd_sim(sim);
    const int nx = implicit.nx(), nu = implicit.nu();
    std::vector<double> A(nx * nx), B(nx * nu), Afd(nx * nx), Bfd(nx * nu);
    const TransitionFDOptions options{1e-7, true};
    implicit.Compute(d, options, A.data(), B.data());
    fd.Compute(d, options, Afd.data(), Bfd.data(), nullptr, nullptr);
    const double errA = WorstRelative(A, Afd), errB = WorstRelative(B, Bfd);
    std::printf("%s, gradient kappa %g: A worst relative %.2e, B %.2e\n", cs.model, kappa_grad,
                errA, errB);
    EXPECT_LE(errA, 1e-4);
    EXPECT_LE(errB, 1e-4);
    // the step itself stays the simulation's
    fd_sim.Compute(d, options, nullptr, nullptr, nullptr, nullptr);
    EXPECT_EQ(implicit.next_state(), fd_sim.next_state());
    EXPECT_NE(implicit.next_state(), fd.next_state());
  }
}

TEST(TransitionImplicit, GradientKappaSeesLiftOffBeforeItHappens) {
  // a 1 kg box resting on the ground, no force yet: an upward force below its weight only
  // unloads the contact, so the step's own derivative dz'/du_z is zero; free motion gives h^2/m
  const auto model = LoadModel(test::RepoModel("ip/lift_box.xml"));
  const double h = model->opt.timestep, free_motion = h * h / 1.0;
  Config sim_config = IpAtKappa(1e-6);  // nearly hard contact
  Engine sim(model, sim_config);
  sim_config.solver_params.Set("gradient_kappa", "1");
  Engine sim_grad(model, sim_config);
  Data d = sim.MakeData();
  for (int k = 0; k < 20; ++k) sim.Step(d);  // settle on the ground
  const int nx = 6, nu = 3, z = 2;
  std::vector<double> B(nx * nu), Bfd(nx * nu), Bsim(nx * nu);
  const TransitionFDOptions options{1e-6, true};
  TransitionFD fd(sim);
  fd.Compute(d, options, nullptr, Bfd.data(), nullptr, nullptr);
  TransitionImplicit at_sim(sim), at_grad(sim_grad);
  at_sim.Compute(d, options, nullptr, Bsim.data());
  at_grad.Compute(d, options, nullptr, B.data());
  std::printf("dz'/du_z / (h^2/m): fd %.3g, implicit at kappa 1e-6 %.3g, at gradient kappa 1 %.3g\n",
              Bfd[z * nu + z] / free_motion, Bsim[z * nu + z] / free_motion,
              B[z * nu + z] / free_motion);
  EXPECT_LT(std::fabs(Bfd[z * nu + z]), 1e-3 * free_motion);
  EXPECT_GT(B[z * nu + z], 0.1 * free_motion);
  EXPECT_LT(B[z * nu + z], free_motion);
  EXPECT_EQ(at_grad.next_state(), at_sim.next_state());
}

TEST(TransitionImplicit, RefusesSolversWithoutSensitivities) {
  Config config;
  config.solver = "newton";
  Engine engine(LoadModel(test::RepoModel("box_slide.xml")), config);
  try {
    TransitionImplicit implicit(engine);
    ADD_FAILURE() << "newton accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not differentiate its solution"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gauss
