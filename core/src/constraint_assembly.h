// Helpers of constraint assembly (spec stages 9, 11 and 17: MakeConstraints and
// ReferenceAcceleration in pipeline.h): rows, soft-constraint parameters, and the problem view
// handed to the solver plugin.
#pragma once

#include "gauss/arena.h"
#include "gauss/constraint.h"
#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/sparse_inertia.h"

namespace gauss {

// equality.cc: appends the rows of the active equality constraints.
void AddEqualityRows(const Model& m, Data& d);
// ... and the arena scratch it takes (and releases).
ArenaPlan EqualityRowsPlan(const Model& m);
// equality.cc, MuJoCo 3.12's velocity term (kEnableEqJdotv): efc_aref -= (dJ/dt) qvel on the
// rows of connect and weld constraints. (efc rows, xpos, xmat, xquat, cvel, cdof_dot, qvel,
// subtree_com) => efc_aref
void SubtractEqualityJdotv(const Model& m, Data& d);
// constraint_assembly.cc: the arena scratch MakeConstraints takes (and releases).
ArenaPlan ConstraintAssemblyPlan(const Model& m);

// constraint_params.cc: (efc rows, model solref/solimp, invweights) => (efc_diagApprox,
// efc_R, efc_D, efc_KBIP)
void ConstraintParameters(const Model& m, Data& d);

// Appends one row: the Jacobian's nonzeros (columns `cols`, increasing, values `vals`), residual,
// margin, friction loss, type and id. Returns false (and adds nothing) when the row buffer is
// full. columns_of_previous_row: `cols` are the previous row's (a contact's second row on), which
// a dense J's structure then shares (Data::efc_J_dense_rowadr equal: a run of rows).
bool AddRow(const Model& m, Data& d, const int* cols, const double* vals, int nnz, double pos,
            double margin, double frictionloss, ConstraintType type, int id,
            bool columns_of_previous_row = false);

// soft_constraint.cc: y (nrows) = A x for a dense row-major A (nrows x ncols), each row summed
// over its columns in order (the dense J: MulJ, and J qvel in ReferenceAcceleration).
void MulDenseRows(const double* A, int nrows, int ncols, const double* x, double* y);
// The same product over the columns each row was built over (ConstraintProblem::J_dense_*):
// row i summed over colind[rowadr[i] .. + rownnz[i]) in order, which are the only columns where
// it can be nonzero: the same bits as MulDenseRows for finite x (every skipped term is an exact
// zero, and a sum that starts at +0 is not changed by adding one).
void MulDenseRowsOver(const double* A, int nrows, int ncols, const int* rownnz,
                      const int* rowadr, const int* colind, const double* x, double* y);

// A view of the current problem (pointers into d), with M operations from `ops`.
ConstraintProblem MakeProblem(const Model& m, const Data& d, const MassMatrixOps& ops);

// M operations backed by d.qM and its factor d.qLD. With `colind` (nM, FillTreeSparseColumns
// of the model's rows, held by the caller) the products and solves read each row's columns from
// it instead of walking the parent chain (same results, bit for bit; gauss/sparse_inertia.h).
class FactoredInertia : public MassMatrixOps {
 public:
  FactoredInertia(const Model& m, const Data& d, const int* colind = nullptr)
      : m_(m), d_(d), layout_(InertiaLayoutOf(m)) {
    layout_.colind = colind;
  }
  void MulM(const double* x, double* y) const override;
  void SolveM(double* x) const override;
  void AddToDense(double* H) const override;

 private:
  const Model& m_;
  const Data& d_;
  TreeSparseLayout layout_;
};

}  // namespace gauss
