// The constraint model and the newton solver against MuJoCo 2.2.2, without contacts.
//
// For each model (the hand-written constraint models with limits, friction loss, equalities and
// custom solref/solimp; MuJoCo's humanoid; the Gymnasium models) and both friction cones, at
// 100 random states (states violating limits and equalities, states straddling limits within
// their margins, states inside the solimp widths), with contacts disabled on both sides and
// newton at tolerance 1e-12 (at most 1000 iterations), this checks that Gauss assembles the
// same constraint rows as MuJoCo (nefc, ne, nf, efc_type, efc_id exactly; efc_J, efc_pos,
// efc_margin, efc_R, efc_D, efc_KBIP, efc_vel, efc_aref, efc_diagApprox to 1e-10 relative)
// and solves them to the same point (qacc, efc_force, qfrc_constraint to 1e-6 relative, both
// solvers converged). Relative error: max |a - b| / max(1, |b|), b = MuJoCo's value.
//
// Without contacts the cone changes nothing; both are run so that a cone-dependent code path
// that touches non-contact rows would show up. A second test runs Gauss with the sparse
// (CSR) Jacobian against MuJoCo's dense one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "constraint_pair.h"

namespace gauss::test {
namespace {

constexpr double kRowTolerance = 1e-10;    // assembled rows and parameters
constexpr double kSolveTolerance = 1e-6;   // qacc, efc_force, qfrc_constraint
constexpr int kStates = 100;

// Compares the rows assembled by Gauss and MuJoCo at the current state; returns false (after
// reporting) on the first mismatch so the caller can stop.
bool CompareRows(const ConstraintPair& p, int s, Worst& worst) {
  const mjData* md = p.mjd.get();
  const Data& d = p.d;
  if (!SameRows(d, md, s)) return false;
  const int n = md->nefc;
  RowFields fields = RowParameterFields(d, md);
  fields.emplace_back("efc_diagApprox", d.efc_diagApprox.data(), md->efc_diagApprox, n);
  fields.emplace_back("efc_frictionloss", d.efc_frictionloss.data(), md->efc_frictionloss, n);
  return CompareRowValues(p, s, fields, kRowTolerance, worst);
}

// Row types each hand-written model must produce somewhere in its 100 states, so that the test
// cannot pass by never building the rows it is meant to check.
std::set<int> ExpectedTypes(const std::string& path) {
  if (path.find("constraints_limits") != std::string::npos) return {1, 2, 3, 4};
  if (path.find("constraints_equality") != std::string::npos) return {0};
  if (path.find("constraints_soft") != std::string::npos) return {0, 3, 4};
  if (path.find("constraints_planar_loop") != std::string::npos) return {0, 3};
  return {};
}

class ConstraintReference : public ::testing::TestWithParam<std::tuple<std::string, Cone>> {};

TEST_P(ConstraintReference, RowsAndNewtonSolutionMatchMujocoAt100RandomStates) {
  const auto& [path, cone] = GetParam();
  SolverSetup setup;
  setup.cone = cone;
  ConstraintPair p(path, setup);
  ASSERT_TRUE(p.mj);
  std::mt19937_64 gen(1234);
  Worst worst;
  std::set<int> types;
  int rows = 0, unsaturated = 0, max_iter_gauss = 0, max_iter_mujoco = 0;
  for (int s = 0; s < kStates; ++s) {
    RandomConstraintState(p.mj.get(), p.mjd.get(), gen, s);
    p.CopyInputs(/*warmstart=*/true);  // before mj_forward, which overwrites qacc_warmstart with its solution
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Forward(p.d);
    ASSERT_TRUE(CompareRows(p, s, worst)) << path;
    ASSERT_TRUE(CompareSolution(p, s, setup.iterations, kSolveTolerance, worst)) << path;
    for (int i = 0; i < p.d.nefc; ++i) {
      types.insert(static_cast<int>(p.d.efc_type[i]));
      // impedance strictly between its bounds: d'(r) != 0
      if (p.d.efc_KBIP[4 * i + 3] != 0) ++unsaturated;
    }
    rows += p.d.nefc;
    max_iter_gauss = std::max(max_iter_gauss, p.d.solver_iter);
    max_iter_mujoco = std::max(max_iter_mujoco, p.mjd->solver_iter);
  }
  for (int t : ExpectedTypes(path)) EXPECT_TRUE(types.count(t)) << "no row of type " << t;
  if (path.find("constraints_") != std::string::npos) {
    EXPECT_GT(unsaturated, 0) << "no row inside its solimp width";
  }
  std::printf("[ measured ] %s cone=%s rows=%d unsaturated=%d newton iterations max gauss=%d "
              "mujoco=%d",
              ModelTestName(path).c_str(), cone == Cone::kElliptic ? "elliptic" : "pyramidal",
              rows, unsaturated, max_iter_gauss, max_iter_mujoco);
  for (const auto& [name, err] : worst.error) {
    std::printf(" %s=%.1e", name.c_str(), err);
    RecordProperty("max_rel_" + name, std::to_string(err));
  }
  std::printf("\n");
}

INSTANTIATE_TEST_SUITE_P(
    Models, ConstraintReference,
    ::testing::Combine(::testing::ValuesIn(ConstraintModels()),
                       ::testing::Values(Cone::kPyramidal, Cone::kElliptic)),
    ModelConeTestName);

// pgs (default, MuJoCo 2.2.2's scalar sweeps: equality rows one at a time) stopped after 8
// sweeps, before it converges, is at MuJoCo's iterate.
class PgsConstraintIterates : public ::testing::TestWithParam<std::string> {};

TEST_P(PgsConstraintIterates, UnconvergedPgsStopsAtMujocosIterate) {
  SolverSetup setup;
  setup.solver = "pgs";
  setup.iterations = 8;
  setup.tolerance = 1e-12;
  ConstraintPair p(GetParam(), setup);
  ASSERT_TRUE(p.mj);
  std::mt19937_64 gen(4321);
  Worst worst;
  int capped = 0;
  for (int s = 0; s < 40; ++s) {
    RandomConstraintState(p.mj.get(), p.mjd.get(), gen, s);
    p.CopyInputs(/*warmstart=*/true);
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Forward(p.d);
    ASSERT_TRUE(CompareRows(p, s, worst)) << GetParam();
    EXPECT_EQ(p.d.solver_iter, p.mjd->solver_iter) << "state " << s;
    const double qacc = MaxRelError(p.d.qacc.data(), p.mjd->qacc, p.mj->nv);
    worst.Update("qacc", qacc);
    EXPECT_LE(qacc, 1e-8) << "state " << s;
    capped += p.mjd->solver_iter == setup.iterations;
  }
  EXPECT_GT(capped, 5) << "the states must stop pgs before convergence";
  std::printf("[ measured ] pgs %s: %d of 40 states at the 8-sweep cap, qacc=%.1e\n",
              ModelTestName(GetParam()).c_str(), capped, worst.error["qacc"]);
}

INSTANTIATE_TEST_SUITE_P(Models, PgsConstraintIterates,
                         ::testing::Values(TestModel("constraints_limits.xml"),
                                           TestModel("constraints_equality.xml")),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return ModelTestName(info.param);
                         });

// Gauss with the sparse (CSR) constraint Jacobian must build the same rows and reach the same
// solution as MuJoCo with its dense one.
class SparseJacobianReference : public ::testing::TestWithParam<std::string> {};

TEST_P(SparseJacobianReference, SparseJacobianMatchesMujocoAt30RandomStates) {
  SolverSetup setup;
  setup.jacobian = JacobianType::kSparse;
  ConstraintPair p(GetParam(), setup);
  ASSERT_TRUE(p.mj);
  ASSERT_FALSE(p.d.efc_J_rownnz.empty()) << "jacobian=sparse did not select the CSR storage";
  std::mt19937_64 gen(99);
  Worst worst;
  for (int s = 0; s < 30; ++s) {
    RandomConstraintState(p.mj.get(), p.mjd.get(), gen, s);
    p.CopyInputs(/*warmstart=*/true);  // before mj_forward, which overwrites qacc_warmstart with its solution
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Forward(p.d);
    ASSERT_TRUE(CompareRows(p, s, worst)) << GetParam();
    ASSERT_TRUE(CompareSolution(p, s, setup.iterations, kSolveTolerance, worst)) << GetParam();
  }
  std::printf("[ measured ] sparse %s efc_J=%.1e qacc=%.1e efc_force=%.1e\n",
              ModelTestName(GetParam()).c_str(), worst.error["efc_J"], worst.error["qacc"],
              worst.error["efc_force"]);
}

INSTANTIATE_TEST_SUITE_P(Models, SparseJacobianReference,
                         ::testing::Values(TestModel("constraints_limits.xml"),
                                           TestModel("constraints_equality.xml"),
                                           MujocoSampleModel("humanoid/humanoid.xml")),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return ModelTestName(info.param);
                         });

}  // namespace
}  // namespace gauss::test
