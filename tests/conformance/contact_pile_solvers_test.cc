// The constraint solvers on real contact sets from the whole pipeline: a pile of boxes,
// capsules and spheres (tests/models/contact_pile.xml: box-box, box-capsule, box-sphere,
// capsule-capsule, sphere-capsule and plane contacts with condim 3, 4 and 6), simulated with
// newton until the bodies lie on each other, then frozen. At that state, for both cones:
//  - every discovered soft-constraint solver (no kCapHardContact; newton, cg, pgs, ...) that
//    declares the cone and the dense Jacobian, at a tight tolerance (1e-20, at most 20000 iterations; at 1e-15 cg and
//    pgs stop 2-3e-6 away, where their cost decrease per iteration is 1e-15) reach the same
//    qacc (max |a - b| / max(1, |b|) <= 1e-6 against newton) and the same efc_force (the
//    soft-constraint dual is strictly convex, so the forces are unique too);
//  - every solver's efc_force lies in the friction cones: elliptic contacts
//    f_n >= sqrt(sum_i (f_i / mu_i)^2), pyramidal edges and frictionless rows f >= 0, up to a
//    round-off slack of 1e-10 * max(1, f_n);
//  - pyramidal cone: the edge rows are J_n +- mu_k J_k, with J_n and J_k the rows that the
//    elliptic cone builds for the same contact (checked to 1e-12), so each contact's edge
//    forces map to the contact-frame force F = (sum_e f_e, mu_k (f_k+ - f_k-)) with the same
//    generalized force (J_ell' F = J_pyr' f_pyr, to 1e-9 relative), and F lies inside the
//    elliptic cone of the same mu (slack 1e-12 * max(1, F_n)).
// The pyramidal and elliptic solutions are different soft-contact models and are not compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "conformance/conformance.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kAgreement = 1e-6;   // qacc and efc_force vs newton, relative
constexpr double kConeSlack = 1e-10;  // solver forces: cone violation / max(1, f_n)
constexpr double kMapSlack = 1e-12;   // mapped pyramid forces: violation / max(1, F_n)
constexpr double kTightTolerance = 1e-20;
constexpr int kTightIterations = 20000;

const char* ConeName(Cone cone) { return cone == Cone::kElliptic ? "elliptic" : "pyramidal"; }

std::unique_ptr<Engine> MakeEngine(const std::string& solver, Cone cone, double tolerance,
                                   int iterations) {
  Config config;
  config.solver = solver;
  config.cone = cone;
  config.tolerance = tolerance;
  config.iterations = iterations;
  config.jacobian = JacobianType::kDense;
  return std::make_unique<Engine>(LoadModel(TestModel("contact_pile.xml")), config);
}

// The frozen state: the pile dropped from its initial column and simulated for 1 s with newton
// (pyramidal cone, default tolerance), when the bodies have landed on each other.
struct PileState {
  std::vector<double> qpos, qvel, qacc_warmstart;
};

const PileState& Pile() {
  static const PileState state = [] {
    auto engine = MakeEngine("newton", Cone::kPyramidal, 1e-8, 100);
    Data d = engine->MakeData();
    for (int k = 0; k < 500; ++k) engine->Step(d);
    return PileState{d.qpos, d.qvel, d.qacc_warmstart};
  }();
  return state;
}

// Forward dynamics at the pile state with the given solver.
struct Solved {
  std::string solver;
  std::unique_ptr<Engine> engine;
  Data d;
  double milliseconds = 0;
};

