// Constraint rows (spec "Constraint model"): friction loss, limits and contacts (equality rows
// are in equality.cc), the reference acceleration, and the problem view for the solvers.
#include "constraint_assembly.h"

#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "gauss/sparse_inertia.h"
#include "data_alloc.h"
#include "pipeline.h"
#include "jacobian.h"
#include "sleep.h"

namespace gauss {

using namespace math;

namespace {

// Scratch for building rows: dof chains and compact Jacobians (nv-sized buffers).
struct RowScratch {
  int* chain1;
  int* chain2;
  int* cols;
  double* jac;    // 12 x nv
  double* rows;   // 6 x nv
  double* edge;   // nv

  template <class Take>
  void Blocks(Take& take, int nv) {
    take(&chain1, nv, "dof chain 1");
    take(&chain2, nv, "dof chain 2");
    take(&cols, nv, "columns");
    take(&jac, 12 * static_cast<std::size_t>(nv), "point Jacobians");
    take(&rows, 6 * static_cast<std::size_t>(nv), "compact rows");
    take(&edge, nv, "edge");
  }
};

// A dense row (tendon moment arms) compressed to its nonzeros.
bool AddDenseRow(const Model& m, Data& d, const double* dense, double sign, double pos,
                 double margin, double frictionloss, ConstraintType type, int id, RowScratch& s) {
  int n = 0;
  for (int k = 0; k < m.nv; ++k) {
    if (dense[k] == 0) continue;
    s.cols[n] = k;
    s.edge[n++] = sign * dense[k];
  }
  return AddRow(m, d, s.cols, s.edge, n, pos, margin, frictionloss, type, id);
}

// Friction loss: one row per dof (a ball joint contributes 3, a free joint 6) and per tendon.
// The Jacobian is the dof's unit vector (the tendon's moment arms); the residual is zero.
void AddFrictionRows(const Model& m, Data& d, RowScratch& s) {
  const double one = 1;
  for (int i = 0; i < m.nv; ++i) {
    if (m.dof_frictionloss[i] <= 0) continue;
    if (!AddRow(m, d, &i, &one, 1, 0, 0, m.dof_frictionloss[i], ConstraintType::kFrictionDof, i)) {
      return;
    }
  }
  for (int t = 0; t < m.ntendon; ++t) {
    if (m.tendon_frictionloss[t] <= 0) continue;
    if (!AddDenseRow(m, d, d.ten_J.data() + t * m.nv, 1, 0, 0, m.tendon_frictionloss[t],
                     ConstraintType::kFrictionTendon, t, s)) {
      return;
    }
  }
}

// Limits of hinge/slide joints and tendons (lower side r = q - lo with J = +dq/dx, upper side
// r = hi - q with J = -dq/dx, each a row when r < margin) and ball joints (rotation angle below
// the larger range value, along the current rotation axis).
void AddLimitRows(const Model& m, Data& d, RowScratch& s) {
  for (int j = 0; j < m.njnt; ++j) {
    if (!m.jnt_limited[j]) continue;
    const double margin = m.jnt_margin[j];
    const int q = m.jnt_qposadr[j];
    int v = m.jnt_dofadr[j];
    if (m.jnt_type[j] == JointType::kHinge || m.jnt_type[j] == JointType::kSlide) {
      for (int side = -1; side <= 1; side += 2) {
        const double dist = side * (m.jnt_range[2 * j + (side + 1) / 2] - d.qpos[q]);
        if (dist >= margin) continue;
        const double grad = -side;
        if (!AddRow(m, d, &v, &grad, 1, dist, margin, 0, ConstraintType::kLimitJoint, j)) return;
      }
    } else if (m.jnt_type[j] == JointType::kBall) {
      double quat[4], identity[4] = {1, 0, 0, 0}, axis[3];
      Copy4(quat, d.qpos.data() + q);
      NormalizeQuat(quat);
      SubQuat(axis, quat, identity);
      const double angle = Normalize3(axis);
      const double dist = std::max(m.jnt_range[2 * j], m.jnt_range[2 * j + 1]) - angle;
      if (dist >= margin) continue;
      const int cols[3] = {v, v + 1, v + 2};
      const double grad[3] = {-axis[0], -axis[1], -axis[2]};
      if (!AddRow(m, d, cols, grad, 3, dist, margin, 0, ConstraintType::kLimitJoint, j)) return;
    }
  }
  for (int t = 0; t < m.ntendon; ++t) {
    if (!m.tendon_limited[t]) continue;
    for (int side = -1; side <= 1; side += 2) {
      const double dist = side * (m.tendon_range[2 * t + (side + 1) / 2] - d.ten_length[t]);
      if (dist >= m.tendon_margin[t]) continue;
      if (!AddDenseRow(m, d, d.ten_J.data() + t * m.nv, -side, dist, m.tendon_margin[t], 0,
                       ConstraintType::kLimitTendon, t, s)) {
        return;
      }
    }
  }
}

// Contact Jacobian in the contact frame over the union of the two bodies' dof chains (n
// columns, returned): rows = frame rows applied to the relative translational velocity (normal
// and tangents) and, for condim 4 and 6, to the relative angular velocity (spin about the
// normal, roll about the tangents). The relative motion is geom2's minus geom1's, so that a
// positive normal velocity separates the geoms. `chain` >= 0: s.cols already holds the union
// chain of these two bodies (chain columns), as for the previous contact.
int ContactJacobian(const Model& m, const Data& d, const Contact& c, RowScratch& s, int chain) {
  const int b1 = m.geom_bodyid[c.geom1], b2 = m.geom_bodyid[c.geom2];
  int n = chain;
  if (n < 0) {
    const int n1 = BodyChain(m, b1, s.chain1);
    const int n2 = BodyChain(m, b2, s.chain2);
    n = MergeChains(s.chain1, n1, s.chain2, n2, s.cols);
  }
  double* jacp1 = s.jac;
  double* jacr1 = s.jac + 3 * n;
  double* jacp2 = s.jac + 6 * n;
  double* jacr2 = s.jac + 9 * n;
  const bool rotational = c.dim > 3;
  ChainJacobian(m, d, b1, c.pos, s.cols, n, jacp1, rotational ? jacr1 : nullptr);
  ChainJacobian(m, d, b2, c.pos, s.cols, n, jacp2, rotational ? jacr2 : nullptr);
  const int ntrans = c.dim > 1 ? 3 : 1;
  for (int r = 0; r < c.dim; ++r) {
    const bool trans = r < ntrans;
    const double* axis = c.frame + 3 * (trans ? r : r - 3);
    const double* a = trans ? jacp1 : jacr1;
    const double* b = trans ? jacp2 : jacr2;
    for (int k = 0; k < n; ++k) {
      s.rows[r * n + k] = axis[0] * (b[k] - a[k]) + axis[1] * (b[n + k] - a[n + k]) +
                          axis[2] * (b[2 * n + k] - a[2 * n + k]);
    }
  }
  return n;
}

// Contacts: frictionless (condim 1) one row; pyramidal cone 2(condim-1) edge rows
// J_n +- mu_k J_k; elliptic cone condim rows (normal, then the friction directions).
void AddContactRows(const Model& m, Data& d, RowScratch& s) {
  const bool elliptic = m.opt.cone == Cone::kElliptic;
  // a body pair's contacts come one after the other (a geom pair gives up to several, and the
  // pairs are in body-pair order): their dof chains (parent walks, dependent loads) are found
  // once per run; s.cols is written only here while the contacts' rows are added
  int chain_body1 = -1, chain_body2 = -1, chain_n = -1;
  for (int k = 0; k < d.ncon; ++k) {
    Contact& c = d.contact[k];
    c.efc_address = -1;
    if (c.exclude) continue;
    const int b1 = m.geom_bodyid[c.geom1], b2 = m.geom_bodyid[c.geom2];
    const bool same_bodies = b1 == chain_body1 && b2 == chain_body2;
    const int n = ContactJacobian(m, d, c, s, same_bodies ? chain_n : -1);
    chain_body1 = b1;
    chain_body2 = b2;
    chain_n = n;
    const int first = d.nefc;
    bool ok = true;
    if (c.dim == 1) {
      ok = AddRow(m, d, s.cols, s.rows, n, c.dist, c.includemargin, 0,
                  ConstraintType::kContactFrictionless, k);
    } else if (elliptic) {
      for (int r = 0; r < c.dim && ok; ++r) {
        ok = AddRow(m, d, s.cols, s.rows + r * n, n, r == 0 ? c.dist : 0,
                    r == 0 ? c.includemargin : 0, 0, ConstraintType::kContactElliptic, k,
                    /*columns_of_previous_row=*/d.nefc > first);
      }
    } else {
      for (int r = 1; r < c.dim && ok; ++r) {
        for (int sign = 1; sign >= -1 && ok; sign -= 2) {
          const double mu = sign * c.friction[r - 1];
          for (int q = 0; q < n; ++q) s.edge[q] = s.rows[q] + mu * s.rows[r * n + q];
          ok = AddRow(m, d, s.cols, s.edge, n, c.dist, c.includemargin, 0,
                      ConstraintType::kContactPyramidal, k,
                      /*columns_of_previous_row=*/d.nefc > first);
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
  // deepest chain of dofs from a body to the world. Row i of the tree-sparse M stores dof i
  // and its ancestors, so with dof_Madr the chain is the longest row: independent loads where
  // walking dof_parentid is a chain of dependent ones (this runs every step, through the Data
  // size check, where the walk took ~1 % of a 22-humanoid step)
  int chain = 0;
  if (static_cast<int>(m.dof_Madr.size()) == m.nv && m.nv > 0) {
    for (int i = 0; i < m.nv; ++i) {
      const int end = i + 1 < m.nv ? m.dof_Madr[i + 1] : m.nM;
      chain = std::max(chain, end - m.dof_Madr[i]);
    }
  } else {
    for (int i = 0; i < m.nv; ++i) {
      int depth = 0;
      for (int j = i; j >= 0; j = m.dof_parentid[j]) ++depth;
      chain = std::max(chain, depth);
    }
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

namespace {

// Row i of a dense J is built over columns cols[0..nnz) (increasing): kept as the row's
// structure (Data::efc_J_dense_colind), packed after row i - 1's, or row i - 1's own list when
// the caller says the columns are row i - 1's (the rows of one contact: the products then find
// them as one run, MulDenseRowsOver). A Data without room for it (not allocated for a dense J)
// keeps none, and the problem then has none (MakeProblem).
void RecordDenseRowColumns(Data& d, int i, const int* cols, int nnz, bool columns_of_previous) {
  if (d.efc_J_dense_rownnz.empty()) return;
  int* rowadr = d.efc_J_dense_rowadr.data();
  int* rownnz = d.efc_J_dense_rownnz.data();
  rownnz[i] = nnz;
  if (i > 0 && columns_of_previous) {
    rowadr[i] = rowadr[i - 1];
    return;
  }
  const int adr = i == 0 ? 0 : rowadr[i - 1] + rownnz[i - 1];
  rowadr[i] = adr;
  int* out = d.efc_J_dense_colind.data() + adr;
  for (int k = 0; k < nnz; ++k) out[k] = cols[k];  // a few columns: no memmove call
}

}  // namespace

bool AddRow(const Model& m, Data& d, const int* cols, const double* vals, int nnz, double pos,
            double margin, double frictionloss, ConstraintType type, int id,
            bool columns_of_previous_row) {
  // rows whose Jacobian is zero at this configuration are kept, as MuJoCo 2.2.2 does (e.g. the
  // out-of-plane row of a connect closing a planar loop): their force is then determined by
  // the regularization alone
  // sleeping trees keep no rows (their island is frozen; sleep.h)
  if (SleepEnabled(m) && RowAsleep(m, d, cols, nnz)) return true;
  if (d.nefc >= m.njmax) {
    ++d.warning_count[static_cast<int>(Warning::kConstraintFull)];
    d.warning_index[static_cast<int>(Warning::kConstraintFull)] = d.nefc;
    return false;
  }
  const int i = d.nefc;
  if (IsSparse(m)) {
    const int adr = i == 0 ? 0 : d.efc_J_rowadr[i - 1] + d.efc_J_rownnz[i - 1];
    if (adr + nnz > static_cast<int>(d.efc_J_colind.size())) {
      ++d.warning_count[static_cast<int>(Warning::kConstraintFull)];
      d.warning_index[static_cast<int>(Warning::kConstraintFull)] = d.nefc;
      return false;
    }
    d.efc_J_rowadr[i] = adr;
    d.efc_J_rownnz[i] = nnz;
    std::copy(cols, cols + nnz, d.efc_J_colind.begin() + adr);
    std::copy(vals, vals + nnz, d.efc_J.begin() + adr);
  } else {
    RecordDenseRowColumns(d, i, cols, nnz, columns_of_previous_row);
    double* row = d.efc_J.data() + static_cast<long>(i) * m.nv;
    // increasing columns spanning nnz: one block (a contact between adjacent trees, a single
    // body's chain), copied between two runs of zeros instead of zeroed and then scattered
    if (nnz > 0 && cols[nnz - 1] - cols[0] == nnz - 1) {
      std::fill(row, row + cols[0], 0.0);
      std::copy(vals, vals + nnz, row + cols[0]);
      std::fill(row + cols[0] + nnz, row + m.nv, 0.0);
    } else {
      std::fill(row, row + m.nv, 0.0);
      for (int k = 0; k < nnz; ++k) row[cols[k]] = vals[k];
    }
  }
  ++d.nefc;
  d.efc_type[i] = type;
  d.efc_id[i] = id;
  d.efc_pos[i] = pos;
  d.efc_margin[i] = margin;
  d.efc_frictionloss[i] = frictionloss;
  if (type == ConstraintType::kEquality) ++d.ne;
  if (type == ConstraintType::kFrictionDof || type == ConstraintType::kFrictionTendon) ++d.nf;
  return true;
}

void MakeConstraints(const Model& m, Data& d) {
  d.matrices_id = NewMatricesId();  // new rows: what the solver kept for the old is stale
  d.nefc = d.ne = d.nf = 0;
  const Options& o = m.opt;
  if (o.Disabled(kDisableConstraint) || m.nv == 0) {
    for (int k = 0; k < d.ncon; ++k) d.contact[k].efc_address = -1;
    return;
  }
  ArenaScope scope(d.arena);
  RowScratch s;
  ArenaCarve carve(d.arena);
  s.Blocks(carve, m.nv);

  const int full_before = d.warning_count[static_cast<int>(Warning::kConstraintFull)];
  if (!o.Disabled(kDisableEquality)) AddEqualityRows(m, d);
  if (!o.Disabled(kDisableFrictionloss)) AddFrictionRows(m, d, s);
  if (!o.Disabled(kDisableLimit)) AddLimitRows(m, d, s);
  if (!o.Disabled(kDisableContact)) AddContactRows(m, d, s);

  if (d.warning_count[static_cast<int>(Warning::kConstraintFull)] != full_before) {
    // like MuJoCo: an incomplete problem is not solved at all
    d.nefc = d.ne = d.nf = 0;
    for (int k = 0; k < d.ncon; ++k) d.contact[k].efc_address = -1;
    return;
  }
  ConstraintParameters(m, d);
}

namespace {

// Velocity of the surface of geom g at world point p (3.x surfacevel: a twist given in the
// geom frame, about the geom's center) => lin (3), ang (3); false when g has none.
bool SurfaceVelocity(const Model& m, const Data& d, int g, const double* p, double* lin,
                     double* ang) {
  if (m.geom_surfacevel.empty()) return false;
  const double* s = m.geom_surfacevel.data() + 6 * g;
  if (std::all_of(s, s + 6, [](double v) { return v == 0; })) return false;
  const double* mat = d.geom_xmat.data() + 9 * g;
  double r[3], spin[3];
  MulMatVec3(lin, mat, s);
  MulMatVec3(ang, mat, s + 3);
  Sub3(r, p, d.geom_xpos.data() + 3 * g);
  Cross3(spin, ang, r);
  AddTo3(lin, spin);
  return true;
}

// MuJoCo 3.x geom surfacevel (measured on 3.12.1): the surfaces of contacting geoms move with
// their surface velocities, so the friction rows see the relative velocity of the surfaces:
// efc_vel += (friction directions of the contact frame) . (surface velocity of geom2 - that of
// geom1), linear for the sliding rows, angular for spin and roll. The normal row is left
// alone (3.12 ignores a normal surface velocity); a pyramid edge J_n +- mu_k J_k gets
// +- mu_k times direction k's shift. (contact, efc_vel, geom_xpos, geom_xmat) => (efc_vel)
void AddSurfaceVelocities(const Model& m, Data& d) {
  const bool elliptic = m.opt.cone == Cone::kElliptic;
  for (int k = 0; k < d.ncon; ++k) {
    const Contact& c = d.contact[k];
    if (c.efc_address < 0 || c.dim == 1) continue;
    double lin1[3], ang1[3], lin2[3], ang2[3];
    const bool s1 = SurfaceVelocity(m, d, c.geom1, c.pos, lin1, ang1);
    const bool s2 = SurfaceVelocity(m, d, c.geom2, c.pos, lin2, ang2);
    if (!s1 && !s2) continue;
    double lin[3] = {0, 0, 0}, ang[3] = {0, 0, 0};
    if (s2) {
      Copy3(lin, lin2);
      Copy3(ang, ang2);
    }
    if (s1) {
      Sub3(lin, lin, lin1);
      Sub3(ang, ang, ang1);
    }
    for (int r = 1; r < c.dim; ++r) {
      // friction direction r: tangents 1, 2 (sliding), then normal, tangents (spin, roll)
      const double shift = r < 3 ? Dot3(c.frame + 3 * r, lin)
                                 : Dot3(c.frame + 3 * (r - 3), ang);
      if (elliptic) {
        d.efc_vel[c.efc_address + r] += shift;
      } else {
        d.efc_vel[c.efc_address + 2 * (r - 1)] += c.friction[r - 1] * shift;
        d.efc_vel[c.efc_address + 2 * (r - 1) + 1] -= c.friction[r - 1] * shift;
      }
    }
  }
}

// (efc_R, contacts) => efc_aref of adhesive contacts: their normal row's reference acceleration
// gains R adhesion (pyramidal cones: each of the 2 (dim - 1) edge rows R_edge adhesion /
// (2 (dim - 1))), which together with the attraction in qfrc_passive (passive.cc) moves the
// contact's feasible forces down by the adhesion along the normal, as MuJoCo 3.12 does.
void AddAdhesionBias(const Model& m, Data& d) {
  const bool elliptic = m.opt.cone == Cone::kElliptic;
  for (int k = 0; k < d.ncon; ++k) {
    const Contact& c = d.contact[k];
    if (c.adhesion <= 0 || c.efc_address < 0) continue;
    const int rows = c.dim == 1 || elliptic ? 1 : 2 * (c.dim - 1);
    for (int r = c.efc_address; r < c.efc_address + rows; ++r) {
      d.efc_aref[r] += d.efc_R[r] * c.adhesion / rows;
    }
  }
}

}  // namespace

void ReferenceAcceleration(const Model& m, Data& d) {
  if (IsSparse(m)) {
    for (int i = 0; i < d.nefc; ++i) {
      double vel = 0;
      for (int p = d.efc_J_rowadr[i]; p < d.efc_J_rowadr[i] + d.efc_J_rownnz[i]; ++p) {
        vel += d.efc_J[p] * d.qvel[d.efc_J_colind[p]];
      }
      d.efc_vel[i] = vel;
    }
  } else if (!d.efc_J_dense_rownnz.empty()) {  // over the columns each row was built over
    MulDenseRowsOver(d.efc_J.data(), d.nefc, m.nv, d.efc_J_dense_rownnz.data(),
                     d.efc_J_dense_rowadr.data(), d.efc_J_dense_colind.data(), d.qvel.data(),
                     d.efc_vel.data());
  } else {
    MulDenseRows(d.efc_J.data(), d.nefc, m.nv, d.qvel.data(), d.efc_vel.data());
  }
  if (!m.geom_surfacevel.empty()) AddSurfaceVelocities(m, d);
  for (int i = 0; i < d.nefc; ++i) {
    const double* kbip = d.efc_KBIP.data() + 4 * i;
    d.efc_aref[i] = -kbip[1] * d.efc_vel[i] - kbip[0] * kbip[2] * (d.efc_pos[i] - d.efc_margin[i]);
  }
  if (m.opt.Enabled(kEnableEqJdotv)) SubtractEqualityJdotv(m, d);
  if (!m.geom_adhesion.empty() || !m.pair_adhesion.empty()) AddAdhesionBias(m, d);
}

ConstraintProblem MakeProblem(const Model& m, const Data& d, const MassMatrixOps& ops) {
  ConstraintProblem p;
  p.nv = m.nv;
  p.nefc = d.nefc;
  p.ncon = d.ncon;
  p.cone = m.opt.cone;
  p.impratio = m.opt.impratio;
  p.timestep = m.opt.timestep;
  p.integrator = m.opt.integrator.c_str();
  if (IsSparse(m)) {
    p.J_rownnz = d.efc_J_rownnz.data();
    p.J_rowadr = d.efc_J_rowadr.data();
    p.J_colind = d.efc_J_colind.data();
    p.J_sparse = d.efc_J.data();
  } else {
    p.J = d.efc_J.data();
    if (!d.efc_J_dense_rownnz.empty()) {  // the columns each row was built over (AddRow)
      p.J_dense_rownnz = d.efc_J_dense_rownnz.data();
      p.J_dense_rowadr = d.efc_J_dense_rowadr.data();
      p.J_dense_colind = d.efc_J_dense_colind.data();
    }
  }
  p.type = d.efc_type.data();
  p.id = d.efc_id.data();
  p.pos = d.efc_pos.data();
  p.margin = d.efc_margin.data();
  p.vel = d.efc_vel.data();
  p.R = d.efc_R.data();
  p.D = d.efc_D.data();
  p.aref = d.efc_aref.data();
  p.frictionloss = d.efc_frictionloss.data();
  p.contact = d.contact.data();
  p.qM = d.qM.data();
  p.dof_Madr = m.dof_Madr.data();
  p.dof_parentid = m.dof_parentid.data();
  p.nM = m.nM;
  p.dof_simplenum = InertiaLayoutOf(m).simple;
  p.qvel = d.qvel.data();
  p.qacc_smooth = d.qacc_smooth.data();
  p.qfrc_smooth = d.qfrc_smooth.data();
  p.qacc_warmstart = m.opt.Disabled(kDisableWarmstart) ? nullptr : d.qacc_warmstart.data();
  p.M = &ops;
  p.meaninertia = m.stat_meaninertia;
  p.iterations = m.opt.iterations;
  p.tolerance = m.opt.tolerance;
  p.qLD = d.qLD.data();
  p.qLDiagInv = d.qLDiagInv.data();
  return p;
}

void FactoredInertia::MulM(const double* x, double* y) const {
  MulTreeSparse(layout_, d_.qM.data(), x, y);
}

void FactoredInertia::AddToDense(double* H) const {
  for (int i = 0; i < m_.nv; ++i) {
    int adr = m_.dof_Madr[i];
    for (int j = i; j >= 0; j = m_.dof_parentid[j]) H[i * m_.nv + j] += d_.qM[adr++];
  }
}

void FactoredInertia::SolveM(double* x) const {
  SolveLTDL(layout_, d_.qLD.data(), d_.qLDiagInv.data(), x);
}

// (nv) => the row buffers held while rows are built; equality rows take theirs first, alone
ArenaPlan ConstraintAssemblyPlan(const Model& m) {
  // MakeConstraints holds its row buffers while AddEqualityRows takes its own
  ArenaPlan plan;
  RowScratch().Blocks(plan, m.nv);
  plan.Within("equality rows", EqualityRowsPlan(m));
  return plan;
}

}  // namespace gauss
