// The soft-constraint penalty (soft_constraint.cc, primal.cc's ConstraintCurvature) checked
// against finite differences of itself, on every row type and penalty zone: the force is
// -ds/djar, AddConstraintHessian is the derivative of the gradient J' ds/djar in x,
// EllipticConeCurvature is the derivative of an elliptic contact's force on the cone surface,
// and ConstraintCurvature is the directional second derivative. The penalty is piecewise
// quadratic, so central differences are exact up to round-off wherever the step stays on one
// piece; points whose difference step changes a row's piece are skipped (and counted).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "constraint_assembly.h"
#include "elliptic_zone.h"
#include "gauss/constraint.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "gauss/primal.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// Relative tolerance of a central difference of a piecewise quadratic (round-off only).
constexpr double kRel = 1e-6;

// A model's constraint problem at a state with constraints of every kind it has.
struct ProblemAt {
  std::unique_ptr<Engine> engine;
  Data d;
  std::unique_ptr<FactoredInertia> ops;
  ConstraintProblem p;

  ProblemAt(const std::string& model, Cone cone, int steps) {
    Config config;
    config.cone = cone;
    engine = std::make_unique<Engine>(LoadModel(test::TestModel(model)), config);
    d = engine->MakeData();
    for (int i = 0; i < engine->model().nv; ++i) d.qvel[i] = 0.3 * std::sin(1.3 * i + 0.2);
    for (int k = 0; k < steps; ++k) engine->Step(d);
    engine->Forward(d);
    ops = std::make_unique<FactoredInertia>(engine->model(), d);
    p = MakeProblem(engine->model(), d, *ops);
  }
};

// Random jar around the pieces' boundaries: friction-loss rows at the scale of their Huber
// bound R floss, the others of order one.
std::vector<double> RandomJar(const ConstraintProblem& p, std::mt19937_64& gen) {
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> jar(p.nefc);
  for (int i = 0; i < p.nefc; ++i) {
    const double scale = IsFrictionLossRow(p.type[i]) ? 2 * p.R[i] * p.frictionloss[i] : 1.0;
    jar[i] = scale * nd(gen);
  }
  return jar;
}

// Whether every row keeps its state between jar and jar +- h e (e: a jar-space direction).
bool SamePieces(const ConstraintProblem& p, const std::vector<double>& jar,
                const std::vector<double>& dir, double h) {
  std::vector<int> s0(p.nefc), s1(p.nefc), s2(p.nefc);
  std::vector<double> plus(jar), minus(jar);
  for (int i = 0; i < p.nefc; ++i) {
    plus[i] += h * dir[i];
    minus[i] -= h * dir[i];
  }
  ConstraintCost(p, jar.data(), nullptr, s0.data());
  ConstraintCost(p, plus.data(), nullptr, s1.data());
  ConstraintCost(p, minus.data(), nullptr, s2.data());
  return s0 == s1 && s0 == s2;
}

struct Case {
  const char* model;
  Cone cone;
  int steps;
};

class SoftConstraint : public ::testing::TestWithParam<Case> {};

// A point, a moved point and a direction along which the primal line search works: dir, M dir
// and J dir (Project fills the last two from dir), and the arena its passes carve from.
struct LineWork {
  Arena arena;
  PrimalPoint pt, moved;
  std::vector<double> dir, Mdir, Jdir;

  explicit LineWork(const ConstraintProblem& p) : dir(p.nv), Mdir(p.nv), Jdir(p.nefc) {
    arena.Reserve(64 * static_cast<std::size_t>(p.nv + p.nefc + 1));
    pt.Allocate(p, arena);
    moved.Allocate(p, arena);
  }
  void Project(const ConstraintProblem& p) {
    p.M->MulM(dir.data(), Mdir.data());
    MulJ(p, dir.data(), Jdir.data());
  }
  // the cost decrease from pt to pt + step dir
  double Decrease(const ConstraintProblem& p, double step) {
    return PrimalDecrease(p, pt, dir.data(), Mdir.data(), Jdir.data(), step, arena);
  }
};

