// Default classes and the attributes they share with elements: joint, geom, site, actuator
// (all shortcuts), tendon, equality and pair. Each attribute reader overwrites only what the
// XML element writes, so one function serves both a <default> child and the element that
// uses the class.
//
// Class semantics (measured against MuJoCo 2.2.2):
//  - Class 0 is "main". A top-level <default> modifies it (its class attribute, if any,
//    renames it); top-level sections apply in document order.
//  - A nested <default> needs a class name, unique in the model, and starts as a copy of its
//    parent class at the moment it is read (later changes to the parent do not reach it).
//  - Inside one <default>, the element templates are read before the nested classes, so
//    <default><default class="a"/><joint damping="3"/></default> gives class a damping 3.
//  - An element uses its own class attribute if written, else the childclass of the nearest
//    enclosing body that has one, else main. Naming an undefined class is an error.
//  - <mesh> defaults keep scale, <material> defaults keep rgba, <camera> defaults all but the
//    name; the rest of <material>, and <light> defaults are visual: checked, not kept.
//
// Actuator shortcuts (measured against MuJoCo 2.2.2, where a default class holds a single
// actuator template that every shortcut writes into):
//  - motor:       gainprm[0] = 1; dyntype none, gaintype fixed, biastype none.
//  - position:    kp (default: the template's gainprm[0]) -> gainprm[0] = kp,
//                 biasprm = (0, -kp, 0, 0, ...); biastype affine.
//  - velocity:    kv (default: gainprm[0]) -> gainprm[0] = kv, biasprm = (0, 0, -kv, 0, ...).
//  - intvelocity: as position, plus dyntype integrator and actlimited = true.
//  - damper:      gainprm = (0, 0, -kv, 0, ...) with kv default 0; gaintype affine,
//                 biastype none; ctrllimited = true.
//  - cylinder:    dynprm[0] = timeconst (default dynprm[0]), gainprm[0] = area or
//                 pi/4 diameter^2 (default gainprm[0]), biasprm[0..2] = bias; dyntype filter,
//                 biastype affine.
//  - adhesion:    gainprm = (gain, 0, ...) with gain default 1, biasprm = 0; ctrllimited = true.
//  - muscle:      template values still equal to the generic defaults become the muscle
//                 defaults (timeconst 0.01 0.04, range 0.75 1.05, force -1, scale 200, lmin 0.5,
//                 lmax 1.6, vmax 1.5, fpmax 1.3, fvmax 1.2); dynprm[0..1] = timeconst,
//                 gainprm[0..8] = biasprm[0..8] = (range, force, scale, lmin, lmax, vmax, fpmax,
//                 fvmax); dyntype, gaintype and biastype muscle; ctrllimited untouched.
//  - general:     exactly what is written.
// Parameters a shortcut does not mention keep the template's values (e.g. a motor in a class
// whose default is a position servo keeps biasprm (0, -kp, 0), unused because biastype none).
#include <algorithm>

#include "mjcf/attributes.h"
#include "mjcf/orientation.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

constexpr double kPi = 3.14159265358979323846;

const std::vector<std::string> kGeomTypes = {"plane",    "hfield",   "sphere", "capsule",
                                             "ellipsoid", "cylinder", "box",    "mesh"};

// Reads and checks the variable-length `user` attribute; the values have no Model field.
void ReadUser(const XmlElement& e) {
  std::vector<double> unused;
  ReadNumberList(e, "user", &unused);
}

}  // namespace

// 3.x mesh inertia="legacy|exact|convex|shell" => index (see MeshSpec::inertia)
bool ReadMeshInertia(const XmlElement& e, int* out) {
  return ReadKeyword(e, "inertia", {"legacy", "exact", "convex", "shell"}, out);
}

