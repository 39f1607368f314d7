// The SO(3) maps of the variational integrator's rotation blocks, for x = h xi (the rotation
// of one step, in the body frame) and theta = |x|:
//   exp:  R(x) = I + sin(theta)/theta [x] + (1 - cos(theta))/theta^2 [x]^2
//   A(x) = inverse of the left-trivialized tangent of exp
//        = I + [x]/2 + (1 - (theta/2) cot(theta/2))/theta^2 [x]^2
// ([x] the cross-product matrix). A and R are power series in [x], so they commute, and
// A' = R' A: the identity the integrator uses to carry momentum by the exact rotation.
// Below theta = 1e-4 the coefficients use their Taylor series (error < theta^4 ~ 1e-16).
#pragma once

#include <cmath>

#include "gauss/math.h"

namespace gauss::so3 {

// y <- y + a [x] y + b [x]^2 y
inline void AddCrossTerms(const double* x, double* y, double a, double b) {
  double xy[3], xxy[3];
  math::Cross3(xy, x, y);
  math::Cross3(xxy, x, xy);
  for (int c = 0; c < 3; ++c) y[c] += a * xy[c] + b * xxy[c];
}

// y <- A(x) y, or A(x)' y when transpose
inline void MulDexpInv(const double* x, double* y, bool transpose) {
  const double theta = math::Norm3(x);
  const double t2 = theta * theta;
  const double b = theta < 1e-4 ? 1.0 / 12 + t2 / 720
                                 : (1 - 0.5 * theta / std::tan(0.5 * theta)) / t2;
  AddCrossTerms(x, y, transpose ? -0.5 : 0.5, b);
}

// y <- R(x)' y  (the rotation by -x)
inline void RotateBack(const double* x, double* y) {
  const double theta = math::Norm3(x);
  const double t2 = theta * theta;
  const double a = theta < 1e-4 ? 1 - t2 / 6 : std::sin(theta) / theta;
  const double b = theta < 1e-4 ? 0.5 - t2 / 24 : (1 - std::cos(theta)) / t2;
  AddCrossTerms(x, y, -a, b);
}

}  // namespace gauss::so3
