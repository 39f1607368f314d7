// Passive forces (spec stage 15): joint and tendon springs and dampers, then the forces of the
// surrounding fluid, with MuJoCo 2.2.2's inertia-box model (spec "Fluid forces"):
//
// Each body with mass is replaced by the uniform box with the same mass and principal moments
// of inertia (in its inertial frame). With the body's velocity at its center of mass relative
// to the medium (the wind is the medium's velocity), in the inertial frame: omega, v:
//
//   viscous (Stokes, sphere of diameter D = mean box side):
//       f = -3 pi D mu v,               tau = -pi D^3 mu omega
//   quadratic drag (density rho), per axis i with the other two sides j, k:
//       f_i   = -1/2 rho b_j b_k |v_i| v_i
//       tau_i = -rho b_i (b_j^4 + b_k^4) |omega_i| omega_i / 64
//
// The wrench acts at the center of mass and enters qfrc_passive through the body's Jacobian.
// Both terms oppose the relative motion, so with no wind they only remove energy.
#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "passive.h"
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

constexpr double kPi = 3.14159265358979323846;

// Sides of the uniform box with body b's mass and principal moments.
void EquivalentBox(const Model& m, int b, double* box) {
  const double* inertia = m.body_inertia.data() + 3 * b;
  const double mass = m.body_mass[b];
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    // I_i = m (b_j^2 + b_k^2) / 12  =>  b_i^2 = 6 (I_j + I_k - I_i) / m
    box[i] = std::sqrt(std::max(kMinVal, inertia[j] + inertia[k] - inertia[i]) / mass * 6.0);
  }
}

// qfrc (nv) += J' [force; torque] for a wrench (world frame) applied at `point` of body b.
void ApplyWrench(const Model& m, const Data& d, int b, const double* point, const double* force,
                 const double* torque, double* qfrc) {
  int body = b;
  while (body > 0 && m.body_dofnum[body] == 0) body = m.body_parentid[body];
  if (body == 0) return;  // welded to the world
  double offset[3];
  Sub3(offset, point, d.subtree_com.data() + 3 * m.body_rootid[b]);
  for (int i = m.body_dofadr[body] + m.body_dofnum[body] - 1; i >= 0; i = m.dof_parentid[i]) {
    const double* cdof = d.cdof.data() + 6 * i;
    double lin[3];
    Cross3(lin, cdof, offset);
    AddTo3(lin, cdof + 3);
    qfrc[i] += Dot3(lin, force) + Dot3(cdof, torque);
  }
}

// Velocity of body b's center of mass relative to the medium (v) and its angular velocity (w),
// both in the inertial frame.
void FluidVelocity(const Model& m, const Data& d, int b, double* v, double* w) {
  const double* cvel = d.cvel.data() + 6 * b;
  const double* ximat = d.ximat.data() + 9 * b;
  double offset[3], lin[3], rel[3];
  Sub3(offset, d.xipos.data() + 3 * b, d.subtree_com.data() + 3 * m.body_rootid[b]);
  Cross3(lin, cvel, offset);
  AddTo3(lin, cvel + 3);
  Sub3(rel, lin, m.opt.wind.data());
  MulMatTVec3(w, ximat, cvel);
  MulMatTVec3(v, ximat, rel);
}

// (cvel, xipos, ximat, subtree_com, opt.density/viscosity/wind) => qfrc_passive += fluid forces
void FluidForces(const Model& m, Data& d) {
  const Options& o = m.opt;
  if (!(o.density > 0) && !(o.viscosity > 0)) return;
  for (int b = 1; b < m.nbody; ++b) {
    if (m.body_mass[b] < kMinVal) continue;
    double box[3];
    EquivalentBox(m, b, box);

    const double* ximat = d.ximat.data() + 9 * b;
    double v[3], w[3];
    FluidVelocity(m, d, b, v, w);

    double torque[3] = {0, 0, 0}, force[3] = {0, 0, 0};
    if (o.viscosity > 0) {
      const double diameter = (box[0] + box[1] + box[2]) / 3.0;
      for (int i = 0; i < 3; ++i) {
        torque[i] -= kPi * diameter * diameter * diameter * o.viscosity * w[i];
        force[i] -= 3.0 * kPi * diameter * o.viscosity * v[i];
      }
    }
    if (o.density > 0) {
      for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        force[i] -= 0.5 * o.density * box[j] * box[k] * std::fabs(v[i]) * v[i];
        const double bj2 = box[j] * box[j], bk2 = box[k] * box[k];
        torque[i] -= o.density * box[i] * (bj2 * bj2 + bk2 * bk2) * std::fabs(w[i]) * w[i] / 64.0;
      }
    }

    // back to the world frame, applied at the center of mass
    double world_force[3], world_torque[3];
    MulMatVec3(world_force, ximat, force);
    MulMatVec3(world_torque, ximat, torque);
    ApplyWrench(m, d, b, d.xipos.data() + 3 * b, world_force, world_torque,
                d.qfrc_passive.data());
  }
}

}  // namespace

bool FluidDamping(const Model& m, const Data& d, int b, double* dforce, double* dtorque) {
  const Options& o = m.opt;
  if ((!(o.density > 0) && !(o.viscosity > 0)) || m.body_mass[b] < kMinVal) return false;
  double box[3], v[3], w[3];
  EquivalentBox(m, b, box);
  FluidVelocity(m, d, b, v, w);
  const double diameter = (box[0] + box[1] + box[2]) / 3.0;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double bj2 = box[j] * box[j], bk2 = box[k] * box[k];
    // d/dv of -c v (viscous) and of -c |v| v (quadratic drag) = -c and -2 c |v|
    dforce[i] = -3.0 * kPi * diameter * o.viscosity - o.density * box[j] * box[k] * std::fabs(v[i]);
    dtorque[i] = -kPi * diameter * diameter * diameter * o.viscosity -
                 2.0 * o.density * box[i] * (bj2 * bj2 + bk2 * bk2) * std::fabs(w[i]) / 64.0;
  }
  return true;
}

// (qpos, qvel, ten_length, ten_velocity, ten_J, cvel) => qfrc_passive
void PassiveForces(const Model& m, Data& d) {
  for (int i = 0; i < m.nv; ++i) d.qfrc_passive[i] = 0;
  if (m.opt.Disabled(kDisablePassive)) return;

  // springs: -k (q - q_spring), with quaternion differences for ball and free rotations
  for (int j = 0; j < m.njnt; ++j) {
    const double k = m.jnt_stiffness[j];
    if (k == 0) continue;
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
        d.qfrc_passive[v] -= k * (d.qpos[q] - m.qpos_spring[q]);
        break;
    }
  }

  // dampers: -b v per dof
  for (int i = 0; i < m.nv; ++i) d.qfrc_passive[i] -= m.dof_damping[i] * d.qvel[i];

  // tendon spring-dampers act along the tendon: J' (-k (L - L_spring) - b L')
  for (int t = 0; t < m.ntendon; ++t) {
    const double force = -m.tendon_stiffness[t] * (d.ten_length[t] - m.tendon_lengthspring[t]) -
                         m.tendon_damping[t] * d.ten_velocity[t];
    if (force == 0) continue;
    const double* jac = d.ten_J.data() + t * m.nv;
    for (int i = 0; i < m.nv; ++i) d.qfrc_passive[i] += jac[i] * force;
  }

  // drag and viscosity of the medium (option density, viscosity, wind)
  FluidForces(m, d);
}

}  // namespace gauss
