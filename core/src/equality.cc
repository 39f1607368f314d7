// Equality constraints (spec "Equality"): connect (3 rows), weld (6), joint (1), tendon (1).
//
// eq_data layout per type (11 values, as compiled from MJCF):
//   connect: anchor in body1 frame (3), the same point in body2 frame at qpos0 (3)
//   weld:    anchor in body2 frame (3), body2's anchor seen from body1 (relpose position, 3),
//            relative orientation body1 -> body2 (relpose quaternion, 4), torquescale (1)
//   joint / tendon: polynomial coefficients a0..a4 of y - y0 = poly(x - x0)
// Residuals are "body1 minus body2"; their Jacobians are J(body1) - J(body2).
#include <algorithm>

#include "constraint_assembly.h"
#include "gauss/math.h"
#include "pipeline.h"

namespace gauss {

using namespace math;

namespace {

// World position of a point given in a body's frame.
void BodyPoint(const Data& d, int body, const double* local, double* world) {
  MulMatVec3(world, d.xmat.data() + 9 * body, local);
  AddTo3(world, d.xpos.data() + 3 * body);
}

// jac (rows x nv) = J(body1 at p1) - J(body2 at p2) for translation (rows 0-2) and, when
// `rotation`, rotation (rows 3-5).
void JacobianDifference(const Model& m, const Data& d, int b1, const double* p1, int b2,
                        const double* p2, bool rotation, double* jac, double* scratch) {
  const int nv = m.nv;
  double* j1 = scratch;
  double* j2 = scratch + 6 * nv;
  PointJacobian(m, d, b1, p1, j1, rotation ? j1 + 3 * nv : nullptr);
  PointJacobian(m, d, b2, p2, j2, rotation ? j2 + 3 * nv : nullptr);
  const int n = (rotation ? 6 : 3) * nv;
  for (int i = 0; i < n; ++i) jac[i] = j1[i] - j2[i];
}

bool AddRows(const Model& m, Data& d, const double* jac, const double* pos, int n, int id) {
  for (int r = 0; r < n; ++r) {
    if (!AddRow(m, d, jac + r * m.nv, pos[r], 0, 0, ConstraintType::kEquality, id)) return false;
  }
  return true;
}

// Scalar position and its Jacobian row of a joint (qpos - qpos0) or tendon (length - length0).
double ScalarPosition(const Model& m, const Data& d, EqType type, int id, double* jac) {
  std::fill(jac, jac + m.nv, 0.0);
  if (type == EqType::kJoint) {
    const int q = m.jnt_qposadr[id];
    jac[m.jnt_dofadr[id]] = 1;
    return d.qpos[q] - m.qpos0[q];
  }
  std::copy(d.ten_J.begin() + id * m.nv, d.ten_J.begin() + (id + 1) * m.nv, jac);
  return d.ten_length[id] - m.tendon_length0[id];
}

}  // namespace

void AddEqualityRows(const Model& m, Data& d) {
  const int nv = m.nv;
  ArenaScope scope(d.arena);
  double* jac = d.arena.Doubles(6 * nv);
  double* scratch = d.arena.Doubles(12 * nv);
  double* jac2 = d.arena.Doubles(nv);

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
        JacobianDifference(m, d, id1, p1, b2, p2, false, jac, scratch);
        if (!AddRows(m, d, jac, pos, 3, e)) return;
        break;
      }
      case EqType::kWeld: {
        const int b2 = std::max(id2, 0);
        double p1[3], p2[3];
        BodyPoint(d, id1, data + 3, p1);
        BodyPoint(d, b2, data, p2);
        Sub3(pos, p1, p2);
        JacobianDifference(m, d, id1, p1, b2, p2, true, jac, scratch);
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
        for (int i = 0; i < nv; ++i) {
          const double w[4] = {0, jac[3 * nv + i], jac[4 * nv + i], jac[5 * nv + i]};
          double t[4], u[4];
          MulQuat(t, q2inv, w);
          MulQuat(u, t, q1rel);
          for (int c = 0; c < 3; ++c) jac[(3 + c) * nv + i] = 0.5 * torquescale * u[1 + c];
        }
        if (!AddRows(m, d, jac, pos, 6, e)) return;
        break;
      }
      case EqType::kJoint:
      case EqType::kTendon: {
        // y - y0 = a0 + a1 x + a2 x^2 + a3 x^3 + a4 x^4 with x = position of object 2
        pos[0] = ScalarPosition(m, d, m.eq_type[e], id1, jac) - data[0];
        if (id2 >= 0) {
          const double x = ScalarPosition(m, d, m.eq_type[e], id2, jac2);
          pos[0] -= x * (data[1] + x * (data[2] + x * (data[3] + x * data[4])));
          const double slope = data[1] + x * (2 * data[2] + x * (3 * data[3] + x * 4 * data[4]));
          for (int i = 0; i < nv; ++i) jac[i] -= slope * jac2[i];
        }
        if (!AddRows(m, d, jac, pos, 1, e)) return;
        break;
      }
      case EqType::kDistance:
        break;  // removed in MuJoCo 2.2.2; the compiler refuses it
    }
  }
}

}  // namespace gauss
