// The columns each row of a dense Jacobian was built over (Data::efc_J_dense_*,
// ConstraintProblem::J_dense_*): they must cover every nonzero of the row, which the products
// that read only them (MulJ, MulJT, J qvel, the solvers' CSR views) rely on for their bits;
// and the J' force a solver hands back (SolveByproducts) must be the engine's own sum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "constraint_assembly.h"
#include "gauss/config.h"
#include "gauss/constraint.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// Models with dense Jacobians and rows of every kind: contacts between free bodies (box_stack,
// pile), a one-tree humanoid (contacts, limits), equalities, limits, friction loss.
const char* const kRepoModels[] = {"small/box_stack.xml", "pile.xml", "humanoid.xml"};
const char* const kTestModels[] = {"constraints_equality.xml", "constraints_limits.xml",
                                   "islands_groups.xml"};

std::vector<std::string> Models() {
  std::vector<std::string> out;
  for (const char* m : kRepoModels) out.push_back(test::RepoModel(m));
  for (const char* m : kTestModels) out.push_back(test::TestModel(m));
  return out;
}

Engine MakeEngine(const std::string& path, JacobianType jacobian, bool islands) {
  Config config;
  config.solver = "newton";
  config.jacobian = jacobian;
  config.flags["island"] = islands;
  return Engine(LoadModel(path), config);
}

// A state with rows: 200 steps from the reference configuration with some velocity noise,
// then Forward (the rows, their Jacobian and the solver's force at that state).
Data MovingWithRows(const Engine& engine) {
  Data d = engine.MakeData();
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 0.3);
  for (double& v : d.qvel) v = noise(rng);
  for (int k = 0; k < 200; ++k) engine.Step(d);
  engine.Forward(d);
  return d;
}

// p without its rows' columns: MulJ and MulJT then take the dense loops over all of J.
ConstraintProblem WithDenseLoops(ConstraintProblem p) {
  p.J_dense_rownnz = p.J_dense_rowadr = p.J_dense_colind = nullptr;
  return p;
}

bool SameBits(const std::vector<double>& a, const std::vector<double>& b, int n) {
  return std::memcmp(a.data(), b.data(), sizeof(double) * n) == 0;
}

// Row by row, the dense J's columns against the same model's sparse J at the same state: the
// columns listed for the dense row are the sparse row's (built by the same calls), the dense
// values there are the sparse values, and every other entry of the dense row is an exact zero.
TEST(ConstraintDenseRowColumns, CoverEveryNonzeroOfEachRow) {
  for (const std::string& path : Models()) {
    SCOPED_TRACE(path);
    const Engine dense = MakeEngine(path, JacobianType::kDense, false);
    const Engine sparse = MakeEngine(path, JacobianType::kSparse, false);
    const Model& m = dense.model();
    const Data dd = MovingWithRows(dense);
    Data ds = sparse.MakeData();
    ds.qpos = dd.qpos;
    ds.qvel = dd.qvel;
    ds.act = dd.act;
    ds.ctrl = dd.ctrl;
    sparse.Forward(ds);
    ASSERT_FALSE(dd.efc_J_dense_rownnz.empty());
    ASSERT_TRUE(ds.efc_J_dense_rownnz.empty());  // a sparse J has no such structure
    ASSERT_GT(dd.nefc, 0);
    ASSERT_EQ(dd.nefc, ds.nefc);
    // zeros inside a row's columns are allowed (the solvers' CSR views drop them)
    int shared = 0;
    for (int i = 0; i < dd.nefc; ++i) {
      const int* cols = dd.efc_J_dense_colind.data() + dd.efc_J_dense_rowadr[i];
      const int n = dd.efc_J_dense_rownnz[i];
      ASSERT_EQ(n, ds.efc_J_rownnz[i]) << "row " << i;
      const int* scols = ds.efc_J_colind.data() + ds.efc_J_rowadr[i];
      const double* row = dd.efc_J.data() + static_cast<long>(i) * m.nv;
      std::vector<char> listed(m.nv, 0);
      for (int k = 0; k < n; ++k) {
        ASSERT_EQ(cols[k], scols[k]) << "row " << i;
        ASSERT_TRUE(k == 0 || cols[k] > cols[k - 1]) << "row " << i << ": increasing";
        EXPECT_EQ(row[cols[k]], ds.efc_J[ds.efc_J_rowadr[i] + k]) << "row " << i;
        listed[cols[k]] = 1;
      }
      for (int c = 0; c < m.nv; ++c) {
        if (!listed[c]) {
          EXPECT_EQ(row[c], 0.0) << "row " << i << " column " << c << " missed";
        }
      }
      // packed one row after the other, or the previous row's list (a contact's rows)
      if (i > 0) {
        const int prev = dd.efc_J_dense_rowadr[i - 1];
        const int adr = dd.efc_J_dense_rowadr[i];
        EXPECT_TRUE(adr == prev + dd.efc_J_dense_rownnz[i - 1] ||
                    (adr == prev && n == dd.efc_J_dense_rownnz[i - 1]))
            << "row " << i;
        if (adr == prev) shared += 1;
      }
    }
    // a contact's rows after its first share its list
    int contact_rows_after_first = 0;
    for (int k = 0; k < dd.ncon; ++k) {
      const Contact& c = dd.contact[k];
      if (c.efc_address < 0) continue;
      int rows = 0;
      for (int i = c.efc_address; i < dd.nefc && dd.efc_id[i] == k && IsContactRow(dd.efc_type[i]);
           ++i) {
        ++rows;
      }
      contact_rows_after_first += rows - 1;
    }
    EXPECT_EQ(shared, contact_rows_after_first);
  }
}

