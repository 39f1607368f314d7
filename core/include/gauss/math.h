// Small fixed-size vector, rotation and spatial-algebra kernels on raw double arrays.
//
// Conventions: quaternions are (w, x, y, z); 3x3 matrices are row-major; spatial vectors are
// 6 values [rotational(3), translational(3)] expressed at a common reference point.
#pragma once

#include <cmath>

namespace gauss::math {

// ---------------------------------------------------------------- 3-vectors
inline void Copy3(double* r, const double* a) { r[0] = a[0]; r[1] = a[1]; r[2] = a[2]; }
inline void Zero3(double* r) { r[0] = r[1] = r[2] = 0; }
inline double Dot3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline double Norm3(const double* a) { return std::sqrt(Dot3(a, a)); }
// a . b over n entries, with four partial sums (independent chains the CPU can overlap).
inline double DotN(const double* a, const double* b, int n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int k = 0;
  for (; k + 4 <= n; k += 4) {
    s0 += a[k] * b[k];
    s1 += a[k + 1] * b[k + 1];
    s2 += a[k + 2] * b[k + 2];
    s3 += a[k + 3] * b[k + 3];
  }
  for (; k < n; ++k) s0 += a[k] * b[k];
  return (s0 + s1) + (s2 + s3);
}
inline void Add3(double* r, const double* a, const double* b) {
  r[0] = a[0] + b[0]; r[1] = a[1] + b[1]; r[2] = a[2] + b[2];
}
inline void Sub3(double* r, const double* a, const double* b) {
  r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; r[2] = a[2] - b[2];
}
inline void Scale3(double* r, const double* a, double s) { r[0] = a[0] * s; r[1] = a[1] * s; r[2] = a[2] * s; }
inline void AddTo3(double* r, const double* a) { r[0] += a[0]; r[1] += a[1]; r[2] += a[2]; }
inline void AddScaled3(double* r, const double* a, double s) { r[0] += a[0] * s; r[1] += a[1] * s; r[2] += a[2] * s; }
inline void Cross3(double* r, const double* a, const double* b) {
  const double x = a[1] * b[2] - a[2] * b[1];
  const double y = a[2] * b[0] - a[0] * b[2];
  const double z = a[0] * b[1] - a[1] * b[0];
  r[0] = x; r[1] = y; r[2] = z;
}
// Normalizes in place; returns the norm before normalization. A (near) zero vector becomes (1,0,0).
double Normalize3(double* a);

// ---------------------------------------------------------------- 3x3 matrices (row-major)
inline void MulMatVec3(double* r, const double* m, const double* v) {
  const double x = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
  const double y = m[3] * v[0] + m[4] * v[1] + m[5] * v[2];
  const double z = m[6] * v[0] + m[7] * v[1] + m[8] * v[2];
  r[0] = x; r[1] = y; r[2] = z;
}
inline void MulMatTVec3(double* r, const double* m, const double* v) {
  const double x = m[0] * v[0] + m[3] * v[1] + m[6] * v[2];
  const double y = m[1] * v[0] + m[4] * v[1] + m[7] * v[2];
  const double z = m[2] * v[0] + m[5] * v[1] + m[8] * v[2];
  r[0] = x; r[1] = y; r[2] = z;
}
void MulMat3(double* r, const double* a, const double* b);   // r = a b
void MulMatTMat3(double* r, const double* a, const double* b);  // r = a' b

// ---------------------------------------------------------------- quaternions (w, x, y, z)
inline void Copy4(double* r, const double* a) { r[0] = a[0]; r[1] = a[1]; r[2] = a[2]; r[3] = a[3]; }
inline void SetIdentityQuat(double* q) { q[0] = 1; q[1] = q[2] = q[3] = 0; }
// Normalizes in place; returns the norm before. A (near) zero quaternion becomes identity.
double NormalizeQuat(double* q);
void MulQuat(double* r, const double* a, const double* b);  // r = a * b (r may alias)
void NegQuat(double* r, const double* q);                   // conjugate
void RotVecQuat(double* r, const double* v, const double* q);  // r = q v q^-1
void QuatToMat(double* m, const double* q);                 // rotation matrix (row-major)
void MatToQuat(double* q, const double* m);                 // from a rotation matrix
void AxisAngleToQuat(double* q, const double* axis, double angle);  // axis must be unit
// Angular velocity that rotates qb into qa in unit time, in the frame of qb: qa = qb * exp(v).
void SubQuat(double* v, const double* qa, const double* qb);
// q <- q * exp(v h / 2): rotate q by angular velocity v (in q's local frame) for time h;
// normalizes the result.
void QuatIntegrate(double* q, const double* v, double h);
// Minimal rotation taking (0,0,1) to the unit vector `z`.
void QuatZ2Vec(double* q, const double* z);

// ---------------------------------------------------------------- spatial algebra
// Motion cross product: r = v x m  (v, m motion vectors).
void CrossMotion(double* r, const double* v, const double* m);
// Force cross product: r = v x* f  (v motion, f force).
void CrossForce(double* r, const double* v, const double* f);

}  // namespace gauss::math
