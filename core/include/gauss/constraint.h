// The soft-constraint problem at one state, as handed to constraint-solver plugins, and the
// pieces of it that every solver and the inverse dynamics share (spec "Constraint solver").
//
// Reduced primal problem (spec eq. 8): over accelerations x,
//   cost(x) = 1/2 (x - a0)' M (x - a0) + s(J x - aref)
// where a0 = qacc_smooth and s is the soft-constraint penalty: per row 1/2 D jar^2 for
// equalities, the Huber function for friction loss, a one-sided quadratic for limits and
// pyramidal contact edges, and the squared R^-1-distance to the dual cone for elliptic contacts.
// The constraint force is f = -ds/djar; at the minimum M x = qfrc_smooth + J' f.
#pragma once

#include "gauss/contact.h"

namespace gauss {

struct Model;

// Kinds of scalar constraint rows (numbering as MuJoCo's mjtConstraint).
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

// Rows whose force is one-sided (>= 0): limits, frictionless and pyramidal contact rows.
inline bool IsOneSidedRow(ConstraintType type) {
  return type == ConstraintType::kLimitJoint || type == ConstraintType::kLimitTendon ||
         type == ConstraintType::kContactFrictionless || type == ConstraintType::kContactPyramidal;
}

// Friction-loss rows (dof or tendon): force bounded by +-frictionloss.
inline bool IsFrictionLossRow(ConstraintType type) {
  return type == ConstraintType::kFrictionDof || type == ConstraintType::kFrictionTendon;
}

// Which piece of the penalty a row is on at a given jar.
enum class ConstraintState : int {
  kSatisfied = 0,   // zero force
  kQuadratic = 1,   // force -D jar
  kLinearNeg = 2,   // friction loss saturated: force +frictionloss
  kLinearPos = 3,   // friction loss saturated: force -frictionloss
  kCone = 4,        // elliptic contact on the cone surface (first row of the contact)
};

// Statistics of one solver iteration (norms and decreases scaled by
// 1 / (meaninertia * max(1, nv)), as the convergence test sees them).
struct SolverIteration {
  double cost = 0;         // primal cost (primal solvers) or dual cost (dual solvers), unscaled
  double gradient = 0;     // scaled gradient norm
  double improvement = 0;  // scaled cost decrease of this iteration
};

// Multiplication and solves with the joint-space inertia M, using the factorization the
// kernel already computed for this state.
class MassMatrixOps {
 public:
  virtual ~MassMatrixOps() = default;
  virtual void MulM(const double* x, double* y) const = 0;    // y = M x   (nv)
  virtual void SolveM(double* x) const = 0;                    // x <- M^-1 x
  virtual void AddToDense(double* H) const = 0;  // H (nv x nv, row-major) += M, lower triangle
};

// Read-only view of the constraint problem at the current state.
struct ConstraintProblem {
  int nv = 0;
  int nefc = 0;
  int ncon = 0;
  Cone cone = Cone::kPyramidal;
  double impratio = 1;

  // Jacobian: dense (nefc x nv, row-major) when `J` is not null; otherwise CSR in
  // J_rownnz/J_rowadr/J_colind/J_sparse (column indices increasing within a row).
  const double* J = nullptr;
  const int* J_rownnz = nullptr;
  const int* J_rowadr = nullptr;
  const int* J_colind = nullptr;
  const double* J_sparse = nullptr;

  const ConstraintType* type = nullptr;  // (nefc) kind of each row
  const int* id = nullptr;               // (nefc) equality / dof / tendon / joint / contact id
  const double* R = nullptr;             // (nefc) regularizer
  const double* D = nullptr;             // (nefc) 1/R
  const double* aref = nullptr;          // (nefc) reference acceleration
  const double* frictionloss = nullptr;  // (nefc) bound of friction-loss rows
  const Contact* contact = nullptr;      // (ncon) dim, friction, efc_address of each contact

  // M in the kernel's tree-sparse storage (gauss/sparse_inertia.h), for sparse Hessians
  const double* qM = nullptr;            // (nM)
  const int* dof_Madr = nullptr;         // (nv)
  const int* dof_parentid = nullptr;     // (nv)
  int nM = 0;

  const double* qacc_smooth = nullptr;   // (nv) unconstrained acceleration a0
  const double* qfrc_smooth = nullptr;   // (nv) M a0
  const double* qacc_warmstart = nullptr;  // (nv) or null when warmstart is disabled
  const MassMatrixOps* M = nullptr;

  double meaninertia = 1;  // scales the convergence test: 1 / (meaninertia * max(1, nv))
  int iterations = 100;
  double tolerance = 1e-8;

  // The kernel's factor M = L'DL in the storage of qM (L off the diagonal; sparse_inertia.h)
  // and 1/D, for solvers that work with M^-1 restricted to dof chains (added last: plugins
  // built against the layout above keep working)
  const double* qLD = nullptr;        // (nM)
  const double* qLDiagInv = nullptr;  // (nv)
};

// ---------------------------------------------------------------- shared evaluations

// Whether a model's constraint Jacobian is sparse (CSR): option jacobian sparse, or auto with
// nv >= 60 (MuJoCo's rule); and the most nonzeros one Jacobian row can have.
bool IsSparse(const Model& m);
int MaxRowNonzeros(const Model& m);

// y = J x (nefc) and y = J' f (nv), for the dense or the sparse Jacobian.
void MulJ(const ConstraintProblem& p, const double* x, double* y);
void MulJT(const ConstraintProblem& p, const double* f, double* y);

// The penalty at jar = J x - aref: returns s(jar); writes force = -ds/djar and the state of
// every row (either may be null).
double ConstraintCost(const ConstraintProblem& p, const double* jar, double* force, int* state);

// H (nv x nv, dense, row-major; lower triangle suffices) += d^2 s / dx^2 = J' (ds^2/djar^2) J
// at jar, using the row states from ConstraintCost. Elliptic contacts on the cone surface add
// their full curvature, so Newton's Hessian is exact.
void AddConstraintHessian(const ConstraintProblem& p, const double* jar, const int* state,
                          double* H);

// The penalty's curvature hc (dim x dim, row-major) of elliptic contact c on its cone surface,
// in the contact's own rows, at its jar (jar_c[0] normal): Dm (grad g grad g' + g hess g) with
// g = N - T, as ConstraintCost's cone zone defines the penalty.
void EllipticConeCurvature(const ConstraintProblem& p, const Contact& c, const double* jar_c,
                           double* hc);

}  // namespace gauss
