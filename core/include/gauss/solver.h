// Constraint-solver plugin interface (the spec's "Constraint solver" section).
//
// The kernel assembles the soft-constraint problem (rows ordered equality, friction loss,
// limit, contact) and hands the solver a read-only view of it. The solver returns the
// acceleration qacc and the constraint forces efc_force, plus per-iteration statistics so that
// solvers can be compared on convergence, not only on the final answer.
#pragma once

#include "gauss/collider.h"
#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/plugin.h"

namespace gauss {

// Kinds of scalar constraint rows.
enum class ConstraintType : int {
  kEquality = 0,
  kFrictionDof = 1,
  kFrictionTendon = 2,
  kLimitJoint = 3,
  kLimitTendon = 4,
  kContactFrictionless = 5,
  kContactPyramidal = 6,
  kContactElliptic = 7,
};

// Multiplication and solves with the joint-space inertia M, using the factorization the
// kernel already computed for this state.
class MassMatrixOps {
 public:
  virtual ~MassMatrixOps() = default;
  virtual void MulM(const double* x, double* y) const = 0;     // y = M x   (nv)
  virtual void SolveM(const double* y, double* x) const = 0;   // x = M^-1 y (x may equal y)
};

// Read-only view of the constraint problem at the current state.
struct ConstraintProblem {
  int nv = 0;
  int nefc = 0;
  int ncon = 0;
  Cone cone = Cone::kPyramidal;

  // Jacobian: dense (nefc x nv, row-major) when `J` is not null; otherwise CSR in
  // J_rownnz/J_rowadr/J_colind/J_sparse.
  const double* J = nullptr;
  const int* J_rownnz = nullptr;
  const int* J_rowadr = nullptr;
  const int* J_colind = nullptr;
  const double* J_sparse = nullptr;

  const ConstraintType* type = nullptr;  // (nefc)
  const int* id = nullptr;               // (nefc) object id of each row
  const double* R = nullptr;             // (nefc) regularizer, R = (1-d)/d * diag(A)
  const double* D = nullptr;             // (nefc) 1/R
  const double* aref = nullptr;          // (nefc) reference acceleration -b Jv - k r
  const double* frictionloss = nullptr;  // (nefc) bound of friction-loss rows
  const Contact* contact = nullptr;      // (ncon) cone structure: dim, friction, efc_address

  const double* qacc_smooth = nullptr;   // (nv) unconstrained acceleration
  const double* qfrc_smooth = nullptr;   // (nv)
  const double* qacc_warmstart = nullptr;  // (nv) or null when warmstart is disabled
  const MassMatrixOps* M = nullptr;

  double meaninertia = 1;  // scales the convergence test
  int iterations = 100;
  double tolerance = 1e-8;
};

// Statistics of one solver iteration.
struct SolverIteration {
  double cost = 0;
  double gradient = 0;     // scaled gradient norm
  double improvement = 0;  // scaled cost decrease
};

struct SolverResult {
  int iterations = 0;
  bool converged = false;
};

class ConstraintSolver : public Plugin {
 public:
  // problem => (qacc (nv), efc_force (nefc)); trace[0..iterations) filled when not null
  // (capacity problem.iterations).
  SolverResult Solve(const ConstraintProblem& problem, Data& d, double* qacc, double* efc_force,
                     SolverIteration* trace) const {
    return DoSolve(problem, d, qacc, efc_force, trace);
  }

 protected:
  virtual SolverResult DoSolve(const ConstraintProblem& problem, Data& d, double* qacc,
                               double* efc_force, SolverIteration* trace) const = 0;
};

}  // namespace gauss
