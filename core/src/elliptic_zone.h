// The three zones of an elliptic contact's penalty, shared by the penalty itself
// (soft_constraint.cc) and the primal solvers' line search (primal.cc).
//
// With N = jar_normal, T = |(mu_1 jar_1, ..., mu_k jar_k)| and m2 = mu_1^2 / impratio:
//   N >= T          : inside the dual cone, no force (kSatisfied);
//   m2 N + T <= 0   : every row quadratic, the projection is the cone's tip (kQuadratic);
//   otherwise       : on the cone surface, s = 1/2 D_normal / (1 + m2) (N - T)^2 (kCone).
#pragma once

#include <algorithm>
#include <cmath>

#include "gauss/constraint.h"
#include "gauss/types.h"

namespace gauss {

// mu_1^2 / impratio, with impratio floored at kMinVal as the regularizer's R_1 = R_0 / impratio
// is (constraint_params.cc), so that impratio = 0 gives a large finite ratio, not a division
// by zero.
inline double ConeFrictionRatio(const Contact& c, double impratio) {
  return c.friction[0] * c.friction[0] / std::max(kMinVal, impratio);
}

struct EllipticZone {
  double T = 0;   // |(mu_j jar_j)| over the friction rows
  double m2 = 0;  // ConeFrictionRatio
  ConstraintState state = ConstraintState::kSatisfied;
};

// (contact c's dim and friction, its rows of jar from jar_c[0] = normal) => its zone
inline EllipticZone ClassifyElliptic(const Contact& c, double impratio, const double* jar_c) {
  EllipticZone z;
  double t2 = 0;
  for (int j = 1; j < c.dim; ++j) {
    const double u = c.friction[j - 1] * jar_c[j];
    t2 += u * u;
  }
  z.T = std::sqrt(t2);
  z.m2 = ConeFrictionRatio(c, impratio);
  const double N = jar_c[0];
  if (N >= z.T) {
    z.state = ConstraintState::kSatisfied;
  } else if (z.m2 * N + z.T <= 0) {
    z.state = ConstraintState::kQuadratic;
  } else {
    z.state = ConstraintState::kCone;
  }
  return z;
}

}  // namespace gauss
