// Passive forces (spec stage 15): joint and tendon springs and dampers, MuJoCo 3.x's body
// gravity compensation, then the forces of the surrounding fluid (fluid.cc). MuJoCo 3.x's
// spring and damper flags each turn off their half; the last two stop only with both, as
// 2.2.2's passive flag stops everything.
#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "fluid.h"
#include "jacobian.h"
#include "pipeline.h"

namespace gauss {

using namespace math;

namespace {

// Angular spring displacement of a quaternion from its spring reference, as a rotation vector
// in the joint's local frame.
void QuatDisplacement(double* dif, const double* q, const double* q_spring) {
  double quat[4];
  Copy4(quat, q);
  NormalizeQuat(quat);
  SubQuat(dif, quat, q_spring);
}

// MuJoCo 3.x body gravity compensation: body_gravcomp times the body's weight, upwards, at its
// center of mass (off with gravity disabled or zero), into qfrc_gravcomp; it enters
// qfrc_passive at the dofs of joints without actuatorgravcomp, the others take it in
// qfrc_actuator (ActuatorToJointForces), as MuJoCo 3.12.1 does (measured).
// (body_gravcomp, xipos, cdof) => (qfrc_gravcomp, qfrc_passive)
void GravityCompensation(const Model& m, Data& d) {
  const double* g = m.opt.gravity.data();
  const bool gravity = !m.opt.Disabled(kDisableGravity) && (g[0] != 0 || g[1] != 0 || g[2] != 0);
  bool any = false;
  for (int b = 1; gravity && b < static_cast<int>(m.body_gravcomp.size()); ++b) {
    const double scale = m.body_gravcomp[b];
    if (scale == 0) continue;
    const double force[3] = {-g[0] * m.body_mass[b] * scale, -g[1] * m.body_mass[b] * scale,
                             -g[2] * m.body_mass[b] * scale};
    const double torque[3] = {0, 0, 0};
    ApplyWrench(m, d, b, d.xipos.data() + 3 * b, force, torque, d.qfrc_gravcomp.data());
    any = true;
  }
  if (!any) return;
  const bool routed = !m.jnt_actgravcomp.empty();
  for (int i = 0; i < m.nv; ++i) {
    if (!routed || !m.jnt_actgravcomp[m.dof_jntid[i]]) d.qfrc_passive[i] += d.qfrc_gravcomp[i];
  }
}

// (contacts with their rows, cdof, subtree_com) => qfrc_passive: MuJoCo 3.x contact adhesion.
// Every adhesive contact that has constraint rows pulls its two geoms together along its normal
// with its adhesion force, at the contact point; the rows' reference accelerations are shifted
// to match (constraint_assembly.cc, AddAdhesionBias), so that the contact can pull up to that
// force before it lets go, and a resting contact's net force stays what it was.
void ContactAdhesion(const Model& m, Data& d) {
  const double no_torque[3] = {0, 0, 0};
  for (int k = 0; k < d.ncon; ++k) {
    const Contact& c = d.contact[k];
    if (c.adhesion <= 0 || c.efc_address < 0) continue;
    double pull[3], push[3];  // on geom2 (towards geom1, against the normal), on geom1
    for (int i = 0; i < 3; ++i) {
      pull[i] = -c.adhesion * c.frame[i];
      push[i] = -pull[i];
    }
    ApplyWrench(m, d, m.geom_bodyid[c.geom2], c.pos, pull, no_torque, d.qfrc_passive.data());
    ApplyWrench(m, d, m.geom_bodyid[c.geom1], c.pos, push, no_torque, d.qfrc_passive.data());
  }
}

}  // namespace

// (qpos, qvel, ten_length, ten_velocity, ten_J, cvel, xipos, cdof, subtree_com, contacts) =>
// (qfrc_passive, qfrc_gravcomp)
void PassiveForces(const Model& m, Data& d) {
  std::fill(d.qfrc_passive.begin(), d.qfrc_passive.end(), 0.0);
  std::fill(d.qfrc_gravcomp.begin(), d.qfrc_gravcomp.end(), 0.0);
  if (m.opt.PassiveDisabled()) return;
  const bool springs = !m.opt.SpringsDisabled(), dampers = !m.opt.DampersDisabled();

  // springs: -k (q - q_spring), with quaternion differences for ball and free rotations;
  // hinges and slides may have 3.x polynomial springs (SpringForce)
  for (int j = 0; j < m.njnt && springs; ++j) {
    const double k = m.jnt_stiffness[j];
    if (k == 0 && !SpringPoly(m.jnt_stiffnesspoly, j)) continue;
    const int q = m.jnt_qposadr[j];
    const int v = m.jnt_dofadr[j];
    double dif[3];
    switch (m.jnt_type[j]) {
      case JointType::kFree:
        for (int c = 0; c < 3; ++c) d.qfrc_passive[v + c] -= k * (d.qpos[q + c] - m.qpos_spring[q + c]);
        QuatDisplacement(dif, d.qpos.data() + q + 3, m.qpos_spring.data() + q + 3);
        for (int c = 0; c < 3; ++c) d.qfrc_passive[v + 3 + c] -= k * dif[c];
        break;
      case JointType::kBall:
        QuatDisplacement(dif, d.qpos.data() + q, m.qpos_spring.data() + q);
        for (int c = 0; c < 3; ++c) d.qfrc_passive[v + c] -= k * dif[c];
        break;
      case JointType::kSlide:
      case JointType::kHinge:
        d.qfrc_passive[v] += SpringForce(k, SpringPoly(m.jnt_stiffnesspoly, j),
                                         d.qpos[q] - m.qpos_spring[q]);
        break;
    }
  }

  // dampers: -b v per dof
  for (int i = 0; i < m.nv && dampers; ++i) d.qfrc_passive[i] -= m.dof_damping[i] * d.qvel[i];

  // tendon spring-dampers act along the tendon: J' (-k (L - L_spring) - b L'), where the
  // spring rests anywhere in its dead band [lower, upper] (3.x; lower = upper without one)
  // and may be a 3.x polynomial one (SpringForce)
  const bool dead_bands = m.tendon_lengthspring_upper.size() == static_cast<std::size_t>(m.ntendon);
  for (int t = 0; t < m.ntendon; ++t) {
    const double length = d.ten_length[t], lower = m.tendon_lengthspring[t];
    const double upper = dead_bands ? m.tendon_lengthspring_upper[t] : lower;
    const double stretch = length > upper ? length - upper : length < lower ? length - lower : 0;
    const double spring =
        springs ? SpringForce(m.tendon_stiffness[t], SpringPoly(m.tendon_stiffnesspoly, t), stretch)
                : 0.0;
    const double force = spring - (dampers ? m.tendon_damping[t] * d.ten_velocity[t] : 0.0);
    if (force == 0) continue;
    const double* jac = d.ten_J.data() + t * m.nv;
    for (int i = 0; i < m.nv; ++i) d.qfrc_passive[i] += jac[i] * force;
  }

  GravityCompensation(m, d);

  // drag and viscosity of the medium (option density, viscosity, wind)
  FluidForces(m, d);

  // the attraction half of contact adhesion; the other half, the rows' reference-acceleration
  // shift (constraint_assembly.cc), applies even with spring and damper disabled, when this
  // function returns early: MuJoCo 3.12.1 does the same (measured bit for bit)
  if (!m.geom_adhesion.empty() || !m.pair_adhesion.empty()) ContactAdhesion(m, d);
}

}  // namespace gauss
