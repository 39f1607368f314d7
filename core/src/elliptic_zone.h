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

// The functions below read a contact's dim, friction and efc_address only, so they take any
// type with those members (`ContactRows`): a Contact, or the primal line search's compact copy
// of one (ConeContact, primal.cc), which evaluates the same expressions to the same bits.

// (contact c's dim and friction, m2 = ConeFrictionRatio(c, impratio), its rows of jar from
// jar_c[0] = normal) => its zone. For callers that classify one contact many times with m2
// computed once (the primal line search).
template <class ContactRows>
inline EllipticZone ClassifyEllipticWith(const ContactRows& c, double m2, const double* jar_c) {
  EllipticZone z;
  double t2 = 0;
  for (int j = 1; j < c.dim; ++j) {
    const double u = c.friction[j - 1] * jar_c[j];
    t2 += u * u;
  }
  z.T = std::sqrt(t2);
  z.m2 = m2;
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

// (contact c's dim and friction, its rows of jar from jar_c[0] = normal) => its zone
inline EllipticZone ClassifyElliptic(const Contact& c, double impratio, const double* jar_c) {
  return ClassifyEllipticWith(c, ConeFrictionRatio(c, impratio), jar_c);
}

// The normal row's D over (1 + m2): the cone zone's penalty is 1/2 ConeWeight (N - T)^2.
inline double ConeWeight(const ConstraintProblem& p, const Contact& c, double m2) {
  return p.D[c.efc_address] / (1 + m2);
}

// Elliptic contact c in zone z at its rows j (j[0] normal), with Dm = ConeWeight (read only in
// the cone zone): adds its penalty to cost and writes its rows' forces -ds/djar and states
// (from force_c[0] and state_c[0]; either may be null). ConstraintCost and the primal line
// search share it, so both give the same bits.
template <class ContactRows>
inline void EllipticPenalty(const ConstraintProblem& p, const ContactRows& c,
                            const EllipticZone& z, double Dm, const double* j, double& cost,
                            double* force_c, int* state_c) {
  const int adr = c.efc_address;
  auto set = [&](int r, double f, ConstraintState s) {
    if (force_c) force_c[r] = f;
    if (state_c) state_c[r] = static_cast<int>(s);
  };
  if (z.state == ConstraintState::kSatisfied) {
    for (int r = 0; r < c.dim; ++r) set(r, 0, ConstraintState::kSatisfied);
  } else if (z.state == ConstraintState::kQuadratic) {
    for (int r = 0; r < c.dim; ++r) {
      cost += 0.5 * p.D[adr + r] * j[r] * j[r];
      set(r, -p.D[adr + r] * j[r], ConstraintState::kQuadratic);
    }
  } else {
    const double g = j[0] - z.T;  // < 0 in this zone
    cost += 0.5 * Dm * g * g;
    set(0, -Dm * g, ConstraintState::kCone);
    for (int r = 1; r < c.dim; ++r) {
      const double mu = c.friction[r - 1];
      set(r, Dm * g * mu * mu * j[r] / z.T, ConstraintState::kCone);
    }
  }
}

// Curvature d^2 s/da^2 of elliptic contact c on its cone surface at its rows j along the
// direction u of its rows, with Dm = ConeWeight: s = 1/2 Dm g^2 with g = N - T, so
// s'' = Dm (g'^2 + g g'').
template <class ContactRows>
inline double ConeCurvature(const ContactRows& c, double Dm, const double* j, const double* u) {
  double T2 = 0, Tdot = 0, udot2 = 0;
  for (int r = 1; r < c.dim; ++r) {
    const double mu2 = c.friction[r - 1] * c.friction[r - 1];
    T2 += mu2 * j[r] * j[r];
    Tdot += mu2 * j[r] * u[r];
    udot2 += mu2 * u[r] * u[r];
  }
  const double T = std::sqrt(T2);
  const double g = j[0] - T;
  const double dg = u[0] - Tdot / T;
  const double ddg = -(udot2 - Tdot * Tdot / T2) / T;
  return Dm * (dg * dg + g * ddg);
}

}  // namespace gauss
