// Newton's Hessian factor (plugins/solvers/newton/hessian.cc) and the solver's convergence:
// the sparse factor brought to new row states by rank-one updates solves like a factor built
// from scratch at those states, both solve like the dense Cholesky, and Newton's iteration
// counts on fixed problems are pinned (a change in the line search, the Hessian or the
// convergence test shows up here first).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "constraint_assembly.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "hessian.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// The pile after it landed (newton, pyramidal), its constraint problem with a sparse or a
// dense Jacobian.
struct PileProblem {
  std::unique_ptr<Engine> engine;
  Data d;
  std::unique_ptr<FactoredInertia> ops;
  ConstraintProblem p;

  explicit PileProblem(JacobianType jacobian, Cone cone = Cone::kPyramidal) {
    Config config;
    config.jacobian = jacobian;
    config.cone = cone;
    engine = std::make_unique<Engine>(LoadModel(test::TestModel("contact_pile.xml")), config);
    d = engine->MakeData();
    for (int k = 0; k < 400; ++k) engine->Step(d);
    engine->Forward(d);
    ops = std::make_unique<FactoredInertia>(engine->model(), d);
    p = MakeProblem(engine->model(), d, *ops);
  }
};

// jar = J x - aref and the row states there.
void Evaluate(const ConstraintProblem& p, const std::vector<double>& x, std::vector<double>& jar,
              std::vector<int>& state) {
  MulJ(p, x.data(), jar.data());
  for (int i = 0; i < p.nefc; ++i) jar[i] -= p.aref[i];
  ConstraintCost(p, jar.data(), nullptr, state.data());
}

double MaxRelativeDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  return diff / std::max(scale, 1e-300);
}

TEST(NewtonHessian, UpdatedFactorSolvesLikeAFreshFactor) {
  PileProblem sparse(JacobianType::kSparse);
  PileProblem dense(JacobianType::kDense);
  const ConstraintProblem& p = sparse.p;
  ASSERT_EQ(p.J, nullptr);
  ASSERT_GT(p.nefc, 20);
  const int nv = p.nv;
  const Model& m = sparse.engine->model();
  Arena arena;
  arena.Reserve(4 * NewtonHessian::Plan(nv, m.nM, m.njmax, MaxRowNonzeros(m), true).doubles() +
                NewtonHessian::Plan(nv, m.nM, m.njmax, MaxRowNonzeros(m), false).doubles());
  std::mt19937_64 gen(3);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> x0(p.qacc_smooth, p.qacc_smooth + nv);
  std::vector<double> jar0(p.nefc), jar1(p.nefc);
  std::vector<int> s0(p.nefc), s1(p.nefc);
  Evaluate(p, x0, jar0, s0);
  int updates = 0;
  for (int trial = 0; trial < 20; ++trial) {
    ArenaScope scope(arena);
    // a nearby point: a few rows enter or leave their quadratic piece
    std::vector<double> x1(x0);
    for (double& v : x1) v += 0.05 * (trial + 1) * nd(gen);
    Evaluate(p, x1, jar1, s1);
    int changed = 0;
    for (int i = 0; i < p.nefc; ++i) changed += s0[i] != s1[i];
    NewtonHessian updated;
    ASSERT_TRUE(updated.Factor(p, jar0.data(), s0.data(), arena));
    if (changed == 0 || !updated.Update(p, jar1.data(), s1.data())) continue;
    ++updates;
    NewtonHessian fresh, reference;
    ASSERT_TRUE(fresh.Factor(p, jar1.data(), s1.data(), arena));
    ASSERT_TRUE(reference.Factor(dense.p, jar1.data(), s1.data(), arena));  // dense Cholesky
    std::vector<double> b(nv);
    for (double& v : b) v = nd(gen);
    std::vector<double> xu(b), xf(b), xd(b);
    updated.Solve(xu.data());
    fresh.Solve(xf.data());
    reference.Solve(xd.data());
    EXPECT_LT(MaxRelativeDifference(xu, xf), 1e-9) << "trial " << trial << ", " << changed
                                                   << " rows changed piece";
    EXPECT_LT(MaxRelativeDifference(xf, xd), 1e-9) << "trial " << trial;
  }
  EXPECT_GE(updates, 5) << "too few rank-one updates exercised";
}

// A CSR problem below kSparseMinDofs dofs (a constraint island of a large model: one humanoid
// of 22_humanoids; here the pile with a sparse Jacobian, 54 dofs) is factored densely by the
// solver (SparseFor), within the scratch the model's sparse plan declares, and solves like the
// factor of the dense Jacobian's problem; 60 dofs and more stay sparse.
TEST(NewtonHessian, SmallSparseProblemsFactorDenselyWithinThePlan) {
  PileProblem sparse(JacobianType::kSparse);
  PileProblem dense(JacobianType::kDense);
  const ConstraintProblem& p = sparse.p;
  ASSERT_EQ(p.J, nullptr);
  ASSERT_LT(p.nv, NewtonHessian::kSparseMinDofs);
  EXPECT_FALSE(NewtonHessian::SparseFor(p));
  EXPECT_FALSE(NewtonHessian::SparseFor(dense.p));
  ConstraintProblem large = p;
  large.nv = NewtonHessian::kSparseMinDofs;
  EXPECT_TRUE(NewtonHessian::SparseFor(large));
  large.nv = NewtonHessian::kSparseMinDofs - 1;
  EXPECT_FALSE(NewtonHessian::SparseFor(large));

  const Model& m = sparse.engine->model();
  const int nv = p.nv;
  std::vector<double> x(p.qacc_smooth, p.qacc_smooth + nv), jar(p.nefc);
  std::vector<int> state(p.nefc);
  Evaluate(p, x, jar, state);
  Arena arena;  // exactly the sparse model's plan: a request beyond it throws
  arena.Reserve(NewtonHessian::Plan(nv, m.nM, m.njmax, MaxRowNonzeros(m), true).doubles());
  NewtonHessian small;
  ASSERT_TRUE(small.Factor(p, jar.data(), state.data(), arena, NewtonHessian::SparseFor(p)));
  Arena reference_arena;
  reference_arena.Reserve(NewtonHessian::Plan(nv, m.nM, m.njmax, MaxRowNonzeros(m), false).doubles());
  NewtonHessian reference;
  ASSERT_TRUE(reference.Factor(dense.p, jar.data(), state.data(), reference_arena));
  std::mt19937_64 gen(5);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> b(nv);
  for (double& v : b) v = nd(gen);
  std::vector<double> xs(b), xd(b);
  small.Solve(xs.data());
  reference.Solve(xd.data());
  EXPECT_LT(MaxRelativeDifference(xs, xd), 1e-12);
}

