// Energy (energy.cc): kinetic energy v'Mv/2 equals the sum of the bodies' translational and
// rotational kinetic energies computed from finite-difference velocities, plus armature.
#include "dynamics_fixture.h"

namespace gauss::test {
namespace {

using Energy = DynamicsFixture;

TEST_P(Energy, KineticEnergyEqualsSumOverBodies) {
  KineticEnergy(m(), d_);
  const double h = 1e-6;
  const Data plus = Moved(h), minus = Moved(-h);
  double expected = 0;
  using Mat3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
  for (int b = 1; b < m().nbody; ++b) {
    Eigen::Vector3d v;
    for (int r = 0; r < 3; ++r) v[r] = (plus.xipos[3 * b + r] - minus.xipos[3 * b + r]) / (2 * h);
    const Mat3 dR = (Eigen::Map<const Mat3>(plus.ximat.data() + 9 * b) -
                     Eigen::Map<const Mat3>(minus.ximat.data() + 9 * b)) / (2 * h);
    const Eigen::Map<const Mat3> R(d_.ximat.data() + 9 * b);
    const Mat3 W = R.transpose() * dR;  // [w]x in the principal frame
    const Eigen::Vector3d w(W(2, 1), W(0, 2), W(1, 0));
    const Eigen::Vector3d I(m().body_inertia[3 * b], m().body_inertia[3 * b + 1], m().body_inertia[3 * b + 2]);
    expected += 0.5 * m().body_mass[b] * v.squaredNorm() + 0.5 * w.dot(I.cwiseProduct(w));
  }
  for (int i = 0; i < m().nv; ++i) expected += 0.5 * m().dof_armature[i] * d_.qvel[i] * d_.qvel[i];
  EXPECT_NEAR(d_.energy[1], expected, 1e-6 * (1 + expected));
}

TEST_P(Energy, PotentialEnergyOfGravity) {
  Model no_springs = m();
  no_springs.opt.disableflags |= kDisablePassive;
  PotentialEnergy(no_springs, d_);
  double expected = 0;
  for (int b = 1; b < m().nbody; ++b) expected += m().body_mass[b] * 9.81 * d_.xipos[3 * b + 2];
  EXPECT_NEAR(d_.energy[0], expected, 1e-12 * (1 + std::fabs(expected)));
}

INSTANTIATE_TEST_SUITE_P(Models, Energy,
                         ::testing::Values("chain_mixed.xml", "free_asymmetric.xml", "pendulum3.xml"));

}  // namespace
}  // namespace gauss::test
