#include "gauss/math.h"

#include <cmath>

#include "gauss/types.h"

namespace gauss::math {

double Normalize3(double* a) {
  const double n = Norm3(a);
  if (n < kMinVal) {
    a[0] = 1; a[1] = a[2] = 0;
  } else {
    const double s = 1 / n;
    a[0] *= s; a[1] *= s; a[2] *= s;
  }
  return n;
}

void MulMat3(double* r, const double* a, const double* b) {
  double t[9];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    }
  }
  for (int i = 0; i < 9; ++i) r[i] = t[i];
}

void MulMatTMat3(double* r, const double* a, const double* b) {
  double t[9];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      t[3 * i + j] = a[i] * b[j] + a[3 + i] * b[3 + j] + a[6 + i] * b[6 + j];
    }
  }
  for (int i = 0; i < 9; ++i) r[i] = t[i];
}

double NormalizeQuat(double* q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (n < kMinVal) {
    SetIdentityQuat(q);
  } else {
    // always rescaled, also when n is 1 to within round-off: MuJoCo 2.2.2 does, and the last
    // bit decides whether a geom resting exactly on a plane (dist 0) touches it
    const double s = 1 / n;
    q[0] *= s; q[1] *= s; q[2] *= s; q[3] *= s;
  }
  return n;
}

void MulQuat(double* r, const double* a, const double* b) {
  const double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  const double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  const double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  const double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  r[0] = w; r[1] = x; r[2] = y; r[3] = z;
}

void NegQuat(double* r, const double* q) {
  r[0] = q[0]; r[1] = -q[1]; r[2] = -q[2]; r[3] = -q[3];
}

void RotVecQuat(double* r, const double* v, const double* q) {
  // r = v + 2 w (u x v) + 2 u x (u x v), with u the vector part of q
  const double* u = q + 1;
  double t[3], ut[3];
  Cross3(t, u, v);
  Scale3(t, t, 2);
  Cross3(ut, u, t);
  const double x = v[0] + q[0] * t[0] + ut[0];
  const double y = v[1] + q[0] * t[1] + ut[1];
  const double z = v[2] + q[0] * t[2] + ut[2];
  r[0] = x; r[1] = y; r[2] = z;
}

void QuatToMat(double* m, const double* q) {
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double ww = w * w, xx = x * x, yy = y * y, zz = z * z;
  m[0] = ww + xx - yy - zz;
  m[4] = ww - xx + yy - zz;
  m[8] = ww - xx - yy + zz;
  m[1] = 2 * (x * y - w * z);
  m[2] = 2 * (x * z + w * y);
  m[3] = 2 * (x * y + w * z);
  m[5] = 2 * (y * z - w * x);
  m[6] = 2 * (x * z - w * y);
  m[7] = 2 * (y * z + w * x);
}

void MatToQuat(double* q, const double* m) {
  // pick the largest of (trace, diagonal entries) for a well-conditioned square root
  const double tr = m[0] + m[4] + m[8];
  if (tr > 0) {
    const double s = 2 * std::sqrt(1 + tr);
    q[0] = s / 4;
    q[1] = (m[7] - m[5]) / s;
    q[2] = (m[2] - m[6]) / s;
    q[3] = (m[3] - m[1]) / s;
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const double s = 2 * std::sqrt(1 + m[0] - m[4] - m[8]);
    q[0] = (m[7] - m[5]) / s;
    q[1] = s / 4;
    q[2] = (m[1] + m[3]) / s;
    q[3] = (m[2] + m[6]) / s;
  } else if (m[4] > m[8]) {
    const double s = 2 * std::sqrt(1 + m[4] - m[0] - m[8]);
    q[0] = (m[2] - m[6]) / s;
    q[1] = (m[1] + m[3]) / s;
    q[2] = s / 4;
    q[3] = (m[5] + m[7]) / s;
  } else {
    const double s = 2 * std::sqrt(1 + m[8] - m[0] - m[4]);
    q[0] = (m[3] - m[1]) / s;
    q[1] = (m[2] + m[6]) / s;
    q[2] = (m[5] + m[7]) / s;
    q[3] = s / 4;
  }
  NormalizeQuat(q);
}

