// Geom distances and the collision sensors distance, normal and fromto (geom_distance.h).
//
// MuJoCo 3.12 measures a distance by calling the pair's collision function with the margin set
// to the largest distance of interest, except for the pairs it sends to its native GJK (every
// pair of its general convex collider, which 3.12 uses for ellipsoids, cylinders other than
// against planes and spheres, meshes other than against planes, and box-box). Gauss does the
// same with its own colliders where those are the analytic ones 3.12 uses; for the GJK pairs
// its libccd-based collider would only be right for overlapping geoms, so they are refused
// (as are sphere-cylinder, analytic in 3.12 but not in Gauss, and height fields).
#include "geom_distance.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "gauss/error.h"
#include "gauss/math.h"

namespace gauss {

namespace {

enum class GeomSensorKind { kDistance, kNormal, kFromto, kUnknown };

GeomSensorKind KindOf(const std::string& type) {
  if (type == "distance") return GeomSensorKind::kDistance;
  if (type == "normal") return GeomSensorKind::kNormal;
  if (type == "fromto") return GeomSensorKind::kFromto;
  return GeomSensorKind::kUnknown;
}

// The geoms [*begin, *end) of one side of sensor s: its geom, or every geom of its body.
// (sensor_objtype/objid or reftype/refid, body_geomadr, body_geomnum) => range
void SideGeoms(const Model& m, ObjType type, int id, int* begin, int* end) {
  if (type == ObjType::kBody) {
    *begin = m.body_geomadr[id];
    *end = *begin + m.body_geomnum[id];
  } else {
    *begin = id;
    *end = id + 1;
  }
}

// "sensor distance 'near' (#3)", for messages
std::string Describe(const Model& m, int s) {
  return "sensor " + m.sensor_type[s] +
         (m.sensor_name[s].empty() ? "" : " '" + m.sensor_name[s] + "'") + " (#" +
         std::to_string(s) + ")";
}

}  // namespace

const char* GeomDistanceRefusal(GeomType t1, GeomType t2) {
  using T = GeomType;
  if (t1 > t2) std::swap(t1, t2);
  if (UnsupportedTypePair(t1, t2)) return nullptr;  // never collided: the cutoff, as in 3.12
  if (t1 == T::kHfield || t2 == T::kHfield) {
    return "MuJoCo 3.12 measures it with its height-field collider, which Gauss does not "
           "reproduce beyond contact";
  }
  if (t1 == T::kPlane) return nullptr;  // every plane collider is analytic in both
  if (t1 == T::kSphere && t2 == T::kCylinder) {
    return "MuJoCo 3.12 has an analytic sphere-cylinder collider that Gauss does not have";
  }
  const bool analytic = (t1 == T::kSphere && (t2 == T::kSphere || t2 == T::kCapsule ||
                                              t2 == T::kBox)) ||
                        (t1 == T::kCapsule && (t2 == T::kCapsule || t2 == T::kBox));
  if (analytic) return nullptr;
  return "MuJoCo 3.12 measures it with its native GJK, which Gauss does not have";
}

// (geom_xpos, geom_xmat, table) => (distance, fromto)
double GeomDistance(const Model& m, Data& d, const CollisionTable& table, int g1, int g2,
                    double distmax, double fromto[6], Contact* contacts) {
  for (int k = 0; k < 6; ++k) fromto[k] = 0;
  // the colliders take the geom of the smaller type first; their normal points from it
  const bool flip = m.geom_type[g1] > m.geom_type[g2];
  const int first = flip ? g2 : g1, second = flip ? g1 : g2;
  const int n = NarrowPhase(m, d, table, first, second, distmax, contacts);
  int closest = -1;
  double dist = distmax;
  for (int k = 0; k < n; ++k) {
    if (contacts[k].dist < dist) {
      dist = contacts[k].dist;
      closest = k;
    }
  }
  if (closest < 0) return dist;
  // the contact point is midway between the surfaces: g1's point is half the distance behind
  // it along the normal from g1 to g2 (which is -normal when the pair was flipped)
  const Contact& c = contacts[closest];
  double normal[3] = {c.frame[0], c.frame[1], c.frame[2]};
  math::Normalize3(normal);
  const double half = (flip ? -0.5 : 0.5) * dist;
  for (int k = 0; k < 3; ++k) {
    fromto[k] = c.pos[k] - half * normal[k];
    fromto[3 + k] = c.pos[k] + half * normal[k];
  }
  return dist;
}

// (sensor_type, objtype/objid, reftype/refid, geom_type, table) => nothing, or the first
// problem as gauss::Error
void GeomDistanceSensors::Check(const Model& m, const int* ids, int n) const {
  for (int k = 0; k < n; ++k) {
    const int s = ids[k];
    const GeomSensorKind kind = KindOf(m.sensor_type[s]);
    if (kind == GeomSensorKind::kUnknown) {
      throw Error(Describe(m, s) + ": the " + kGeomDistanceSensorPlugin +
                  " sensors are distance, normal and fromto");
    }
    const int dim = kind == GeomSensorKind::kDistance ? 1 : kind == GeomSensorKind::kNormal ? 3 : 6;
    if (m.sensor_dim[s] != dim) {
      throw Error(Describe(m, s) + ": a " + m.sensor_type[s] + " sensor has " +
                  std::to_string(dim) + " values");
    }
    const ObjType sides[2] = {m.sensor_objtype[s], m.sensor_reftype[s]};
    for (ObjType side : sides) {
      if (side != ObjType::kGeom && side != ObjType::kBody) {
        throw Error(Describe(m, s) + ": each side must be a geom or a body");
      }
    }
    int b1, e1, b2, e2;
    SideGeoms(m, m.sensor_objtype[s], m.sensor_objid[s], &b1, &e1);
    SideGeoms(m, m.sensor_reftype[s], m.sensor_refid[s], &b2, &e2);
    for (int g1 = b1; g1 < e1; ++g1) {
      for (int g2 = b2; g2 < e2; ++g2) {
        const GeomType t1 = m.geom_type[g1], t2 = m.geom_type[g2];
        const std::string types = std::string(GeomTypeName(t1)) + " and " + GeomTypeName(t2);
        if (const char* why = GeomDistanceRefusal(t1, t2)) {
          throw Error("not supported yet: " + Describe(m, s) + " between " + types +
                      " beyond contact (" + why + ")");
        }
        const int a = static_cast<int>(std::min(t1, t2)), b = static_cast<int>(std::max(t1, t2));
        if (!UnsupportedTypePair(t1, t2) && !table_.pair[a][b]) {
          throw Error(Describe(m, s) + ": no collider of this engine handles " + types +
                      " geoms (add one that does to `colliders`, e.g. primitive)");
        }
      }
    }
  }
}

// (geom_xpos, geom_xmat, sensor_cutoff) => sensordata of ids
void GeomDistanceSensors::DoEvaluate(const Model& m, Data& d, Stage stage, const int* ids,
                                     int n) const {
  if (stage != Stage::kPosition) return;
  Contact scratch[kMaxContactsPerPair];  // the colliders' output, reused by every pair
  for (int k = 0; k < n; ++k) {
    const int s = ids[k];
    const double cutoff = m.sensor_cutoff[s];
    double dist = cutoff, fromto[6] = {0, 0, 0, 0, 0, 0};
    int b1, e1, b2, e2;
    SideGeoms(m, m.sensor_objtype[s], m.sensor_objid[s], &b1, &e1);
    SideGeoms(m, m.sensor_reftype[s], m.sensor_refid[s], &b2, &e2);
    for (int g1 = b1; g1 < e1; ++g1) {
      for (int g2 = b2; g2 < e2; ++g2) {
        double pair_fromto[6];
        const double pair_dist = GeomDistance(m, d, table_, g1, g2, cutoff, pair_fromto, scratch);
        if (pair_dist < dist) {
          dist = pair_dist;
          for (int i = 0; i < 6; ++i) fromto[i] = pair_fromto[i];
        }
      }
    }
    double* out = d.sensordata.data() + m.sensor_adr[s];
    switch (m.sensor_dim[s]) {  // the kind, by its dimension (Check)
      case 1:
        out[0] = dist;
        break;
      case 3: {
        double v[3] = {fromto[3] - fromto[0], fromto[4] - fromto[1], fromto[5] - fromto[2]};
        if (v[0] != 0 || v[1] != 0 || v[2] != 0) math::Normalize3(v);
        for (int i = 0; i < 3; ++i) out[i] = v[i];
        break;
      }
      case 6:
        for (int i = 0; i < 6; ++i) out[i] = fromto[i];
        break;
      default:
        break;
    }
  }
}

PluginInstance<Sensor> MakeGeomDistanceSensors(const CollisionTable& table) {
  PluginInstance<Sensor> p;
  p.instance = std::make_unique<GeomDistanceSensors>(table);
  p.info.kind = PluginKind::kSensor;
  p.info.name = kGeomDistanceSensorPlugin;
  p.info.version = "1.0.0";
  p.info.description = "collision sensors distance, normal, fromto: the Engine's colliders with "
                       "the cutoff as margin";
  p.info.usable = true;
  return p;
}

}  // namespace gauss
