// Compiling sensors, keyframes and custom numeric fields.
//
// Sensor table (object, dimension, stage) as MuJoCo 2.2.2 compiles it (measured):
//   site sensors:      touch 1 acc, accelerometer 3 acc, velocimeter 3 vel, gyro 3 vel,
//                      force 3 acc, torque 3 acc, magnetometer 3 pos, rangefinder 1 pos
//                      (3.x: camera rangefinders, width x height rays; `data` fields per ray,
//                      their bits in sensor_intprm[0])
//   joint sensors:     jointpos 1 pos, jointvel 1 vel (hinge/slide); ballquat 4 pos,
//                      ballangvel 3 vel (ball); jointlimitpos/vel/frc 1 pos/vel/acc (limited)
//   tendon sensors:    tendonpos 1 pos, tendonvel 1 vel, tendonlimitpos/vel/frc (limited)
//   actuator sensors:  actuatorpos 1 pos, actuatorvel 1 vel, actuatorfrc 1 acc;
//                      3.x jointactuatorfrc 1 acc (hinge/slide: qfrc_actuator at its dof)
//   frame sensors:     framepos 3, framequat 4, frame[xyz]axis 3 (pos), framelinvel 3,
//                      frameangvel 3 (vel), framelinacc 3, frameangacc 3 (acc)
//   subtree sensors:   subtreecom 3 pos, subtreelinvel 3 vel, subtreeangmom 3 vel (body)
//   clock 1 pos (no object); user: dim and needstage as written.
//   3.x: tendonactuatorfrc 1 acc (tendon), e_potential 1 pos, e_kinetic 1 vel (no object),
//   insidesite 1 pos (object: body, xbody, geom or site; reference: the site);
//   camprojection 2 pos (object: the site; reference: the camera);
//   frame sensors of cameras (objtype or reftype camera: cam_xpos / cam_xmat, framequat the
//   camera's fixed-mode orientation, as MuJoCo 3.12 computes it).
//   contact: acc, object = the first side (geom, body, xbody = subtree, or site), reference =
//   the second (geom, body, xbody), either may be absent; dim = num x the size of its data
//   fields (found 1, force 3, torque 3, dist 1, pos 3, normal 3, tangent 3), also under
//   netforce (which fills the first slot only); sensor_intprm = (data bits, reduce, num);
//   distance 1, normal 3, fromto 6 (3.x collision sensors): pos, object = geom1 or body1,
//   reference = geom2 or body2 (different objects), plugin "geomdistance" (the kernel's, with
//   the Engine's colliders: core/src/geom_distance.h); geom type pairs it does not measure are
//   refused here, where the sensor is written;
//   plugin: dim and needstage as written (parse_plugins.cc), plugin and config resolved by
//   ResolveSensorPlugin (compile_plugins.cc).
// Data types: touch and rangefinder positive, framequat and ballquat quaternion,
// frame[xyz]axis and normal axis, user and plugin as written, everything else real.
// Keyframes: <size nkey> reserves keyframes; missing values are qpos0 and zeros, and given
// arrays must have exactly nq / nv / na / nu values. A key of an attached model holds values
// only for the elements the attachment brought (attach_keys.cc).
#include <algorithm>
#include <array>
#include <map>

#include "gauss/math.h"
#include "geom_distance.h"
#include "mjcf/compiler.h"

