// Transition Jacobians through a solver's implicit gradients (gauss/transition_implicit.h).
#include "gauss/transition_implicit.h"

#include <algorithm>
#include <memory>
#include <string>

#include "constraint_assembly.h"
#include "gauss/error.h"
#include "gauss/integrate.h"
#include "gauss/plugin.h"
#include "gauss/solver.h"
#include "gauss/state.h"

namespace gauss {
namespace {

constexpr unsigned kInputState = kStateIntegration;

const char* InputName(int input) {
  static const char* const kNames[] = {"ctrl", "act", "qvel", "qpos (tangent)"};
  return kNames[input];
}

}  // namespace

TransitionImplicit::TransitionImplicit(const Engine& engine)
    : engine_(engine),
      m_(engine.model()),
      nx_(2 * engine.model().nv + engine.model().na),
      nu_(engine.model().nu),
      nominal_data_(engine.MakeData()),
      nudged_(engine.MakeData()),
      nominal_ops_(std::make_unique<FactoredInertia>(engine.model(), nominal_data_)),
      reuse_stages_(SingleEvaluationIntegrator(engine.options().integrator)) {
  if (!(engine.solver_capabilities() & kCapSolutionSensitivity)) {
    throw Error("implicit gradients: solver '" + engine.options().solver +
                "' does not differentiate its solution (no solution-sensitivity capability); "
                "use solver=ip, or finite differences (method fd)");
  }
  bool single_step = false;
  for (const PluginInfo& info : engine.PluginsInUse()) {
    if (info.kind == PluginKind::kIntegrator) single_step = info.capabilities & kCapSingleStep;
  }
  if (!single_step) {
    throw Error("implicit gradients: integrator '" + engine.options().integrator +
                "' solves more than once per step; use euler, implicit or implicitfast");
  }
  const int nv = m_.nv, nj = std::max(m_.njmax, 1);
  const int nstate = m_.nq + nv + m_.na;
  input_.resize(StateSize(m_, kInputState));
  warmstart_.resize(nv);
  for (auto* v : {&next_, &next_point_, &plus_, &minus_}) v->resize(nstate);
  unit_.assign(nv, 0.0);
  tangent_.resize(nv);
  for (auto* v : {&J0_, &J1_}) v->resize(static_cast<std::size_t>(nj) * nv);
  for (auto* v : {&pos0_, &vel0_, &force0_, &force_point_, &pos1_, &vel1_, &dforce_}) {
    v->resize(nj);
  }
  for (auto* v : {&g0_, &g1_, &qacc0_, &qacc_point_, &dqacc_, &Mx_}) v->resize(nv);
  type0_.resize(nj);
  id0_.resize(nj);
}

void TransitionImplicit::ProblemData(const Data& d, double* J, double* pos, double* vel,
                                     double* g) {
  const int nv = m_.nv, nefc = d.nefc;
  const FactoredInertia ops(m_, d);
  const ConstraintProblem p = MakeProblem(m_, d, ops);
  if (p.J) {
    std::copy(p.J, p.J + static_cast<std::size_t>(nefc) * nv, J);
  } else {
    std::fill(J, J + static_cast<std::size_t>(nefc) * nv, 0.0);
    for (int i = 0; i < nefc; ++i) {
      for (int q = 0; q < p.J_rownnz[i]; ++q) {
        const int adr = p.J_rowadr[i] + q;
        J[static_cast<std::size_t>(i) * nv + p.J_colind[adr]] = p.J_sparse[adr];
      }
    }
  }
  std::copy(p.pos, p.pos + nefc, pos);
  std::copy(p.vel, p.vel + nefc, vel);
  // the dynamics residual reads M qacc - qfrc_smooth: a change of M is a change of qfrc_smooth
  // (M times the acceleration the products linearize at)
  ops.MulM(qacc_point_.data(), Mx_.data());
  for (int i = 0; i < nv; ++i) g[i] = d.qfrc_smooth[i] - Mx_[i];
}

void TransitionImplicit::Nominal() {
  Data& d = nominal_data_;
  SetState(m_, d, kInputState, input_.data());
  engine_.Forward(d);
  nefc0_ = d.nefc;
  std::copy(d.qacc.begin(), d.qacc.end(), qacc0_.begin());
  std::copy(d.efc_force.begin(), d.efc_force.begin() + nefc0_, force0_.begin());
  for (int i = 0; i < nefc0_; ++i) {
    type0_[i] = static_cast<int>(d.efc_type[i]);
    id0_[i] = d.efc_id[i];
  }
  shifted_ = false;
  if (nefc0_ == 0) return;
  // the problem the step solved, from the input's warmstart
  nominal_problem_ = MakeProblem(m_, d, *nominal_ops_);
  if (nominal_problem_.qacc_warmstart) nominal_problem_.qacc_warmstart = warmstart_.data();
  // where the solver's products linearize: the solution, or (ip's gradient_kappa) the solution
  // of a smoother problem; everything else is evaluated there too
  engine_.solver().SensitivityPoint(nominal_problem_, qacc0_.data(), force0_.data(),
                                    qacc_point_.data(), force_point_.data(), d.arena);
  shifted_ = !std::equal(qacc_point_.begin(), qacc_point_.end(), qacc0_.begin()) ||
             !std::equal(force_point_.begin(), force_point_.begin() + nefc0_, force0_.begin());
  ProblemData(d, J0_.data(), pos0_.data(), vel0_.data(), g0_.data());
}

void TransitionImplicit::Compute(const Data& d, const TransitionFDOptions& options, double* A,
                                 double* B) {
  options_ = options;
  GetState(m_, d, kInputState, input_.data());
  std::copy(d.qacc_warmstart.begin(), d.qacc_warmstart.end(), warmstart_.begin());
  Nominal();
  // the nominal step; it leaves the input's position and velocity stages in nudged_, which the
  // control, activation and velocity columns (in this order, before the position columns) reuse
  SetState(m_, nudged_, kInputState, input_.data());
  engine_.Step(nudged_);
  GetState(m_, nudged_, kStatePhysics, next_.data());
  // the step through the linearization point, from which the columns differ (the step itself
  // when the point is the solution)
  if (shifted_) LinearizedStep(Input::kCtrl, 0, 0.0, next_point_.data());
  const int nv = m_.nv;
  if (B) {
    for (int k = 0; k < nu_; ++k) Column(Input::kCtrl, k, B, nu_, k);
  }
  if (A) {
    for (int k = 0; k < m_.na; ++k) Column(Input::kAct, k, A, nx_, 2 * nv + k);
    for (int k = 0; k < nv; ++k) Column(Input::kQvel, k, A, nx_, nv + k);
    for (int k = 0; k < nv; ++k) Column(Input::kQpos, k, A, nx_, k);
  }
}

void TransitionImplicit::Column(Input input, int index, double* jac, int stride, int col) {
  const double eps = options_.eps;
  // a limited control is nudged only within its range (as TransitionFD)
  bool forward = true, backward = options_.centered;
  if (input == Input::kCtrl && m_.actuator_ctrllimited[index]) {
    const double lo = m_.actuator_ctrlrange[2 * index], hi = m_.actuator_ctrlrange[2 * index + 1];
    const double u = nominal_data_.ctrl[index];
    auto in_range = [&](double a, double b) { return a >= lo && a <= hi && b >= lo && b <= hi; };
    forward = in_range(u, u + eps);
    backward = (options_.centered || !forward) && in_range(u - eps, u);
  }
  if (forward && !LinearizedStep(input, index, eps, plus_.data())) {
    forward = false;
    backward = true;
  }
  if (backward && !LinearizedStep(input, index, -eps, minus_.data())) {
    backward = false;
    if (!forward) {
      throw Error(std::string("implicit gradients: nudging ") + InputName(static_cast<int>(input)) +
                  " " + std::to_string(index) + " by +-" + std::to_string(eps) +
                  " changes the constraint rows (a contact appears or disappears): the step is "
                  "not differentiable there at this eps");
    }
  }
  const int nq = m_.nq;
  if (!forward && !backward) {  // a control outside its range: the clamp makes it flat
    for (int i = 0; i < nx_; ++i) jac[i * stride + col] = 0;
    return;
  }
  const double* at_point = shifted_ ? next_point_.data() : next_.data();
  const double* hi_state = forward ? plus_.data() : at_point;
  const double* lo_state = backward ? minus_.data() : at_point;
  const double h = (forward && backward) ? 2 * eps : eps;
  DifferentiatePosition(m_, tangent_.data(), h, lo_state, hi_state);
  for (int i = 0; i < m_.nv; ++i) jac[i * stride + col] = tangent_[i];
  for (int i = 0; i < m_.nv + m_.na; ++i) {
    jac[(m_.nv + i) * stride + col] = (hi_state[nq + i] - lo_state[nq + i]) / h;
  }
}

bool TransitionImplicit::LinearizedStep(Input input, int index, double delta, double* next) {
  Data& d = nudged_;
  SetState(m_, d, kInputState, input_.data());
  if (delta != 0) {  // delta = 0: the nominal input
    switch (input) {
      case Input::kCtrl: d.ctrl[index] += delta; break;
      case Input::kAct: d.act[index] += delta; break;
      case Input::kQvel: d.qvel[index] += delta; break;
      case Input::kQpos:
        unit_[index] = 1;
        IntegratePosition(m_, d.qpos.data(), unit_.data(), delta);
        unit_[index] = 0;
        break;
    }
  }
  // the stages before the solve at the nudged input (the solve is replaced by its
  // linearization); a control or activation nudge reuses the position and velocity stages, a
  // velocity nudge the position stage, of the input's evaluation in d (see Compute)
  Stage skip = Stage::kNone;
  if (reuse_stages_ && input != Input::kQpos) {
    skip = input == Input::kQvel ? Stage::kPosition : Stage::kVelocity;
  }
  engine_.ForwardWithoutSolve(d, skip);
  const int nv = m_.nv, nefc = nefc0_;
  if (d.nefc != nefc) return false;
  if (nefc == 0) {  // unconstrained: the solve's trivial answer
    std::copy(d.qacc_smooth.begin(), d.qacc_smooth.end(), d.qacc.begin());
    std::fill(d.qfrc_constraint.begin(), d.qfrc_constraint.end(), 0.0);
  }
  for (int i = 0; i < nefc; ++i) {
    if (static_cast<int>(d.efc_type[i]) != type0_[i] || d.efc_id[i] != id0_[i]) return false;
  }
  if (nefc > 0 && delta == 0) {  // the step through the linearization point itself
    std::fill(dqacc_.begin(), dqacc_.end(), 0.0);
    std::fill(dforce_.begin(), dforce_.end(), 0.0);
  } else if (nefc > 0) {
    ProblemData(d, J1_.data(), pos1_.data(), vel1_.data(), g1_.data());
    // the tangent of the problem data, in place: (nudged - nominal) / delta
    const double inv = 1.0 / delta;
    for (std::size_t k = 0; k < static_cast<std::size_t>(nefc) * nv; ++k) {
      J1_[k] = (J1_[k] - J0_[k]) * inv;
    }
    for (int i = 0; i < nefc; ++i) {
      pos1_[i] = (pos1_[i] - pos0_[i]) * inv;
      vel1_[i] = (vel1_[i] - vel0_[i]) * inv;
    }
    for (int i = 0; i < nv; ++i) g1_[i] = (g1_[i] - g0_[i]) * inv;
    ProblemTangent tangent;
    tangent.qfrc_smooth = g1_.data();
    tangent.pos = pos1_.data();
    tangent.vel = vel1_.data();
    tangent.J = J1_.data();
    SolutionTangent out{dqacc_.data(), dforce_.data()};
    engine_.solver().SensitivityForward(nominal_problem_, qacc0_.data(), force0_.data(), tangent, out,
                                        nominal_data_.arena);
  }
  if (nefc > 0) {
    // the linearized solution at the nudged input, and its generalized force
    for (int i = 0; i < nv; ++i) d.qacc[i] = qacc_point_[i] + delta * dqacc_[i];
    for (int i = 0; i < nefc; ++i) d.efc_force[i] = force_point_[i] + delta * dforce_[i];
    const FactoredInertia nudged_ops(m_, d);
    const ConstraintProblem nudged_problem = MakeProblem(m_, d, nudged_ops);
    MulJT(nudged_problem, d.efc_force.data(), d.qfrc_constraint.data());
  }
  engine_.Integrate(d);
  GetState(m_, d, kStatePhysics, next);
  return true;
}

}  // namespace gauss
