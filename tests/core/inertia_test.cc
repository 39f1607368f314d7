// The composite rigid-body algorithm (inertia.cc): M must equal the sum over bodies of
// Jp' m Jp + Jr' I Jr plus the armature, and be symmetric positive definite.
#include "dynamics_fixture.h"
#include "jacobian.h"

namespace gauss::test {
namespace {

using Inertia = DynamicsFixture;

TEST_P(Inertia, CrbEqualsSumOfBodyJacobianProducts) {
  const int nv = m().nv;
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(nv, nv);
  std::vector<double> jacp(3 * nv), jacr(3 * nv);
  using Mat3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
  using Jac = Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::RowMajor>;
  for (int b = 1; b < m().nbody; ++b) {
    PointJacobian(m(), d_, b, d_.xipos.data() + 3 * b, jacp.data(), jacr.data());
    const Eigen::Map<const Jac> Jp(jacp.data(), 3, nv), Jr(jacr.data(), 3, nv);
    const Eigen::Map<const Mat3> R(d_.ximat.data() + 9 * b);
    const Eigen::Vector3d diag(m().body_inertia[3 * b], m().body_inertia[3 * b + 1],
                               m().body_inertia[3 * b + 2]);
    const Mat3 I = R * diag.asDiagonal() * R.transpose();
    expected += m().body_mass[b] * Jp.transpose() * Jp + Jr.transpose() * I * Jr;
  }
  for (int i = 0; i < nv; ++i) expected(i, i) += m().dof_armature[i];
  const Eigen::MatrixXd M = DenseM(d_);
  EXPECT_LT((M - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff());
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().minCoeff(), 0);
}

TEST_P(Inertia, FactorMatchesMatrix) {
  // M^-1 (M x) = x through the stage's own factor (qLD)
  const int nv = m().nv;
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(nv, -2, 1);
  Eigen::VectorXd y = DenseM(d_) * x;
  SolveLTDL(m(), d_.qLD.data(), d_.qLDiagInv.data(), y.data());
  EXPECT_LT((y - x).cwiseAbs().maxCoeff(), 1e-10);
  for (int i = 0; i < nv; ++i) EXPECT_DOUBLE_EQ(d_.qLDiagSqrtInv[i] * d_.qLDiagSqrtInv[i], d_.qLDiagInv[i]);
}

INSTANTIATE_TEST_SUITE_P(Models, Inertia,
                         ::testing::Values("chain_mixed.xml", "free_asymmetric.xml", "pendulum3.xml"));

}  // namespace
}  // namespace gauss::test