// The products over the listed columns give the dense loops' bits: J x, J' f and J qvel.
TEST(ConstraintDenseRowColumns, ProductsHaveTheDenseBits) {
  for (const std::string& path : Models()) {
    SCOPED_TRACE(path);
    const Engine engine = MakeEngine(path, JacobianType::kDense, false);
    const Model& m = engine.model();
    const Data d = MovingWithRows(engine);
    ASSERT_GT(d.nefc, 0);
    const FactoredInertia ops(m, d);
    const ConstraintProblem with = MakeProblem(m, d, ops);
    ASSERT_NE(with.J_dense_colind, nullptr);
    const ConstraintProblem without = WithDenseLoops(with);
    std::mt19937 rng(3);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> x(m.nv);
    for (double& v : x) v = normal(rng);
    std::vector<double> a(d.nefc), b(d.nefc), ta(m.nv), tb(m.nv);
    MulJ(with, x.data(), a.data());
    MulJ(without, x.data(), b.data());
    EXPECT_TRUE(SameBits(a, b, d.nefc)) << "J x";
    // J' f with a force on every row (each run of a contact's rows takes the unrolled loop)
    // and with every third row idle (runs with rows left out)
    for (int idle_every : {0, 3}) {
      std::vector<double> f(d.nefc);
      for (int i = 0; i < d.nefc; ++i) {
        f[i] = idle_every > 0 && i % idle_every == 0 ? 0.0 : normal(rng);
      }
      MulJT(with, f.data(), ta.data());
      MulJT(without, f.data(), tb.data());
      EXPECT_TRUE(SameBits(ta, tb, m.nv)) << "J' f, idle every " << idle_every << " rows";
    }
    // J qvel as ReferenceAcceleration computes it
    MulDenseRows(d.efc_J.data(), d.nefc, m.nv, d.qvel.data(), b.data());
    MulDenseRowsOver(d.efc_J.data(), d.nefc, m.nv, d.efc_J_dense_rownnz.data(),
                     d.efc_J_dense_rowadr.data(), d.efc_J_dense_colind.data(), d.qvel.data(),
                     a.data());
    EXPECT_TRUE(SameBits(a, b, d.nefc)) << "J qvel";
  }
}

// newton hands back J' force (SolveByproducts) instead of the engine computing it: the engine's
// qfrc_constraint must be MulJT over the dense J at the solver's force, bit for bit, with
// islands and without (one island holding everything, and several).
TEST(ConstraintDenseRowColumns, NewtonsJTForceIsTheEnginesSum) {
  for (const std::string& path : Models()) {
    for (bool islands : {false, true}) {
      SCOPED_TRACE(path + (islands ? " islands" : ""));
      const Engine engine = MakeEngine(path, JacobianType::kDense, islands);
      const Model& m = engine.model();
      const Data d = MovingWithRows(engine);
      ASSERT_GT(d.nefc, 0);
      const FactoredInertia ops(m, d);
      const ConstraintProblem p = WithDenseLoops(MakeProblem(m, d, ops));
      std::vector<double> expected(m.nv);
      MulJT(p, d.efc_force.data(), expected.data());
      EXPECT_TRUE(SameBits(d.qfrc_constraint, expected, m.nv));
      double largest = 0;
      for (int i = 0; i < m.nv; ++i) largest = std::max(largest, std::abs(expected[i]));
      EXPECT_GT(largest, 0) << "some constraint force acts";
    }
  }
}

}  // namespace
}  // namespace gauss