Solved SolveAtPile(const std::string& solver, Cone cone) {
  Solved out;
  out.solver = solver;
  out.engine = MakeEngine(solver, cone, kTightTolerance, kTightIterations);
  out.d = out.engine->MakeData();
  const PileState& s = Pile();
  out.d.qpos = s.qpos;
  out.d.qvel = s.qvel;
  out.d.qacc_warmstart = s.qacc_warmstart;
  const auto t0 = std::chrono::steady_clock::now();
  out.engine->Forward(out.d);
  out.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

// Largest cone violation of the forces, relative to max(1, f_n) of each contact.
double ConeViolation(const Data& d) {
  double worst = 0;
  for (int k = 0; k < d.ncon; ++k) {
    const Contact& c = d.contact[k];
    if (c.efc_address < 0) continue;
    const double* f = d.efc_force.data() + c.efc_address;
    const ConstraintType type = d.efc_type[c.efc_address];
    if (type == ConstraintType::kContactElliptic) {
      double t = 0;
      for (int i = 1; i < c.dim; ++i) t += (f[i] / c.friction[i - 1]) * (f[i] / c.friction[i - 1]);
      const double violation = std::max(-f[0], std::sqrt(t) - f[0]);
      worst = std::max(worst, violation / std::max(1.0, std::fabs(f[0])));
    } else {
      const bool pyramidal = type == ConstraintType::kContactPyramidal;
      const int rows = pyramidal ? 2 * (c.dim - 1) : 1;
      double fn = 0;
      for (int e = 0; e < rows; ++e) fn += std::fabs(f[e]);
      for (int e = 0; e < rows; ++e) worst = std::max(worst, -f[e] / std::max(1.0, fn));
    }
  }
  return worst;
}

// The soft solvers that declare `cone` and the dense Jacobian, newton (the reference) first.
std::vector<std::string> PileSolvers(Cone cone) {
  std::vector<std::string> names =
      conformance::SoftSolversWith(conformance::ConeCapability(cone) | kCapDenseJacobian);
  std::stable_partition(names.begin(), names.end(),
                        [](const std::string& s) { return s == "newton"; });
  return names;
}

class ContactSolvers : public ::testing::TestWithParam<Cone> {};

TEST_P(ContactSolvers, SoftSolversAgreeOnAPileAndForcesLieInTheCones) {
  const Cone cone = GetParam();
  std::vector<Solved> solved;
  for (const std::string& name : PileSolvers(cone)) solved.push_back(SolveAtPile(name, cone));
  ASSERT_EQ(solved[0].solver, "newton");
  const Data& ref = solved[0].d;
  const Model& m = solved[0].engine->model();

  // the state is a pile: many contacts, many of them between bodies
  int body_contacts = 0;
  for (int k = 0; k < ref.ncon; ++k) {
    const Contact& c = ref.contact[k];
    body_contacts += m.geom_bodyid[c.geom1] != 0 && m.geom_bodyid[c.geom2] != 0;
  }
  ASSERT_GE(ref.ncon, 20);
  ASSERT_GE(body_contacts, 8);

  for (const Solved& s : solved) {
    const Data& d = s.d;
    ASSERT_EQ(d.nefc, ref.nefc) << s.solver;
    const double qacc = MaxRelError(d.qacc.data(), ref.qacc.data(), m.nv);
    const double force = MaxRelError(d.efc_force.data(), ref.efc_force.data(), ref.nefc);
    const double cone_violation = ConeViolation(d);
    std::printf("[ measured ] %s %s: ncon %d (%d between bodies) nefc %d, %d iterations, %.1f ms, "
                "qacc vs newton %.1e, efc_force vs newton %.1e, cone violation %.1e\n",
                ConeName(cone), s.solver.c_str(), d.ncon, body_contacts, d.nefc, d.solver_iter,
                s.milliseconds, qacc, force, cone_violation);
    EXPECT_LE(qacc, kAgreement) << s.solver;
    EXPECT_LE(force, kAgreement) << s.solver;
    EXPECT_LE(cone_violation, kConeSlack) << s.solver;
    RecordProperty(s.solver + "_qacc_error", std::to_string(qacc));
    RecordProperty(s.solver + "_iterations", d.solver_iter);
  }
  EXPECT_LT(ref.solver_iter, kTightIterations) << "newton did not converge";
}

INSTANTIATE_TEST_SUITE_P(Cones, ContactSolvers,
                         ::testing::Values(Cone::kPyramidal, Cone::kElliptic),
                         [](const ::testing::TestParamInfo<Cone>& info) {
                           return std::string(ConeName(info.param));
                         });

// Row i of a dense Jacobian.
const double* Row(const Model& m, const Data& d, int i) {
  return d.efc_J.data() + static_cast<long>(i) * m.nv;
}

TEST(ContactSolvers, PyramidalForcesMapIntoTheEllipticConeOfTheSameFriction) {
  Solved elliptic = SolveAtPile("newton", Cone::kElliptic);
  const Model& m = elliptic.engine->model();
  const Data& de = elliptic.d;
  ASSERT_TRUE(de.efc_J_rownnz.empty()) << "dense Jacobian expected";
  int checked = 0;
  for (const std::string& name : PileSolvers(Cone::kPyramidal)) {
    Solved pyramidal = SolveAtPile(name, Cone::kPyramidal);
    const Data& dp = pyramidal.d;
    ASSERT_EQ(dp.ncon, de.ncon);  // collision does not depend on the cone
    double worst_row = 0, worst_force = 0, worst_cone = 0;
    for (int k = 0; k < dp.ncon; ++k) {
      const Contact& cp = dp.contact[k];
      const Contact& ce = de.contact[k];
      ASSERT_EQ(cp.geom1, ce.geom1);
      ASSERT_EQ(cp.geom2, ce.geom2);
      if (cp.efc_address < 0 || cp.dim == 1) continue;
      const int ap = cp.efc_address, ae = ce.efc_address;
      const double* jn = Row(m, de, ae);
      // contact-frame force from the edges, and the two generalized forces
      std::vector<double> F(cp.dim, 0.0), gen_pyr(m.nv, 0.0), gen_ell(m.nv, 0.0);
      for (int r = 1; r < cp.dim; ++r) {
        const double mu = cp.friction[r - 1];
        const double* jr = Row(m, de, ae + r);
        const double* plus = Row(m, dp, ap + 2 * (r - 1));
        const double* minus = Row(m, dp, ap + 2 * (r - 1) + 1);
        for (int i = 0; i < m.nv; ++i) {
          const double scale = std::max(1.0, std::fabs(jn[i]) + mu * std::fabs(jr[i]));
          worst_row = std::max(worst_row, std::fabs(plus[i] - (jn[i] + mu * jr[i])) / scale);
          worst_row = std::max(worst_row, std::fabs(minus[i] - (jn[i] - mu * jr[i])) / scale);
        }
        const double fp = dp.efc_force[ap + 2 * (r - 1)], fm = dp.efc_force[ap + 2 * (r - 1) + 1];
        F[0] += fp + fm;
        F[r] = mu * (fp - fm);
        for (int i = 0; i < m.nv; ++i) gen_pyr[i] += fp * plus[i] + fm * minus[i];
      }
      for (int r = 0; r < cp.dim; ++r) {
        const double* jr = Row(m, de, ae + r);
        for (int i = 0; i < m.nv; ++i) gen_ell[i] += F[r] * jr[i];
      }
      worst_force = std::max(worst_force, MaxRelError(gen_ell.data(), gen_pyr.data(), m.nv) /
                                              std::max(1.0, F[0]));
      double t = 0;
      for (int r = 1; r < cp.dim; ++r) t += std::pow(F[r] / cp.friction[r - 1], 2);
      worst_cone = std::max(worst_cone, (std::sqrt(t) - F[0]) / std::max(1.0, F[0]));
      EXPECT_GE(F[0], 0) << name << " contact " << k;
      ++checked;
    }
    std::printf("[ measured ] pyramidal %s: edge rows vs J_n +- mu J_k %.1e, J_ell' F vs J_pyr' f "
                "%.1e, mapped force outside the elliptic cone by %.1e (relative to F_n)\n",
                name.c_str(), worst_row, worst_force, worst_cone);
    EXPECT_LE(worst_row, 1e-12) << name;
    EXPECT_LE(worst_force, 1e-9) << name;
    EXPECT_LE(worst_cone, kMapSlack) << name;
  }
  EXPECT_GE(checked, static_cast<int>(PileSolvers(Cone::kPyramidal).size()) * 20);
}

}  // namespace
}  // namespace gauss::test