namespace gauss::mjcf {
namespace {

struct SensorKind {
  const char* type;
  const char* object;  // "site", "joint", "tendon", "actuator", "body", "frame", "", "user"
  int dim;
  Stage stage;
};

const SensorKind kSensors[] = {
    {"touch", "site", 1, Stage::kAcceleration},
    {"accelerometer", "site", 3, Stage::kAcceleration},
    {"velocimeter", "site", 3, Stage::kVelocity},
    {"gyro", "site", 3, Stage::kVelocity},
    {"force", "site", 3, Stage::kAcceleration},
    {"torque", "site", 3, Stage::kAcceleration},
    {"magnetometer", "site", 3, Stage::kPosition},
    {"rangefinder", "site", 1, Stage::kPosition},
    {"jointpos", "joint", 1, Stage::kPosition},
    {"jointvel", "joint", 1, Stage::kVelocity},
    {"tendonpos", "tendon", 1, Stage::kPosition},
    {"tendonvel", "tendon", 1, Stage::kVelocity},
    {"actuatorpos", "actuator", 1, Stage::kPosition},
    {"actuatorvel", "actuator", 1, Stage::kVelocity},
    {"actuatorfrc", "actuator", 1, Stage::kAcceleration},
    {"jointactuatorfrc", "joint", 1, Stage::kAcceleration},  // 3.x
    {"ballquat", "joint", 4, Stage::kPosition},
    {"ballangvel", "joint", 3, Stage::kVelocity},
    {"jointlimitpos", "joint", 1, Stage::kPosition},
    {"jointlimitvel", "joint", 1, Stage::kVelocity},
    {"jointlimitfrc", "joint", 1, Stage::kAcceleration},
    {"tendonlimitpos", "tendon", 1, Stage::kPosition},
    {"tendonlimitvel", "tendon", 1, Stage::kVelocity},
    {"tendonlimitfrc", "tendon", 1, Stage::kAcceleration},
    {"framepos", "frame", 3, Stage::kPosition},
    {"framequat", "frame", 4, Stage::kPosition},
    {"framexaxis", "frame", 3, Stage::kPosition},
    {"frameyaxis", "frame", 3, Stage::kPosition},
    {"framezaxis", "frame", 3, Stage::kPosition},
    {"framelinvel", "frame", 3, Stage::kVelocity},
    {"frameangvel", "frame", 3, Stage::kVelocity},
    {"framelinacc", "frame", 3, Stage::kAcceleration},
    {"frameangacc", "frame", 3, Stage::kAcceleration},
    {"subtreecom", "body", 3, Stage::kPosition},
    {"subtreelinvel", "body", 3, Stage::kVelocity},
    {"subtreeangmom", "body", 3, Stage::kVelocity},
    {"clock", "", 1, Stage::kPosition},
    {"tendonactuatorfrc", "tendon", 1, Stage::kAcceleration},  // 3.x
    {"e_potential", "", 1, Stage::kPosition},                  // 3.x
    {"e_kinetic", "", 1, Stage::kVelocity},                    // 3.x
    {"insidesite", "frame", 1, Stage::kPosition},              // 3.x
    {"camprojection", "site", 2, Stage::kPosition},            // 3.x
    {"contact", "contact", 0, Stage::kAcceleration},           // 3.x
    {"distance", "geompair", 1, Stage::kPosition},             // 3.x
    {"normal", "geompair", 3, Stage::kPosition},               // 3.x
    {"fromto", "geompair", 6, Stage::kPosition},               // 3.x
    {"user", "user", 0, Stage::kAcceleration},
    {"plugin", "user", 0, Stage::kAcceleration},               // 3.x
};

// The data type of a built-in sensor type (see the header comment).
SensorDataType BuiltinDataType(const std::string& type) {
  if (type == "touch" || type == "rangefinder") return SensorDataType::kPositive;
  if (type == "framequat" || type == "ballquat") return SensorDataType::kQuaternion;
  if (type == "framexaxis" || type == "frameyaxis" || type == "framezaxis" || type == "normal") {
    return SensorDataType::kAxis;
  }
  return SensorDataType::kReal;
}

// Resolves an object named by (objtype keyword, name); `attr` is the attribute to blame.
// (type, name) => (ObjType, id)
void ResolveObject(const CompileContext& c, const std::string& type, const std::string& name,
                   const Source& src, const std::string& attr, ObjType* objtype, int* id) {
  if (type == "body" || type == "xbody") {
    *objtype = type == "body" ? ObjType::kBody : ObjType::kXBody;
    *id = c.body_names.Require(name, src, attr, "body");
  } else if (type == "geom") {
    *objtype = ObjType::kGeom;
    *id = c.geom_names.Require(name, src, attr, "geom");
  } else if (type == "site") {
    *objtype = ObjType::kSite;
    *id = c.site_names.Require(name, src, attr, "site");
  } else if (type == "joint") {
    *objtype = ObjType::kJoint;
    *id = c.joint_names.Require(name, src, attr, "joint");
  } else if (type == "tendon") {
    *objtype = ObjType::kTendon;
    *id = c.tendon_names.Require(name, src, attr, "tendon");
  } else if (type == "actuator") {
    *objtype = ObjType::kActuator;
    *id = c.actuator_names.Require(name, src, attr, "actuator");
  } else if (type == "camera") {
    *objtype = ObjType::kCamera;
    *id = c.camera_names.Require(name, src, attr, "camera");
  } else {
    throw Error(src.Where(attr), "invalid object type '" + type + "'; expected body, xbody, "
                                 "geom, site, joint, tendon or actuator");
  }
}

// A collision sensor's two sides (geom1 or body1, geom2 or body2): resolved, different, and
// every geom pair between them one that GeomDistance measures.
// (s.objtype/objname, s.reftype/refname, geom_type, body_geom*) => (objtype, objid, reftype, refid)
void ResolveGeomPair(const CompileContext& c, const SensorSpec& s, ObjType* objtype, int* objid,
                     ObjType* reftype, int* refid) {
  const Model& m = *c.m;
  const std::string attr1 = s.objtype + "1", attr2 = s.reftype + "2";
  ResolveObject(c, s.objtype, s.objname, s.src, attr1, objtype, objid);
  ResolveObject(c, s.reftype, s.refname, s.src, attr2, reftype, refid);
  if (*objtype == *reftype && *objid == *refid) {
    throw Error(s.src.Where(attr2), "the second " + s.reftype + " must differ from the first");
  }
  auto geoms = [&m](ObjType type, int id, int* begin, int* end) {
    *begin = type == ObjType::kBody ? m.body_geomadr[id] : id;
    *end = type == ObjType::kBody ? *begin + m.body_geomnum[id] : id + 1;
  };
  int b1, e1, b2, e2;
  geoms(*objtype, *objid, &b1, &e1);
  geoms(*reftype, *refid, &b2, &e2);
  for (int g1 = b1; g1 < e1; ++g1) {
    for (int g2 = b2; g2 < e2; ++g2) {
      const GeomType t1 = m.geom_type[g1], t2 = m.geom_type[g2];
      if (const char* why = GeomDistanceRefusal(t1, t2)) {
        throw Error(s.src.Where(), "not supported yet: " + s.type + " sensor between " +
                                       GeomTypeName(t1) + " and " + GeomTypeName(t2) +
                                       " geoms beyond contact (" + why + ")");
      }
    }
  }
}

}  // namespace

// (sensor specs, name tables, jnt_limited, tendon_limited) => (sensor_*, nsensordata)
void CompileSensors(CompileContext* c) {
  Model& m = *c->m;
  for (const SensorSpec& s : c->spec->sensors) {
    c->sensor_names.Add(s.name, m.nsensor, s.src, "sensor");
    const SensorKind* kind = nullptr;
    for (const SensorKind& k : kSensors) {
      if (s.type == k.type) kind = &k;
    }
    const std::string object = kind->object;
    ObjType objtype = ObjType::kUnknown, reftype = ObjType::kUnknown;
    int objid = -1, refid = -1;
    int dim = kind->dim;
    Stage stage = kind->stage;
    SensorDataType datatype = BuiltinDataType(s.type);
    std::string plugin = "builtin";
    std::map<std::string, std::string> config;
    std::array<int, 3> intprm = {0, 0, 0};
    if (object == "frame" || object == "user") {
      const std::string objattr = "objname";
      if (object == "frame" && s.objtype != "body" && s.objtype != "xbody" &&
          s.objtype != "geom" && s.objtype != "site" && s.objtype != "camera") {
        throw Error(s.src.Where("objtype"), "invalid value '" + s.objtype + "'; expected one "
                                            "of: body, xbody, geom, site, camera");
      }
      if (!s.objtype.empty()) {
        ResolveObject(*c, s.objtype, s.objname, s.src, objattr, &objtype, &objid);
      }
      if (!s.reftype.empty()) {
        ResolveObject(*c, s.reftype, s.refname, s.src, s.type == "insidesite" ? "site" : "refname",
                      &reftype, &refid);
      }
      if (object == "user") {
        dim = s.user_dim;
        stage = s.user_stage;
        datatype = s.user_datatype;
        plugin = "user";  // the Engine's sensor callback
        if (s.type == "plugin") ResolveSensorPlugin(*c, s, &plugin, &config);
      }
    } else if (object == "contact") {
      // the attribute each side came from, for errors
      auto attr = [](const std::string& type, const char* n) {
        return type == "geom" ? std::string("geom") + n : type == "body" ? std::string("body") + n
               : type == "xbody" ? std::string("subtree") + n : std::string("site");
      };
      if (!s.objtype.empty()) {
        ResolveObject(*c, s.objtype, s.objname, s.src, attr(s.objtype, "1"), &objtype, &objid);
      }
      if (!s.reftype.empty()) {
        ResolveObject(*c, s.reftype, s.refname, s.src, attr(s.reftype, "2"), &reftype, &refid);
      }
      const int field_size[] = {1, 3, 3, 1, 3, 3, 3};
      int slot = 0;
      for (int k = 0; k < 7; ++k) slot += (s.contact_data >> k & 1) * field_size[k];
      dim = s.contact_num * slot;
      intprm = {s.contact_data, s.contact_reduce, s.contact_num};
    } else if (s.type == "rangefinder") {
      // a site's one ray, or a camera's width x height rays (rows from the top, pixels from the
      // left); each ray the fields of `data` (dist 1, dir 3, origin 3, point 3, normal 3, depth 1)
      ResolveObject(*c, s.objtype, s.objname, s.src, s.objtype, &objtype, &objid);
      const int field_size[] = {1, 3, 3, 3, 3, 1};
      int ray = 0;
      for (int k = 0; k < 6; ++k) ray += (s.ray_data >> k & 1) * field_size[k];
      if (objtype == ObjType::kCamera &&
          (m.cam_sensorsize[2 * objid] != 0 || m.cam_sensorsize[2 * objid + 1] != 0)) {
        throw Error(s.src.Where("camera"), "not supported yet: a rangefinder on a camera with a "
                                           "sensorsize (focal length and principal point)");
      }
      const int rays = objtype == ObjType::kCamera
                           ? m.cam_resolution[2 * objid] * m.cam_resolution[2 * objid + 1] : 1;
      dim = rays * ray;
      intprm = {s.ray_data, 0, 0};
    } else if (object == "geompair") {
      ResolveGeomPair(*c, s, &objtype, &objid, &reftype, &refid);
      plugin = kGeomDistanceSensorPlugin;
    } else if (!object.empty()) {
      ResolveObject(*c, object, s.objname, s.src, object, &objtype, &objid);
      if (object == "joint") {
        const JointType jt = m.jnt_type[objid];
        const bool ball = s.type == "ballquat" || s.type == "ballangvel";
        if (ball && jt != JointType::kBall) {
          throw Error(s.src.Where("joint"), "this sensor needs a ball joint");
        }
        if ((s.type == "jointpos" || s.type == "jointvel" || s.type == "jointactuatorfrc") &&
            jt != JointType::kHinge &&
            jt != JointType::kSlide) {
          throw Error(s.src.Where("joint"), "this sensor needs a hinge or slide joint");
        }
        if (s.type.find("jointlimit") == 0 && !m.jnt_limited[objid]) {
          throw Error(s.src.Where("joint"), "this sensor needs a limited joint");
        }
      }
      if (s.type.find("tendonlimit") == 0 && !m.tendon_limited[objid]) {
        throw Error(s.src.Where("tendon"), "this sensor needs a limited tendon");
      }
      if (s.type == "camprojection") {
        ResolveObject(*c, "camera", s.refname, s.src, "camera", &reftype, &refid);
      }
    }
    if (s.noise < 0) throw Error(s.src.Where("noise"), "the noise cannot be negative");
    if (s.cutoff < 0) throw Error(s.src.Where("cutoff"), "the cutoff cannot be negative");

    ++m.nsensor;
    m.sensor_type.push_back(s.type);
    m.sensor_objtype.push_back(objtype);
    m.sensor_objid.push_back(objid);
    m.sensor_reftype.push_back(reftype);
    m.sensor_refid.push_back(refid);
    m.sensor_dim.push_back(dim);
    m.sensor_adr.push_back(m.nsensordata);
    m.nsensordata += dim;
    m.sensor_needstage.push_back(stage);
    m.sensor_datatype.push_back(datatype);
    m.sensor_cutoff.push_back(object == "contact" ? 0 : s.cutoff);  // 3.12 ignores it there
    m.sensor_noise.push_back(s.noise);
    m.sensor_intprm.insert(m.sensor_intprm.end(), intprm.begin(), intprm.end());
    m.sensor_plugin.push_back(plugin);
    m.sensor_plugin_config.push_back(config);
    m.sensor_name.push_back(s.name);
  }
}

namespace {

// Key k of an attached model (attach_keys.cc), filled with the defaults: the values its
// elements hold for it (AttachedKeyValue::key == id) overwrite theirs.
// (joint, actuator and mocap body specs) => (key_qpos, key_qvel, key_ctrl, key_act, key_mpos,
// key_mquat of key k)
void FillAttachedKey(const CompileContext& c, int id, int k) {
  Model& m = *c.m;
  auto put = [&](const std::vector<AttachedKeyValue>& values, const char* field, double* out,
                 int n, const Source& src) {
    for (const AttachedKeyValue& v : values) {
      if (v.key != id || v.field != field) continue;
      if (static_cast<int>(v.values.size()) != n) {
        throw Error(src.Where(), "attached keyframe: expected " + std::to_string(n) + " " +
                                     field + " values, found " + std::to_string(v.values.size()));
      }
      std::copy(v.values.begin(), v.values.end(), out);
    }
  };
  const std::size_t kk = static_cast<std::size_t>(k);
  for (int j = 0; j < m.njnt; ++j) {
    const int nq = JointNq(m.jnt_type[j]), nv = JointNv(m.jnt_type[j]);
    const JointSpec& js = *c.joints[j];
    put(js.key_values, "qpos", &m.key_qpos[kk * m.nq + m.jnt_qposadr[j]], nq, js.src);
    put(js.key_values, "qvel", &m.key_qvel[kk * m.nv + m.jnt_dofadr[j]], nv, js.src);
  }
  for (int a = 0; a < m.nu; ++a) {
    const ActuatorSpec& as = c.spec->actuators[a];
    put(as.key_values, "ctrl", &m.key_ctrl[kk * m.nu + a], 1, as.src);
    if (m.actuator_actadr[a] >= 0) {
      put(as.key_values, "act", &m.key_act[kk * m.na + m.actuator_actadr[a]],
          m.actuator_actnum[a], as.src);
    }
  }
  for (int b = 0; b < m.nbody; ++b) {
    const int mocap = m.body_mocapid[b];
    if (mocap < 0) continue;
    const BodySpec& bs = *c.bodies[b];
    put(bs.key_values, "mpos", &m.key_mpos[(kk * m.nmocap + mocap) * 3], 3, bs.src);
    put(bs.key_values, "mquat", &m.key_mquat[(kk * m.nmocap + mocap) * 4], 4, bs.src);
  }
}

}  // namespace

// (keyframe and numeric specs, qpos0) => (key_*, numeric_*)
void CompileKeysAndNumerics(CompileContext* c) {
  Model& m = *c->m;
  const std::vector<KeySpec>& keys = c->spec->keys;
  const int nkey = std::max(c->spec->size.nkey, static_cast<int>(keys.size()));
  // a sanity bound on the memory keyframes take (MuJoCo has none; 1e7 values = 80 MB)
  if (static_cast<double>(nkey) * (m.nq + m.nv + m.na + m.nu + 1) > 1e7) {
    throw Error("<size nkey=\"" + std::to_string(nkey) + "\">: too many keyframes for this model");
  }
  // mocap bodies' own poses: the values of a keyframe that does not give mpos / mquat
  std::vector<double> mpos0(3 * m.nmocap), mquat0(4 * m.nmocap);
  for (int b = 0; b < m.nbody; ++b) {
    const int id = m.body_mocapid[b];
    if (id < 0) continue;
    std::copy_n(m.body_pos.begin() + 3 * b, 3, mpos0.begin() + 3 * id);
    std::copy_n(m.body_quat.begin() + 4 * b, 4, mquat0.begin() + 4 * id);
  }
  for (int k = 0; k < nkey; ++k) {
    const KeySpec* key = k < static_cast<int>(keys.size()) ? &keys[k] : nullptr;
    auto fill = [&](std::vector<double>* out, const std::vector<double>* given,
                    const std::vector<double>& fallback, const char* attr) {
      if (given && !given->empty()) {
        if (given->size() != fallback.size()) {
          throw Error(key->src.Where(attr), "expected " + std::to_string(fallback.size()) +
                                                " values, found " + std::to_string(given->size()));
        }
        out->insert(out->end(), given->begin(), given->end());
      } else {
        out->insert(out->end(), fallback.begin(), fallback.end());
      }
    };
    if (key) c->key_names.Add(key->name, k, key->src, "keyframe");
    m.key_time.push_back(key ? key->time : 0);
    m.key_name.push_back(key ? key->name : "");
    fill(&m.key_qpos, key ? &key->qpos : nullptr, m.qpos0, "qpos");
    fill(&m.key_qvel, key ? &key->qvel : nullptr, std::vector<double>(m.nv, 0.0), "qvel");
    fill(&m.key_act, key ? &key->act : nullptr, std::vector<double>(m.na, 0.0), "act");
    fill(&m.key_ctrl, key ? &key->ctrl : nullptr, std::vector<double>(m.nu, 0.0), "ctrl");
    fill(&m.key_mpos, key ? &key->mpos : nullptr, mpos0, "mpos");
    fill(&m.key_mquat, key ? &key->mquat : nullptr, mquat0, "mquat");
    if (key && key->attached >= 0) FillAttachedKey(*c, key->attached, k);
    // each mocap orientation is normalized (as MuJoCo 2.2.2 does); a zero one is refused
    for (int b = 0; b < m.nmocap; ++b) {
      double* q = m.key_mquat.data() + (static_cast<std::size_t>(k) * m.nmocap + b) * 4;
      if (math::NormalizeQuat(q) < kMinVal) {
        throw Error(key->src.Where("mquat"), "mocap quaternion " + std::to_string(b) +
                                                 " is zero; it must have a nonzero norm");
      }
    }
  }
  m.nkey = nkey;

  for (const NumericSpec& n : c->spec->numerics) {
    c->numeric_names.Add(n.name, m.nnumeric++, n.src, "numeric");
    m.numeric_name.push_back(n.name);
    m.numeric_adr.push_back(static_cast<int>(m.numeric_data.size()));
    m.numeric_size.push_back(n.size);
    m.numeric_data.insert(m.numeric_data.end(), n.data.begin(), n.data.end());
  }
}

}  // namespace gauss::mjcf
