// PGS's dual problem (plugins/solvers/pgs/dual.cc): AR = J M^-1 J' + R built from W = J L^-1
// column by column, stored dense or sparse, equals the matrix formed the plain way (each row of
// J solved through M) on contact, limit and equality problems with one and several kinematic
// trees; rows on no common dof tree get exactly zero, the storage follows the documented rule
// (dense when more than a third of the pairs of rows share a dof tree, pairs counted per tree
// when each row lies on one); the inverse diagonal is 1 / AR_ii; the residuals (both summation
// orders), the cost and the map back to accelerations agree with the plain matrix too; an
// elliptic contact's block (ContactBlock) has the bits of the row-by-row reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "constraint_assembly.h"
#include "dual.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// A model stepped until it carries constraint rows, then its constraint problem.
struct SteppedProblem {
  std::unique_ptr<Engine> engine;
  Data d;
  std::unique_ptr<FactoredInertia> ops;
  ConstraintProblem p;

  SteppedProblem(const std::string& path, Cone cone, int steps) {
    Config config;
    config.solver = "pgs";
    config.cone = cone;
    engine = std::make_unique<Engine>(LoadModel(path), config);
    d = engine->MakeData();
    for (int k = 0; k < steps; ++k) engine->Step(d);
    engine->Forward(d);
    ops = std::make_unique<FactoredInertia>(engine->model(), d);
    p = MakeProblem(engine->model(), d, *ops);
  }
};

// Row i of J, dense (nv).
std::vector<double> DenseRow(const ConstraintProblem& p, int i) {
  std::vector<double> row(p.nv, 0.0);
  if (p.J) {
    std::copy(p.J + static_cast<std::size_t>(i) * p.nv, p.J + static_cast<std::size_t>(i + 1) * p.nv,
              row.begin());
  } else {
    for (int e = 0; e < p.J_rownnz[i]; ++e) {
      row[p.J_colind[p.J_rowadr[i] + e]] = p.J_sparse[p.J_rowadr[i] + e];
    }
  }
  return row;
}

struct Case {
  std::string path;
  Cone cone;
  int steps;
  bool several_trees;  // rows on different dof trees must occur
  int storage = -1;    // the storage AR must have: 1 dense, 0 sparse, -1 either
};

class PgsDual : public ::testing::TestWithParam<Case> {};
// The elliptic cases only (EllipticCases): the tests of an elliptic contact's rows, which
// pyramidal cones do not have.
class PgsDualElliptic : public ::testing::TestWithParam<Case> {};

