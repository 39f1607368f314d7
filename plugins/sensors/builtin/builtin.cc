// The "builtin" Sensor plugin: every MJCF sensor type of MuJoCo 2.2.2 except user sensors
// (the Engine's callback), and 3.x's jointactuatorfrc, tendonactuatorfrc, e_potential,
// e_kinetic, insidesite, contact and camprojection, dispatched to one file per pipeline stage
// (builtin.h).
// Check refuses what it cannot evaluate, when the engine is created, so that a step never meets
// an unknown sensor.
//
// Only contact sensors take arena scratch (their sort); otherwise the on-demand kernel
// quantities (gauss/sensor_support.h) write Data fields (subtree_linvel, subtree_angmom, cacc, cfrc_int, cfrc_ext, energy) and
// fixed-size locals (KineticEnergy takes nv doubles the kernel reserves).
#include <string>
#include <unordered_map>
#include <vector>

#include "builtin.h"
#include "gauss/error.h"
#include "gauss/sensor.h"
#include "gauss/sensor_support.h"

namespace gauss::builtin_sensors {

// (sensor_type name) => Kind
Kind KindOf(const std::string& type) {
  // built once (thread-safe static initialisation); a lookup hashes the name, no allocation
  static const std::unordered_map<std::string, Kind> kinds = {
      {"touch", Kind::kTouch},
      {"accelerometer", Kind::kAccelerometer},
      {"velocimeter", Kind::kVelocimeter},
      {"gyro", Kind::kGyro},
      {"force", Kind::kForce},
      {"torque", Kind::kTorque},
      {"magnetometer", Kind::kMagnetometer},
      {"rangefinder", Kind::kRangefinder},
      {"jointpos", Kind::kJointPos},
      {"jointvel", Kind::kJointVel},
      {"tendonpos", Kind::kTendonPos},
      {"tendonvel", Kind::kTendonVel},
      {"actuatorpos", Kind::kActuatorPos},
      {"actuatorvel", Kind::kActuatorVel},
      {"actuatorfrc", Kind::kActuatorFrc},
      {"jointactuatorfrc", Kind::kJointActuatorFrc},
      {"ballquat", Kind::kBallQuat},
      {"ballangvel", Kind::kBallAngVel},
      {"jointlimitpos", Kind::kJointLimitPos},
      {"jointlimitvel", Kind::kJointLimitVel},
      {"jointlimitfrc", Kind::kJointLimitFrc},
      {"tendonlimitpos", Kind::kTendonLimitPos},
      {"tendonlimitvel", Kind::kTendonLimitVel},
      {"tendonlimitfrc", Kind::kTendonLimitFrc},
      {"framepos", Kind::kFramePos},
      {"framequat", Kind::kFrameQuat},
      {"framexaxis", Kind::kFrameXAxis},
      {"frameyaxis", Kind::kFrameYAxis},
      {"framezaxis", Kind::kFrameZAxis},
      {"framelinvel", Kind::kFrameLinVel},
      {"frameangvel", Kind::kFrameAngVel},
      {"framelinacc", Kind::kFrameLinAcc},
      {"frameangacc", Kind::kFrameAngAcc},
      {"subtreecom", Kind::kSubtreeCom},
      {"subtreelinvel", Kind::kSubtreeLinVel},
      {"subtreeangmom", Kind::kSubtreeAngMom},
      {"clock", Kind::kClock},
      {"tendonactuatorfrc", Kind::kTendonActuatorFrc},
      {"e_potential", Kind::kEPotential},
      {"e_kinetic", Kind::kEKinetic},
      {"insidesite", Kind::kInsideSite},
      {"camprojection", Kind::kCamProjection},
      {"contact", Kind::kContact},
  };
  const auto it = kinds.find(type);
  return it == kinds.end() ? Kind::kUnsupported : it->second;
}

// (ne, nf, nefc, efc_type, efc_id) => row
int LimitRow(const Data& d, ConstraintType type, int id) {
  for (int r = d.ne + d.nf; r < d.nefc; ++r) {
    if (d.efc_type[r] == type && d.efc_id[r] == id) return r;
  }
  return -1;
}

namespace {

// Frame sensors accept these object types.
bool HasFrame(ObjType type) {
  return type == ObjType::kBody || type == ObjType::kXBody || type == ObjType::kGeom ||
         type == ObjType::kSite || type == ObjType::kCamera;
}

// framepos .. frameangacc: the sensors that read an object's frame (and a reference frame)
bool IsFrameSensor(Kind kind) {
  return kind >= Kind::kFramePos && kind <= Kind::kFrameAngAcc;
}

class BuiltinSensors : public Sensor {
 public:
  // (sensor_type, sensor_objtype, sensor_reftype, geoms) => throws for what cannot be evaluated;
  // resolves each sensor's type name to its kind once, for every later evaluation (Check runs
  // when the Engine is built, before any evaluation and before the Engine is shared)
  void Check(const Model& m, const int* ids, int n) const override {
    if (kinds_.size() < static_cast<std::size_t>(m.nsensor)) {
      kinds_.resize(m.nsensor, Kind::kUnsupported);
    }
    for (int k = 0; k < n; ++k) {
      const int s = ids[k];
      const std::string what = "sensor " + m.sensor_type[s] +
                               (m.sensor_name[s].empty() ? "" : " '" + m.sensor_name[s] + "'") +
                               " (#" + std::to_string(s) + ")";
      const Kind kind = KindOf(m.sensor_type[s]);
      kinds_[s] = kind;
      if (kind == Kind::kUnsupported) {
        throw Error("not supported yet: " + what + " (the builtin sensor plugin evaluates the "
                    "MJCF sensor types of MuJoCo 2.2.2 and some of 3.x, docs/sensors.md; user "
                    "sensors are the Engine's sensor callback's)");
      }
      if ((IsFrameSensor(kind) || kind == Kind::kInsideSite) && !HasFrame(m.sensor_objtype[s])) {
        throw Error("not supported yet: " + what + ": frame sensors of this object type");
      }
      if (kind == Kind::kContact &&
          m.sensor_intprm.size() < 3 * static_cast<std::size_t>(m.nsensor)) {
        throw Error(what + ": a contact sensor needs sensor_intprm (data, reduce, num)");
      }
      if (m.sensor_refid[s] >= 0 && !HasFrame(m.sensor_reftype[s])) {
        throw Error("not supported yet: " + what + ": reference frames of this object type");
      }
    }
  }

