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

#include <cstddef>
#include <cstdint>

#include "gauss/arena.h"
#include "gauss/contact.h"

namespace gauss {

struct Model;
struct SolveByproducts;  // gauss/solver.h

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

// Rows of a contact, of any cone.
inline bool IsContactRow(ConstraintType type) {
  return type == ConstraintType::kContactFrictionless ||
         type == ConstraintType::kContactPyramidal || type == ConstraintType::kContactElliptic;
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
  // interior-point solvers (ip): constraint violation r_vio and complementarity violation
  // kappa_vio after the iteration, its step length alpha and an estimate of the condition of
  // its Newton matrix (0 for the other solvers)
  double residual = 0;
  double complementarity = 0;
  double step = 0;
  double condition = 0;
};

// What a solve reports besides its solution.
struct SolverResult {
  int iterations = 0;
  bool converged = false;  // stopped by the tolerance, not by the iteration limit
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

// Read-only view of the constraint problem at the current state: everything a solver plugin
// may read (plugin ABI 3; solvers never see Data). Pointers point into the kernel's arrays and
// are valid during one Solve call. Shapes are in parentheses; row-major for matrices. Units are
// generalized: "acceleration" is m/s^2 for translational and rad/s^2 for rotational dofs,
// "force" N or N m accordingly; for constraint rows, the units of J times those.
struct ConstraintProblem {
  // ------------------------------------------------------------ sizes and options
  int nv = 0;                   // degrees of freedom
  int nefc = 0;                 // scalar constraint rows (ordered equality, friction loss,
                                // limit, contact)
  int ncon = 0;                 // contacts
  Cone cone = Cone::kPyramidal;  // friction cone of the contact rows
  double impratio = 1;          // elliptic cones: ratio of frictional to normal impedance (-)
  double timestep = 0;          // h (s) of the step this solve belongs to
  const char* integrator = "";  // name of the integrator plugin in use (e.g. "euler")
  // True when the integrator evaluates forward dynamics once per step at the step's start
  // state and then advances with qvel' = qvel + h qacc (euler, implicit, implicitfast): a
  // velocity-level solver may then read its qacc as (qvel' - qvel) / h. False for multi-stage
  // integrators (rk4), which call the solver at intermediate states.
  bool single_step_integrator = true;
  // True when this problem is one island of a solve by island (flags.island, MuJoCo 3.x's
  // default): a solver that follows MuJoCo then follows 3.x's iteration where it differs from
  // 2.2.2's (pgs: shuffled sweeps with restarted momentum, plugins/solvers/pgs/pgs.cc).
  bool by_island = false;

  // ------------------------------------------------------------ the rows
  // Jacobian d(row)/d(qvel): dense (nefc x nv, row-major) when `J` is not null; otherwise CSR
  // in J_rownnz/J_rowadr/J_colind/J_sparse (column indices increasing within a row).
  const double* J = nullptr;
  const int* J_rownnz = nullptr;         // (nefc) nonzeros of each row
  const int* J_rowadr = nullptr;         // (nefc) first nonzero of each row
  const int* J_colind = nullptr;         // (nnz) column of each nonzero
  const double* J_sparse = nullptr;      // (nnz) value of each nonzero
  // Optional (may be null; CSR only): runs of consecutive rows with the same columns (the rows
  // of one contact, mostly). Rows i .. i + J_rowrun[i] - 1 share row i's columns, for i the
  // first row of each run (the runs tile the rows; other entries are not read). MulJ and MulJT
  // then read each run's columns once for all its rows (WithCompressedJacobian sets it).
  const int* J_rowrun = nullptr;         // (nefc)
  // Optional (dense J only; null: not known): the columns each dense row was built over
  // (MakeConstraints), in CSR form with columns increasing within a row. Row i of J is an exact
  // zero outside columns J_dense_colind[J_dense_rowadr[i] .. + J_dense_rownnz[i]) (entries
  // inside may be zero too). MulJ, MulJT and WithCompressedJacobian then read those entries
  // only, with the same sums bit for bit (every term they skip is an exact zero). Whoever
  // hands on a copy of the problem with other rows or another J must reset or remap them.
  const int* J_dense_rownnz = nullptr;   // (nefc)
  const int* J_dense_rowadr = nullptr;   // (nefc)
  const int* J_dense_colind = nullptr;   // (sum of J_dense_rownnz)

  const ConstraintType* type = nullptr;  // (nefc) kind of each row
  const int* id = nullptr;               // (nefc) equality / dof / tendon / joint / contact id
  const double* pos = nullptr;           // (nefc) residual r(q) of each row (m or rad;
                                         // contacts: the contact distance, < 0 in penetration)
  const double* margin = nullptr;        // (nefc) distance (m or rad) below which the row is
                                         // active: limit margin, contact includemargin
  const double* vel = nullptr;           // (nefc) row velocity J qvel (m/s or rad/s)
  const double* R = nullptr;             // (nefc) regularizer (acceleration / force)
  const double* D = nullptr;             // (nefc) 1/R (force / acceleration)
  const double* aref = nullptr;          // (nefc) reference acceleration of the soft model
                                         // -b vel - k imp (pos - margin)
  const double* frictionloss = nullptr;  // (nefc) force bound of friction-loss rows, 0 else
  // (ncon) each contact: frame (rows normal, tangent 1, tangent 2, world), dist (m),
  // friction[5] (tangential, tangential, torsional (m), rolling (m), rolling (m)), dim and
  // efc_address (its first row; -1 when it has none)
  const Contact* contact = nullptr;