namespace {

// Applies the element templates written inside one <default> to class `index`.
// (section) => (spec.defaults[index])
void ReadTemplates(const XmlElement& section, int index, ModelSpec* spec) {
  for (const XmlElement& c : section.children) {
    DefaultClass& d = spec->defaults[index];
    if (c.name == "joint") {
      ReadJointAttributes(c, &d.joint);
    } else if (c.name == "geom") {
      ReadGeomAttributes(c, &d.geom);
    } else if (c.name == "site") {
      ReadSiteAttributes(c, &d.site);
    } else if (c.name == "camera") {
      ReadCameraAttributes(c, &d.camera);
    } else if (c.name == "tendon") {
      ReadTendonAttributes(c, &d.tendon);
    } else if (c.name == "equality") {
      ReadEqualityAttributes(c, &d.equality);
    } else if (c.name == "pair") {
      ReadPairAttributes(c, &d.pair);
    } else if (c.name == "general" || c.name == "motor" || c.name == "position" ||
               c.name == "velocity" || c.name == "intvelocity" || c.name == "damper" ||
               c.name == "cylinder" || c.name == "muscle" || c.name == "adhesion") {
      ReadActuatorAttributes(c, &d.actuator);
    } else if (c.name == "mesh") {
      ReadNumbers(c, "scale", d.mesh_scale, 3);
      ReadMeshInertia(c, &d.mesh_inertia);  // 3.x
      int maxhullvert = -1;
      ReadInt(c, "maxhullvert", &maxhullvert);
    } else if (c.name == "material") {
      ReadNumbers(c, "rgba", d.material_rgba, 4);
    }
    // light and the other material attributes: visual defaults, attribute names checked by
    // the schema
  }
}

// Reads a nested <default> as a new class derived from `parent`, then its own nested classes.
// (section) => (spec.defaults)
void ReadNestedDefault(const XmlElement& section, int parent, ModelSpec* spec) {
  const std::string* name = section.Find("class");
  if (!name || name->empty()) {
    throw Error(section.Where("class"), "a nested <default> needs a non-empty class name");
  }
  if (FindClass(*spec, *name) >= 0) {
    throw Error(section.Where("class"), "default class '" + *name + "' is defined twice");
  }
  DefaultClass d = spec->defaults[parent];
  d.name = *name;
  d.parent = parent;
  spec->defaults.push_back(d);
  const int index = static_cast<int>(spec->defaults.size()) - 1;
  ReadTemplates(section, index, spec);
  for (const XmlElement& c : section.children) {
    if (c.name == "default") ReadNestedDefault(c, index, spec);
  }
}

}  // namespace

// (joint attributes) => (template or element)
void ReadJointAttributes(const XmlElement& e, JointSpec* j) {
  int type = 0;
  if (ReadKeyword(e, "type", {"free", "ball", "slide", "hinge"}, &type)) {
    j->type = static_cast<JointType>(type);
  }
  ReadInt(e, "group", &j->group);
  ReadNumbers(e, "pos", j->pos, 3);
  ReadNumbers(e, "axis", j->axis, 3);
  ReadNumbers(e, "springdamper", j->springdamper, 2);
  ReadLimited(e, "limited", &j->limited);
  ReadNumbers(e, "solreflimit", j->solref_limit, kNRef, false);
  ReadNumbers(e, "solimplimit", j->solimp_limit, kNImp, false);
  ReadNumbers(e, "solreffriction", j->solref_friction, kNRef, false);
  ReadNumbers(e, "solimpfriction", j->solimp_friction, kNImp, false);
  ReadNumbers(e, "stiffness", j->stiffness, 3, false);  // 3.x polynomial: 1..3 values
  ReadNumbers(e, "range", j->range, 2);
  ReadNumber(e, "margin", &j->margin);
  ReadNumber(e, "ref", &j->ref);
  ReadNumber(e, "springref", &j->springref);
  ReadNumber(e, "armature", &j->armature);
  ReadNumber(e, "damping", &j->damping);
  ReadNumber(e, "frictionloss", &j->frictionloss);
  ReadUser(e);
  // 3.x: kept so that classes pass them on; the element's values are checked in parse_body.cc
  ReadLimited(e, "actuatorfrclimited", &j->actfrclimited);
  ReadNumbers(e, "actuatorfrcrange", j->actfrcrange, 2);
  ReadBool(e, "actuatorgravcomp", &j->actgravcomp);
}

namespace {

// (attribute adhesion, 3.x) => *adhesion: a force, so not negative (MuJoCo 3.12 accepts a
// negative value without documenting what it does; Gauss refuses it)
void ReadAdhesion(const XmlElement& e, double* adhesion) {
  if (ReadNumber(e, "adhesion", adhesion) && *adhesion < 0) {
    throw Error(e.Where("adhesion"), "the adhesion cannot be negative");
  }
}

}  // namespace

