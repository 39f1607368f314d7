// Forward kinematics and the com-based dof axes (kinematics.cc, com.cc, jacobian.cc): the
// Jacobian built from cdof must equal the finite-difference velocity of every body's center of
// mass and orientation, for every joint type.
#include "dynamics_fixture.h"
#include "jacobian.h"

namespace gauss::test {
namespace {

using Kinematics = DynamicsFixture;

TEST_P(Kinematics, JacobianMatchesFiniteDifferences) {
  const double h = 1e-6;
  const Data plus = Moved(h), minus = Moved(-h);
  std::vector<double> jacp(3 * m().nv), jacr(3 * m().nv);
  for (int b = 1; b < m().nbody; ++b) {
    PointJacobian(m(), d_, b, d_.xipos.data() + 3 * b, jacp.data(), jacr.data());
    for (int r = 0; r < 3; ++r) {
      double lin = 0, ang = 0;
      for (int i = 0; i < m().nv; ++i) {
        lin += jacp[r * m().nv + i] * d_.qvel[i];
        ang += jacr[r * m().nv + i] * d_.qvel[i];
      }
      const double fd_lin = (plus.xipos[3 * b + r] - minus.xipos[3 * b + r]) / (2 * h);
      EXPECT_NEAR(lin, fd_lin, 1e-6) << "body " << b << " row " << r;
      // angular velocity from the rotation-matrix derivative: [w]x = dR/dt R'
      using Mat3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
      const Mat3 dR = (Eigen::Map<const Mat3>(plus.xmat.data() + 9 * b) -
                       Eigen::Map<const Mat3>(minus.xmat.data() + 9 * b)) / (2 * h);
      const Mat3 w = dR * Eigen::Map<const Mat3>(d_.xmat.data() + 9 * b).transpose();
      const double fd_ang = r == 0 ? w(2, 1) : r == 1 ? w(0, 2) : w(1, 0);
      EXPECT_NEAR(ang, fd_ang, 1e-6) << "body " << b << " row " << r;
    }
  }
}

TEST_P(Kinematics, BodyVelocityEqualsJacobianTimesQvel) {
  // cvel (from ComVelocity) is the spatial velocity at the tree's reference point
  std::vector<double> jacp(3 * m().nv), jacr(3 * m().nv);
  for (int b = 1; b < m().nbody; ++b) {
    const double* ref = d_.subtree_com.data() + 3 * m().body_rootid[b];
    PointJacobian(m(), d_, b, ref, jacp.data(), jacr.data());
    for (int r = 0; r < 3; ++r) {
      double lin = 0, ang = 0;
      for (int i = 0; i < m().nv; ++i) {
        lin += jacp[r * m().nv + i] * d_.qvel[i];
        ang += jacr[r * m().nv + i] * d_.qvel[i];
      }
      EXPECT_NEAR(d_.cvel[6 * b + r], ang, 1e-12);
      EXPECT_NEAR(d_.cvel[6 * b + 3 + r], lin, 1e-12);
    }
  }
}

TEST_P(Kinematics, GeomAndSiteFramesFollowTheirBody) {
  for (int g = 0; g < m().ngeom; ++g) {
    const int b = m().geom_bodyid[g];
    double p[3];
    math::MulMatVec3(p, d_.xmat.data() + 9 * b, m().geom_pos.data() + 3 * g);
    math::AddTo3(p, d_.xpos.data() + 3 * b);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(d_.geom_xpos[3 * g + c], p[c], 1e-14);
  }
}

TEST_P(Kinematics, QuaternionsAreNormalizedOnUse) {
  // a non-unit quaternion in qpos gives the same poses as its normalized version
  Data scaled = d_;
  for (int j = 0; j < m().njnt; ++j) {
    if (m().jnt_type[j] != JointType::kBall && m().jnt_type[j] != JointType::kFree) continue;
    double* q = scaled.qpos.data() + m().jnt_qposadr[j] + (m().jnt_type[j] == JointType::kFree ? 3 : 0);
    for (int c = 0; c < 4; ++c) q[c] *= 3.0;
  }
  Evaluate(scaled);
  for (int k = 0; k < 9 * m().nbody; ++k) EXPECT_NEAR(scaled.xmat[k], d_.xmat[k], 1e-14);
}

INSTANTIATE_TEST_SUITE_P(Models, Kinematics,
                         ::testing::Values("chain_mixed.xml", "free_asymmetric.xml", "pendulum3.xml"));

}  // namespace
}  // namespace gauss::test