void AxisAngleToQuat(double* q, const double* axis, double angle) {
  const double s = std::sin(angle / 2);
  q[0] = std::cos(angle / 2);
  q[1] = axis[0] * s;
  q[2] = axis[1] * s;
  q[3] = axis[2] * s;
}

void SubQuat(double* v, const double* qa, const double* qb) {
  // relative rotation qdif = qb^-1 qa, then its rotation vector (angle wrapped to [-pi, pi])
  double qneg[4], qdif[4];
  NegQuat(qneg, qb);
  MulQuat(qdif, qneg, qa);
  double axis[3] = {qdif[1], qdif[2], qdif[3]};
  const double sin_half = Normalize3(axis);
  double angle = 2 * std::atan2(sin_half, qdif[0]);
  if (angle > M_PI) angle -= 2 * M_PI;
  if (sin_half < kMinVal) angle = 0;
  Scale3(v, axis, angle);
}

void QuatIntegrate(double* q, const double* v, double h) {
  double axis[3] = {v[0], v[1], v[2]};
  const double speed = Normalize3(axis);
  if (speed * h != 0) {
    double dq[4];
    AxisAngleToQuat(dq, axis, speed * h);
    MulQuat(q, q, dq);
  }
  NormalizeQuat(q);
}

void QuatZ2Vec(double* q, const double* z) {
  double vec[3] = {z[0], z[1], z[2]};
  Normalize3(vec);
  // rotation axis = e_z x vec, angle from (|e_z x vec|, e_z . vec)
  double axis[3] = {-vec[1], vec[0], 0};
  const double s = Normalize3(axis);
  SetIdentityQuat(q);
  if (s < kMinVal) {
    if (vec[2] < 0) {  // opposite: half turn about x
      q[0] = 0; q[1] = 1;
    }
    return;
  }
  AxisAngleToQuat(q, axis, std::atan2(s, vec[2]));
}

// The two spatial cross products below build all six results in registers before the first
// store (r may alias v or m): assembled in a stack array and then copied, the compiler's
// 16-byte reload of two 8-byte stores could not be forwarded, a stall that made CrossMotion ~2 %
// of a 22-humanoid step for ~0.3 % of its instructions. The arithmetic is Cross3's and
// AddTo3's, term for term, so the results are the same bits.
void CrossMotion(double* r, const double* v, const double* m) {
  // [w; u] x [a; b] = [w x a; w x b + u x a]
  const double w0 = v[0], w1 = v[1], w2 = v[2], u0 = v[3], u1 = v[4], u2 = v[5];
  const double a0 = m[0], a1 = m[1], a2 = m[2], b0 = m[3], b1 = m[4], b2 = m[5];
  const double r0 = w1 * a2 - w2 * a1;
  const double r1 = w2 * a0 - w0 * a2;
  const double r2 = w0 * a1 - w1 * a0;
  const double r3 = (w1 * b2 - w2 * b1) + (u1 * a2 - u2 * a1);
  const double r4 = (w2 * b0 - w0 * b2) + (u2 * a0 - u0 * a2);
  const double r5 = (w0 * b1 - w1 * b0) + (u0 * a1 - u1 * a0);
  r[0] = r0; r[1] = r1; r[2] = r2; r[3] = r3; r[4] = r4; r[5] = r5;
}

void CrossForce(double* r, const double* v, const double* f) {
  // [w; u] x* [n; F] = [w x n + u x F; w x F]
  const double w0 = v[0], w1 = v[1], w2 = v[2], u0 = v[3], u1 = v[4], u2 = v[5];
  const double n0 = f[0], n1 = f[1], n2 = f[2], F0 = f[3], F1 = f[4], F2 = f[5];
  const double r0 = (w1 * n2 - w2 * n1) + (u1 * F2 - u2 * F1);
  const double r1 = (w2 * n0 - w0 * n2) + (u2 * F0 - u0 * F2);
  const double r2 = (w0 * n1 - w1 * n0) + (u0 * F1 - u1 * F0);
  const double r3 = w1 * F2 - w2 * F1;
  const double r4 = w2 * F0 - w0 * F2;
  const double r5 = w0 * F1 - w1 * F0;
  r[0] = r0; r[1] = r1; r[2] = r2; r[3] = r3; r[4] = r4; r[5] = r5;
}

}  // namespace gauss::math
