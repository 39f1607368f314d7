// The `ip` solver's sensitivity products (plugins/solvers/ip/ip_sensitivity.cc): the forward
// product agrees with central differences of the ip solve itself under perturbed problem data
// (smooth regime: a large central-path kappa), the reverse product is its transpose, and
// products after the first allocate nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "constraint_assembly.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "gauss/plugin.h"
#include "gauss/solver.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// ip on the central path at kappa: kappa_tol just above kappa_floor makes the solve end on the
// path (every complementarity product at kappa), tight r_tol on the other conditions.
Config IpAtKappa(double kappa, Cone cone) {
  Config config;
  config.solver = "ip";
  config.cone = cone;
  auto text = [](double v) {
    char s[32];
    std::snprintf(s, sizeof(s), "%.17g", v);
    return std::string(s);
  };
  config.solver_params.Set("kappa_floor", text(kappa));
  config.solver_params.Set("kappa_tol", text(kappa * (1 + 1e-9)));
  config.solver_params.Set("r_tol", "1e-13");
  config.solver_params.Set("max_iterations", "200");
  config.iterations = 200;
  return config;
}

// Problem data perturbed along a tangent, owning its arrays: theta + t dtheta.
struct PerturbedProblem {
  std::vector<double> J, pos, vel, qfrc, qacc_smooth;
  std::vector<Contact> contact;
  ConstraintProblem p;

  PerturbedProblem(const ConstraintProblem& base, const Data& d, const ProblemTangent& dt,
                   double t) {
    const int nv = base.nv, nefc = base.nefc;
    J.assign(base.J, base.J + static_cast<std::size_t>(nefc) * nv);
    pos.assign(base.pos, base.pos + nefc);
    vel.assign(base.vel, base.vel + nefc);
    qfrc.assign(base.qfrc_smooth, base.qfrc_smooth + nv);
    contact.assign(d.contact.begin(), d.contact.begin() + d.ncon);
    for (std::size_t k = 0; k < J.size(); ++k) J[k] += t * dt.J[k];
    for (int i = 0; i < nefc; ++i) {
      pos[i] += t * dt.pos[i];
      vel[i] += t * dt.vel[i];
    }
    // ip reads a contact's distance from the contact (all its rows carry the same pos)
    for (Contact& c : contact) c.dist += t * dt.pos[c.efc_address];
    for (int j = 0; j < nv; ++j) qfrc[j] += t * dt.qfrc_smooth[j];
    qacc_smooth = qfrc;
    base.M->SolveM(qacc_smooth.data());
    p = base;
    p.J = J.data();
    p.pos = pos.data();
    p.vel = vel.data();
    p.qfrc_smooth = qfrc.data();
    p.qacc_smooth = qacc_smooth.data();
    p.contact = contact.data();
  }
};

struct Case {
  const char* model;
  Cone cone;
  int steps;       // simulated before differentiating (sliding, resting)
  bool keyframe;
};

double Dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Forward products against central differences of the solve, reverse against forward.
TEST(IpSensitivity, ProductsMatchDifferencesOfTheSolveAtLargeKappa) {
  const Case cases[] = {{"ip/slide.xml", Cone::kElliptic, 100, true},
                        {"ip/slide.xml", Cone::kPyramidal, 100, true},
                        {"ip/drop_box.xml", Cone::kElliptic, 100, false},
                        {"ip/drop_box.xml", Cone::kPyramidal, 100, false}};
  for (const Case& cs : cases) {
    for (double kappa : {1e-2}) {  // the smooth regime (kappa 1e-3 needs t < 1e-6 here)
      SCOPED_TRACE(std::string(cs.model) + (cs.cone == Cone::kElliptic ? " elliptic" : " pyramidal") +
                   " kappa " + std::to_string(kappa));
      Engine engine(LoadModel(test::RepoModel(cs.model)), IpAtKappa(kappa, cs.cone));
      ASSERT_TRUE(engine.solver_capabilities() & kCapSolutionSensitivity);
      const ConstraintSolver& solver = engine.solver();
      Data d = engine.MakeData();
      if (cs.keyframe) engine.ResetToKeyframe(d, 0);
      for (int k = 0; k < cs.steps; ++k) engine.Step(d);
      engine.Forward(d);
      const Model& m = engine.model();
      const FactoredInertia ops(m, d);
      const ConstraintProblem p = MakeProblem(m, d, ops);
      const int nv = p.nv, nefc = p.nefc;
      ASSERT_GT(d.ncon, 0);
      ASSERT_NE(p.J, nullptr);
      std::vector<double> qacc(nv), force(nefc);
      solver.Solve(p, d.arena, qacc.data(), force.data(), nullptr);

      // a random tangent of the data (a contact's rows share their distance)
      std::mt19937 rng(7);
      std::normal_distribution<double> normal(0, 1);
      std::vector<double> dJ(static_cast<std::size_t>(nefc) * nv), dpos(nefc), dvel(nefc),
          dqfrc(nv);
      for (double& v : dJ) v = 0.1 * normal(rng);
      for (double& v : dvel) v = 0.1 * normal(rng);
      for (double& v : dqfrc) v = normal(rng);
      for (int k = 0; k < d.ncon; ++k) {
        const Contact& c = d.contact[k];
        const double v = 0.01 * normal(rng);
        const int rows = cs.cone == Cone::kElliptic ? c.dim : 2 * (c.dim - 1);
        for (int r = 0; r < rows; ++r) dpos[c.efc_address + r] = v;
      }
      ProblemTangent dt;
      dt.J = dJ.data();
      dt.pos = dpos.data();
      dt.vel = dvel.data();
      dt.qfrc_smooth = dqfrc.data();
      std::vector<double> da(nv), df(nefc);
      SolutionTangent out{da.data(), df.data()};
      solver.SensitivityForward(p, qacc.data(), force.data(), dt, out, d.arena);

      // central differences of the solve itself, Richardson-extrapolated from steps t and t/2
      // (the solution is strongly curved in the data: plain differences would be limited by
      // their O(t^2) error, not by the products)
      auto central = [&](double t, std::vector<double>& ca, std::vector<double>& cf) {
        std::vector<double> qp(nv), qm(nv), fp(nefc), fm(nefc);
        PerturbedProblem plus(p, d, dt, t), minus(p, d, dt, -t);
        const SolverResult rp = solver.Solve(plus.p, d.arena, qp.data(), fp.data(), nullptr);
        const SolverResult rm = solver.Solve(minus.p, d.arena, qm.data(), fm.data(), nullptr);
        EXPECT_TRUE(rp.converged && rm.converged);
        ca.resize(nv);
        cf.resize(nefc);
        for (int i = 0; i < nv; ++i) ca[i] = (qp[i] - qm[i]) / (2 * t);
        for (int i = 0; i < nefc; ++i) cf[i] = (fp[i] - fm[i]) / (2 * t);
      };
      const double t = 1e-5;
      std::vector<double> a1, f1, a2, f2;
      central(t, a1, f1);
      central(t / 2, a2, f2);
      double scale_a = 0, scale_f = 0, err_a = 0, err_f = 0;
      for (int i = 0; i < nv; ++i) {
        const double fd = (4 * a2[i] - a1[i]) / 3;
        scale_a = std::max(scale_a, std::fabs(fd));
        err_a = std::max(err_a, std::fabs(fd - da[i]));
      }
      for (int i = 0; i < nefc; ++i) {
        const double fd = (4 * f2[i] - f1[i]) / 3;
        scale_f = std::max(scale_f, std::fabs(fd));
        err_f = std::max(err_f, std::fabs(fd - df[i]));
      }
      std::printf("%s kappa %g: |dqacc| %.3g err %.2e  |dforce| %.3g err %.2e\n", cs.model,
                  kappa, scale_a, err_a, scale_f, err_f);
      EXPECT_GT(scale_a, 1e-3);  // the tangent moves the solution
      EXPECT_LE(err_a, 1e-6 * scale_a);
      EXPECT_LE(err_f, 1e-6 * scale_f);

      // reverse: <g, F dtheta> = <F' g, dtheta> for a random cotangent g
      std::vector<double> ga(nv), gf(nefc);
      for (double& v : ga) v = normal(rng);
      for (double& v : gf) v = normal(rng);
      std::vector<double> gJ(dJ.size()), gpos(nefc), gvel(nefc), gqfrc(nv), garef(nefc, 1.0);
      SolutionTangent g{ga.data(), gf.data()};
      ProblemTangent gd;
      gd.J = gJ.data();
      gd.pos = gpos.data();
      gd.vel = gvel.data();
      gd.qfrc_smooth = gqfrc.data();
      gd.aref = garef.data();
      solver.SensitivityReverse(p, qacc.data(), force.data(), g, gd, d.arena);
      const double lhs = Dot(ga, da) + Dot(gf, df);
      const double rhs = Dot(gJ, dJ) + Dot(gpos, dpos) + Dot(gvel, dvel) + Dot(gqfrc, dqfrc);
      EXPECT_NEAR(lhs, rhs, 1e-9 * (std::fabs(lhs) + 1));
      for (double v : garef) EXPECT_EQ(v, 0.0);  // a hard-contact problem does not read aref

      // products after the first reuse the cached solve: no heap allocation
      if (test::AllocationCountAvailable()) {
        const long before = test::AllocationCount();
        solver.SensitivityForward(p, qacc.data(), force.data(), dt, out, d.arena);
        solver.SensitivityReverse(p, qacc.data(), force.data(), g, gd, d.arena);
        EXPECT_EQ(test::AllocationCount() - before, 0);
      }
    }
  }
}

// The products belong to the solution of the problem they are given: another solution is refused.
TEST(IpSensitivity, RefusesASolutionOfAnotherProblem) {
  Engine engine(LoadModel(test::RepoModel("ip/drop_box.xml")), IpAtKappa(1e-2, Cone::kElliptic));
  Data d = engine.MakeData();
  for (int k = 0; k < 100; ++k) engine.Step(d);
  engine.Forward(d);
  const FactoredInertia ops(engine.model(), d);
  const ConstraintProblem p = MakeProblem(engine.model(), d, ops);
  std::vector<double> qacc(p.nv, 1.0), force(p.nefc, 0.0), da(p.nv);
  std::vector<double> dqfrc(p.nv, 1.0);
  ProblemTangent dt;
  dt.qfrc_smooth = dqfrc.data();
  SolutionTangent out{da.data(), nullptr};
  try {
    engine.solver().SensitivityForward(p, qacc.data(), force.data(), dt, out, d.arena);
    ADD_FAILURE() << "qacc = 1 accepted as the solution of a box at rest";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not ip's solution"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gauss
