// Parsing the sections that refer to the body tree by name: <contact>, <equality>, <tendon>,
// <actuator> and <sensor>. Names are only recorded here; compile_elements.cc resolves them.
// Required attributes and transmission rules follow MuJoCo 2.2.2 (measured):
//  - actuators take exactly one of joint, jointinparent, tendon, site, cranksite, body;
//    slidersite and cranklength only with cranksite, refsite only with site; damper and
//    adhesion need an explicit ctrlrange.
//  - fixed tendon <joint> needs joint and coef; spatial path elements need their object.
//  - distance equality constraints were removed in MuJoCo 2.2.2 and are refused.
//  - 3.x connect/weld between two sites: site1 and site2 both, instead of body1/body2/anchor
//    (and relpose for weld); the 3.x flex equalities are refused.
//  - frame sensors need objtype and objname; refname needs reftype and vice versa; <user>
//    sensors need dim (MuJoCo 2.2.2 also needs objtype, objname, datatype and needstage; 3.x
//    made them optional with defaults: no object, real, acc). <plugin> sensors: parse_plugins.cc.
//  - 3.x <contact> sensors (ReadContactSensor; MuJoCo 3.12.1's rules, measured): at most one
//    of geom1/body1/subtree1/site and one of geom2/body2/subtree2, num > 0, data fields
//    distinct and in their canonical order.
//  - 3.x collision sensors distance, normal, fromto (ReadGeomPairSensor; 3.12.1's rules,
//    measured): exactly one of geom1/body1 and one of geom2/body2.
//  - 3.x <rangefinder>: site or camera (not both), data fields in their canonical order
//    (ReadRangefinder).
#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "mjcf/attributes.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {

// (<contact>) => (spec.pairs, spec.excludes)
void ReadContact(const XmlElement& section, ModelSpec* spec) {
  for (const XmlElement& c : section.children) {
    if (c.name == "pair") {
      PairSpec p = spec->defaults[ElementClass(c, *spec, 0)].pair;
      ReadPairAttributes(c, &p);
      p.src = SourceOf(c);
      ReadString(c, "name", &p.name);
      p.geom1 = RequireAttribute(c, "geom1");
      p.geom2 = RequireAttribute(c, "geom2");
      spec->pairs.push_back(p);
    } else if (c.name == "exclude") {
      ExcludeSpec x;
      x.src = SourceOf(c);
      x.body1 = RequireAttribute(c, "body1");
      x.body2 = RequireAttribute(c, "body2");
      spec->excludes.push_back(x);
    }
  }
}

// (<equality>) => (spec.equalities)
void ReadEquality(const XmlElement& section, ModelSpec* spec) {
  for (const XmlElement& c : section.children) {
    if (c.name == "distance") {
      NotSupported(c, "distance equality constraint (removed in MuJoCo 2.2.2)");
    }
    if (c.name.compare(0, 4, "flex") == 0) {
      NotSupported(c, c.name + " equality constraint (MuJoCo 3.x flex deformables)");
    }
    EqualitySpec q = spec->defaults[ElementClass(c, *spec, 0)].equality;
    ReadEqualityAttributes(c, &q);
    q.src = SourceOf(c);
    ReadString(c, "name", &q.name);
    if ((c.name == "connect" || c.name == "weld") && (c.Find("site1") || c.Find("site2"))) {
      q.type = c.name == "connect" ? EqType::kConnect : EqType::kWeld;
      q.sites = true;
      for (const char* body_form : {"body1", "body2", "anchor", "relpose"}) {
        if (c.Find(body_form)) {
          throw Error(c.Where(body_form), "a " + c.name + " between sites (site1, site2) takes "
                                          "no " + body_form);
        }
      }
      q.name1 = RequireAttribute(c, "site1");
      q.name2 = RequireAttribute(c, "site2");
      ReadNumber(c, "torquescale", &q.torquescale);
    } else if (c.name == "connect" || c.name == "weld") {
      q.type = c.name == "connect" ? EqType::kConnect : EqType::kWeld;
      q.name1 = RequireAttribute(c, "body1");
      ReadString(c, "body2", &q.name2);
      if (q.type == EqType::kConnect) RequireAttribute(c, "anchor");
      ReadNumbers(c, "anchor", q.anchor, 3);
      ReadNumbers(c, "relpose", q.relpose, 7);
      ReadNumber(c, "torquescale", &q.torquescale);
    } else {
      q.type = c.name == "joint" ? EqType::kJoint : EqType::kTendon;
      const std::string prefix = c.name;  // joint1 / tendon1
      q.name1 = RequireAttribute(c, prefix + "1");
      ReadString(c, prefix + "2", &q.name2);
      ReadNumbers(c, "polycoef", q.polycoef, 5, false);  // 3.x: a prefix (2.2.2: all 5)
    }
    spec->equalities.push_back(q);
  }
}