TEST_P(SoftConstraint, ForceIsMinusTheCostGradient) {
  const Case c = GetParam();
  ProblemAt at(c.model, c.cone, c.steps);
  const ConstraintProblem& p = at.p;
  ASSERT_GT(p.nefc, 0);
  std::mt19937_64 gen(5);
  std::set<int> states;
  int checked = 0, skipped = 0;
  for (int sample = 0; sample < 40; ++sample) {
    const std::vector<double> jar = RandomJar(p, gen);
    std::vector<double> force(p.nefc);
    std::vector<int> state(p.nefc);
    ConstraintCost(p, jar.data(), force.data(), state.data());
    states.insert(state.begin(), state.end());
    for (int i = 0; i < p.nefc; ++i) {
      const double h = 1e-6 * std::max(1.0, std::fabs(jar[i]));
      std::vector<double> e(p.nefc, 0.0);
      e[i] = 1;
      if (!SamePieces(p, jar, e, h)) {
        ++skipped;
        continue;
      }
      std::vector<double> plus(jar), minus(jar);
      plus[i] += h;
      minus[i] -= h;
      const double fd = (ConstraintCost(p, plus.data(), nullptr, nullptr) -
                         ConstraintCost(p, minus.data(), nullptr, nullptr)) / (2 * h);
      const double scale = std::fabs(ConstraintCost(p, jar.data(), nullptr, nullptr)) / h;
      EXPECT_NEAR(-force[i], fd, kRel * (1 + std::fabs(force[i])) + 1e-13 * scale)
          << c.model << " sample " << sample << " row " << i;
      ++checked;
    }
  }
  EXPECT_LT(skipped, checked / 100 + 1) << "too many difference steps crossed a piece boundary";
  // the samples reach the nonzero pieces of the penalty
  EXPECT_TRUE(states.count(static_cast<int>(ConstraintState::kQuadratic)));
  if (c.cone == Cone::kElliptic) {
    EXPECT_TRUE(states.count(static_cast<int>(ConstraintState::kCone)));
  }
}