// (geom attributes) => (template or element)
void ReadGeomAttributes(const XmlElement& e, GeomSpec* g) {
  int type = 0;
  // 3.x signed-distance geoms need SDF plugins (docs/mjcf.md, "MuJoCo 3.x")
  if (const std::string* t = e.Find("type"); t && *t == "sdf") {
    NotSupported(e, "geom type=\"sdf\" (MuJoCo 3.x SDF plugins)", "type");
  }
  if (ReadKeyword(e, "type", kGeomTypes, &type)) g->type = static_cast<GeomType>(type);
  ReadInt(e, "contype", &g->contype);
  ReadInt(e, "conaffinity", &g->conaffinity);
  ReadInt(e, "condim", &g->condim);
  ReadInt(e, "group", &g->group);
  ReadInt(e, "priority", &g->priority);
  ReadNumbers(e, "size", g->size, 3, false);
  ReadString(e, "material", &g->material);
  ReadNumbers(e, "friction", g->friction, 3, false);
  if (ReadNumber(e, "mass", &g->mass)) g->has_mass = true;
  ReadNumber(e, "density", &g->density);
  ReadBool(e, "shellinertia", &g->shellinertia);
  ReadNumber(e, "solmix", &g->solmix);
  ReadNumbers(e, "solref", g->solref, kNRef, false);
  ReadNumbers(e, "solimp", g->solimp, kNImp, false);
  ReadNumber(e, "margin", &g->margin);
  ReadNumber(e, "gap", &g->gap);
  if (ReadNumbers(e, "fromto", g->fromto, 6)) g->has_fromto = true;
  if (ReadNumbers(e, "pos", g->pos, 3)) g->has_pos = true;
  ReadOrientation(e, &g->orient);
  ReadString(e, "hfield", &g->hfield);
  ReadString(e, "mesh", &g->mesh);
  double fitscale = 1;  // only used when fitting primitives to meshes
  ReadNumber(e, "fitscale", &fitscale);
  ReadNumbers(e, "rgba", g->rgba, 4);
  int shape = 0;
  if (ReadKeyword(e, "fluidshape", {"none", "ellipsoid"}, &shape)) g->fluid_ellipsoid = shape == 1;
  ReadNumbers(e, "fluidcoef", g->fluidcoef, 5, false);
  ReadUser(e);
  ReadNumbers(e, "surfacevel", g->surfacevel, 6);  // 3.x
  ReadAdhesion(e, &g->adhesion);                   // 3.x
}

// (site attributes) => (template or element)
void ReadSiteAttributes(const XmlElement& e, SiteSpec* s) {
  int type = 0;
  if (ReadKeyword(e, "type", kGeomTypes, &type)) s->type = static_cast<GeomType>(type);
  ReadInt(e, "group", &s->group);
  if (ReadNumbers(e, "pos", s->pos, 3)) s->has_pos = true;
  ReadOrientation(e, &s->orient);
  ReadString(e, "material", &s->material);
  ReadNumbers(e, "size", s->size, 3, false);
  if (ReadNumbers(e, "fromto", s->fromto, 6)) s->has_fromto = true;
  ReadNumbers(e, "rgba", s->rgba, 4);
  ReadUser(e);
}

// (camera attributes) => (template or element); the light-only attributes are checked in
// ReadVisualObject
void ReadCameraAttributes(const XmlElement& e, CameraSpec* s) {
  ReadKeyword(e, "mode", {"fixed", "track", "trackcom", "targetbody", "targetbodycom"},
              &s->mode);
  ReadString(e, "target", &s->target);
  ReadNumbers(e, "pos", s->pos, 3);
  ReadOrientation(e, &s->orient);
  ReadNumber(e, "fovy", &s->fovy);
  ReadNumber(e, "ipd", &s->ipd);
  // 3.x: projection="orthographic" (fovy is then the image height in length units)
  int projection = s->orthographic ? 1 : 0;
  if (ReadKeyword(e, "projection", {"perspective", "orthographic"}, &projection)) {
    s->orthographic = projection == 1;
  }
  ReadInts(e, "resolution", s->resolution, 2);
  ReadNumbers(e, "focal", s->focal, 2);
  ReadNumbers(e, "focalpixel", s->focalpixel, 2);
  ReadNumbers(e, "principal", s->principal, 2);
  ReadNumbers(e, "principalpixel", s->principalpixel, 2);
  ReadNumbers(e, "sensorsize", s->sensorsize, 2);
  ReadUser(e);
}

