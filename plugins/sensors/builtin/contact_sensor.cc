// The MuJoCo 3.x contact sensor: a fixed-size report of the contacts of Data::contact, in
// three steps (semantics of MuJoCo 3.12.1, measured with mjref3 on tests/models/mjcf3/
// contact_sensor.xml, see docs/sensors.md):
//
// Matching. Side 1 is the sensor's object (geom1, body1, subtree1 = xbody, or site), side 2
// its reference (geom2, body2, subtree2); a side that is not given matches everything. A geom
// belongs to a geom side when it is that geom, to a body side when its body is it, to a subtree
// side when its body is the body or a descendant. A contact (geom1 g1, geom2 g2) matches when
// one of its geoms belongs to side 1 and the other to side 2; a site side instead asks the
// contact point to lie in the site's volume. Every contact counts, also those in the margin's
// gap (no constraint rows in Gauss: zero force).
//
// Direction. The sensor reports each contact from side 1 to side 2: when only the order
// (g2, g1) fits the sides, the contact is flipped: normal and first tangent negated, and the
// contact-frame force and torque (normal, tangent1, tangent2) become (f0, f1, -f2), i.e. the
// same world force reversed. When both orders fit, or no side decides (site only, the same
// subtree twice), the contact keeps its own direction.
//
// Reduction to `num` slots. none: the first matches in contact order; mindist: by dist,
// smallest first; maxforce: by the norm of the contact-frame force (f0, f1, f2), largest first
// (ties keep contact order); netforce: one synthetic contact in the world frame: force and
// torque the sums of the matched world forces and torques plus the moments of the forces
// about the force-weighted centroid pos = sum |f_i| p_i / sum |f_i| (the origin when no force
// acts), dist 0, normal (1, 0, 0), tangent (0, 1, 0). Slots without a contact are zeros.
//
// Extraction. Each slot holds the fields of `data`, in this order: found (the number of
// matched contacts), force 3, torque 3, dist 1, pos 3, normal 3, tangent 3.
#include <algorithm>
#include <cmath>

#include "builtin.h"
#include "gauss/arena.h"
#include "gauss/math.h"
#include "gauss/sensor_support.h"

