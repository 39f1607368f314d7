// Inverse dynamics (spec "Inverse dynamics") and the forward/inverse comparison (fwdinv flag).
#include <cmath>

#include "constraint_assembly.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/integrator.h"
#include "pipeline.h"

namespace gauss {

namespace {

// (efc_J, efc_aref, qacc) => (efc_force, efc_state, qfrc_constraint): the constraint force is
// -ds/djar at jar = J qacc - aref, row by row (contact by contact for elliptic cones).
void InverseConstraintForce(const Model& m, Data& d) {
  if (d.nefc == 0) {
    std::fill(d.qfrc_constraint.begin(), d.qfrc_constraint.end(), 0.0);
    return;
  }
  const FactoredInertia ops(m, d);
  const ConstraintProblem p = MakeProblem(m, d, ops);
  ArenaScope scope(d.arena);
  double* jar = d.arena.Doubles(d.nefc);
  MulJ(p, d.qacc.data(), jar);
  for (int i = 0; i < d.nefc; ++i) jar[i] -= d.efc_aref[i];
  ConstraintCost(p, jar, d.efc_force.data(), d.efc_state.data());
  MulJT(p, d.efc_force.data(), d.qfrc_constraint.data());
}

}  // namespace

// (qpos, qvel, qacc, ...) => (qfrc_inverse, efc_force, qfrc_constraint, qfrc_bias, ...)
void Engine::Inverse(Data& d) const {
  RequireOwnData(d, "Inverse");
  const Model& m = *model_;
  PositionStage(d);
  VelocityStage(d);
  // invdiscrete: qacc is the integrator's discrete-time acceleration; everything below works on
  // the continuous-time one it stands for, and the caller's qacc is given back at the end
  ArenaScope scope(d.arena);
  double* discrete_qacc = nullptr;
  if (m.opt.Enabled(kEnableInvDiscrete)) {
    discrete_qacc = d.arena.Doubles(m.nv);
    std::copy(d.qacc.begin(), d.qacc.end(), discrete_qacc);
    if (!integrator().ContinuousAcceleration(*this, d, d.qacc.data())) {
      throw Error("Engine::Inverse: discrete-time inverse dynamics (flag invdiscrete) is not "
                  "supported by the integrator '" + options().integrator +
                  "' (it solves more than once per step); use euler, implicit or implicitfast");
    }
  }
  InverseConstraintForce(m, d);
  // M qacc + c(q, v) by RNE with acceleration; armature acts on the dofs directly
  RecursiveNewtonEuler(m, d, true, d.qfrc_inverse.data());
  for (int i = 0; i < m.nv; ++i) {
    d.qfrc_inverse[i] += m.dof_armature[i] * d.qacc[i] - d.qfrc_passive[i] - d.qfrc_constraint[i];
  }
  if (discrete_qacc) std::copy(discrete_qacc, discrete_qacc + m.nv, d.qacc.begin());
}

// (efc_force, qfrc_constraint of the forward solve) => solver_fwdinv: how far the numerical
// solution is from satisfying the analytic inverse at its own acceleration.
void Engine::CompareForwardInverse(Data& d) const {
  const Model& m = *model_;
  if (d.nefc == 0) {
    d.solver_fwdinv = {0, 0};
    return;
  }
  ArenaScope scope(d.arena);
  double* force = d.arena.Doubles(d.nefc);
  double* qfrc = d.arena.Doubles(m.nv);
  std::copy(d.efc_force.begin(), d.efc_force.begin() + d.nefc, force);
  std::copy(d.qfrc_constraint.begin(), d.qfrc_constraint.end(), qfrc);
  InverseConstraintForce(m, d);
  double dq = 0, df = 0;
  for (int i = 0; i < m.nv; ++i) dq += (qfrc[i] - d.qfrc_constraint[i]) * (qfrc[i] - d.qfrc_constraint[i]);
  for (int i = 0; i < d.nefc; ++i) df += (force[i] - d.efc_force[i]) * (force[i] - d.efc_force[i]);
  d.solver_fwdinv = {std::sqrt(dq), std::sqrt(df)};
  // restore the forward solution
  std::copy(force, force + d.nefc, d.efc_force.begin());
  std::copy(qfrc, qfrc + m.nv, d.qfrc_constraint.begin());
}

}  // namespace gauss