  // a contact sensor sorts its matched contacts in the arena (contact_sensor.cc)
  std::size_t ScratchDoubles(const Model& m) const override {
    for (int s = 0; s < m.nsensor; ++s) {
      if (m.sensor_plugin[s] == "builtin" && KindOf(m.sensor_type[s]) == Kind::kContact) {
        return ContactSensorScratch(m);
      }
    }
    return 0;
  }

 protected:
  // (state derived up to `stage`) => sensordata of ids
  void DoEvaluate(const Model& m, Data& d, Stage stage, const int* ids, int n) const override {
    switch (stage) {
      case Stage::kPosition:
        EvaluatePosition(m, d, kinds_.data(), ids, n);
        break;
      case Stage::kVelocity:
        EvaluateVelocity(m, d, kinds_.data(), ids, n);
        break;
      case Stage::kAcceleration:
        EvaluateAcceleration(m, d, kinds_.data(), ids, n);
        break;
      default:
        break;
    }
  }

 private:
  mutable std::vector<Kind> kinds_;  // (nsensor) kind of each sensor this instance checked
};

}  // namespace
}  // namespace gauss::builtin_sensors

GAUSS_SENSOR_PLUGIN(gauss::builtin_sensors::BuiltinSensors, builtin, "1.0.0",
                    "MuJoCo 2.2.2 sensors (site, joint, tendon, actuator, frame, "
                    "subtree, clock) and 3.x energy, actuator-force, insidesite, contact and "
                    "camprojection sensors",
                    gauss::kCapNone, gauss::kNoParams)
