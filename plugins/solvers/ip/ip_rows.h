// The rows the interior-point solver works with, built from the kernel's constraint problem.
//
// The kernel's rows are those of MuJoCo's soft model; `ip` reads only their Jacobians,
// distances and friction data and re-expresses contacts in their frame: one normal row J_n and
// one scaled friction row T_k = mu_k J_k per friction direction, whatever the cone option
// (pyramidal edges r+- = J_n +- mu_k J_k give J_n = (r+ + r-)/2 and T_k = (r+ - r-)/2), so the
// exact second-order cone is always used. Kinds of rows:
//   equality       hard equality, free force
//   orthant        one-sided: joint/tendon limit or contact normal (force >= 0, slack >= 0)
//   friction       scaled friction direction of a contact cone (force = friction / mu_k)
//   frictionloss   friction-loss row, a one-direction cone of fixed radius frictionloss
// Cones group a contact's friction rows (with its normal row) or one friction-loss row.
#pragma once

#include "gauss/arena.h"
#include "gauss/constraint.h"

namespace gauss {
namespace ip {

enum class RowKind : int { kEquality = 0, kOrthant = 1, kFriction = 2, kFrictionLoss = 3 };

struct Cone {
  int first = 0;       // first friction row
  int d = 0;           // friction rows (cone dimension d + 1)
  int normal = -1;     // orthant row of the contact's normal force; -1: friction loss
  double radius = 0;   // friction loss: the force bound (the cone's fixed xi1)
};

struct IpRows {
  int n = 0;                  // rows
  int ncone = 0;              // cones
  RowKind* kind = nullptr;    // (n)
  double* pos_h = nullptr;    // (n) distance / residual over h: the slack at zero velocity
  double* vel0 = nullptr;     // (n) row velocity at qvel
  double* eps = nullptr;      // (n) equality rows: regularization of the Newton matrix
  int* cone_of = nullptr;     // (n) cone of a friction row, -1 otherwise
  Cone* cones = nullptr;      // (ncone)
  // the rows as a problem view (dense or CSR like the kernel's) for MulJ/MulJT and Newton's
  // Hessian factorization: D holds the preconditioner's row weights, state all quadratic
  ConstraintProblem view;
  double* weight = nullptr;   // (n) = view.D
  int* state = nullptr;       // (n) all kQuadratic

  // Builds the rows of p (timestep h = p.timestep > 0) in `arena`.
  void Build(const ConstraintProblem& p, Arena& arena);

  // Writes the kernel's per-row forces (nefc) from the rows' forces f (n): equalities, limits,
  // friction loss and elliptic rows directly (friction force mu_k f), pyramidal edges as the
  // non-negative-sum split e+- = gamma/(2 d) +- f_k/2 with the same J' force.
  void ScatterForce(const ConstraintProblem& p, const double* f, double* force) const;

  // Linear maps between per-kernel-row (nefc) and per-row (n) vectors, for the sensitivities:
  // Combine: rows = the same combination of kernel rows each row's Jacobian and velocity are
  // (J qvel of the rows from that of the kernel rows); CombineTranspose its transpose,
  // kernel (written) = C' rows. ForceTranspose: the transpose of ScatterForce's linear map,
  // rows (written) = S' kernel.
  void Combine(const ConstraintProblem& p, const double* kernel, double* rows) const;
  void CombineTranspose(const ConstraintProblem& p, const double* rows, double* kernel) const;
  void ForceTranspose(const ConstraintProblem& p, const double* kernel, double* rows) const;
  // The kernel row row r comes from (the first row of its contact).
  int source(int r) const { return src_[r]; }

  // Doubles of arena Build takes for a problem of nefc rows and nnz Jacobian entries.
  static std::size_t Scratch(int nv, int nefc, std::size_t nnz, bool sparse);

 private:
  int* src_ = nullptr;  // (n) kernel row each row comes from (first row of its contact)
};

}  // namespace ip
}  // namespace gauss