// (<tendon>) => (spec.tendons)
void ReadTendons(const XmlElement& section, ModelSpec* spec) {
  for (const XmlElement& c : section.children) {
    TendonSpec t = spec->defaults[ElementClass(c, *spec, 0)].tendon;
    ReadTendonAttributes(c, &t);
    t.src = SourceOf(c);
    ReadString(c, "name", &t.name);
    t.spatial = c.name == "spatial";
    for (const XmlElement& w : c.children) {
      WrapSpec wrap;
      wrap.src = SourceOf(w);
      if (w.name == "joint") {
        wrap.type = WrapType::kJoint;
        wrap.name = RequireAttribute(w, "joint");
        RequireAttribute(w, "coef");
        ReadNumber(w, "coef", &wrap.prm);
      } else if (w.name == "site") {
        wrap.type = WrapType::kSite;
        wrap.name = RequireAttribute(w, "site");
      } else if (w.name == "geom") {
        wrap.type = WrapType::kSphere;  // sphere or cylinder: decided by the geom's type
        wrap.name = RequireAttribute(w, "geom");
        ReadString(w, "sidesite", &wrap.sidesite);
      } else if (w.name == "pulley") {
        wrap.type = WrapType::kPulley;
        RequireAttribute(w, "divisor");
        ReadNumber(w, "divisor", &wrap.prm);
      }
      t.path.push_back(wrap);
    }
    spec->tendons.push_back(t);
  }
}

// (<actuator>) => (spec.actuators)
void ReadActuators(const XmlElement& section, ModelSpec* spec) {
  for (const XmlElement& c : section.children) {
    ActuatorSpec a = spec->defaults[ElementClass(c, *spec, 0)].actuator;
    if (c.name == "damper" || c.name == "adhesion") RequireAttribute(c, "ctrlrange");
    if (c.name == "plugin") NotSupported(c, "actuator <plugin> (MuJoCo 3.x engine plugins)");
    ReadActuatorAttributes(c, &a);
    CheckActuator3x(c, a);
    a.src = SourceOf(c);
    a.key_values = ReadAttachedKeyValues(c);
    ReadString(c, "name", &a.name);

    int targets = 0;
    for (const char* attr : {"joint", "jointinparent", "tendon", "site", "cranksite", "body"}) {
      if (const std::string* v = c.Find(attr)) {
        if (++targets > 1) {
          throw Error(c.Where(attr), "an actuator has exactly one transmission target (joint, "
                                     "jointinparent, tendon, site, cranksite or body)");
        }
        a.target_attr = attr;
        a.target = *v;
      }
    }
    if (targets == 0) {
      throw Error(c.Where(), "missing transmission target: write one of joint, jointinparent, "
                             "tendon, site, cranksite or body");
    }
    if (a.target_attr == "cranksite") {
      a.target2 = RequireAttribute(c, "slidersite");
    } else {
      for (const char* attr : {"slidersite", "cranklength"}) {
        if (c.Find(attr)) {
          throw Error(c.Where(attr), "only a slider-crank transmission (cranksite) takes " +
                                         std::string(attr));
        }
      }
    }
    if (const std::string* refsite = c.Find("refsite")) {
      if (a.target_attr != "site") {
        throw Error(c.Where("refsite"), "refsite can only be used with a site transmission");
      }
      a.target2 = *refsite;
    }
    spec->actuators.push_back(a);
  }
}

