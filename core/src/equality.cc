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

// Scalar position (dense gradient row) of a joint (qpos - qpos0) or tendon (length - length0).
double ScalarPosition(const Model& m, const Data& d, EqType type, int id, double* grad) {
  std::fill(grad, grad + m.nv, 0.0);
  if (type == EqType::kJoint) {
    const int q = m.jnt_qposadr[id];
    grad[m.jnt_dofadr[id]] = 1;
    return d.qpos[q] - m.qpos0[q];
  }
  std::copy(d.ten_J.begin() + id * m.nv, d.ten_J.begin() + (id + 1) * m.nv, grad);
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
        // torquescale scales only the Jacobian rows (MuJoCo 2.2.2, measured), i.e. the lever
        // of the constraint torque, not the residual
        const double torquescale = data[10];
        double q1rel[4], q2inv[4], dif[4];
        MulQuat(q1rel, d.xquat.data() + 4 * id1, data + 6);
        NegQuat(q2inv, d.xquat.data() + 4 * b2);
        MulQuat(dif, q2inv, q1rel);
        for (int c = 0; c < 3; ++c) pos[3 + c] = dif[1 + c];
        // its rate: 1/2 Im(q2^-1 [0, w1 - w2] q1 relquat), one column per dof
        double* rot = s.rows + 3 * n;
        for (int k = 0; k < n; ++k) {
          const double w[4] = {0, rot[k], rot[n + k], rot[2 * n + k]};
          double t[4], u[4];
          MulQuat(t, q2inv, w);
          MulQuat(u, t, q1rel);
          for (int c = 0; c < 3; ++c) rot[c * n + k] = 0.5 * torquescale * u[1 + c];
        }
        if (!AddRows(m, d, s.cols, s.rows, n, pos, 6, e)) return;
        break;
      }
      case EqType::kJoint:
      case EqType::kTendon: {
        // y - y0 = a0 + a1 x + a2 x^2 + a3 x^3 + a4 x^4 with x = position of object 2
        pos[0] = ScalarPosition(m, d, m.eq_type[e], id1, s.dense) - data[0];
        if (id2 >= 0) {
          const double x = ScalarPosition(m, d, m.eq_type[e], id2, s.dense2);
          pos[0] -= x * (data[1] + x * (data[2] + x * (data[3] + x * data[4])));
          const double slope = data[1] + x * (2 * data[2] + x * (3 * data[3] + x * 4 * data[4]));
          for (int i = 0; i < nv; ++i) s.dense[i] -= slope * s.dense2[i];
        }
        // the row's nonzeros (kept even if all zero, like every row)
        int n = 0;
        for (int i = 0; i < nv; ++i) {
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

// (nv) => the buffers AddEqualityRows takes
ArenaPlan EqualityRowsPlan(const Model& m) {
  ArenaPlan plan;
  EqualityScratch().Blocks(plan, m.nv);
  return plan;
}

}  // namespace gauss