namespace gauss::builtin_sensors {

using namespace math;

namespace {

enum Field { kFound, kForce, kTorque, kDist, kPos, kNormal, kTangent };
enum Reduce { kNone, kMinDist, kMaxForce, kNetForce };

// (geom_bodyid, body_parentid) => whether geom g belongs to the side (type, id); id < 0: any
bool OnSide(const Model& m, ObjType type, int id, int g) {
  if (id < 0) return true;
  if (type == ObjType::kGeom) return g == id;
  int body = m.geom_bodyid[g];
  if (type == ObjType::kBody) return body == id;
  // subtree (xbody): the body or one of its ancestors is id; the world's subtree is everything
  while (true) {
    if (body == id) return true;
    if (body == 0) return false;
    body = m.body_parentid[body];
  }
}

// (contact i, sensor sides) => 0 no match, 1 match as is, 2 match flipped
int Match(const Model& m, const Data& d, int s, int i) {
  const Contact& con = d.contact[i];
  const bool site = m.sensor_objtype[s] == ObjType::kSite && m.sensor_objid[s] >= 0;
  if (site && !PointInSite(m, d, m.sensor_objid[s], con.pos)) return 0;
  const ObjType type1 = site ? ObjType::kUnknown : m.sensor_objtype[s];
  const int id1 = site ? -1 : m.sensor_objid[s];
  const ObjType type2 = m.sensor_reftype[s];
  const int id2 = m.sensor_refid[s];
  const bool as_is = OnSide(m, type1, id1, con.geom1) && OnSide(m, type2, id2, con.geom2);
  const bool flipped = OnSide(m, type1, id1, con.geom2) && OnSide(m, type2, id2, con.geom1);
  if (as_is) return 1;
  return flipped ? 2 : 0;
}

// (contact i, efc_force) => its force and torque in its contact frame, flipped when asked
void SlotForce(const Model& m, const Data& d, int i, bool flip, double f[6]) {
  ContactForce(m, d, i, f);
  if (flip) {
    f[2] = -f[2];
    f[5] = -f[5];
  }
}

// (contact frame rows normal, tangent1, tangent2) => the world vector of frame components c
void ToWorld(const double frame[9], const double c[3], double out[3]) {
  for (int k = 0; k < 3; ++k) out[k] = c[0] * frame[k] + c[1] * frame[3 + k] + c[2] * frame[6 + k];
}

// Writes the fields of `data` for one slot; returns the number written.
// (found, force/torque (contact frame), dist, pos, normal, tangent) => out
int WriteSlot(int data, double found, const double f[6], double dist, const double pos[3],
              const double normal[3], const double tangent[3], double* out) {
  int n = 0;
  if (data >> kFound & 1) out[n++] = found;
  if (data >> kForce & 1) {
    Copy3(out + n, f);
    n += 3;
  }
  if (data >> kTorque & 1) {
    Copy3(out + n, f + 3);
    n += 3;
  }
  if (data >> kDist & 1) out[n++] = dist;
  if (data >> kPos & 1) {
    Copy3(out + n, pos);
    n += 3;
  }
  if (data >> kNormal & 1) {
    Copy3(out + n, normal);
    n += 3;
  }
  if (data >> kTangent & 1) {
    Copy3(out + n, tangent);
    n += 3;
  }
  return n;
}

// (matched contacts code[0..n): 2 i + flip) => the netforce slot
void NetForce(const Model& m, const Data& d, int data, const int* code, int n, double* out) {
  double force[3] = {0, 0, 0}, torque[3] = {0, 0, 0}, centroid[3] = {0, 0, 0};
  double weight = 0;
  for (int k = 0; k < n; ++k) {
    const Contact& con = d.contact[code[k] / 2];
    double f[6];
    ContactForce(m, d, code[k] / 2, f);
    const double w = std::sqrt(Dot3(f, f));
    for (int j = 0; j < 3; ++j) centroid[j] += w * con.pos[j];
    weight += w;
  }
  // no force at all: the centroid stays at the origin (as MuJoCo 3.12 reports it)
  if (weight > 0) Scale3(centroid, centroid, 1 / weight);
  for (int k = 0; k < n; ++k) {
    const Contact& con = d.contact[code[k] / 2];
    const bool flip = code[k] % 2;
    // a flipped contact acts with the opposite world force and torque
    double f[6], fw[3], tw[3], arm[3], moment[3];
    ContactForce(m, d, code[k] / 2, f);
    ToWorld(con.frame, f, fw);
    ToWorld(con.frame, f + 3, tw);
    if (flip) {
      Scale3(fw, fw, -1);
      Scale3(tw, tw, -1);
    }
    Sub3(arm, con.pos, centroid);
    Cross3(moment, arm, fw);
    for (int j = 0; j < 3; ++j) {
      force[j] += fw[j];
      torque[j] += tw[j] + moment[j];
    }
  }
  const double wrench[6] = {force[0], force[1], force[2], torque[0], torque[1], torque[2]};
  const double xaxis[3] = {1, 0, 0}, yaxis[3] = {0, 1, 0};
  WriteSlot(data, n, wrench, 0, centroid, xaxis, yaxis, out);
}

}  // namespace

std::size_t ContactSensorScratch(const Model& m) {
  // sort keys (doubles) and matched contact codes (ints), nconmax of each
  return static_cast<std::size_t>(m.nconmax) + ArenaDoubles<int>(m.nconmax);
}

// (contacts, efc_force, sensor sides, sensor_intprm) => sensordata of contact sensor s
void ContactSensor(const Model& m, Data& d, int s) {
  const int data = m.sensor_intprm[3 * s];
  const int reduce = m.sensor_intprm[3 * s + 1];
  const int num = m.sensor_intprm[3 * s + 2];
  double* out = d.sensordata.data() + m.sensor_adr[s];
  std::fill_n(out, m.sensor_dim[s], 0.0);
  ArenaScope scope(d.arena);
  int* code = d.arena.Ints(d.ncon);  // 2 i + flip of each matched contact i
  double* key = d.arena.Doubles(d.ncon);  // sort key of code[k] (by contact index)
  int n = 0;
  for (int i = 0; i < d.ncon; ++i) {
    const int match = Match(m, d, s, i);
    if (match) code[n++] = 2 * i + (match == 2);
  }
  if (n == 0) return;
  if (reduce == kNetForce) {
    NetForce(m, d, data, code, n, out);
    return;
  }
  if (reduce == kMinDist || reduce == kMaxForce) {
    for (int k = 0; k < n; ++k) {
      const int i = code[k] / 2;
      if (reduce == kMinDist) {
        key[i] = d.contact[i].dist;
      } else {
        double f[6];
        ContactForce(m, d, i, f);
        key[i] = -std::sqrt(Dot3(f, f));  // largest first
      }
    }
    // ascending key, ties in contact order (std::sort allocates nothing)
    std::sort(code, code + n, [key](int a, int b) {
      return key[a / 2] < key[b / 2] || (key[a / 2] == key[b / 2] && a < b);
    });
  }
  for (int k = 0; k < std::min(n, num); ++k) {
    const int i = code[k] / 2;
    const bool flip = code[k] % 2;
    const Contact& con = d.contact[i];
    double f[6], normal[3], tangent[3];
    SlotForce(m, d, i, flip, f);
    Scale3(normal, con.frame, flip ? -1 : 1);
    Scale3(tangent, con.frame + 3, flip ? -1 : 1);
    out += WriteSlot(data, n, f, con.dist, con.pos, normal, tangent, out);
  }
}

}  // namespace gauss::builtin_sensors
