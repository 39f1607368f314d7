// Rotation and spatial-algebra kernels (core/src/math.cc) against their defining identities.
#include "gauss/math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace gauss::math {
namespace {

void RandomQuat(std::mt19937_64& gen, double* q) {
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < 4; ++i) q[i] = nd(gen);
  NormalizeQuat(q);
}

TEST(Math, RotVecQuatMatchesMatrix) {
  std::mt19937_64 gen(1);
  for (int t = 0; t < 100; ++t) {
    double q[4], mat[9], v[3] = {0.3, -1.2, 2.0}, a[3], b[3];
    RandomQuat(gen, q);
    QuatToMat(mat, q);
    RotVecQuat(a, v, q);
    MulMatVec3(b, mat, v);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(a[i], b[i], 1e-14);
    // rotation matrices are orthonormal with determinant 1
    double mtm[9];
    MulMatTMat3(mtm, mat, mat);
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(mtm[i], i % 4 == 0 ? 1 : 0, 1e-14);
  }
}

TEST(Math, MatToQuatInvertsQuatToMat) {
  std::mt19937_64 gen(2);
  for (int t = 0; t < 200; ++t) {
    double q[4], mat[9], back[4];
    RandomQuat(gen, q);
    QuatToMat(mat, q);
    MatToQuat(back, mat);
    const double sign = (q[0] * back[0] + q[1] * back[1] + q[2] * back[2] + q[3] * back[3]) > 0 ? 1 : -1;
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(back[i] * sign, q[i], 1e-13);
  }
}

TEST(Math, MulQuatComposesRotations) {
  std::mt19937_64 gen(3);
  double a[4], b[4], ab[4], v[3] = {1, 2, 3}, r1[3], r2[3];
  RandomQuat(gen, a);
  RandomQuat(gen, b);
  MulQuat(ab, a, b);
  RotVecQuat(r1, v, ab);
  RotVecQuat(r2, v, b);
  RotVecQuat(r2, r2, a);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r1[i], r2[i], 1e-14);
}

TEST(Math, SubQuatInvertsQuatIntegrate) {
  std::mt19937_64 gen(4);
  for (int t = 0; t < 100; ++t) {
    double q[4], q2[4], v[3] = {0.7, -0.4, 1.9}, back[3];
    RandomQuat(gen, q);
    Copy4(q2, q);
    QuatIntegrate(q2, v, 0.5);  // rotation angle |v|/2 < pi
    SubQuat(back, q2, q);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(back[i], 0.5 * v[i], 1e-13);
  }
}

TEST(Math, SubQuatWrapsToShortestRotation) {
  // a rotation by 3/2 pi about z is reported as -pi/2
  double id[4] = {1, 0, 0, 0}, q[4], axis[3] = {0, 0, 1}, v[3];
  AxisAngleToQuat(q, axis, 1.5 * M_PI);
  SubQuat(v, q, id);
  EXPECT_NEAR(v[2], -0.5 * M_PI, 1e-14);
}

TEST(Math, QuatZ2VecMapsZAxis) {
  const double targets[][3] = {{1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {1, 2, -3}, {-0.1, 0, -1}};
  for (const auto& t : targets) {
    double q[4], z[3] = {0, 0, 1}, r[3], u[3] = {t[0], t[1], t[2]};
    QuatZ2Vec(q, u);
    Normalize3(u);
    RotVecQuat(r, z, q);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(r[i], u[i], 1e-14);
  }
}

TEST(Math, CrossProductsAreDual) {
  // <v x m, f> = -<m, v x* f> for motion m and force f (the defining duality)
  const double v[6] = {0.1, 0.2, -0.3, 1, -2, 0.5}, m[6] = {0.4, -0.1, 0.2, 0.3, 0.9, -1};
  const double f[6] = {1.5, -0.2, 0.3, -0.7, 0.1, 2};
  double vm[6], vf[6];
  CrossMotion(vm, v, m);
  CrossForce(vf, v, f);
  double lhs = 0, rhs = 0;
  for (int i = 0; i < 6; ++i) {
    lhs += vm[i] * f[i];
    rhs -= m[i] * vf[i];
  }
  EXPECT_NEAR(lhs, rhs, 1e-14);
}

}  // namespace
}  // namespace gauss::math