namespace {

// <user>: (element) => (s.objtype, objname, user_dim, user_stage, user_datatype)
void ReadUserSensor(const XmlElement& c, SensorSpec* s) {
  const bool has_type = ReadString(c, "objtype", &s->objtype);
  const bool has_name = ReadString(c, "objname", &s->objname);
  if (has_type && !has_name) RequireAttribute(c, "objname");
  if (has_name && !has_type) RequireAttribute(c, "objtype");
  RequireAttribute(c, "dim");
  ReadInt(c, "dim", &s->user_dim);
  if (s->user_dim < 0) throw Error(c.Where("dim"), "a user sensor's dim cannot be negative");
  ReadSensorOutput(c, &s->user_stage, &s->user_datatype);
}

// (attribute `data`: a list of distinct field names in the order of `fields`) => (*bits: bit k
// for fields[k]); an empty list keeps *bits (the sensor's default), as MuJoCo 3.12 does
void ReadDataFields(const XmlElement& c, const std::vector<std::string>& fields, int* bits) {
  const std::string* data = c.Find("data");
  if (!data) return;
  std::string names, order;  // "a b c" and "a, b, c"
  for (const std::string& f : fields) {
    names += (names.empty() ? "" : " ") + f;
    order += (order.empty() ? "" : ", ") + f;
  }
  std::stringstream words(*data);
  std::string word;
  int last = -1, read = 0;
  while (words >> word) {
    const auto it = std::find(fields.begin(), fields.end(), word);
    if (it == fields.end()) {
      throw Error(c.Where("data"), "invalid field '" + word + "'; expected fields of: " + names);
    }
    const int k = static_cast<int>(it - fields.begin());
    if (k <= last) {
      throw Error(c.Where("data"), "the fields must be distinct and in the order " + order +
                                       " ('" + word + "' comes too late)");
    }
    last = k;
    read |= 1 << k;
  }
  if (read) *bits = read;
}

// <rangefinder> (3.x additions): exactly one of site (one ray along the site's +z) and camera
// (one ray per pixel of the camera's resolution); data (fields dist dir origin point normal
// depth, in this order; default dist). normal is refused: Gauss's rays report no surface normal.
// (element) => (s.objtype/objname, ray_data)
void ReadRangefinder(const XmlElement& c, SensorSpec* s) {
  if (const std::string* camera = c.Find("camera")) {
    if (c.Find("site")) throw Error(c.Where("camera"), "at most one of site, camera can be given");
    s->objtype = "camera";
    s->objname = *camera;
  }
  ReadDataFields(c, {"dist", "dir", "origin", "point", "normal", "depth"}, &s->ray_data);
  if (s->ray_data & 1 << 4) {
    NotSupported(c, "the rangefinder field normal (surface normals of rays)", "data");
  }
}

// <contact> (MuJoCo 3.x): the first side (geom1, body1, subtree1 or site), the second side
// (geom2, body2 or subtree2), each optional and at most one of each; num > 0; data (fields in
// the order found force torque dist pos normal tangent; empty: found); reduce.
// (element) => (s.objtype/objname, reftype/refname, contact_data, contact_reduce, contact_num)
void ReadContactSensor(const XmlElement& c, SensorSpec* s) {
  s->objtype.clear();
  s->objname.clear();
  // side attribute -> object type keyword (a subtree is MuJoCo's xbody)
  const std::pair<const char*, const char*> first[] = {
      {"geom1", "geom"}, {"body1", "body"}, {"subtree1", "xbody"}, {"site", "site"}};
  const std::pair<const char*, const char*> second[] = {
      {"geom2", "geom"}, {"body2", "body"}, {"subtree2", "xbody"}};
  auto side = [&](const auto& attrs, std::string* type, std::string* name, const char* list) {
    for (const auto& [attr, keyword] : attrs) {
      const std::string* value = c.Find(attr);
      if (!value) continue;
      if (!type->empty()) {
        throw Error(c.Where(attr), std::string("at most one of ") + list + " can be given");
      }
      *type = keyword;
      *name = *value;
    }
  };
  side(first, &s->objtype, &s->objname, "geom1, body1, subtree1, site");
  side(second, &s->reftype, &s->refname, "geom2, body2, subtree2");
  if (ReadInt(c, "num", &s->contact_num) && s->contact_num <= 0) {
    throw Error(c.Where("num"), "num must be positive, found " + std::to_string(s->contact_num));
  }
  ReadDataFields(c, {"found", "force", "torque", "dist", "pos", "normal", "tangent"},
                 &s->contact_data);
  ReadKeyword(c, "reduce", {"none", "mindist", "maxforce", "netforce"}, &s->contact_reduce);
}

// <distance>, <normal>, <fromto> (MuJoCo 3.x): exactly one of geom1/body1 and exactly one of
// geom2/body2 (whether the two sides differ is checked by the compiler, which knows the ids).
// (element) => (s.objtype/objname, s.reftype/refname)
void ReadGeomPairSensor(const XmlElement& c, SensorSpec* s) {
  auto side = [&](const char* geom, const char* body, std::string* type, std::string* name) {
    const std::string* g = c.Find(geom);
    const std::string* b = c.Find(body);
    if (g && b) {
      throw Error(c.Where(body), std::string("at most one of ") + geom + ", " + body +
                                     " can be given");
    }
    if (!g && !b) {
      throw Error(c.Where(), std::string("one of ") + geom + ", " + body + " is required");
    }
    *type = g ? "geom" : "body";
    *name = g ? *g : *b;
  };
  side("geom1", "body1", &s->objtype, &s->objname);
  side("geom2", "body2", &s->reftype, &s->refname);
}

}  // namespace

