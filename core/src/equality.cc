// Equality constraints (spec "Equality"): connect (3 rows), weld (6), joint (1), tendon (1).
//
// eq_data layout per type (11 values, as compiled from MJCF):
//   connect: anchor in body1 frame (3), the same point in body2 frame at qpos0 (3)
//   weld:    anchor in body2 frame (3), body2's anchor seen from body1 (relpose position, 3),
//            relative orientation body1 -> body2 (relpose quaternion, 4), torquescale (1)
//   joint / tendon: polynomial coefficients a0..a4 of y - y0 = poly(x - x0)
// Residuals are "body1 minus body2"; their Jacobians are J(body1) - J(body2), computed over the
// union of the two bodies' dof chains.
#include <algorithm>

#include "constraint_assembly.h"
#include "gauss/math.h"
#include "pipeline.h"
#include "jacobian.h"
#include "tendon.h"

namespace gauss {

using namespace math;

namespace {

// Buffers for one equality constraint's rows (nv-sized).
struct EqualityScratch {
  int* chain1;
  int* chain2;
  int* cols;
  double* j1;    // 6 x nv
  double* j2;    // 6 x nv
  double* rows;  // 6 x nv
  double* dense;  // nv
  double* dense2; // nv

  template <class Take>
  void Blocks(Take& take, int nv) {
    const std::size_t n = static_cast<std::size_t>(nv);
    take(&chain1, n, "dof chain 1");
    take(&chain2, n, "dof chain 2");
    take(&cols, n, "columns");
    take(&j1, 6 * n, "Jacobian 1");
    take(&j2, 6 * n, "Jacobian 2");
    take(&rows, 6 * n, "rows");
    take(&dense, n, "dense row");
    take(&dense2, n, "dense row 2");
  }
};

// World position of a point given in a body's frame.
void BodyPoint(const Data& d, int body, const double* local, double* world) {
  MulMatVec3(world, d.xmat.data() + 9 * body, local);
  AddTo3(world, d.xpos.data() + 3 * body);
}

// The frame of a weld's rotational residual when it is not body2's: site2's orientation in
// body2 for a 3.x weld between sites (eq_frame2quat); null for identity (body welds, welds
// whose site2 is not rotated, hand-built models without the field).
const double* ResidualFrame(const Model& m, int e) {
  if (m.eq_frame2quat.empty()) return nullptr;
  const double* q = m.eq_frame2quat.data() + 4 * e;
  return q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0 ? nullptr : q;
}

// v (3) <- R(q)^T v: a vector given in body2's frame, expressed in the frame q (in body2).
// Im(q^-1 x q) = R(q)^T Im(x), so the body form's residual q2^-1 q1 (s1 s2^-1) becomes 3.x's
// (q2 s2)^-1 (q1 s1) with q = s2, and likewise its rate and velocity term.
void IntoFrame(const double* q, double* v) {
  double inv[4], out[3];
  NegQuat(inv, q);
  RotVecQuat(out, v, inv);
  Copy3(v, out);
}

// rows (3 or 6 x n) = J(b1 at p1) - J(b2 at p2) over the union chain s.cols; returns n.
int JacobianDifference(const Model& m, const Data& d, int b1, const double* p1, int b2,
                       const double* p2, bool rotation, EqualityScratch& s) {
  const int n1 = BodyChain(m, b1, s.chain1);
  const int n2 = BodyChain(m, b2, s.chain2);
  const int n = MergeChains(s.chain1, n1, s.chain2, n2, s.cols);
  ChainJacobian(m, d, b1, p1, s.cols, n, s.j1, rotation ? s.j1 + 3 * n : nullptr);
  ChainJacobian(m, d, b2, p2, s.cols, n, s.j2, rotation ? s.j2 + 3 * n : nullptr);
  const int total = (rotation ? 6 : 3) * n;
  for (int k = 0; k < total; ++k) s.rows[k] = s.j1[k] - s.j2[k];
  return n;
}

bool AddRows(const Model& m, Data& d, const int* cols, const double* rows, int n,
             const double* pos, int count, int id) {
  for (int r = 0; r < count; ++r) {
    if (!AddRow(m, d, cols, rows + r * n, n, pos[r], 0, 0, ConstraintType::kEquality, id)) {
      return false;
    }
  }
  return true;
}

// The dofs [*begin, *end) outside which the gradient of a joint's or tendon's scalar position
// is zero.
void ScalarSpan(const Model& m, EqType type, int id, int* begin, int* end) {
  if (type == EqType::kJoint) {
    *begin = m.jnt_dofadr[id];
    *end = *begin + 1;
    return;
  }
  TendonDofSpan(m, id, begin, end);
}

// Scalar position of a joint (qpos - qpos0) or tendon (length - length0), and its gradient row
// on the dofs [begin, end), a span that contains ScalarSpan's (grad is not written outside).
double ScalarPosition(const Model& m, const Data& d, EqType type, int id, int begin, int end,
                      double* grad) {
  std::fill(grad + begin, grad + end, 0.0);
  if (type == EqType::kJoint) {
    const int q = m.jnt_qposadr[id];
    grad[m.jnt_dofadr[id]] = 1;
    return d.qpos[q] - m.qpos0[q];
  }
  const double* row = d.ten_J.data() + static_cast<std::size_t>(id) * m.nv;
  std::copy(row + begin, row + end, grad + begin);
  return d.ten_length[id] - m.tendon_length0[id];
}

}  // namespace

void AddEqualityRows(const Model& m, Data& d) {
  if (m.neq == 0) return;  // (nothing to carve scratch for: the common case)
  const int nv = m.nv;
  ArenaScope scope(d.arena);
  EqualityScratch s;
  ArenaCarve carve(d.arena);
  s.Blocks(carve, nv);

  for (int e = 0; e < m.neq; ++e) {
    if (!d.eq_active[e]) continue;
    const double* data = m.eq_data.data() + 11 * e;
    const int id1 = m.eq_obj1id[e];
    const int id2 = m.eq_obj2id[e];
    double pos[6];
    switch (m.eq_type[e]) {
      case EqType::kConnect: {
        const int b2 = std::max(id2, 0);
        double p1[3], p2[3];
        BodyPoint(d, id1, data, p1);
        BodyPoint(d, b2, data + 3, p2);
        Sub3(pos, p1, p2);
        const int n = JacobianDifference(m, d, id1, p1, b2, p2, false, s);
        if (!AddRows(m, d, s.cols, s.rows, n, pos, 3, e)) return;
        break;
      }
      case EqType::kWeld: {
        const int b2 = std::max(id2, 0);
        double p1[3], p2[3];
        BodyPoint(d, id1, data + 3, p1);
        BodyPoint(d, b2, data, p2);
        Sub3(pos, p1, p2);
        const int n = JacobianDifference(m, d, id1, p1, b2, p2, true, s);
        // orientation residual: imaginary part of q2^-1 q1 relquat, i.e. sin(angle/2) axis;
        // torquescale scales only the Jacobian rows in MuJoCo 2.2.2 (measured), i.e. the lever
        // of the constraint torque, not the residual
        const double torquescale = data[10];
        double q1rel[4], q2inv[4], dif[4];
        MulQuat(q1rel, d.xquat.data() + 4 * id1, data + 6);
        NegQuat(q2inv, d.xquat.data() + 4 * b2);
        MulQuat(dif, q2inv, q1rel);
        // MuJoCo 3.12 (kEnableEqJdotv) scales the residual by torquescale as well
        const double residual_scale = m.opt.Enabled(kEnableEqJdotv) ? torquescale : 1;
        for (int c = 0; c < 3; ++c) pos[3 + c] = residual_scale * dif[1 + c];
        // its rate: 1/2 Im(q2^-1 [0, w1 - w2] q1 relquat), one column per dof
        double* rot = s.rows + 3 * n;
        for (int k = 0; k < n; ++k) {
          const double w[4] = {0, rot[k], rot[n + k], rot[2 * n + k]};
          double t[4], u[4];
          MulQuat(t, q2inv, w);
          MulQuat(u, t, q1rel);
          for (int c = 0; c < 3; ++c) rot[c * n + k] = 0.5 * torquescale * u[1 + c];
        }
        if (const double* frame = ResidualFrame(m, e)) {
          IntoFrame(frame, pos + 3);
          for (int k = 0; k < n; ++k) {
            double column[3] = {rot[k], rot[n + k], rot[2 * n + k]};
            IntoFrame(frame, column);
            for (int c = 0; c < 3; ++c) rot[c * n + k] = column[c];
          }
        }
        if (!AddRows(m, d, s.cols, s.rows, n, pos, 6, e)) return;
        break;
      }
      case EqType::kJoint:
      case EqType::kTendon: {
        // the gradients are zero outside the union of the two objects' spans: the row is
        // built and searched for nonzeros only there (a tendon of a composite grid spans a
        // few dofs of nv = 312)
        int begin, end;
        ScalarSpan(m, m.eq_type[e], id1, &begin, &end);
        if (id2 >= 0) {
          int begin2, end2;
          ScalarSpan(m, m.eq_type[e], id2, &begin2, &end2);
          begin = std::min(begin, begin2);
          end = std::max(end, end2);
        }
        // y - y0 = a0 + a1 x + a2 x^2 + a3 x^3 + a4 x^4 with x = position of object 2
        pos[0] = ScalarPosition(m, d, m.eq_type[e], id1, begin, end, s.dense) - data[0];
        if (id2 >= 0) {
          const double x = ScalarPosition(m, d, m.eq_type[e], id2, begin, end, s.dense2);
          pos[0] -= x * (data[1] + x * (data[2] + x * (data[3] + x * data[4])));
          const double slope = data[1] + x * (2 * data[2] + x * (3 * data[3] + x * 4 * data[4]));
          for (int i = begin; i < end; ++i) s.dense[i] -= slope * s.dense2[i];
        }
        // the row's nonzeros (kept even if all zero, like every row)
        int n = 0;
        for (int i = begin; i < end; ++i) {
          if (s.dense[i] == 0) continue;
          s.cols[n] = i;
          s.rows[n++] = s.dense[i];
        }
        if (!AddRows(m, d, s.cols, s.rows, n, pos, 1, e)) return;
        break;
      }
      case EqType::kDistance:
        break;  // removed in MuJoCo 2.2.2; the compiler refuses it
    }
  }
}

// The rows of a connect (3) or weld (6) are consecutive, in the order AddEqualityRows adds them.
// For a point p_k on body k (k = 1, 2) with velocity-product acceleration a_k (its acceleration
// at qacc = 0), the translational rows' (dJ/dt) qvel is a_1 - a_2. A weld's rotational rows are
// J_r qvel = ts/2 Im(q2^-1 (0, w) q1r) with w = w1 - w2 (world angular velocities), q1r = q1
// relquat and ts the torquescale; their time derivative at qacc = 0 takes the three terms of
// the product rule: d(q2^-1)/dt = -1/2 q2^-1 (0, w2), dw/dt = alpha_1 - alpha_2 (angular
// velocity-product accelerations), d(q1r)/dt = 1/2 (0, w1) q1r.
void SubtractEqualityJdotv(const Model& m, Data& d) {
  for (int row = 0; row < d.nefc;) {
    const int e = d.efc_id[row];
    const bool eq = d.efc_type[row] == ConstraintType::kEquality;
    const EqType type = eq ? m.eq_type[e] : EqType::kJoint;
    const int count = type == EqType::kConnect ? 3 : type == EqType::kWeld ? 6 : 1;
    if (count == 1 || row + count > d.nefc) {
      ++row;
      continue;
    }
    const double* data = m.eq_data.data() + 11 * e;
    const int b1 = m.eq_obj1id[e];
    const int b2 = std::max(m.eq_obj2id[e], 0);
    const bool weld = type == EqType::kWeld;
    double p1[3], p2[3], v1[3], v2[3], a1[3], a2[3], alpha1[3], alpha2[3];
    BodyPoint(d, b1, weld ? data + 3 : data, p1);
    BodyPoint(d, b2, weld ? data : data + 3, p2);
    PointMotion(m, d, b1, p1, v1, a1, alpha1);
    PointMotion(m, d, b2, p2, v2, a2, alpha2);
    double* aref = d.efc_aref.data() + row;
    for (int c = 0; c < 3; ++c) aref[c] -= a1[c] - a2[c];
    if (weld) {
      const double* w1 = d.cvel.data() + 6 * b1;
      const double* w2 = d.cvel.data() + 6 * b2;
      double q1r[4], q2inv[4];
      MulQuat(q1r, d.xquat.data() + 4 * b1, data + 6);
      NegQuat(q2inv, d.xquat.data() + 4 * b2);
      const double w[4] = {0, w1[0] - w2[0], w1[1] - w2[1], w1[2] - w2[2]};
      const double dw[4] = {0, alpha1[0] - alpha2[0], alpha1[1] - alpha2[1],
                            alpha1[2] - alpha2[2]};
      const double w1q[4] = {0, w1[0], w1[1], w1[2]};
      const double w2q[4] = {0, -w2[0], -w2[1], -w2[2]};
      double q2inv_dot[4], q1r_dot[4], t[4], u[4], sum[4] = {0, 0, 0, 0};
      MulQuat(q2inv_dot, q2inv, w2q);  // 2 d(q2^-1)/dt
      MulQuat(q1r_dot, w1q, q1r);      // 2 d(q1r)/dt
      MulQuat(t, q2inv_dot, w);        // d(q2^-1)/dt (0, w) q1r
      MulQuat(u, t, q1r);
      for (int c = 0; c < 4; ++c) sum[c] += 0.5 * u[c];
      MulQuat(t, q2inv, dw);           // q2^-1 (0, dw/dt) q1r
      MulQuat(u, t, q1r);
      for (int c = 0; c < 4; ++c) sum[c] += u[c];
      MulQuat(t, q2inv, w);            // q2^-1 (0, w) d(q1r)/dt
      MulQuat(u, t, q1r_dot);
      for (int c = 0; c < 4; ++c) sum[c] += 0.5 * u[c];
      const double torquescale = data[10];
      if (const double* frame = ResidualFrame(m, e)) IntoFrame(frame, sum + 1);
      for (int c = 0; c < 3; ++c) aref[3 + c] -= 0.5 * torquescale * sum[1 + c];
    }
    row += count;
  }
}

// (nv) => the buffers AddEqualityRows takes
ArenaPlan EqualityRowsPlan(const Model& m) {
  ArenaPlan plan;
  EqualityScratch().Blocks(plan, m.nv);
  return plan;
}

}  // namespace gauss