// (common actuator attributes, then the shortcut's own) => (template or element)
void ReadActuatorAttributes(const XmlElement& e, ActuatorSpec* a) {
  const std::string& kind = e.name;

  // attributes common to the shortcuts
  ReadInt(e, "group", &a->group);
  ReadLimited(e, "ctrllimited", &a->ctrllimited);
  ReadLimited(e, "forcelimited", &a->forcelimited);
  ReadLimited(e, "actlimited", &a->actlimited);
  ReadNumbers(e, "ctrlrange", a->ctrlrange, 2);
  ReadNumbers(e, "forcerange", a->forcerange, 2);
  ReadNumbers(e, "actrange", a->actrange, 2);
  ReadNumbers(e, "lengthrange", a->lengthrange, 2);
  ReadNumbers(e, "gear", a->gear, 6, false);
  ReadNumber(e, "cranklength", &a->cranklength);
  ReadUser(e);
  ReadBool(e, "actearly", &a->actearly);  // 3.x
  ReadInt(e, "actdim", &a->actdim);       // 3.x

  // a shortcut fixes its dynamics: a plugin named by the class's <general dyntype> does not
  // carry over to it
  if (kind != "general") a->plugin.clear();
  if (kind == "general") {
    int k = 0;
    // dyntype: a builtin keyword, or the name of an ActuatorDynamics plugin (Gauss extension,
    // docs/mjcf.md): the actuator then has one activation and dyntype user
    std::string dyn;
    if (ReadString(e, "dyntype", &dyn)) {
      const std::vector<std::string> builtin = {"none",   "integrator", "filter",
                                                "muscle", "user",       "filterexact"};
      const DynType map[] = {DynType::kNone,   DynType::kIntegrator, DynType::kFilter,
                             DynType::kMuscle, DynType::kUser,       DynType::kFilterExact};
      const auto it = std::find(builtin.begin(), builtin.end(), dyn);
      if (it != builtin.end()) {
        a->dyntype = map[it - builtin.begin()];
        a->plugin.clear();
      } else if (dyn.empty()) {
        throw Error(e.Where("dyntype"), "dyntype is empty: expected none, integrator, filter, "
                                        "filterexact, muscle, user or a plugin name");
      } else {
        a->dyntype = DynType::kUser;
        a->plugin = dyn;
      }
    }
    if (ReadKeyword(e, "gaintype", {"fixed", "affine", "muscle", "user"}, &k)) {
      a->gaintype = static_cast<GainType>(k);
    }
    if (ReadKeyword(e, "biastype", {"none", "affine", "muscle", "user"}, &k)) {
      a->biastype = static_cast<BiasType>(k);
    }
    ReadNumbers(e, "dynprm", a->dynprm, kNDyn, false);
    ReadNumbers(e, "gainprm", a->gainprm, kNGain, false);
    ReadNumbers(e, "biasprm", a->biasprm, kNBias, false);
  } else if (kind == "motor") {
    a->gainprm[0] = 1;
    a->dyntype = DynType::kNone;
    a->gaintype = GainType::kFixed;
    a->biastype = BiasType::kNone;
  } else if (kind == "position" || kind == "intvelocity") {
    ReadNumber(e, "kp", &a->gainprm[0]);
    // MuJoCo 2.2.2 clears all of biasprm; 3.x keeps biasprm[2] whatever wrote it. A file
    // decides which applies: the damping term is kept when a 3.x kv or dampratio wrote it
    // (kept in the template as biasprm[2] and dampratio), cleared otherwise (a 2.2.2
    // <velocity kv> template, say: measured, 2.2.2 and 3.12 differ there)
    const double kept_damping = a->servo_damping && !(a->dampratio > 0) ? a->biasprm[2] : 0;
    if (!a->servo_damping) a->dampratio = 0;
    std::fill(a->biasprm, a->biasprm + kNBias, 0.0);
    a->biasprm[0] = 0;
    a->biasprm[1] = -a->gainprm[0];
    a->biasprm[2] = kept_damping;
    if (e.Find("kv") && e.Find("dampratio")) {
      throw Error(e.Where("dampratio"), "kv and dampratio cannot both be written");
    }
    double kv = 0;
    if (ReadNumber(e, "kv", &kv)) {
      if (kv < 0) throw Error(e.Where("kv"), "kv must not be negative");
      a->biasprm[2] = -kv;
      a->dampratio = 0;
      a->servo_damping = true;
    }
    if (ReadNumber(e, "dampratio", &a->dampratio)) {
      if (a->dampratio < 0) throw Error(e.Where("dampratio"), "dampratio must not be negative");
      a->biasprm[2] = 0;
      a->servo_damping = true;
    }
    a->dyntype = kind == "position" ? DynType::kNone : DynType::kIntegrator;
    double timeconst = 0;  // 3.x: a position servo with a first-order filter on the control
    if (kind == "position" && ReadNumber(e, "timeconst", &timeconst)) {
      if (timeconst < 0) throw Error(e.Where("timeconst"), "timeconst must not be negative");
      a->dynprm[0] = timeconst;
    }
    if (kind == "position" && a->dynprm[0] > 0 && (e.Find("timeconst") || a->timeconst_servo)) {
      a->dyntype = DynType::kFilterExact;
      a->timeconst_servo = true;
    }
    if (ReadNumber(e, "inheritrange", &a->inheritrange) && a->inheritrange < 0) {
      throw Error(e.Where("inheritrange"), "inheritrange must not be negative");
    }
    a->gaintype = GainType::kFixed;
    a->biastype = BiasType::kAffine;
    if (kind == "intvelocity") a->actlimited = 1;
  } else if (kind == "velocity") {
    ReadNumber(e, "kv", &a->gainprm[0]);
    std::fill(a->biasprm, a->biasprm + kNBias, 0.0);  // MuJoCo 2.2.2 clears all of biasprm
    a->biasprm[0] = 0;
    a->biasprm[1] = 0;
    a->biasprm[2] = -a->gainprm[0];
    a->dyntype = DynType::kNone;
    a->gaintype = GainType::kFixed;
    a->biastype = BiasType::kAffine;
  } else if (kind == "damper") {
    double kv = 0;
    ReadNumber(e, "kv", &kv);
    std::fill(a->gainprm, a->gainprm + kNGain, 0.0);
    a->gainprm[2] = -kv;
    a->dyntype = DynType::kNone;
    a->gaintype = GainType::kAffine;
    a->biastype = BiasType::kNone;
    a->ctrllimited = 1;
  } else if (kind == "cylinder") {
    ReadNumber(e, "timeconst", &a->dynprm[0]);
    ReadNumber(e, "area", &a->gainprm[0]);
    double diameter = 0;
    if (ReadNumber(e, "diameter", &diameter)) a->gainprm[0] = kPi / 4 * diameter * diameter;
    ReadNumbers(e, "bias", a->biasprm, 3);
    a->dyntype = DynType::kFilter;
    a->gaintype = GainType::kFixed;
    a->biastype = BiasType::kAffine;
  } else if (kind == "muscle") {
    // MuJoCo 2.2.2: the muscle defaults replace the generic template values still in place
    // (dynprm 1 0, gainprm 1 0 0 ...), then the written attributes apply; gain and bias share
    // the FLV parameters (range, force, scale, lmin, lmax, vmax, fpmax, fvmax)
    const double generic[11] = {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    const double muscle[11] = {0.01, 0.04, 0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
    for (int i = 0; i < 2; ++i) {
      if (a->dynprm[i] == generic[i]) a->dynprm[i] = muscle[i];
    }
    for (int i = 0; i < 9; ++i) {
      if (a->gainprm[i] == generic[2 + i]) a->gainprm[i] = muscle[2 + i];
    }
    ReadNumbers(e, "timeconst", a->dynprm, 2);
    ReadNumbers(e, "range", a->gainprm, 2);
    // 3.x: the width over which tau blends from deactivation to activation (builtin actuator
    // plugin, muscle::ActivationRate); MuJoCo 3.12.1 refuses a negative one
    if (ReadNumber(e, "tausmooth", &a->tausmooth) && a->tausmooth < 0) {
      throw Error(e.Where("tausmooth"), "muscle tausmooth cannot be negative");
    }
    if (a->tausmooth != 0 || e.Find("tausmooth")) a->dynprm[2] = a->tausmooth;
    const char* names[] = {"force", "scale", "lmin", "lmax", "vmax", "fpmax", "fvmax"};
    for (int i = 0; i < 7; ++i) ReadNumber(e, names[i], &a->gainprm[2 + i]);
    std::copy(a->gainprm, a->gainprm + 9, a->biasprm);
    a->dyntype = DynType::kMuscle;
    a->gaintype = GainType::kMuscle;
    a->biastype = BiasType::kMuscle;
  } else if (kind == "adhesion") {
    double gain = 1;
    ReadNumber(e, "gain", &gain);
    std::fill(a->gainprm, a->gainprm + kNGain, 0.0);
    std::fill(a->biasprm, a->biasprm + kNBias, 0.0);
    a->gainprm[0] = gain;
    a->dyntype = DynType::kNone;
    a->gaintype = GainType::kFixed;
    a->biastype = BiasType::kNone;
    a->ctrllimited = 1;
  }
}

// (tendon attributes) => (template or element)
void ReadTendonAttributes(const XmlElement& e, TendonSpec* t) {
  ReadInt(e, "group", &t->group);
  ReadLimited(e, "limited", &t->limited);
  ReadNumbers(e, "range", t->range, 2);
  ReadNumbers(e, "solreflimit", t->solref_limit, kNRef, false);
  ReadNumbers(e, "solimplimit", t->solimp_limit, kNImp, false);
  ReadNumbers(e, "solreffriction", t->solref_friction, kNRef, false);
  ReadNumbers(e, "solimpfriction", t->solimp_friction, kNImp, false);
  ReadNumber(e, "frictionloss", &t->frictionloss);
  // one value, or (3.x) two: a dead band [low, high] in which the spring exerts no force
  double springlength[2] = {0, 0};
  const int n_spring = ReadNumbers(e, "springlength", springlength, 2, false);
  if (n_spring >= 1) t->springlength = springlength[0];
  if (n_spring >= 1) t->springlength_high = n_spring == 2 ? springlength[1] : -1;
  ReadNumber(e, "armature", &t->armature);  // 3.x
  ReadLimited(e, "actuatorfrclimited", &t->actfrclimited);
  ReadNumbers(e, "actuatorfrcrange", t->actfrcrange, 2);
  ReadNumber(e, "margin", &t->margin);
  ReadNumbers(e, "stiffness", t->stiffness, 3, false);  // 3.x polynomial: 1..3 values
  ReadNumber(e, "damping", &t->damping);
  ReadString(e, "material", &t->material);
  // visual-only attributes: checked, not stored
  double width = 0, rgba[4];
  ReadNumber(e, "width", &width);
  ReadNumbers(e, "rgba", rgba, 4);
  ReadUser(e);
}

// (equality attributes) => (template or element)
void ReadEqualityAttributes(const XmlElement& e, EqualitySpec* q) {
  ReadBool(e, "active", &q->active);
  ReadNumbers(e, "solref", q->solref, kNRef, false);
  ReadNumbers(e, "solimp", q->solimp, kNImp, false);
}

// (pair attributes) => (template or element)
void ReadPairAttributes(const XmlElement& e, PairSpec* p) {
  ReadInt(e, "condim", &p->condim);
  ReadNumbers(e, "friction", p->friction, 5, false);
  ReadNumbers(e, "solref", p->solref, kNRef, false);
  ReadNumbers(e, "solimp", p->solimp, kNImp, false);
  ReadNumber(e, "margin", &p->margin);
  ReadNumber(e, "gap", &p->gap);
  ReadNumbers(e, "solreffriction", p->solreffriction, kNRef, false);  // 3.x
  ReadAdhesion(e, &p->adhesion);                                      // 3.x
}

// The element's file, line and name, kept for errors raised while compiling.
Source SourceOf(const XmlElement& e) { return Source{e.file, e.line, e.name}; }

// (top-level <default>) => (main class, new nested classes)
void ReadDefaultSection(const XmlElement& section, ModelSpec* spec) {
  if (section.Find(kAttachedDefault)) {  // an attached model's classes: a root of their own
    const std::string& name = *section.Find("class");
    if (FindClass(*spec, name) >= 0) {
      throw Error(section.Where("class"), "default class '" + name + "' is defined twice");
    }
    DefaultClass d;
    d.name = name;
    spec->defaults.push_back(d);
    const int index = static_cast<int>(spec->defaults.size()) - 1;
    ReadTemplates(section, index, spec);
    for (const XmlElement& c : section.children) {
      if (c.name == "default") ReadNestedDefault(c, index, spec);
    }
    return;
  }
  if (const std::string* name = section.Find("class")) {
    if (name->empty()) throw Error(section.Where("class"), "the class name is empty");
    spec->defaults[0].name = *name;
  }
  ReadTemplates(section, 0, spec);
  for (const XmlElement& c : section.children) {
    if (c.name == "default") ReadNestedDefault(c, 0, spec);
  }
}

// Linear search: models have few classes.
int FindClass(const ModelSpec& spec, const std::string& name) {
  for (std::size_t i = 0; i < spec.defaults.size(); ++i) {
    if (spec.defaults[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// (class attribute or inherited class) => (class index)
int ElementClass(const XmlElement& e, const ModelSpec& spec, int inherited) {
  const std::string* name = e.Find("class");
  if (!name) return inherited;
  const int index = FindClass(spec, *name);
  if (index < 0) throw Error(e.Where("class"), "undefined default class '" + *name + "'");
  return index;
}

}  // namespace gauss::mjcf
