// Tree-sparse L'DL factorization, solve and product (core/src/sparse_inertia.cc) against dense
// linear algebra, on the joint-space inertia of a branching model.
#include "gauss/sparse_inertia.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "data_alloc.h"
#include "gauss/mjcf.h"
#include "pipeline.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// Dense copy of the tree-sparse symmetric matrix.
Eigen::MatrixXd Dense(const Model& m, const std::vector<double>& sparse) {
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(m.nv, m.nv);
  for (int i = 0; i < m.nv; ++i) {
    int adr = m.dof_Madr[i];
    for (int j = i; j >= 0; j = m.dof_parentid[j]) {
      out(i, j) = out(j, i) = sparse[adr++];
    }
  }
  return out;
}

class SparseInertia : public ::testing::Test {
 protected:
  void SetUp() override {
    // the humanoid branches at the torso and pelvis: a real tree, not a chain
    model_ = LoadModel(test::TestModel("mujoco/humanoid/humanoid.xml"));
    AllocateData(*model_, data_);
    std::mt19937_64 gen(7);
    std::normal_distribution<double> nd(0, 0.4);
    for (int i = 7; i < model_->nq; ++i) data_.qpos[i] += nd(gen);
    Kinematics(*model_, data_);
    ComPosition(*model_, data_);
    CompositeInertia(*model_, data_);
  }
  std::shared_ptr<const Model> model_;
  Data data_;
};

TEST_F(SparseInertia, FactorSolveMatchesDenseSolve) {
  const Model& m = *model_;
  const Eigen::MatrixXd M = Dense(m, data_.qM);
  std::vector<double> ld = data_.qM, diag_inv(m.nv);
  ASSERT_EQ(FactorLTDL(m, ld.data(), diag_inv.data()), -1);
  Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(m.nv, -1, 2);
  std::vector<double> x(y.data(), y.data() + m.nv);
  SolveLTDL(m, ld.data(), diag_inv.data(), x.data());
  const Eigen::VectorXd expected = M.ldlt().solve(y);
  for (int i = 0; i < m.nv; ++i) EXPECT_NEAR(x[i], expected[i], 1e-10 * (1 + std::fabs(expected[i])));
}

TEST_F(SparseInertia, FactorReconstructsMatrix) {
  // L'DL with L unit lower-triangular, read back from the factored storage
  const Model& m = *model_;
  std::vector<double> ld = data_.qM, diag_inv(m.nv);
  FactorLTDL(m, ld.data(), diag_inv.data());
  Eigen::MatrixXd L = Eigen::MatrixXd::Identity(m.nv, m.nv), D = Eigen::MatrixXd::Zero(m.nv, m.nv);
  for (int i = 0; i < m.nv; ++i) {
    int adr = m.dof_Madr[i];
    D(i, i) = ld[adr++];
    EXPECT_DOUBLE_EQ(diag_inv[i], 1 / D(i, i));
    for (int j = m.dof_parentid[i]; j >= 0; j = m.dof_parentid[j]) L(i, j) = ld[adr++];
  }
  const Eigen::MatrixXd M = Dense(m, data_.qM);
  EXPECT_LT((L.transpose() * D * L - M).cwiseAbs().maxCoeff(), 1e-12 * M.cwiseAbs().maxCoeff());
}

TEST_F(SparseInertia, ProductMatchesDense) {
  const Model& m = *model_;
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(m.nv, 0.5, -3);
  std::vector<double> y(m.nv);
  MulTreeSparse(m, data_.qM.data(), x.data(), y.data());
  const Eigen::VectorXd expected = Dense(m, data_.qM) * x;
  for (int i = 0; i < m.nv; ++i) EXPECT_NEAR(y[i], expected[i], 1e-12 * (1 + std::fabs(expected[i])));
}

// MulTreeSparse keeps each row's sum in a register (sparse_inertia.cc); it must give the bits of
// the plain product that adds every stored entry M(k,i) to y[k] and y[i], row by row from the
// root, straight into y: the order of every sum is the same, so the trajectories are too.
TEST_F(SparseInertia, ProductHasTheBitsOfTheRowByRowLoop) {
  const Model& m = *model_;
  std::mt19937_64 gen(3);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> x(m.nv), y(m.nv), plain(m.nv);
  for (int sample = 0; sample < 10; ++sample) {
    for (double& v : x) v = nd(gen);
    MulTreeSparse(m, data_.qM.data(), x.data(), y.data());
    for (int k = 0; k < m.nv; ++k) plain[k] = data_.qM[m.dof_Madr[k]] * x[k];
    for (int k = 0; k < m.nv; ++k) {
      int adr = m.dof_Madr[k] + 1;
      for (int i = m.dof_parentid[k]; i >= 0; i = m.dof_parentid[i], ++adr) {
        plain[k] += data_.qM[adr] * x[i];
        plain[i] += data_.qM[adr] * x[k];
      }
    }
    for (int k = 0; k < m.nv; ++k) EXPECT_EQ(y[k], plain[k]) << "dof " << k;
  }
}

// FillTreeSparseColumns lists each row's columns along the parent chain, and the solve and the
// product that read them (a layout with colind: the engine's whole-problem solve and every
// island's copy) give exactly the bits of the parent-chain walk (the model's layout).
TEST_F(SparseInertia, ColumnIndicesGiveTheBitsOfTheParentChain) {
  const Model& m = *model_;
  std::vector<int> colind(m.nM, -1);
  FillTreeSparseColumns(m.nv, m.dof_Madr.data(), m.dof_parentid.data(), colind.data());
  for (int i = 0; i < m.nv; ++i) {
    int adr = m.dof_Madr[i];
    for (int j = i; j >= 0; j = m.dof_parentid[j]) EXPECT_EQ(colind[adr++], j) << "dof " << i;
  }
  TreeSparseLayout indexed = LayoutOf(m);
  ASSERT_EQ(indexed.colind, nullptr);
  indexed.colind = colind.data();
  std::vector<double> ld = data_.qM, diag_inv(m.nv);
  ASSERT_EQ(FactorLTDL(m, ld.data(), diag_inv.data()), -1);
  std::mt19937_64 gen(5);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> x(m.nv), chain(m.nv), by_index(m.nv);
  for (int sample = 0; sample < 10; ++sample) {
    for (double& v : x) v = nd(gen);
    if (sample == 0) x[m.nv / 2] = 0;  // the solve skips zero entries
    chain = x;
    by_index = x;
    SolveLTDL(LayoutOf(m), ld.data(), diag_inv.data(), chain.data());
    SolveLTDL(indexed, ld.data(), diag_inv.data(), by_index.data());
    for (int k = 0; k < m.nv; ++k) EXPECT_EQ(by_index[k], chain[k]) << "solve, dof " << k;
    MulTreeSparse(LayoutOf(m), data_.qM.data(), x.data(), chain.data());
    MulTreeSparse(indexed, data_.qM.data(), x.data(), by_index.data());
    for (int k = 0; k < m.nv; ++k) EXPECT_EQ(by_index[k], chain[k]) << "product, dof " << k;
  }
}

TEST_F(SparseInertia, ReportsNonPositivePivot) {
  const Model& m = *model_;
  std::vector<double> ld = data_.qM, diag_inv(m.nv);
  ld[m.dof_Madr[m.nv - 1]] = -1;  // a leaf dof with negative inertia
  EXPECT_EQ(FactorLTDL(m, ld.data(), diag_inv.data()), m.nv - 1);
}

}  // namespace
}  // namespace gauss