TEST_P(PgsDual, MatchesThePlainMatrixAndItsPattern) {
  const Case& c = GetParam();
  SteppedProblem s(c.path, c.cone, c.steps);
  const ConstraintProblem& p = s.p;
  const Model& m = s.engine->model();
  const int n = p.nefc, nv = p.nv;
  ASSERT_GT(n, 10) << c.path;

  Arena arena;
  arena.Reserve(DualProblem::Plan(nv, m.njmax).doubles());
  DualProblem dual;
  dual.Build(p, arena);
  ASSERT_EQ(dual.size(), n);

  // the plain way: column i of M^-1 J' by a solve through M, then AR_ij = J_j . that + R
  std::vector<std::vector<double>> rows(n), minv_jt(n);
  // the dof trees (root dofs) each row acts on
  std::vector<std::vector<char>> on_tree(n, std::vector<char>(nv, 0));
  for (int i = 0; i < n; ++i) {
    rows[i] = DenseRow(p, i);
    minv_jt[i] = rows[i];
    s.ops->SolveM(minv_jt[i].data());
    for (int k = 0; k < nv; ++k) {
      if (rows[i][k] == 0) continue;
      int root = k;
      while (m.dof_parentid[root] >= 0) root = m.dof_parentid[root];
      on_tree[i][root] = 1;
    }
  }
  double largest = 0;
  std::vector<double> plain(static_cast<std::size_t>(n) * n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double v = (i == j ? p.R[i] : 0.0);
      for (int k = 0; k < nv; ++k) v += rows[j][k] * minv_jt[i][k];
      plain[static_cast<std::size_t>(i) * n + j] = v;
      largest = std::max(largest, std::fabs(v));
    }
  }
  long pairs_apart = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(dual.Diagonal(i), dual.At(i, i));
    EXPECT_EQ(dual.InverseDiagonal(i), 1 / dual.Diagonal(i));
    for (int j = 0; j < n; ++j) {
      const double want = plain[static_cast<std::size_t>(i) * n + j];
      EXPECT_NEAR(dual.At(i, j), want, 1e-12 * largest) << c.path << " AR(" << i << "," << j << ")";
      bool common = false;
      for (int t = 0; t < nv; ++t) common = common || (on_tree[i][t] && on_tree[j][t]);
      if (!common && i != j) {
        ++pairs_apart;
        EXPECT_EQ(dual.At(i, j), 0.0) << "rows on different trees " << i << "," << j;
      }
    }
  }
  if (c.several_trees) {
    EXPECT_GT(pairs_apart, 0) << c.path;
  }
  const long pairs = static_cast<long>(n) * n - pairs_apart;
  EXPECT_EQ(dual.dense(), 3 * pairs > static_cast<long>(n) * n) << c.path;
  if (c.storage >= 0) {
    EXPECT_EQ(dual.dense(), c.storage == 1) << c.path;
  }
  std::printf("[ measured ] %s: %d rows, %ld of %ld pairs interact, %s storage\n", c.path.c_str(),
              n, pairs, static_cast<long>(n) * n, dual.dense() ? "dense" : "sparse");

  // residual b + AR f and qacc = a0 + M^-1 J' f at a random force
  std::mt19937_64 gen(11);
  std::normal_distribution<double> normal(0, 1);
  std::vector<double> f(n), b(n), qacc(nv), want_qacc(p.qacc_smooth, p.qacc_smooth + nv);
  for (double& v : f) v = normal(gen);
  std::vector<double> zero(n, 0.0);
  for (int i = 0; i < n; ++i) {
    b[i] = dual.Residual(i, zero.data());
    double jac = -p.aref[i];
    for (int k = 0; k < nv; ++k) jac += rows[i][k] * p.qacc_smooth[k];
    EXPECT_NEAR(b[i], jac, 1e-12 * std::max(1.0, std::fabs(jac)));
    for (int k = 0; k < nv; ++k) want_qacc[k] += minv_jt[i][k] * f[i];
  }
  for (int i = 0; i < n; ++i) {
    double want = b[i];
    for (int j = 0; j < n; ++j) want += plain[static_cast<std::size_t>(i) * n + j] * f[j];
    EXPECT_NEAR(dual.Residual(i, f.data()), want, 1e-11 * largest * n) << "row " << i;
    EXPECT_NEAR(dual.SweepResidual(i, f.data()), want, 1e-11 * largest * n) << "row " << i;
  }
  dual.Acceleration(p, f.data(), qacc.data());
  for (int k = 0; k < nv; ++k) {
    EXPECT_NEAR(qacc[k], want_qacc[k], 1e-10 * std::max(1.0, std::fabs(want_qacc[k])));
  }
  // the cost from the stored matrix: 1/2 f'AR f + f'b
  double cost = 0;
  for (int i = 0; i < n; ++i) {
    double arf = 0;
    for (int j = 0; j < n; ++j) arf += plain[static_cast<std::size_t>(i) * n + j] * f[j];
    cost += f[i] * (0.5 * arf + b[i]);
  }
  EXPECT_NEAR(dual.Cost(f.data()), cost, 1e-10 * std::max(1.0, std::fabs(cost)));
}

// A dense J's W is built by groups of rows (a contact's rows share one walk up the dof tree, as
// do up to four consecutive rows of other kinds, dual.cc BuildDenseW); the same rows given as
// CSR take the row-by-row build. Both must give AR, its storage and the accelerations bit for
// bit.
TEST_P(PgsDual, DenseJacobianByRowGroupsGivesTheBitsOfTheRowByRowBuild) {
  const Case& c = GetParam();
  SteppedProblem s(c.path, c.cone, c.steps);
  const ConstraintProblem& dense = s.p;
  if (!dense.J) GTEST_SKIP() << c.path << " has a sparse Jacobian";
  const Model& m = s.engine->model();
  const int n = dense.nefc, nv = dense.nv;
  int groups_of_several = 0;
  for (int i = 1; i < n; ++i) {
    groups_of_several += IsContactRow(dense.type[i]) && dense.type[i] == dense.type[i - 1] &&
                         dense.id[i] == dense.id[i - 1];
  }
  ASSERT_GT(groups_of_several, 0) << c.path << ": no contact with several rows";

  std::vector<int> rownnz(n), rowadr(n), colind;
  std::vector<double> values;
  for (int i = 0; i < n; ++i) {
    rowadr[i] = static_cast<int>(colind.size());
    const std::vector<double> row = DenseRow(dense, i);
    for (int k = 0; k < nv; ++k) {
      if (row[k] == 0) continue;
      colind.push_back(k);
      values.push_back(row[k]);
    }
    rownnz[i] = static_cast<int>(colind.size()) - rowadr[i];
  }
  ConstraintProblem csr = dense;
  csr.J = nullptr;
  csr.J_rownnz = rownnz.data();
  csr.J_rowadr = rowadr.data();
  csr.J_colind = colind.data();
  csr.J_sparse = values.data();

  Arena arena_dense, arena_csr;
  arena_dense.Reserve(DualProblem::Plan(nv, m.njmax).doubles());
  arena_csr.Reserve(DualProblem::Plan(nv, m.njmax).doubles());
  DualProblem by_groups, by_rows;
  by_groups.Build(dense, arena_dense);
  by_rows.Build(csr, arena_csr);
  ASSERT_EQ(by_groups.dense(), by_rows.dense());
  std::mt19937_64 gen(5);
  std::normal_distribution<double> normal(0, 1);
  std::vector<double> f(n);
  for (double& v : f) v = normal(gen);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      ASSERT_EQ(by_groups.At(i, j), by_rows.At(i, j)) << "AR(" << i << "," << j << ")";
    }
    ASSERT_EQ(by_groups.InverseDiagonal(i), by_rows.InverseDiagonal(i));
  }
  std::vector<double> qacc_groups(nv), qacc_rows(nv);
  by_groups.Acceleration(dense, f.data(), qacc_groups.data());
  by_rows.Acceleration(csr, f.data(), qacc_rows.data());
  for (int k = 0; k < nv; ++k) EXPECT_EQ(qacc_groups[k], qacc_rows[k]) << "dof " << k;
}

