// Transition Jacobians A = dx'/dx and B = dx'/du of one step through a solver's implicit
// gradients (Dojo, spec 001, section IV-C/D): the constraint solve is differentiated by the
// implicit function theorem (the solver's sensitivity hook, gauss/solver.h), everything else
// (kinematics, collision geometry, the Jacobian, the smooth forces, the integrator) by finite
// differences, which are exact to O(eps) there because those stages are smooth.
//
//   gauss::TransitionImplicit grad(engine);          // solver with kCapSolutionSensitivity
//   grad.Compute(data, {1e-6, /*centered=*/false}, A, B);
//
// For each input k (position tangent, qvel, act, ctrl; as TransitionFD, gauss/transition_fd.h)
// and a nudge delta: the stages before the solver run at the nudged input, giving the problem
// data theta + delta dtheta_k (Jacobian, distances, row velocities, qfrc_smooth - M qacc); the
// hook turns dtheta_k into the solution's tangent (dqacc, dforce) at the nominal solution; the
// nudged Data gets qacc + delta dqacc and force + delta dforce, and the integrator advances it.
// A column is (x'(nudged) - x'(nominal)) / delta. With a hard-contact solver at central-path
// parameter kappa (`ip`), the columns are smooth across contact events that make finite
// differences of the step jump.
//
// When the solver linearizes elsewhere than at its solution (ConstraintSolver::SensitivityPoint;
// `ip` with solver.params.gradient_kappa: the same problem solved to a larger kappa), the
// linearized solutions start from that point and the nominal of the differences is the step
// through it: A and B are then the derivatives of the step at the larger kappa, while
// next_state() stays the simulated step.
//
// The nudged problem must have the rows of the nominal one (same types, same contacts): when a
// nudge adds or removes a row, the other direction is used; when both do, Compute throws
// gauss::Error naming the input. No heap allocation after construction (the solver's own cache
// allocates at its first product for a problem size).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gauss/constraint.h"
#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/model.h"
#include "gauss/transition_fd.h"

namespace gauss {

class TransitionImplicit {
 public:
  // Throws gauss::Error when the engine's solver does not declare kCapSolutionSensitivity or
  // its integrator is not a single-step one (the solve must be the only one in a step).
  explicit TransitionImplicit(const Engine& engine);
  TransitionImplicit(const TransitionImplicit&) = delete;  // nominal_ops_ refers to a member
  TransitionImplicit& operator=(const TransitionImplicit&) = delete;

  int nx() const { return nx_; }
  int nu() const { return nu_; }

  // d's integration state => A (nx*nx), B (nx*nu), row-major, either may be null. `d` is only
  // read. options.eps is the nudge of the smooth stages; centered nudges both ways.
  void Compute(const Data& d, const TransitionFDOptions& options, double* A, double* B);

  // (qpos, qvel, act) after the nominal step of the last Compute (nq + nv + na).
  const std::vector<double>& next_state() const { return next_; }

 private:
  enum class Input { kCtrl, kAct, kQvel, kQpos };
  // The nominal evaluation: Forward in nominal_data_, its problem's data and solution.
  void Nominal();
  // One nudged step of input `index` by delta through the linearized solve => next (nq+nv+na);
  // delta = 0: the step through the linearization point. False when the nudge changes the rows.
  bool LinearizedStep(Input input, int index, double delta, double* next);
  void Column(Input input, int index, double* jac, int stride, int col);
  // (row data of d at its current evaluation) => J (dense nefc x nv), pos, vel, g = qfrc_smooth
  // - M qacc_nominal (nv), written to the given buffers.
  void ProblemData(const Data& d, double* J, double* pos, double* vel, double* g);

  const Engine& engine_;
  const Model& m_;
  int nx_, nu_;
  Data nominal_data_, nudged_;
  TransitionFDOptions options_;
  std::vector<double> input_;          // the input's integration state
  std::vector<double> warmstart_;      // the input's qacc_warmstart (the solve started there)
  std::vector<double> next_, plus_, minus_, unit_, tangent_;
  std::vector<double> next_point_;  // the step through the linearization point (when shifted_)
  std::vector<double> qacc_point_, force_point_;  // the solver's linearization point
  bool shifted_ = false;            // the point is not the nominal solution
  // nominal problem data (capacity njmax rows) and the nudged problem's, and their tangent
  std::vector<double> J0_, pos0_, vel0_, g0_, qacc0_, force0_;
  std::vector<double> J1_, pos1_, vel1_, g1_;
  std::vector<double> dqacc_, dforce_, Mx_;
  std::vector<int> type0_, id0_;
  int nefc0_ = 0;
  // the nominal problem handed to the hook, the same object for every column so that the
  // solver's cache recognizes it (M products on nominal_data_)
  std::unique_ptr<const MassMatrixOps> nominal_ops_;
  ConstraintProblem nominal_problem_;
  bool reuse_stages_;  // the integrator leaves the stages of its evaluation in Data
};

}  // namespace gauss
