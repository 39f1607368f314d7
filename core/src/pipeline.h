// The stages of the forward-dynamics pipeline, in the order of the spec's "Simulation pipeline"
// section, and nothing else. Each stage states what it reads and writes in Data field names;
// engine.cc strings them together, one line per stage (stage 21, the constraint solve, is
// Engine::SolveConstraints: it calls the solver plugin). Helpers the stages share live in
// jacobian.h, passive.h, actuation.h, collision.h, constraint_assembly.h and sensors.h.
// With sleep on, the stages skip the bodies and dofs of frozen sleeping trees (sleep.h:
// kinematics, the com quantities, crb/qM and its factor, cvel, the bias force, qacc_smooth),
// whose values then stay those of their last evaluation.
#pragma once

#include <vector>

#include "actuation.h"
#include "collision.h"
#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/sensor_support.h"
#include "sensors.h"

namespace gauss {

// ---------------------------------------------------------------- position stages
// 2. kinematics.cc: (qpos, mocap_pos, mocap_quat) => (xpos, xquat, xmat, xipos, ximat, xanchor,
// xaxis, geom_xpos, geom_xmat, site_xpos, site_xmat). Quaternions are normalized on use.
void Kinematics(const Model& m, Data& d);
// kinematics.cc: (xpos, xquat, xmat of body b) => world pose (xpos, xmat) of a frame fixed in b
// at the local (pos, quat): a geom, a site or a camera.
void FixedFrame(const Data& d, int b, const double* pos, const double* quat, double* xpos,
                double* xmat);

// 3. com.cc: (xpos, xmat, xipos, ximat, xanchor, xaxis) => (subtree_com, cinert, cdof).
// Each tree is expressed in a world-aligned frame at its root's subtree center of mass.
void ComPosition(const Model& m, Data& d);
// 3b. camera.cc: (xpos, xquat, xmat, subtree_com, cam_*) => (cam_xpos, cam_xmat): each
// camera's world pose by its mode (MuJoCo computes it with the lights after the com stage).
void CameraPoses(const Model& m, Data& d);

// 5. tendon.cc: (qpos, site_xpos, geom_xpos, geom_xmat, cdof) => (ten_length, ten_J): fixed
// tendons (linear in joint positions) and spatial tendons (site paths wrapping around spheres
// and cylinders, with pulleys).
void Tendons(const Model& m, Data& d);

// 6. inertia.cc: (cinert, cdof) => (crb, qM): composite rigid-body algorithm into tree-sparse
// M, plus armature on the diagonal.
void CompositeInertia(const Model& m, Data& d);
// 7. inertia.cc: qM => (qLD, qLDiagInv, qLDiagSqrtInv)
void FactorInertia(const Model& m, Data& d);

// 8. collision.cc: (geom_xpos, geom_xmat, xpos, ...) => (contact[0..ncon), ncon) through the
// collider plugins of `table`. Does nothing when contacts or constraints are disabled. Raises
// Warning::kContactFull when the buffer is too small.
void Collision(const Model& m, Data& d, const CollisionTable& table);

// 9, 11. constraint_assembly.cc: (poses, ten_J, contacts, eq_active) => (efc_type, efc_id,
// efc_J, efc_pos, efc_margin, efc_frictionloss, ne, nf, nefc, contact[].efc_address), rows
// ordered equality, friction loss, limit, contact; then the parameters (efc_diagApprox, efc_R,
// efc_D, efc_KBIP). Raises Warning::kConstraintFull and keeps no rows when they exceed njmax
// (as MuJoCo).
void MakeConstraints(const Model& m, Data& d);

// 10. actuation.cc: (qpos) => (actuator_length, actuator_moment, actuator_moment_span)
void Transmission(const Model& m, Data& d);

// 12. energy.cc: PotentialEnergy (declared in gauss/sensor_support.h, for the energy sensors)

// ---------------------------------------------------------------- velocity stages
// 13. tendon.cc: (ten_J, qvel) => ten_velocity
void TendonVelocity(const Model& m, Data& d);
// 13. actuation.cc: (actuator_moment, qvel) => actuator_velocity
void ActuatorVelocity(const Model& m, Data& d);

// 14. com.cc: (qvel, cdof) => (cvel, cdof_dot)
void ComVelocity(const Model& m, Data& d);

// A spring of stiffness k and 3.x polynomial coefficients poly = {k2, k3} (null: linear) at
// stretch x: its force -(k x + k2 x^2 + k3 x^3), as MuJoCo 3.12 computes it (measured), and its
// potential energy k x^2/2 + k2 x^3/3 + k3 x^4/4 (the force's integral).
inline double SpringForce(double k, const double* poly, double x) {
  return poly ? -x * (k + x * (poly[0] + x * poly[1])) : -k * x;
}
inline double SpringEnergy(double k, const double* poly, double x) {
  return poly ? x * x * (k / 2 + x * (poly[0] / 3 + x * poly[1] / 4)) : k * x * x / 2;
}
// (model) => jnt_stiffnesspoly / tendon_stiffnesspoly of joint or tendon i, null when linear
inline const double* SpringPoly(const std::vector<double>& poly, int i) {
  if (poly.empty() || (poly[2 * i] == 0 && poly[2 * i + 1] == 0)) return nullptr;
  return poly.data() + 2 * i;
}

// 15. passive.cc: (qpos, qvel, ten_length, ten_velocity, cvel) => qfrc_passive: joint and
// tendon springs and dampers, and the inertia-box fluid forces (opt.density, viscosity, wind).
void PassiveForces(const Model& m, Data& d);

// 16. energy.cc: KineticEnergy (declared in gauss/sensor_support.h)

// 17. constraint_assembly.cc: (efc_J, qvel, efc_KBIP, efc_pos, efc_margin) =>
// (efc_vel, efc_aref)
void ReferenceAcceleration(const Model& m, Data& d);

// 18. rne.cc: (cinert, cvel, cdof, cdof_dot, qvel [, qacc]) => result (nv): inverse dynamics by
// the recursive Newton-Euler algorithm. With with_acc false this is the bias force c(q, v)
// (Coriolis, centrifugal, gravity): then frozen sleeping trees are skipped, their result entries
// keep their values. Also writes cacc and cfrc_int as by-products.
void RecursiveNewtonEuler(const Model& m, Data& d, bool with_acc, double* result);

// ---------------------------------------------------------------- acceleration stages
// 19. actuation.cc: (ctrl, act, actuator_length, actuator_velocity, actuator_moment) =>
// (act_dot, actuator_force, qfrc_actuator) through the ActuatorDynamics plugins of `groups`;
// zero when actuation is disabled.
void Actuation(const Model& m, Data& d, const std::vector<ActuatorGroup>& groups);

// 20. actuation.cc: (qfrc_passive, qfrc_bias, qfrc_applied, qfrc_actuator,
// xfrc_applied, qLD) => (qfrc_smooth, qacc_smooth = M^-1 qfrc_smooth)
void SmoothAcceleration(const Model& m, Data& d);

// 12, 16, 22. sensors.cc: (state derived up to `stage`, sensor_noise_state) => sensordata of
// every sensor needing `stage` (and the advanced sensor_noise_state) through the Sensor plugins
// of `groups`.
void EvaluateSensors(const Model& m, Data& d, Stage stage, const std::vector<SensorGroup>& groups);

}  // namespace gauss
