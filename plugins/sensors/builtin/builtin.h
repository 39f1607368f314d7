// The built-in sensors, shared by the three stage files of the plugin: the sensor kinds (from
// the MJCF element name in Model::sensor_type), the per-stage evaluators and small helpers.
//
// Each stage file evaluates the sensors that need its stage, with MuJoCo 2.2.2's semantics:
//   position_sensors.cc:     magnetometer, rangefinder, jointpos, tendonpos, actuatorpos,
//                            ballquat, jointlimitpos, tendonlimitpos, framepos, framequat,
//                            frame[xyz]axis, subtreecom, clock; 3.x e_potential, insidesite,
//                            camprojection
//   velocity_sensors.cc:     velocimeter, gyro, jointvel, tendonvel, actuatorvel, ballangvel,
//                            jointlimitvel, tendonlimitvel, framelinvel, frameangvel,
//                            subtreelinvel, subtreeangmom; 3.x e_kinetic
//   acceleration_sensors.cc: touch, accelerometer, force, torque, actuatorfrc, jointlimitfrc,
//                            tendonlimitfrc, framelinacc, frameangacc; 3.x jointactuatorfrc,
//                            tendonactuatorfrc
//   contact_sensor.cc:       3.x contact (acceleration stage)
#pragma once

#include <cstddef>
#include <string>

#include "gauss/constraint.h"
#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss::builtin_sensors {

enum class Kind {
  kTouch, kAccelerometer, kVelocimeter, kGyro, kForce, kTorque, kMagnetometer, kRangefinder,
  kJointPos, kJointVel, kTendonPos, kTendonVel, kActuatorPos, kActuatorVel, kActuatorFrc,
  kJointActuatorFrc,
  kBallQuat, kBallAngVel,
  kJointLimitPos, kJointLimitVel, kJointLimitFrc, kTendonLimitPos, kTendonLimitVel,
  kTendonLimitFrc,
  kFramePos, kFrameQuat, kFrameXAxis, kFrameYAxis, kFrameZAxis, kFrameLinVel, kFrameAngVel,
  kFrameLinAcc, kFrameAngAcc,
  kSubtreeCom, kSubtreeLinVel, kSubtreeAngMom,
  kClock,
  // MuJoCo 3.x
  kTendonActuatorFrc, kEPotential, kEKinetic, kInsideSite, kContact, kCamProjection,
  kUnsupported,  // user and plugin sensors and anything else: refused by Check
};

// The kind of a sensor type name ("jointpos" -> kJointPos); kUnsupported when unknown.
Kind KindOf(const std::string& type);

// (efc_type, efc_id of the limit rows) => the limit row of joint or tendon `id`, or -1 when the
// limit is not active (no row): the limit sensors then read 0.
int LimitRow(const Data& d, ConstraintType type, int id);

// (site frame, site_size, site_type) => whether the world point lies in the site's volume
// (sphere, capsule, ellipsoid, cylinder or box; the surface counts as inside)
bool PointInSite(const Model& m, const Data& d, int site, const double point[3]);

// The arena doubles a contact sensor evaluation takes (per-contact sort keys and indices).
std::size_t ContactSensorScratch(const Model& m);

// (contacts, efc_force, geom and body tree, site frames) => sensordata of contact sensor s
void ContactSensor(const Model& m, Data& d, int s);

// Stage evaluators: sensordata of sensors ids[0..n), all needing the given stage; kinds[s] is
// the kind of sensor s (resolved once, by Check).
void EvaluatePosition(const Model& m, Data& d, const Kind* kinds, const int* ids, int n);
void EvaluateVelocity(const Model& m, Data& d, const Kind* kinds, const int* ids, int n);
void EvaluateAcceleration(const Model& m, Data& d, const Kind* kinds, const int* ids, int n);

}  // namespace gauss::builtin_sensors
