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
#include <map>
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

// Row i of Gauss's Jacobian as a dense vector (dense or CSR storage).
std::vector<double> GaussJacobianRow(const Model& m, const Data& d, int i) {
  std::vector<double> row(m.nv, 0.0);
  if (!d.efc_J_rownnz.empty()) {
    for (int p = d.efc_J_rowadr[i]; p < d.efc_J_rowadr[i] + d.efc_J_rownnz[i]; ++p) {
      row[d.efc_J_colind[p]] = d.efc_J[p];
    }
  } else {
    std::copy_n(d.efc_J.begin() + static_cast<long>(i) * m.nv, m.nv, row.begin());
  }
  return row;
}

// Index of the largest relative error |a - b| / max(1, |b|).
int WorstIndex(const double* a, const double* b, int n) {
  int worst = 0;
  double value = -1;
  for (int i = 0; i < n; ++i) {
    const double e = std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i]));
    if (e > value) {
      value = e;
      worst = i;
    }
  }
  return worst;
}

// "type:id type:id ..." of a row list, for failure messages.
std::string RowList(const int* type, const int* id, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += std::to_string(type[i]) + ":" + std::to_string(id[i]) + " ";
  return out;
}

// Largest relative error of each compared quantity over all states.
struct Worst {
  std::map<std::string, double> error;
  void Update(const std::string& name, double value) {
    error[name] = std::max(error[name], value);
  }
};

// Compares the rows assembled by Gauss and MuJoCo at the current state; returns false (after
// reporting) on the first mismatch so the caller can stop.
bool CompareRows(const ConstraintPair& p, int s, Worst& worst) {
  const mjModel* m = p.mj.get();
  const mjData* md = p.mjd.get();
  const Data& d = p.d;
  const int n = md->nefc;
  EXPECT_EQ(d.nefc, n) << "state " << s << "\n  gauss rows (type:id) "
                       << RowList(d.efc_type.data(), d.efc_id.data(), d.nefc)
                       << "\n  mujoco rows (type:id) " << RowList(md->efc_type, md->efc_id, n);
  EXPECT_EQ(d.ne, md->ne) << "state " << s;
  EXPECT_EQ(d.nf, md->nf) << "state " << s;
  if (d.nefc != n || d.ne != md->ne || d.nf != md->nf) return false;
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(d.efc_type[i], md->efc_type[i]) << "state " << s << " row " << i;
    EXPECT_EQ(d.efc_id[i], md->efc_id[i]) << "state " << s << " row " << i;
    if (d.efc_type[i] != md->efc_type[i] || d.efc_id[i] != md->efc_id[i]) return false;
  }
  const std::vector<std::tuple<const char*, const double*, const double*, int>> fields = {
      {"efc_pos", d.efc_pos.data(), md->efc_pos, n},
      {"efc_margin", d.efc_margin.data(), md->efc_margin, n},
      {"efc_R", d.efc_R.data(), md->efc_R, n},
      {"efc_D", d.efc_D.data(), md->efc_D, n},
      {"efc_KBIP", d.efc_KBIP.data(), md->efc_KBIP, 4 * n},
      {"efc_vel", d.efc_vel.data(), md->efc_vel, n},
      {"efc_aref", d.efc_aref.data(), md->efc_aref, n},
      {"efc_diagApprox", d.efc_diagApprox.data(), md->efc_diagApprox, n},
      {"efc_frictionloss", d.efc_frictionloss.data(), md->efc_frictionloss, n}};
  bool ok = true;
  for (const auto& [name, a, b, count] : fields) {
    const double err = MaxRelError(a, b, count);
    worst.Update(name, err);
    const int k = WorstIndex(a, b, count);
    EXPECT_LE(err, kRowTolerance) << name << ", state " << s << ", element " << k << ": gauss "
                                  << a[k] << " mujoco " << b[k];
    ok = ok && err <= kRowTolerance;
  }
  double jerr = 0;
  for (int i = 0; i < n; ++i) {
    const std::vector<double> row = GaussJacobianRow(p.engine->model(), d, i);
    jerr = std::max(jerr, MaxRelError(row.data(), md->efc_J + static_cast<long>(i) * m->nv, m->nv));
  }
  worst.Update("efc_J", jerr);
  EXPECT_LE(jerr, kRowTolerance) << "efc_J, state " << s;
  return ok && jerr <= kRowTolerance;
}

// Compares the solution; returns false on a mismatch.
bool CompareSolution(const ConstraintPair& p, int s, int iterations, Worst& worst) {
  const mjModel* m = p.mj.get();
  const mjData* md = p.mjd.get();
  const Data& d = p.d;
  const double qacc = MaxRelError(d.qacc.data(), md->qacc, m->nv);
  const double force = MaxRelError(d.efc_force.data(), md->efc_force, md->nefc);
  const double qfrc = MaxRelError(d.qfrc_constraint.data(), md->qfrc_constraint, m->nv);
  worst.Update("qacc", qacc);
  worst.Update("efc_force", force);
  worst.Update("qfrc_constraint", qfrc);
  EXPECT_LE(qacc, kSolveTolerance) << "qacc, state " << s;
  EXPECT_LE(force, kSolveTolerance) << "efc_force, state " << s;
  EXPECT_LE(qfrc, kSolveTolerance) << "qfrc_constraint, state " << s;
  // both solvers must have stopped on the tolerance, not on the iteration limit
  EXPECT_LT(d.solver_iter, iterations) << "Gauss newton did not converge, state " << s;
  EXPECT_LT(md->solver_iter, iterations) << "MuJoCo newton did not converge, state " << s;
  return qacc <= kSolveTolerance && force <= kSolveTolerance && qfrc <= kSolveTolerance;
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
    p.CopyInputs();  // before mj_forward, which overwrites qacc_warmstart with its solution
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Forward(p.d);
    ASSERT_TRUE(CompareRows(p, s, worst)) << path;
    ASSERT_TRUE(CompareSolution(p, s, setup.iterations, worst)) << path;
    for (int i = 0; i < p.d.nefc; ++i) {
      types.insert(p.d.efc_type[i]);
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
    [](const ::testing::TestParamInfo<std::tuple<std::string, Cone>>& info) {
      return ModelTestName(std::get<0>(info.param)) +
             (std::get<1>(info.param) == Cone::kElliptic ? "_elliptic" : "_pyramidal");
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
    p.CopyInputs();  // before mj_forward, which overwrites qacc_warmstart with its solution
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Forward(p.d);
    ASSERT_TRUE(CompareRows(p, s, worst)) << GetParam();
    ASSERT_TRUE(CompareSolution(p, s, setup.iterations, worst)) << GetParam();
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