  // ------------------------------------------------------------ the unconstrained dynamics
  const double* qvel = nullptr;          // (nv) generalized velocity at this state
  const double* qacc_smooth = nullptr;   // (nv) unconstrained acceleration a0
  const double* qfrc_smooth = nullptr;   // (nv) M a0: every force but the constraints'
  const double* qacc_warmstart = nullptr;  // (nv) the last solution, or null when warmstart is
                                           // disabled
  const MassMatrixOps* M = nullptr;      // products and solves with M (kg, kg m^2)
  // M in the kernel's tree-sparse storage (gauss/sparse_inertia.h), for sparse Hessians, and
  // its factor M = L'DL in the same storage (L off the diagonal) with 1/D
  const double* qM = nullptr;            // (nM)
  const double* qLD = nullptr;           // (nM)
  const double* qLDiagInv = nullptr;     // (nv)
  const int* dof_Madr = nullptr;         // (nv) address of each dof's row in qM
  const int* dof_parentid = nullptr;     // (nv) parent dof, -1 at a tree root
  int nM = 0;
  // (nv) optional: nonzero for a dof of a simple body (Model::dof_simplenum), whose rows of qM
  // and qLD hold zeros off the diagonal; null: none is simple
  const int* dof_simplenum = nullptr;

  // ------------------------------------------------------------ convergence
  double meaninertia = 1;  // scales the convergence test: 1 / (meaninertia * max(1, nv))
  int iterations = 100;    // iteration limit; also the capacity of the trace
  double tolerance = 1e-8; // on the scaled cost decrease or gradient norm

  // ------------------------------------------------------------ reuse between solves
  // Optional (null: keep nothing): ConstraintSolver::MemoryDoubles doubles that outlive the
  // solve (Data::solver_memory), where a solver keeps what it built for one problem to use it
  // again for a later one with the same matrices (newton: its last Hessian factor, which a
  // finite-difference column perturbing only velocities or controls needs again).
  // `matrices_id` names this problem's M, J, R and D: problems with the same nonzero id have
  // the same ones (Data::matrices_id); 0 says nothing, and nothing is reused.
  double* solver_memory = nullptr;
  std::uint64_t matrices_id = 0;

  // ------------------------------------------------------------ optional outputs
  // Optional (null: nothing wanted): what the solver may hand back besides qacc and force,
  // at the solution it returns (gauss/solver.h); solvers that do not fill it leave it alone.
  SolveByproducts* byproducts = nullptr;
};

// ---------------------------------------------------------------- shared evaluations

// Whether a model's constraint Jacobian is sparse (CSR): option jacobian sparse, or auto with
// nv >= 60 (MuJoCo's rule); and the most nonzeros one Jacobian row can have.
bool IsSparse(const Model& m);
int MaxRowNonzeros(const Model& m);

// y = J x (nefc) and y = J' f (nv), for the dense or the sparse Jacobian.
void MulJ(const ConstraintProblem& p, const double* x, double* y);
void MulJT(const ConstraintProblem& p, const double* f, double* y);

// A dense Jacobian's nonzeros in CSR, columns in their order, for iterative solvers that
// multiply by J and J' many times per solve: the products then skip the zeros (most of a row:
// a row acts on one chain of dofs) and give the same sums bit for bit, since every skipped
// term is an exact zero added in the same order. With the runs of rows that share their
// columns (J_rowrun), which the products also use for a sparse J.
struct CompressedJacobian {
  int* rownnz = nullptr;     // (nefc)
  int* rowadr = nullptr;     // (nefc)
  int* colind = nullptr;     // (nnz)
  double* values = nullptr;  // (nnz)

  template <class Take>
  void Blocks(Take& take, int nefc, std::size_t nnz) {
    take(&rownnz, nefc, "J rownnz");
    take(&rowadr, nefc, "J rowadr");
    take(&colind, nnz, "J colind");
    take(&values, nnz, "J values");
  }
  // What WithCompressedJacobian takes (and the caller holds) at most for model m: the runs of
  // rows, and the CSR unless m's Jacobian is sparse already.
  static ArenaPlan Plan(const Model& m);
};

// A copy of p with J_rowrun set and, when p's Jacobian is dense, J as the CSR of it (arrays
// from `arena`, valid in the caller's scope). The products give the same sums bit for bit.
ConstraintProblem WithCompressedJacobian(const ConstraintProblem& p, Arena& arena);

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