// (<sensor>) => (spec.sensors)
void ReadSensors(const XmlElement& section, ModelSpec* spec) {
  for (const XmlElement& c : section.children) {
    SensorSpec s;
    s.src = SourceOf(c);
    s.type = c.name;
    ReadString(c, "name", &s.name);
    ReadNumber(c, "cutoff", &s.cutoff);
    ReadNumber(c, "noise", &s.noise);
    std::vector<double> user;
    ReadNumberList(c, "user", &user);
    for (const char* attr : {"site", "joint", "tendon", "actuator", "body"}) {
      if (c.Find(attr)) {
        s.objtype = attr;
        s.objname = *c.Find(attr);
      }
    }
    const bool frame = c.name.compare(0, 5, "frame") == 0;
    if (c.name == "rangefinder") ReadRangefinder(c, &s);
    if (c.name == "plugin") {
      ReadSensorPlugin(c, &s);
    } else if (c.name == "user") {
      ReadUserSensor(c, &s);
    } else if (c.name == "contact") {
      ReadContactSensor(c, &s);
    } else if (c.name == "distance" || c.name == "normal" || c.name == "fromto") {
      ReadGeomPairSensor(c, &s);
    } else if (frame || c.name == "insidesite") {
      s.objtype = RequireAttribute(c, "objtype");
      s.objname = RequireAttribute(c, "objname");
      const bool has_type = ReadString(c, "reftype", &s.reftype);
      const bool has_name = ReadString(c, "refname", &s.refname);
      if (has_type && !has_name) RequireAttribute(c, "refname");
      if (has_name && !has_type) {
        throw Error(c.Where("refname"), "refname '" + s.refname + "' needs a reftype");
      }
    } else if (c.name != "clock" && c.name != "e_potential" && c.name != "e_kinetic" &&
               s.objtype.empty()) {
      // every other sensor names its object with exactly one attribute; the schema says which
      const char* attr = c.name.find("tendon") == 0 ? "tendon"
                         : c.name.find("actuator") == 0 ? "actuator"
                         : c.name.find("subtree") == 0 ? "body"
                         : (c.name.find("joint") == 0 || c.name.find("ball") == 0) ? "joint"
                                                                                    : "site";
      RequireAttribute(c, attr);
    }
    if (c.name == "insidesite") {
      // the site is the volume; objtype/objname the frame whose origin is tested
      s.reftype = "site";
      s.refname = RequireAttribute(c, "site");
    }
    if (c.name == "camprojection") {
      // 3.x: the site's position in the pixel coordinates of the camera
      s.reftype = "camera";
      s.refname = RequireAttribute(c, "camera");
    }
    spec->sensors.push_back(s);
  }
}

}  // namespace gauss::mjcf
