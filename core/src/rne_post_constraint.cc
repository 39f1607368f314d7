// The Newton-Euler pass after the constraint solve (MuJoCo's mj_rnePostConstraint), computed on
// demand for the acceleration sensors (accelerometer, force, torque, frame accelerations):
// body accelerations with the final qacc, the external forces every body receives (applied
// Cartesian forces, contact forces, connect and weld constraint forces) and the interaction
// force between each body and its parent. Also the decoding of contact forces from their
// constraint rows. See gauss/sensor_support.h.
//
// Sign conventions (all com-based, [torque, force] at the tree's reference point):
//   cfrc_ext: force the world and other bodies exert on the body;
//   cfrc_int: force the parent exerts on the body's subtree = rate of change of the subtree's
//             momentum (plus weight, through cacc of the world = -gravity) minus its external
//             forces.
#include <algorithm>

#include "gauss/constraint.h"
#include "gauss/math.h"
#include "gauss/sensor_support.h"
#include "inertia.h"

namespace gauss {

using namespace math;

// (pyramid edge forces, friction) => contact-frame force
void DecodePyramid(double* force, const double* pyramid, const double* mu, int dim) {
  if (dim == 1) {
    force[0] = pyramid[0];
    return;
  }
  // Edges 2i and 2i+1 push along n + mu_i t_i and n - mu_i t_i: all edges add to the normal
  // force, and each pair's difference, scaled by mu_i, is the force along tangent i.
  force[0] = 0;
  for (int k = 0; k < 2 * (dim - 1); ++k) force[0] += pyramid[k];
  for (int i = 0; i < dim - 1; ++i) force[i + 1] = (pyramid[2 * i] - pyramid[2 * i + 1]) * mu[i];
}

// (contact[id], efc_force, opt.cone) => result
void ContactForce(const Model& m, const Data& d, int id, double result[6]) {
  std::fill(result, result + 6, 0.0);
  if (id < 0 || id >= d.ncon) return;
  const Contact& con = d.contact[id];
  if (con.efc_address < 0) return;
  const double* rows = d.efc_force.data() + con.efc_address;
  if (m.opt.cone == Cone::kPyramidal) {
    DecodePyramid(result, rows, con.friction, con.dim);
  } else {
    std::copy(rows, rows + con.dim, result);
  }
}

namespace {

// cfrc_ext[body] += sign * (world [torque; force] applied at `point`, moved to the body's tree
// reference point). The world body receives nothing.
void AddExternal(const Model& m, Data& d, int body, const double wrench[6], const double point[3],
                 double sign) {
  if (body <= 0) return;
  double at_ref[6];
  TransformSpatial(at_ref, wrench, true, d.subtree_com.data() + 3 * m.body_rootid[body], point,
                   nullptr);
  double* ext = d.cfrc_ext.data() + 6 * body;
  for (int c = 0; c < 6; ++c) ext[c] += sign * at_ref[c];
}

// (xfrc_applied, xipos) => cfrc_ext: force and torque applied at each body's center of mass.
void AddAppliedForces(const Model& m, Data& d) {
  for (int b = 1; b < m.nbody; ++b) {
    const double* xfrc = d.xfrc_applied.data() + 6 * b;
    if (std::all_of(xfrc, xfrc + 6, [](double v) { return v == 0; })) continue;
    const double wrench[6] = {xfrc[3], xfrc[4], xfrc[5], xfrc[0], xfrc[1], xfrc[2]};
    AddExternal(m, d, b, wrench, d.xipos.data() + 3 * b, 1);
  }
}

// (contact, efc_force) => cfrc_ext: each contact pushes geom2's body along its force and geom1's
// body the opposite way, at the contact point.
void AddContactForces(const Model& m, Data& d) {
  for (int i = 0; i < d.ncon; ++i) {
    const Contact& con = d.contact[i];
    if (con.efc_address < 0) continue;
    double local[6], wrench[6];
    ContactForce(m, d, i, local);
    // contact frame -> world: the frame's rows are the normal and tangents
    MulMatTVec3(wrench, con.frame, local + 3);
    MulMatTVec3(wrench + 3, con.frame, local);
    AddExternal(m, d, m.geom_bodyid[con.geom1], wrench, con.pos, -1);
    AddExternal(m, d, m.geom_bodyid[con.geom2], wrench, con.pos, 1);
  }
}

// (efc_force of the equality rows, eq_data, xpos, xmat) => cfrc_ext: connect and weld constraint
// forces act at their anchors, on body1 along the row force and on body2 against it. Joint and
// tendon equalities act through joints and are not external forces. Rows are grouped by efc_id;
// a connect (weld) whose 3 (6) rows are not all present is skipped, since its force components
// cannot be told apart.
void AddEqualityForces(const Model& m, Data& d) {
  int row = 0;
  while (row < d.ne) {
    const int e = d.efc_id[row];
    int count = 1;
    while (row + count < d.ne && d.efc_id[row + count] == e) ++count;
    const EqType type = m.eq_type[e];
    const bool weld = type == EqType::kWeld;
    if ((type == EqType::kConnect && count == 3) || (weld && count == 6)) {
      const double* data = m.eq_data.data() + 11 * e;
      const double* f = d.efc_force.data() + row;
      double wrench[6] = {0, 0, 0, f[0], f[1], f[2]};
      if (weld) Copy3(wrench, f + 3);
      // anchors: connect has body1's point first, weld has body2's point first
      const double* local1 = data + (weld ? 3 : 0);
      const double* local2 = data + (weld ? 0 : 3);
      for (int side = 0; side < 2; ++side) {
        const int body = side == 0 ? m.eq_obj1id[e] : std::max(m.eq_obj2id[e], 0);
        if (body <= 0) continue;
        double point[3];
        MulMatVec3(point, d.xmat.data() + 9 * body, side == 0 ? local1 : local2);
        AddTo3(point, d.xpos.data() + 3 * body);
        AddExternal(m, d, body, wrench, point, side == 0 ? 1 : -1);
      }
    }
    row += count;
  }
}

}  // namespace

// (cinert, cvel, cdof, cdof_dot, qvel, qacc, xfrc_applied, contact, efc_force) =>
// (cacc, cfrc_ext, cfrc_int)
void RnePostConstraint(const Model& m, Data& d) {
  // 1. external forces
  std::fill(d.cfrc_ext.begin(), d.cfrc_ext.end(), 0.0);
  AddAppliedForces(m, d);
  AddContactForces(m, d);
  AddEqualityForces(m, d);

  // 2. forward pass: accelerations (the world accelerates upward at -gravity, which puts the
  //    weight into every body's force) and each body's net force minus its external forces
  double* cacc = d.cacc.data();
  double* cfrc = d.cfrc_int.data();
  std::fill(cacc, cacc + 6, 0.0);
  if (!m.opt.Disabled(kDisableGravity)) {
    for (int c = 0; c < 3; ++c) cacc[3 + c] = -m.opt.gravity[c];
  }
  std::fill(cfrc, cfrc + 6, 0.0);
  for (int b = 1; b < m.nbody; ++b) {
    double* acc = cacc + 6 * b;
    const double* parent_acc = cacc + 6 * m.body_parentid[b];
    for (int c = 0; c < 6; ++c) acc[c] = parent_acc[c];
    for (int i = m.body_dofadr[b]; i < m.body_dofadr[b] + m.body_dofnum[b]; ++i) {
      const double* cdof_dot = d.cdof_dot.data() + 6 * i;
      const double* cdof = d.cdof.data() + 6 * i;
      for (int c = 0; c < 6; ++c) acc[c] += cdof_dot[c] * d.qvel[i] + cdof[c] * d.qacc[i];
    }
    double momentum[6], gyro[6];
    const double* cinert = d.cinert.data() + 10 * b;
    const double* vel = d.cvel.data() + 6 * b;
    MulInertiaVec(cfrc + 6 * b, cinert, acc);
    MulInertiaVec(momentum, cinert, vel);
    CrossForce(gyro, vel, momentum);
    const double* ext = d.cfrc_ext.data() + 6 * b;
    for (int c = 0; c < 6; ++c) cfrc[6 * b + c] += gyro[c] - ext[c];
  }

  // 3. backward pass: each body's interaction force carries its whole subtree (the world's entry
  //    sums the trees, as MuJoCo 2.2.2 reports it)
  for (int b = m.nbody - 1; b > 0; --b) {
    double* parent = cfrc + 6 * m.body_parentid[b];
    for (int c = 0; c < 6; ++c) parent[c] += cfrc[6 * b + c];
  }
}

}  // namespace gauss
