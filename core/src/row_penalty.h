// The penalty of one scalar row that is not part of an elliptic contact (equality, friction
// loss, limit, frictionless or pyramidal contact row), shared by ConstraintCost
// (soft_constraint.cc) and the primal line search's one-pass trial evaluation (primal.cc), so
// both give the same numbers bit for bit.
#pragma once

#include "gauss/constraint.h"

namespace gauss {

// Row i of a non-elliptic type at jar_i (= (J x - aref)_i): adds its penalty to `cost` (only
// when it has one, so a row without force leaves cost's bits alone), sets force_i = -ds/djar_i
// and state_i. Elliptic rows are not handled here (ConstraintCost treats them per contact).
inline void RowPenalty(const ConstraintProblem& p, int i, double jar_i, double& cost,
                       double& force_i, ConstraintState& state_i) {
  const ConstraintType type = p.type[i];
  const double D = p.D[i];
  if (type == ConstraintType::kEquality) {
    cost += 0.5 * D * jar_i * jar_i;
    force_i = -D * jar_i;
    state_i = ConstraintState::kQuadratic;
  } else if (IsFrictionLossRow(type)) {
    // Huber: quadratic within |jar| <= R floss, linear outside
    const double floss = p.frictionloss[i];
    const double bound = p.R[i] * floss;
    if (jar_i >= bound) {
      cost += floss * jar_i - 0.5 * p.R[i] * floss * floss;
      force_i = -floss;
      state_i = ConstraintState::kLinearPos;
    } else if (jar_i <= -bound) {
      cost += -floss * jar_i - 0.5 * p.R[i] * floss * floss;
      force_i = floss;
      state_i = ConstraintState::kLinearNeg;
    } else {
      cost += 0.5 * D * jar_i * jar_i;
      force_i = -D * jar_i;
      state_i = ConstraintState::kQuadratic;
    }
  } else if (jar_i < 0) {  // one-sided: limits, frictionless and pyramidal contact rows
    cost += 0.5 * D * jar_i * jar_i;
    force_i = -D * jar_i;
    state_i = ConstraintState::kQuadratic;
  } else {
    force_i = 0;
    state_i = ConstraintState::kSatisfied;
  }
}

}  // namespace gauss
