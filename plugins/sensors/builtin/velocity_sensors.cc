// Built-in sensors of the velocity stage (after cvel, ten_velocity, actuator_velocity and
// efc_vel; spec "Sensors", MuJoCo 2.2.2 semantics):
//   velocimeter, gyro   linear / angular velocity of the site, in the site frame
//   jointvel, tendonvel, actuatorvel: qvel of a hinge/slide, ten_velocity, actuator_velocity
//   ballangvel          the ball joint's three qvel (angular velocity in the child body frame)
//   jointlimitvel, tendonlimitvel: efc_vel of the limit row (0 when inactive)
//   framelinvel, frameangvel: velocity of the object frame's origin in world axes; with a
//                       reference object, the velocity relative to the reference frame (its
//                       translation and rotation subtracted) in the reference frame's axes
//   subtreelinvel, subtreeangmom: subtree_linvel / subtree_angmom of the body (computed here,
//                       once per evaluation, when such a sensor is present)
//   e_kinetic           (3.x) energy[1], computed whether or not the energy flag is enabled
#include "builtin.h"
#include "gauss/math.h"
#include "gauss/sensor_support.h"

namespace gauss::builtin_sensors {

using namespace math;

namespace {

// (cvel, object and reference frames) => res [angular, linear] of a frame velocity sensor
void FrameVelocity(const Model& m, const Data& d, int s, double res[6]) {
  const ObjType type = m.sensor_objtype[s];
  const int id = m.sensor_objid[s];
  ObjectVelocity(m, d, type, id, res, false);
  if (m.sensor_refid[s] < 0) return;

  const ObjType ref_type = m.sensor_reftype[s];
  const int ref = m.sensor_refid[s];
  const double *pos, *mat, *ref_pos, *ref_mat;
  ObjectFrame(m, d, type, id, &pos, &mat);
  ObjectFrame(m, d, ref_type, ref, &ref_pos, &ref_mat);
  double ref_vel[6], rel[6], offset[3], carried[3];
  ObjectVelocity(m, d, ref_type, ref, ref_vel, false);
  for (int c = 0; c < 6; ++c) rel[c] = res[c] - ref_vel[c];
  // the reference frame's rotation carries the point along: subtract w_ref x (pos - ref_pos)
  Sub3(offset, pos, ref_pos);
  Cross3(carried, offset, ref_vel);
  AddTo3(rel + 3, carried);
  MulMatTVec3(res, ref_mat, rel);
  MulMatTVec3(res + 3, ref_mat, rel + 3);
}

}  // namespace

// (cvel, qvel, ten_velocity, actuator_velocity, efc_vel, object frames) => sensordata
void EvaluateVelocity(const Model& m, Data& d, const Kind* kinds, const int* ids, int n) {
  bool subtree_done = false;
  for (int k = 0; k < n; ++k) {
    const int s = ids[k];
    const int id = m.sensor_objid[s];
    double* out = d.sensordata.data() + m.sensor_adr[s];
    const Kind kind = kinds[s];
    if ((kind == Kind::kSubtreeLinVel || kind == Kind::kSubtreeAngMom) && !subtree_done) {
      SubtreeVelocity(m, d);
      subtree_done = true;
    }
    double vel[6];
    switch (kind) {
      case Kind::kVelocimeter:
      case Kind::kGyro:
        ObjectVelocity(m, d, ObjType::kSite, id, vel, true);
        Copy3(out, kind == Kind::kGyro ? vel : vel + 3);
        break;
      case Kind::kJointVel:
        out[0] = d.qvel[m.jnt_dofadr[id]];
        break;
      case Kind::kTendonVel:
        out[0] = d.ten_velocity[id];
        break;
      case Kind::kActuatorVel:
        out[0] = d.actuator_velocity[id];
        break;
      case Kind::kBallAngVel:
        Copy3(out, d.qvel.data() + m.jnt_dofadr[id]);
        break;
      case Kind::kJointLimitVel:
      case Kind::kTendonLimitVel: {
        const ConstraintType type = kind == Kind::kJointLimitVel ? ConstraintType::kLimitJoint
                                                                 : ConstraintType::kLimitTendon;
        const int row = LimitRow(d, type, id);
        out[0] = row < 0 ? 0 : d.efc_vel[row];
        break;
      }
      case Kind::kFrameLinVel:
      case Kind::kFrameAngVel:
        FrameVelocity(m, d, s, vel);
        Copy3(out, kind == Kind::kFrameAngVel ? vel : vel + 3);
        break;
      case Kind::kSubtreeLinVel:
        Copy3(out, d.subtree_linvel.data() + 3 * id);
        break;
      case Kind::kSubtreeAngMom:
        Copy3(out, d.subtree_angmom.data() + 3 * id);
        break;
      case Kind::kEKinetic:  // MuJoCo 3.x: whether or not the energy flag is enabled
        KineticEnergy(m, d);
        out[0] = d.energy[1];
        break;
      default:
        break;  // not a velocity sensor
    }
  }
}

}  // namespace gauss::builtin_sensors