// Elliptic cones: the sparse factor holds the quadratic rows, and a copy of it gets the cone
// curvature J_c' Hc J_c of the contacts on their cone surface as rank-one updates; after a
// move to a nearby point (rows changing piece, the curvature moving with jar) it must solve like
// the dense Cholesky of the Hessian assembled at that point.
TEST(NewtonHessian, EllipticConeCurvatureAsRankOneUpdates) {
  PileProblem sparse(JacobianType::kSparse, Cone::kElliptic);
  PileProblem dense(JacobianType::kDense, Cone::kElliptic);
  const ConstraintProblem& p = sparse.p;
  ASSERT_EQ(p.J, nullptr);
  ASSERT_EQ(p.nefc, dense.p.nefc);
  const int nv = p.nv;
  const Model& m = sparse.engine->model();
  Arena arena;
  arena.Reserve(
      2 * NewtonHessian::Plan(nv, m.nM, m.njmax, MaxRowNonzeros(m), true, Cone::kElliptic)
              .doubles() +
      NewtonHessian::Plan(nv, m.nM, m.njmax, MaxRowNonzeros(m), false).doubles());
  std::mt19937_64 gen(5);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> x0(p.qacc_smooth, p.qacc_smooth + nv);
  std::vector<double> jar0(p.nefc), jar1(p.nefc);
  std::vector<int> s0(p.nefc), s1(p.nefc);
  Evaluate(p, x0, jar0, s0);
  int with_cones = 0;
  for (int trial = 0; trial < 20; ++trial) {
    ArenaScope scope(arena);
    std::vector<double> x1(x0);
    for (double& v : x1) v += 0.05 * (trial + 1) * nd(gen);
    Evaluate(p, x1, jar1, s1);
    int cones = 0;
    for (int i = 0; i < p.nefc; ++i) cones += s1[i] == static_cast<int>(ConstraintState::kCone);
    NewtonHessian updated, reference;
    ASSERT_TRUE(updated.Factor(p, jar0.data(), s0.data(), arena));
    // an update may be refused (too many rows changed): then a new factor at the point
    if (!updated.Update(p, jar1.data(), s1.data())) {
      ASSERT_TRUE(updated.Factor(p, jar1.data(), s1.data(), arena));
    }
    ASSERT_TRUE(reference.Factor(dense.p, jar1.data(), s1.data(), arena));  // dense Cholesky
    std::vector<double> b(nv);
    for (double& v : b) v = nd(gen);
    std::vector<double> xu(b), xd(b);
    updated.Solve(xu.data());
    reference.Solve(xd.data());
    EXPECT_LT(MaxRelativeDifference(xu, xd), 1e-9) << "trial " << trial << ", " << cones
                                                   << " rows on the cone surface";
    with_cones += cones > 0;
  }
  EXPECT_GE(with_cones, 5) << "too few points with contacts on their cone surface";
}

// Newton's iterations at fixed states, to the default tolerance, from a cold start (qacc_smooth:
// the warmstart flag off) so that each count measures the whole solve.
int NewtonIterations(const std::string& model, Cone cone, int steps) {
  Config config;
  config.cone = cone;
  config.flags["warmstart"] = false;
  Engine engine(LoadModel(test::TestModel(model)), config);
  Data d = engine.MakeData();
  for (int i = 0; i < engine.model().nv; ++i) d.qvel[i] = 0.3 * std::sin(1.3 * i + 0.2);
  for (int k = 0; k < steps; ++k) engine.Step(d);
  engine.Forward(d);
  EXPECT_GT(d.nefc, 0) << model;
  return d.solver_iter;
}

TEST(Newton, IterationCountsArePinned) {
  // contacts entering and leaving their pieces along the way
  EXPECT_EQ(NewtonIterations("contact_pile.xml", Cone::kPyramidal, 400), 5);
  // the solution's rows on the same pieces as the start's: the cost is one quadratic there and
  // the exact Newton step lands on its minimum
  EXPECT_EQ(NewtonIterations("contact_pile.xml", Cone::kElliptic, 400), 1);
  EXPECT_EQ(NewtonIterations("constraints_limits.xml", Cone::kPyramidal, 50), 1);
  EXPECT_EQ(NewtonIterations("constraints_equality.xml", Cone::kPyramidal, 50), 1);
}

}  // namespace
}  // namespace gauss
