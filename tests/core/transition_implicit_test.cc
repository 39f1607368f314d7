// TransitionImplicit (core/src/transition_implicit.cc): with solver=ip at a large central-path
// kappa (the smooth regime) its A and B equal finite differences of the ip step (TransitionFD,
// centered) to 1e-4 relative on models with sliding, resting and pushed contacts; solvers
// without sensitivities are refused; no heap allocation after the first call.
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
