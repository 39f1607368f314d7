// Built-in sensors of the acceleration stage (after the constraint solve; spec "Sensors",
// MuJoCo 2.2.2 semantics):
//   touch          sum of the positive normal forces of the site body's contacts that lie in
//                  the sensor zone: a ray from the contact point along the contact normal,
//                  pointing away from the sensor's body, must meet the site's volume (a contact
//                  point inside the volume always does)
//   accelerometer  linear acceleration of the site in its own frame, including the w x v term
//                  and minus gravity (a body at rest reads +9.81 upward)
//   force, torque  the interaction force/torque the parent exerts on the site's body subtree,
//                  at the site, in the site frame (cfrc_int moved to the site)
//   actuatorfrc    actuator_force (after the forcerange clamp)
//   jointactuatorfrc, tendonactuatorfrc (3.x): qfrc_actuator at the joint's dof; the sum of
//                  the forces of the actuators whose transmission is the tendon
//   jointlimitfrc, tendonlimitfrc: efc_force of the limit row (0 when inactive)
//   framelinacc, frameangacc: acceleration of the object frame's origin in world axes
//                  (linear part as the accelerometer's, including -gravity)
//   contact (3.x)  contact_sensor.cc
// Accelerometer, force, torque and frame accelerations need RnePostConstraint, run once per
// evaluation when one of them is present.
#include "builtin.h"
#include "gauss/math.h"
#include "gauss/sensor_support.h"

namespace gauss::builtin_sensors {

using namespace math;

namespace {

// The kinds that read cacc or cfrc_int, which RnePostConstraint computes.
bool NeedsRnePost(Kind kind) {
  return kind == Kind::kAccelerometer || kind == Kind::kForce || kind == Kind::kTorque ||
         kind == Kind::kFrameLinAcc || kind == Kind::kFrameAngAcc;
}

// (contact, efc_force, site frame and volume) => touch reading of the sensor at `site`
double Touch(const Model& m, const Data& d, int site) {
  const int body = m.site_bodyid[site];
  double total = 0;
  for (int i = 0; i < d.ncon; ++i) {
    const Contact& con = d.contact[i];
    const int body1 = m.geom_bodyid[con.geom1];
    const int body2 = m.geom_bodyid[con.geom2];
    if (con.efc_address < 0 || (body1 != body && body2 != body)) continue;
    double force[6];
    ContactForce(m, d, i, force);
    if (force[0] <= 0) continue;
    // the normal points from geom1 to geom2: away from the sensor's body when it holds geom1
    double ray[3];
    Scale3(ray, con.frame, force[0]);
    Normalize3(ray);
    if (body2 == body) Scale3(ray, ray, -1);
    const double hit = RayGeom(d.site_xpos.data() + 3 * site, d.site_xmat.data() + 9 * site,
                               m.site_size.data() + 3 * site, con.pos, ray,
                               static_cast<GeomType>(m.site_type[site]));
    if (hit >= 0) total += force[0];
  }
  return total;
}

// (cfrc_int, subtree_com, site frame) => [torque, force] at the site, in the site frame
void SiteInteraction(const Model& m, const Data& d, int site, double res[6]) {
  const int body = m.site_bodyid[site];
  TransformSpatial(res, d.cfrc_int.data() + 6 * body, true, d.site_xpos.data() + 3 * site,
                   d.subtree_com.data() + 3 * m.body_rootid[body], d.site_xmat.data() + 9 * site);
}

}  // namespace

// (contact, efc_force, qacc, cacc, cfrc_int, actuator_force, object frames) => sensordata
void EvaluateAcceleration(const Model& m, Data& d, const Kind* kinds, const int* ids,
                          int n) {
  bool rne_done = false;
  for (int k = 0; k < n; ++k) {
    const int s = ids[k];
    const int id = m.sensor_objid[s];
    double* out = d.sensordata.data() + m.sensor_adr[s];
    const Kind kind = kinds[s];
    if (NeedsRnePost(kind) && !rne_done) {
      RnePostConstraint(m, d);
      rne_done = true;
    }
    double vec[6];
    switch (kind) {
      case Kind::kTouch:
        out[0] = Touch(m, d, id);
        break;
      case Kind::kAccelerometer:
        ObjectAcceleration(m, d, ObjType::kSite, id, vec, true);
        Copy3(out, vec + 3);
        break;
      case Kind::kForce:
      case Kind::kTorque:
        SiteInteraction(m, d, id, vec);
        Copy3(out, kind == Kind::kTorque ? vec : vec + 3);
        break;
      case Kind::kActuatorFrc:
        out[0] = d.actuator_force[id];
        break;
      case Kind::kJointActuatorFrc:  // MuJoCo 3.x: the actuator force at a hinge or slide dof
        out[0] = d.qfrc_actuator[m.jnt_dofadr[id]];
        break;
      case Kind::kTendonActuatorFrc:  // MuJoCo 3.x: the forces of the actuators on the tendon
        out[0] = 0;
        for (int a = 0; a < m.nu; ++a) {
          if (m.actuator_trntype[a] == TrnType::kTendon && m.actuator_trnid[2 * a] == id) {
            out[0] += d.actuator_force[a];
          }
        }
        break;
      case Kind::kJointLimitFrc:
      case Kind::kTendonLimitFrc: {
        const ConstraintType type = kind == Kind::kJointLimitFrc ? ConstraintType::kLimitJoint
                                                                 : ConstraintType::kLimitTendon;
        const int row = LimitRow(d, type, id);
        out[0] = row < 0 ? 0 : d.efc_force[row];
        break;
      }
      case Kind::kFrameLinAcc:
      case Kind::kFrameAngAcc:
        ObjectAcceleration(m, d, m.sensor_objtype[s], id, vec, false);
        Copy3(out, kind == Kind::kFrameAngAcc ? vec : vec + 3);
        break;
      case Kind::kContact:  // MuJoCo 3.x (contact_sensor.cc)
        ContactSensor(m, d, s);
        break;
      default:
        break;  // not an acceleration sensor
    }
  }
}

}  // namespace gauss::builtin_sensors