// H(x) = d/dx (J' ds/djar) at jar = J x - aref; AddConstraintHessian gives its lower triangle.
TEST_P(SoftConstraint, HessianIsTheDerivativeOfTheGradient) {
  const Case c = GetParam();
  ProblemAt at(c.model, c.cone, c.steps);
  const ConstraintProblem& p = at.p;
  const int nv = p.nv;
  std::mt19937_64 gen(7);
  std::normal_distribution<double> nd(0, 1);
  auto gradient = [&p](const std::vector<double>& x, std::vector<double>& jar,
                       std::vector<double>& g) {
    MulJ(p, x.data(), jar.data());
    for (int i = 0; i < p.nefc; ++i) jar[i] -= p.aref[i];
    std::vector<double> force(p.nefc);
    ConstraintCost(p, jar.data(), force.data(), nullptr);
    MulJT(p, force.data(), g.data());
    for (double& v : g) v = -v;
  };
  int checked = 0;
  for (int sample = 0; sample < 10; ++sample) {
    std::vector<double> x(nv);
    for (int i = 0; i < nv; ++i) x[i] = p.qacc_smooth[i] + 2 * nd(gen);
    std::vector<double> jar(p.nefc), g0(nv);
    gradient(x, jar, g0);
    std::vector<int> state(p.nefc);
    ConstraintCost(p, jar.data(), nullptr, state.data());
    std::vector<double> H(nv * nv, 0.0);
    AddConstraintHessian(p, jar.data(), state.data(), H.data());
    double hmax = 0;
    for (double v : H) hmax = std::max(hmax, std::fabs(v));
    for (int k = 0; k < nv; ++k) {
      const double h = 1e-6;
      std::vector<double> ek(nv, 0.0), jdir(p.nefc);
      ek[k] = 1;
      MulJ(p, ek.data(), jdir.data());
      if (!SamePieces(p, jar, jdir, h)) continue;
      std::vector<double> xp(x), xm(x), gp(nv), gm(nv), jp(p.nefc), jm(p.nefc);
      xp[k] += h;
      xm[k] -= h;
      gradient(xp, jp, gp);
      gradient(xm, jm, gm);
      for (int i = k; i < nv; ++i) {  // lower triangle: row i >= column k
        const double fd = (gp[i] - gm[i]) / (2 * h);
        EXPECT_NEAR(H[i * nv + k], fd, kRel * (1 + hmax))
            << c.model << " sample " << sample << " H(" << i << "," << k << ")";
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 5 * nv);
}

// ConstraintCurvature(v) = v' (d^2 s/djar^2) v, the derivative of v' ds/djar along v.
TEST_P(SoftConstraint, RowCurvatureIsTheDirectionalSecondDerivative) {
  const Case c = GetParam();
  ProblemAt at(c.model, c.cone, c.steps);
  const ConstraintProblem& p = at.p;
  std::mt19937_64 gen(9);
  std::normal_distribution<double> nd(0, 1);
  int checked = 0;
  for (int sample = 0; sample < 40; ++sample) {
    const std::vector<double> jar = RandomJar(p, gen);
    std::vector<double> v(p.nefc);
    for (double& x : v) x = nd(gen);
    const double h = 1e-7;
    if (!SamePieces(p, jar, v, h)) continue;
    std::vector<int> state(p.nefc);
    ConstraintCost(p, jar.data(), nullptr, state.data());
    const double curvature = ConstraintCurvature(p, jar.data(), state.data(), v.data());
    std::vector<double> plus(jar), minus(jar), fp(p.nefc), fm(p.nefc);
    for (int i = 0; i < p.nefc; ++i) {
      plus[i] += h * v[i];
      minus[i] -= h * v[i];
    }
    ConstraintCost(p, plus.data(), fp.data(), nullptr);
    ConstraintCost(p, minus.data(), fm.data(), nullptr);
    double fd = 0, fscale = 0;
    for (int i = 0; i < p.nefc; ++i) {
      fd += v[i] * -(fp[i] - fm[i]) / (2 * h);
      fscale += std::fabs(v[i] * fp[i]);
    }
    EXPECT_NEAR(curvature, fd, kRel * (1 + std::fabs(curvature)) + 1e-15 * fscale / h)
        << c.model << " sample " << sample;
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

// PrimalLineSearch (primal.cc; its trial points are evaluated in fused passes, elliptic contacts
// with their cone constants computed once per line search) returns the minimizer of the cost along
// the direction: from points whose rows sit on every piece, along the steepest descent -grad, the
// cost decrease at the returned step (PrimalDecrease, exact to round-off) is larger than at 0.9x,
// 0.99x, 1.01x and 1.1x the step, and the slope there, dir' grad(x + a dir), is zero up to
// round-off relative to the slope at 0 (or changes sign across a, when the minimizer sits on a kink
// of the piecewise cost).
TEST_P(SoftConstraint, LineSearchStepMinimizesTheCostAlongTheDirection) {
  const Case c = GetParam();
  ProblemAt at(c.model, c.cone, c.steps);
  const ConstraintProblem& p = at.p;
  const int nv = p.nv;
  std::mt19937_64 gen(5);
  std::normal_distribution<double> nd(0, 1);
  LineWork w(p);
  PrimalPoint &pt = w.pt, &moved = w.moved;
  std::vector<double>& dir = w.dir;
  int checked = 0;
  for (int sample = 0; sample < 20; ++sample) {
    // a point around the unconstrained acceleration, with rows on both sides of their kinks
    for (int i = 0; i < nv; ++i) pt.x[i] = p.qacc_smooth[i] + 3 * nd(gen);
    EvaluatePrimal(p, pt);
    for (int i = 0; i < nv; ++i) dir[i] = -pt.grad[i];
    w.Project(p);
    const double a =
        PrimalLineSearch(p, pt, dir.data(), w.Mdir.data(), w.Jdir.data(), w.arena);
    ASSERT_GT(a, 0) << c.model << " sample " << sample;
    const double best = w.Decrease(p, a);
    EXPECT_GT(best, 0);
    for (double factor : {0.9, 0.99, 1.01, 1.1}) {
      const double other = w.Decrease(p, factor * a);
      EXPECT_GE(best, other - 1e-12 * best) << c.model << " sample " << sample << " x" << factor;
    }
    auto slope_at = [&](double step) {
      for (int i = 0; i < nv; ++i) moved.x[i] = pt.x[i] + step * dir[i];
      EvaluatePrimal(p, moved);
      double s = 0;
      for (int i = 0; i < nv; ++i) s += dir[i] * moved.grad[i];
      return s;
    };
    double slope0 = 0;
    for (int i = 0; i < nv; ++i) slope0 += dir[i] * pt.grad[i];
    const double slope = slope_at(a);
    const bool kink = slope_at(a * (1 - 1e-9)) <= 0 && slope_at(a * (1 + 1e-9)) >= 0;
    EXPECT_TRUE(std::fabs(slope) <= 1e-9 * std::fabs(slope0) || kink)
        << c.model << " sample " << sample << " slope " << slope << " of " << slope0;
    ++checked;
  }
  EXPECT_EQ(checked, 20);
}

// PrimalDecrease (row by row from the differences, elliptic contacts with the cone constants
// computed once) is the cost at the point minus the cost at the moved point, both from
// EvaluatePrimal (ConstraintCost), for steps that move rows across their pieces and zones.
TEST_P(SoftConstraint, DecreaseIsTheDifferenceOfTheCosts) {
  const Case c = GetParam();
  ProblemAt at(c.model, c.cone, c.steps);
  const ConstraintProblem& p = at.p;
  const int nv = p.nv;
  std::mt19937_64 gen(11);
  std::normal_distribution<double> nd(0, 1);
  LineWork w(p);
  PrimalPoint &pt = w.pt, &moved = w.moved;
  std::vector<double>& dir = w.dir;
  int zone_changes = 0, cone_rows = 0;
  for (int sample = 0; sample < 20; ++sample) {
    // half the points near the solution (contacts active, elliptic ones on their cone surface),
    // half far around the unconstrained acceleration
    const bool near = sample % 2 == 0;
    for (int i = 0; i < nv; ++i) {
      pt.x[i] = near ? at.d.qacc[i] + 0.05 * nd(gen) : p.qacc_smooth[i] + 3 * nd(gen);
    }
    EvaluatePrimal(p, pt);
    for (int i = 0; i < p.nefc; ++i) {
      cone_rows += pt.state[i] == static_cast<int>(ConstraintState::kCone);
    }
    for (int i = 0; i < nv; ++i) dir[i] = nd(gen);
    w.Project(p);
    for (double step : {0.01, 0.1, 0.3, 2.0}) {
      const double decrease = w.Decrease(p, step);
      for (int i = 0; i < nv; ++i) moved.x[i] = pt.x[i] + step * dir[i];
      EvaluatePrimal(p, moved);
      EXPECT_NEAR(decrease, pt.cost - moved.cost,
                  1e-10 * (std::fabs(pt.cost) + std::fabs(moved.cost)))
          << c.model << " sample " << sample << " step " << step;
      for (int i = 0; i < p.nefc; ++i) zone_changes += pt.state[i] != moved.state[i];
    }
  }
  // the steps cross pieces (elliptic: zones), not only within one, wherever a row has pieces
  bool pieces = false;
  for (int i = 0; i < p.nefc; ++i) pieces = pieces || p.type[i] != ConstraintType::kEquality;
  if (pieces) {
    EXPECT_GT(zone_changes, 0);
  }
  if (c.cone == Cone::kElliptic) {
    EXPECT_GT(cone_rows, 0);  // the cone zone's closed form is exercised too
  }
}

INSTANTIATE_TEST_SUITE_P(
    Models, SoftConstraint,
    ::testing::Values(Case{"contact_pile.xml", Cone::kElliptic, 300},
                      Case{"contact_pile.xml", Cone::kPyramidal, 300},
                      Case{"constraints_limits.xml", Cone::kPyramidal, 50},
                      Case{"constraints_equality.xml", Cone::kPyramidal, 50}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string name = info.param.model;
      name = name.substr(0, name.find('.'));
      return name + (info.param.cone == Cone::kElliptic ? "_elliptic" : "_pyramidal");
    });

// EllipticConeCurvature: on the cone surface, hc = -d force_c / d jar_c of the contact's rows.
TEST(SoftConstraint, EllipticConeCurvatureIsTheForceDerivative) {
  ProblemAt at("contact_pile.xml", Cone::kElliptic, 300);
  const ConstraintProblem& p = at.p;
  std::mt19937_64 gen(11);
  std::normal_distribution<double> nd(0, 1);
  int checked = 0;
  for (int k = 0; k < p.ncon; ++k) {
    const Contact& c = p.contact[k];
    if (c.efc_address < 0 || c.dim < 3) continue;
    for (int sample = 0; sample < 20; ++sample) {
      // a point on the cone surface: normal below the friction norm, above the tip zone
      std::vector<double> jar(p.nefc, 0.0);
      double* j = jar.data() + c.efc_address;
      for (int r = 1; r < c.dim; ++r) j[r] = nd(gen);
      const EllipticZone probe = ClassifyElliptic(c, p.impratio, j);
      j[0] = probe.T * (0.9 - 1.5 * std::fabs(nd(gen)) / (1 + 10 * probe.m2));
      if (ClassifyElliptic(c, p.impratio, j).state != ConstraintState::kCone) continue;
      double hc[36];
      EllipticConeCurvature(p, c, j, hc);
      for (int col = 0; col < c.dim; ++col) {
        const double h = 1e-7 * std::max(1.0, std::fabs(j[col]));
        std::vector<double> plus(jar), minus(jar), fp(p.nefc), fm(p.nefc);
        plus[c.efc_address + col] += h;
        minus[c.efc_address + col] -= h;
        ASSERT_EQ(ClassifyElliptic(c, p.impratio, plus.data() + c.efc_address).state,
                  ConstraintState::kCone);
        ASSERT_EQ(ClassifyElliptic(c, p.impratio, minus.data() + c.efc_address).state,
                  ConstraintState::kCone);
        ConstraintCost(p, plus.data(), fp.data(), nullptr);
        ConstraintCost(p, minus.data(), fm.data(), nullptr);
        for (int row = 0; row < c.dim; ++row) {
          const double fd = -(fp[c.efc_address + row] - fm[c.efc_address + row]) / (2 * h);
          const double exact = hc[row * c.dim + col];
          EXPECT_NEAR(exact, fd, 1e-5 * (1 + std::fabs(exact)) + 1e-9 * p.D[c.efc_address])
              << "contact " << k << " hc(" << row << "," << col << ")";
        }
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 20) << "too few contacts with friction to be a test";
}

// WithCompressedJacobian: a dense J's nonzeros in CSR, and its runs of rows with the same
// columns (a pyramidal contact's rows), give J x and J' f bit for bit, also when some rows of a
// run have zero force; a problem whose J is sparse already keeps its CSR arrays.
TEST(SoftConstraint, CompressedJacobianGivesTheDenseProductsExactly) {
  ProblemAt at("contact_pile.xml", Cone::kPyramidal, 300);
  const ConstraintProblem& p = at.p;
  ASSERT_NE(p.J, nullptr) << "the test model's Jacobian should be dense (nv < 60)";
  ASSERT_GT(p.nefc, 10);
  Arena arena;
  // twice: the second call below takes the runs again
  arena.Reserve(2 * CompressedJacobian::Plan(at.engine->model()).doubles());
  const ConstraintProblem c = WithCompressedJacobian(p, arena);
  ASSERT_EQ(c.J, nullptr);
  std::size_t nnz = 0, dense_nonzeros = 0;
  for (int i = 0; i < p.nefc; ++i) {
    nnz += c.J_rownnz[i];
    for (int k = 0; k < p.nv; ++k) dense_nonzeros += p.J[i * p.nv + k] != 0;
    for (int e = 0; e < c.J_rownnz[i]; ++e) {
      const int adr = c.J_rowadr[i] + e;
      EXPECT_EQ(c.J_sparse[adr], p.J[i * p.nv + c.J_colind[adr]]);
      if (e > 0) {
        EXPECT_LT(c.J_colind[adr - 1], c.J_colind[adr]);
      }
    }
  }
  EXPECT_EQ(nnz, dense_nonzeros);
  EXPECT_LT(nnz, static_cast<std::size_t>(p.nefc) * p.nv) << "no zeros to skip: not a test";

  std::mt19937_64 gen(7);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> x(p.nv), f(p.nefc), y0(p.nefc), y1(p.nefc), g0(p.nv), g1(p.nv);
  for (double& v : x) v = nd(gen);
  for (double& v : f) v = nd(gen);
  // runs tile the rows and share their columns; some hold several rows
  int longest = 0;
  for (int i = 0; i < p.nefc; i += c.J_rowrun[i]) {
    ASSERT_GE(c.J_rowrun[i], 1);
    longest = std::max(longest, c.J_rowrun[i]);
    for (int r = 1; r < c.J_rowrun[i]; ++r) {
      ASSERT_EQ(c.J_rownnz[i + r], c.J_rownnz[i]);
      for (int e = 0; e < c.J_rownnz[i]; ++e) {
        EXPECT_EQ(c.J_colind[c.J_rowadr[i + r] + e], c.J_colind[c.J_rowadr[i] + e]);
      }
    }
  }
  EXPECT_GE(longest, 4) << "no contact's rows form a run: not a test of the runs";
  for (int i = 0; i < p.nefc; i += 3) f[i] = 0;  // partly inactive runs
  MulJ(p, x.data(), y0.data());
  MulJ(c, x.data(), y1.data());
  EXPECT_EQ(y0, y1);
  MulJT(p, f.data(), g0.data());
  MulJT(c, f.data(), g1.data());
  EXPECT_EQ(g0, g1);

  const ConstraintProblem again = WithCompressedJacobian(c, arena);
  EXPECT_EQ(again.J_sparse, c.J_sparse);
  EXPECT_EQ(again.J_colind, c.J_colind);
  ASSERT_NE(again.J_rowrun, nullptr);
  ConstraintProblem no_runs = c;  // the CSR row by row
  no_runs.J_rowrun = nullptr;
  MulJ(no_runs, x.data(), y0.data());
  EXPECT_EQ(y0, y1);
  MulJT(no_runs, f.data(), g0.data());
  EXPECT_EQ(g0, g1);
}

// impratio = 0 is floored like the regularizer's, not divided by.
TEST(SoftConstraint, ZeroImpratioGivesAFiniteConeRatio) {
  Contact c;
  c.dim = 3;
  c.friction[0] = c.friction[1] = 0.5;
  EXPECT_TRUE(std::isfinite(ConeFrictionRatio(c, 0.0)));
  EXPECT_DOUBLE_EQ(ConeFrictionRatio(c, 2.0), 0.125);
  const double jar[3] = {-1, 0.5, 0.2};
  EXPECT_EQ(ClassifyElliptic(c, 0.0, jar).state, ConstraintState::kQuadratic);
}

}  // namespace
}  // namespace gauss
