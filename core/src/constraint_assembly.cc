// Constraint rows (spec "Constraint model"): friction loss, limits and contacts (equality rows
// are in equality.cc), the reference acceleration, and the problem view for the solvers.
#include "constraint_assembly.h"

#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "gauss/sparse_inertia.h"
#include "pipeline.h"

namespace gauss {

using namespace math;

namespace {

// Friction loss: one row per dof (a ball joint contributes 3, a free joint 6) and per tendon.
// The Jacobian is the dof's unit vector (the tendon's moment arms); the residual is zero.
void AddFrictionRows(const Model& m, Data& d, double* jac) {
  for (int i = 0; i < m.nv; ++i) {
    if (m.dof_frictionloss[i] <= 0) continue;
    std::fill(jac, jac + m.nv, 0.0);
    jac[i] = 1;
    if (!AddRow(m, d, jac, 0, 0, m.dof_frictionloss[i], ConstraintType::kFrictionDof, i)) return;
  }
  for (int t = 0; t < m.ntendon; ++t) {
    if (m.tendon_frictionloss[t] <= 0) continue;
    if (!AddRow(m, d, d.ten_J.data() + t * m.nv, 0, 0, m.tendon_frictionloss[t],
                ConstraintType::kFrictionTendon, t)) {
      return;
    }
  }
}

// A scalar limit: lower side r = q - lo with J = +dq/dx, upper side r = hi - q with J = -dq/dx;
// each side is a row when r < margin.
bool AddScalarLimit(const Model& m, Data& d, double value, const double* range, double margin,
                    const double* grad, double* jac, ConstraintType type, int id) {
  for (int side = -1; side <= 1; side += 2) {
    const double dist = side * (range[(side + 1) / 2] - value);
    if (dist >= margin) continue;
    for (int i = 0; i < m.nv; ++i) jac[i] = -side * grad[i];
    if (!AddRow(m, d, jac, dist, margin, 0, type, id)) return false;
  }
  return true;
}

// Limits of hinge/slide joints (both sides), ball joints (rotation angle below the larger
// range value, along the current rotation axis) and tendons.
void AddLimitRows(const Model& m, Data& d, double* jac, double* grad) {
  for (int j = 0; j < m.njnt; ++j) {
    if (!m.jnt_limited[j]) continue;
    const double margin = m.jnt_margin[j];
    const int q = m.jnt_qposadr[j];
    const int v = m.jnt_dofadr[j];
    if (m.jnt_type[j] == JointType::kHinge || m.jnt_type[j] == JointType::kSlide) {
      std::fill(grad, grad + m.nv, 0.0);
      grad[v] = 1;
      if (!AddScalarLimit(m, d, d.qpos[q], m.jnt_range.data() + 2 * j, margin, grad, jac,
                          ConstraintType::kLimitJoint, j)) {
        return;
      }
    } else if (m.jnt_type[j] == JointType::kBall) {
      // rotation vector of the joint quaternion: angle about a unit axis
      double quat[4], identity[4] = {1, 0, 0, 0}, axis[3];
      Copy4(quat, d.qpos.data() + q);
      NormalizeQuat(quat);
      SubQuat(axis, quat, identity);
      const double angle = Normalize3(axis);
      const double dist = std::max(m.jnt_range[2 * j], m.jnt_range[2 * j + 1]) - angle;
      if (dist >= margin) continue;
      std::fill(jac, jac + m.nv, 0.0);
      for (int c = 0; c < 3; ++c) jac[v + c] = -axis[c];
      if (!AddRow(m, d, jac, dist, margin, 0, ConstraintType::kLimitJoint, j)) return;
    }
  }
  for (int t = 0; t < m.ntendon; ++t) {
    if (!m.tendon_limited[t]) continue;
    if (!AddScalarLimit(m, d, d.ten_length[t], m.tendon_range.data() + 2 * t, m.tendon_margin[t],
                        d.ten_J.data() + t * m.nv, jac, ConstraintType::kLimitTendon, t)) {
      return;
    }
  }
}

// Contact Jacobian in the contact frame: rows = frame rows applied to the relative
// translational velocity (normal and tangents) and, for condim 4 and 6, to the relative
// angular velocity (spin about the normal, roll about the tangents). The relative motion is
// geom2's minus geom1's, so that a positive normal velocity separates the geoms.
void ContactJacobian(const Model& m, const Data& d, const Contact& c, double* rows, double* scratch) {
  const int nv = m.nv;
  double* jacp1 = scratch;
  double* jacr1 = scratch + 3 * nv;
  double* jacp2 = scratch + 6 * nv;
  double* jacr2 = scratch + 9 * nv;
  const bool rotational = c.dim > 3;
  PointJacobian(m, d, m.geom_bodyid[c.geom1], c.pos, jacp1, rotational ? jacr1 : nullptr);
  PointJacobian(m, d, m.geom_bodyid[c.geom2], c.pos, jacp2, rotational ? jacr2 : nullptr);
  const int ntrans = c.dim > 1 ? 3 : 1;
  for (int r = 0; r < ntrans; ++r) {
    const double* axis = c.frame + 3 * r;
    for (int i = 0; i < nv; ++i) {
      rows[r * nv + i] = axis[0] * (jacp2[i] - jacp1[i]) + axis[1] * (jacp2[nv + i] - jacp1[nv + i]) +
                         axis[2] * (jacp2[2 * nv + i] - jacp1[2 * nv + i]);
    }
  }
  for (int r = 3; r < c.dim; ++r) {
    const double* axis = c.frame + 3 * (r - 3);
    for (int i = 0; i < nv; ++i) {
      rows[r * nv + i] = axis[0] * (jacr2[i] - jacr1[i]) + axis[1] * (jacr2[nv + i] - jacr1[nv + i]) +
                         axis[2] * (jacr2[2 * nv + i] - jacr1[2 * nv + i]);
    }
  }
}

// Contacts: frictionless (condim 1) one row; pyramidal cone 2(condim-1) edge rows
// J_n +- mu_k J_k; elliptic cone condim rows (normal, then the friction directions).
void AddContactRows(const Model& m, Data& d, double* jac, double* rows, double* scratch) {
  const bool elliptic = m.opt.cone == Cone::kElliptic;
  for (int k = 0; k < d.ncon; ++k) {
    Contact& c = d.contact[k];
    c.efc_address = -1;
    if (c.exclude) continue;
    ContactJacobian(m, d, c, rows, scratch);
    const int first = d.nefc;
    bool ok = true;
    if (c.dim == 1) {
      ok = AddRow(m, d, rows, c.dist, c.includemargin, 0, ConstraintType::kContactFrictionless, k);
    } else if (elliptic) {
      for (int r = 0; r < c.dim && ok; ++r) {
        ok = AddRow(m, d, rows + r * m.nv, r == 0 ? c.dist : 0, r == 0 ? c.includemargin : 0, 0,
                    ConstraintType::kContactElliptic, k);
      }
    } else {
      for (int r = 1; r < c.dim && ok; ++r) {
        for (int sign = 1; sign >= -1 && ok; sign -= 2) {
          const double mu = sign * c.friction[r - 1];
          for (int i = 0; i < m.nv; ++i) jac[i] = rows[i] + mu * rows[r * m.nv + i];
          ok = AddRow(m, d, jac, c.dist, c.includemargin, 0, ConstraintType::kContactPyramidal, k);
        }
      }
    }
    if (!ok) return;
    c.efc_address = first;
  }
}

}  // namespace

bool IsSparse(const Model& m) {
  return m.opt.jacobian == JacobianType::kSparse ||
         (m.opt.jacobian == JacobianType::kAuto && m.nv >= 60);
}

int MaxRowNonzeros(const Model& m) {
  // deepest chain of dofs from a body to the world
  int chain = 0;
  for (int i = 0; i < m.nv; ++i) {
    int depth = 0;
    for (int j = i; j >= 0; j = m.dof_parentid[j]) ++depth;
    chain = std::max(chain, depth);
  }
  int bound = 2 * chain;
  for (int t = 0; t < m.ntendon; ++t) {
    bool spatial = false;
    for (int w = m.tendon_adr[t]; w < m.tendon_adr[t] + m.tendon_num[t]; ++w) {
      spatial = spatial || m.wrap_type[w] != WrapType::kJoint;
    }
    // a tendon equality couples two tendons: twice a tendon's dofs
    bound = std::max(bound, 2 * (spatial ? m.nv : m.tendon_num[t]));
  }
  return std::min(bound, m.nv);
}

bool AddRow(const Model& m, Data& d, const double* jac, double pos, double margin,
            double frictionloss, ConstraintType type, int id) {
  // rows whose Jacobian is zero at this configuration are kept, as MuJoCo 2.2.2 does (e.g. the
  // out-of-plane row of a connect closing a planar loop): their force is then determined by
  // the regularization alone
  if (d.nefc >= m.njmax) {
    ++d.warning_count[static_cast<int>(Warning::kConstraintFull)];
    d.warning_index[static_cast<int>(Warning::kConstraintFull)] = d.nefc;
    return false;
  }
  const int i = d.nefc;
  if (IsSparse(m)) {
    // compress: the row's nonzero columns in increasing order
    const int adr = i == 0 ? 0 : d.efc_J_rowadr[i - 1] + d.efc_J_rownnz[i - 1];
    int nnz = 0;
    for (int k = 0; k < m.nv; ++k) nnz += jac[k] != 0;
    if (adr + nnz > static_cast<int>(d.efc_J_colind.size())) {
      ++d.warning_count[static_cast<int>(Warning::kConstraintFull)];
      d.warning_index[static_cast<int>(Warning::kConstraintFull)] = d.nefc;
      return false;
    }
    d.efc_J_rowadr[i] = adr;
    d.efc_J_rownnz[i] = nnz;
    int p = adr;
    for (int k = 0; k < m.nv; ++k) {
      if (jac[k] == 0) continue;
      d.efc_J_colind[p] = k;
      d.efc_J[p++] = jac[k];
    }
  } else {
    std::copy(jac, jac + m.nv, d.efc_J.begin() + static_cast<long>(i) * m.nv);
  }
  ++d.nefc;
  d.efc_type[i] = static_cast<int>(type);
  d.efc_id[i] = id;
  d.efc_pos[i] = pos;
  d.efc_margin[i] = margin;
  d.efc_frictionloss[i] = frictionloss;
  if (type == ConstraintType::kEquality) ++d.ne;
  if (type == ConstraintType::kFrictionDof || type == ConstraintType::kFrictionTendon) ++d.nf;
  return true;
}

void MakeConstraints(const Model& m, Data& d) {
  d.nefc = d.ne = d.nf = 0;
  const Options& o = m.opt;
  if (o.Disabled(kDisableConstraint) || m.nv == 0) {
    for (int k = 0; k < d.ncon; ++k) d.contact[k].efc_address = -1;
    return;
  }
  ArenaScope scope(d.arena);
  double* jac = d.arena.Doubles(m.nv);
  double* grad = d.arena.Doubles(m.nv);
  double* rows = d.arena.Doubles(6 * m.nv);
  double* scratch = d.arena.Doubles(12 * m.nv);

  const int full_before = d.warning_count[static_cast<int>(Warning::kConstraintFull)];
  if (!o.Disabled(kDisableEquality)) AddEqualityRows(m, d);
  if (!o.Disabled(kDisableFrictionloss)) AddFrictionRows(m, d, jac);
  if (!o.Disabled(kDisableLimit)) AddLimitRows(m, d, jac, grad);
  if (!o.Disabled(kDisableContact)) AddContactRows(m, d, jac, rows, scratch);

  if (d.warning_count[static_cast<int>(Warning::kConstraintFull)] != full_before) {
    // like MuJoCo: an incomplete problem is not solved at all
    d.nefc = d.ne = d.nf = 0;
    for (int k = 0; k < d.ncon; ++k) d.contact[k].efc_address = -1;
    return;
  }
  ConstraintParameters(m, d);
}

void ReferenceAcceleration(const Model& m, Data& d) {
  const bool sparse = IsSparse(m);
  for (int i = 0; i < d.nefc; ++i) {
    double vel = 0;
    if (sparse) {
      for (int p = d.efc_J_rowadr[i]; p < d.efc_J_rowadr[i] + d.efc_J_rownnz[i]; ++p) {
        vel += d.efc_J[p] * d.qvel[d.efc_J_colind[p]];
      }
    } else {
      const double* row = d.efc_J.data() + static_cast<long>(i) * m.nv;
      for (int k = 0; k < m.nv; ++k) vel += row[k] * d.qvel[k];
    }
    d.efc_vel[i] = vel;
    const double* kbip = d.efc_KBIP.data() + 4 * i;
    d.efc_aref[i] = -kbip[1] * vel - kbip[0] * kbip[2] * (d.efc_pos[i] - d.efc_margin[i]);
  }
}

ConstraintProblem MakeProblem(const Model& m, const Data& d, const MassMatrixOps& ops) {
  ConstraintProblem p;
  p.nv = m.nv;
  p.nefc = d.nefc;
  p.ncon = d.ncon;
  p.cone = m.opt.cone;
  p.impratio = m.opt.impratio;
  if (IsSparse(m)) {
    p.J_rownnz = d.efc_J_rownnz.data();
    p.J_rowadr = d.efc_J_rowadr.data();
    p.J_colind = d.efc_J_colind.data();
    p.J_sparse = d.efc_J.data();
  } else {
    p.J = d.efc_J.data();
  }
  p.type = d.efc_type.data();
  p.id = d.efc_id.data();
  p.R = d.efc_R.data();
  p.D = d.efc_D.data();
  p.aref = d.efc_aref.data();
  p.frictionloss = d.efc_frictionloss.data();
  p.contact = d.contact.data();
  p.qM = d.qM.data();
  p.dof_Madr = m.dof_Madr.data();
  p.dof_parentid = m.dof_parentid.data();
  p.nM = m.nM;
  p.qacc_smooth = d.qacc_smooth.data();
  p.qfrc_smooth = d.qfrc_smooth.data();
  p.qacc_warmstart = m.opt.Disabled(kDisableWarmstart) ? nullptr : d.qacc_warmstart.data();
  p.M = &ops;
  p.meaninertia = m.stat_meaninertia;
  p.iterations = m.opt.iterations;
  p.tolerance = m.opt.tolerance;
  return p;
}

void FactoredInertia::MulM(const double* x, double* y) const { MulTreeSparse(m_, d_.qM.data(), x, y); }

void FactoredInertia::AddToDense(double* H) const {
  for (int i = 0; i < m_.nv; ++i) {
    int adr = m_.dof_Madr[i];
    for (int j = i; j >= 0; j = m_.dof_parentid[j]) H[i * m_.nv + j] += d_.qM[adr++];
  }
}

void FactoredInertia::SolveM(double* x) const {
  SolveLTDL(m_, d_.qLD.data(), d_.qLDiagInv.data(), x);
}

}  // namespace gauss
