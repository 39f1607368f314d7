// Recursive Newton-Euler (rne.cc): inverse dynamics must equal M qacc + c; the bias force at
// rest must be the gravity force; the velocity part must be quadratic in qvel and satisfy the
// energy identity  v'(c(q,v) - c(q,0)) = v' Mdot v / 2  (Coriolis forces do no work on the
// kinetic energy beyond the change of M).
#include "dynamics_fixture.h"
#include "jacobian.h"

namespace gauss::test {
namespace {

using Rne = DynamicsFixture;

TEST_P(Rne, WithAccelerationEqualsMassMatrixPlusBias) {
  const int nv = m().nv;
  Eigen::VectorXd qacc = Eigen::VectorXd::LinSpaced(nv, 3, -1);
  for (int i = 0; i < nv; ++i) d_.qacc[i] = qacc[i];
  std::vector<double> full(nv);
  RecursiveNewtonEuler(m(), d_, true, full.data());
  // armature acts on the dofs directly, not through the bodies
  const Eigen::VectorXd expected = DenseM(d_) * qacc;
  for (int i = 0; i < nv; ++i) {
    const double rne_inertial = full[i] - d_.qfrc_bias[i] + m().dof_armature[i] * qacc[i];
    EXPECT_NEAR(rne_inertial, expected[i], 1e-10 * (1 + std::fabs(expected[i])));
  }
}

TEST_P(Rne, BiasAtRestIsGravityForce) {
  std::fill(d_.qvel.begin(), d_.qvel.end(), 0.0);
  Evaluate();
  std::vector<double> expected(m().nv, 0.0), jacp(3 * m().nv);
  for (int b = 1; b < m().nbody; ++b) {
    PointJacobian(m(), d_, b, d_.xipos.data() + 3 * b, jacp.data(), nullptr);
    for (int i = 0; i < m().nv; ++i) {
      for (int r = 0; r < 3; ++r) expected[i] -= jacp[r * m().nv + i] * m().body_mass[b] * m().opt.gravity[r];
    }
  }
  for (int i = 0; i < m().nv; ++i) EXPECT_NEAR(d_.qfrc_bias[i], expected[i], 1e-11);
}

TEST_P(Rne, VelocityTermIsQuadratic) {
  const std::vector<double> v = d_.qvel;
  std::vector<double> c1 = d_.qfrc_bias;
  std::fill(d_.qvel.begin(), d_.qvel.end(), 0.0);
  Evaluate();
  const std::vector<double> c0 = d_.qfrc_bias;
  for (int i = 0; i < m().nv; ++i) d_.qvel[i] = 2 * v[i];
  Evaluate();
  for (int i = 0; i < m().nv; ++i) {
    EXPECT_NEAR(d_.qfrc_bias[i] - c0[i], 4 * (c1[i] - c0[i]), 1e-10 * (1 + std::fabs(c1[i])));
  }
}

TEST_P(Rne, CoriolisPowerEqualsHalfMdot) {
  const int nv = m().nv;
  const double h = 1e-6;
  const Eigen::MatrixXd Mdot = (DenseM(Moved(h)) - DenseM(Moved(-h))) / (2 * h);
  const Eigen::Map<const Eigen::VectorXd> v(d_.qvel.data(), nv);
  const Eigen::VectorXd c_v = Eigen::Map<const Eigen::VectorXd>(d_.qfrc_bias.data(), nv);
  Data rest = d_;
  std::fill(rest.qvel.begin(), rest.qvel.end(), 0.0);
  Evaluate(rest);
  const Eigen::VectorXd c_0 = Eigen::Map<const Eigen::VectorXd>(rest.qfrc_bias.data(), nv);
  const double power = v.dot(c_v - c_0);
  const double expected = 0.5 * v.dot(Mdot * v);
  EXPECT_NEAR(power, expected, 1e-6 * (1 + std::fabs(expected)));
}

INSTANTIATE_TEST_SUITE_P(Models, Rne,
                         ::testing::Values("chain_mixed.xml", "free_asymmetric.xml", "pendulum3.xml"));

}  // namespace
}  // namespace gauss::test