// The bits of a double (so that +0 and -0, and NaNs, compare as stored).
std::uint64_t Bits(double v) {
  std::uint64_t u;
  std::memcpy(&u, &v, sizeof(u));
  return u;
}

// The elliptic update reads each contact's residuals and AR block through ContactBlock (a
// sparse AR's rows of one contact run side by side over their shared columns): it must give
// Residual's and At's numbers bit for bit, dense or sparse.
TEST_P(PgsDualElliptic, ContactBlockGivesTheBitsOfResidualAndAt) {
  const Case& c = GetParam();
  ASSERT_EQ(c.cone, Cone::kElliptic) << "EllipticCases only";
  SteppedProblem s(c.path, c.cone, c.steps);
  const ConstraintProblem& p = s.p;
  Arena arena;
  arena.Reserve(DualProblem::Plan(p.nv, s.engine->model().njmax).doubles());
  DualProblem dual;
  dual.Build(p, arena);
  std::mt19937_64 gen(11);
  std::normal_distribution<double> normal(0, 1);
  std::vector<double> f(p.nefc);
  for (double& v : f) v = normal(gen);
  int contacts = 0;
  for (int i = 0; i < p.nefc;) {
    if (p.type[i] != ConstraintType::kContactElliptic) {
      ++i;
      continue;
    }
    const int dim = p.contact[p.id[i]].dim;
    double res[6], A[36];
    switch (dim) {
      case 1: dual.ContactBlock<1>(i, f.data(), res, A); break;
      case 3: dual.ContactBlock<3>(i, f.data(), res, A); break;
      case 4: dual.ContactBlock<4>(i, f.data(), res, A); break;
      case 6: dual.ContactBlock<6>(i, f.data(), res, A); break;
      default: FAIL() << "contact of dimension " << dim;
    }
    for (int r = 0; r < dim; ++r) {
      EXPECT_EQ(Bits(res[r]), Bits(dual.Residual(i + r, f.data()))) << "row " << i + r;
      for (int k = 0; k < dim; ++k) {
        EXPECT_EQ(Bits(A[r * dim + k]), Bits(dual.At(i + r, i + k))) << "AR(" << i + r << ","
                                                                     << i + k << ")";
      }
    }
    ++contacts;
    i += dim;
  }
  ASSERT_GT(contacts, 0) << c.path << ": no elliptic contact";
}

std::vector<Case> Cases() {
  return {
      // one tree: every pair of rows shares the root dofs (dense storage)
      {test::RepoModel("humanoid.xml"), Cone::kPyramidal, 150, false},
      {test::RepoModel("humanoid.xml"), Cone::kElliptic, 150, false},
      // free bodies on a pile: rows of two trees (contacts between bodies) and of one
      {test::TestModel("contact_pile.xml"), Cone::kPyramidal, 400, true},
      {test::TestModel("contact_pile.xml"), Cone::kElliptic, 400, true},
      // piles, a pendulum on its limit, a friction-loss hinge and arms coupled by an equality
      // (sparse storage)
      {test::TestModel("islands_groups.xml"), Cone::kPyramidal, 200, true},
      {test::TestModel("islands_groups.xml"), Cone::kElliptic, 200, true},
      // bodies apart on a floor, each row on one tree (pairs counted per tree): two trees
      // (dense storage with exact zeros between them) and four (sparse)
      {test::TestModel("pgs_apart_trees.xml"), Cone::kPyramidal, 100, true, 1},
      {test::TestModel("pgs_apart_trees_four.xml"), Cone::kElliptic, 100, true, 0},
  };
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.path.substr(info.param.path.rfind('/') + 1);
  name = name.substr(0, name.find('.'));
  name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
  return name + (info.param.cone == Cone::kElliptic ? "Elliptic" : "Pyramidal");
}

std::vector<Case> EllipticCases() {
  std::vector<Case> out;
  for (const Case& c : Cases()) {
    if (c.cone == Cone::kElliptic) out.push_back(c);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Models, PgsDual, ::testing::ValuesIn(Cases()), CaseName);
INSTANTIATE_TEST_SUITE_P(Models, PgsDualElliptic, ::testing::ValuesIn(EllipticCases()),
                         CaseName);

}  // namespace
}  // namespace gauss
