// The MJCF schema of MuJoCo 2.2.2 plus the MuJoCo 3.x additions Gauss reads, as a tree of
// rules, and the walk that checks a document.
//
// Every element and attribute of the 2.2.2 format is listed, including those Gauss refuses
// later with "not supported yet" (replicate, flex, ...): the schema answers "is this
// MJCF?", the parsers answer "does Gauss implement it?". The 3.x additions (marked "3.x"
// below) are those of MuJoCo 3.12 that a rigid-body model uses, and the 3.x elements Gauss
// refuses as a whole (flex, plugins, ...), so that they get a "not supported yet" message
// instead of "unknown". Elements marked opaque are refused by the parser as a whole, so their
// contents are not checked here.
#include "mjcf/schema.h"

#include <initializer_list>
#include <string>
#include <vector>

namespace gauss::mjcf {
namespace {

using Names = std::vector<std::string>;

enum class Count { kAtMostOnce, kAny };

struct Rule {
  std::string name;
  Count count = Count::kAny;
  Names attributes;
  std::vector<Rule> children;
  bool recursive = false;  // may contain itself (body, default)
  bool opaque = false;     // contents unchecked: the parser refuses the whole element
};

// Rule builders: attribute lists, and elements allowed at most once / any number of times.
Names Cat(std::initializer_list<Names> parts) {
  Names out;
  for (const Names& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Rule One(const std::string& name, Names attributes, std::vector<Rule> children = {}) {
  return Rule{name, Count::kAtMostOnce, std::move(attributes), std::move(children)};
}
Rule Many(const std::string& name, Names attributes, std::vector<Rule> children = {}) {
  return Rule{name, Count::kAny, std::move(attributes), std::move(children)};
}

// ---------------------------------------------------------------- attribute groups
const Names kOrientation = {"quat", "axisangle", "xyaxes", "zaxis", "euler"};

const Names kJoint = {"type", "group", "pos", "axis", "springdamper", "limited", "solreflimit",
                      "solimplimit", "solreffriction", "solimpfriction", "stiffness", "range",
                      "margin", "ref", "springref", "armature", "damping", "frictionloss", "user",
                      // 3.x
                      "actuatorfrclimited", "actuatorfrcrange", "actuatorgravcomp"};
const Names kGeom = Cat({{"type", "pos", "contype", "conaffinity", "condim", "group", "priority",
                          "size", "material", "friction", "mass", "density", "shellinertia",
                          "solmix", "solref", "solimp", "margin", "gap", "fromto", "hfield",
                          "mesh", "fitscale", "rgba", "fluidshape", "fluidcoef", "user",
                          "surfacevel"},  // 3.x
                         kOrientation});
const Names kSite = Cat({{"type", "group", "pos", "material", "size", "fromto", "rgba", "user"},
                         kOrientation});
const Names kCamera = Cat({{"fovy", "ipd", "pos", "mode", "user",
                            // 3.x
                            "orthographic", "resolution", "focal", "focalpixel", "principal",
                            "principalpixel", "sensorsize"},
                           kOrientation});
const Names kLight = {"pos", "dir", "directional", "castshadow", "active", "attenuation",
                      "cutoff", "exponent", "ambient", "diffuse", "specular", "mode",
                      // 3.x
                      "type", "bulbradius", "intensity", "range", "texture"};
const Names kPair = {"condim", "friction", "solref", "solimp", "gap", "margin",
                     "solreffriction"};  // 3.x
const Names kEquality = {"active", "solref", "solimp"};
const Names kTendonFixed = {"group", "limited", "range", "solreflimit", "solimplimit",
                            "solreffriction", "solimpfriction", "frictionloss", "springlength",
                            "margin", "stiffness", "damping", "user",
                            // 3.x
                            "armature", "actuatorfrclimited", "actuatorfrcrange"};
const Names kTendonSpatialExtra = {"width", "material", "rgba"};
const Names kMaterial = {"texture", "emission", "specular", "shininess", "reflectance", "rgba",
                         "texrepeat", "texuniform", "metallic", "roughness"};  // 3.x: last two

// Actuator attributes shared by the default and the element forms.
const Names kActCommon = {"ctrllimited", "forcelimited", "ctrlrange", "forcerange", "gear",
                          "cranklength", "user", "group"};
const Names kActGeneral = Cat({kActCommon, {"actlimited", "actrange", "dyntype", "gaintype",
                                            "biastype", "dynprm", "gainprm", "biasprm",
                                            "actearly", "actdim"}});  // 3.x: last two
// 3.x: position servos take kv (a damping term), dampratio (the same as a damping ratio),
// timeconst (a first-order filter on the control) and inheritrange (ctrlrange from the
// joint or tendon range)
const Names kActPosition = Cat({kActCommon, {"kp", "kv", "dampratio", "timeconst",
                                             "inheritrange"}});
const Names kActIntvelocity = Cat({kActCommon, {"actrange", "kp", "kv", "dampratio",
                                                "inheritrange"}});
const Names kActDamper = {"forcelimited", "ctrlrange", "forcerange", "gear", "cranklength",
                          "user", "group", "kv"};
const Names kActCylinder = Cat({kActCommon, {"timeconst", "area", "diameter", "bias"}});
// (3.x tausmooth is an element attribute only: MuJoCo 3.12.1 refuses it in <default>)
const Names kActMuscle = Cat({kActCommon, {"timeconst", "range", "force", "scale", "lmin",
                                           "lmax", "vmax", "fpmax", "fvmax"}});
const Names kActAdhesion = {"forcelimited", "ctrlrange", "forcerange", "gain", "user", "group"};
// Element-only actuator attributes: identity and transmission target.
const Names kActTarget = {"name", "class", "lengthrange", "joint", "jointinparent", "tendon",
                          "slidersite", "cranksite", "site", "refsite"};

// ---------------------------------------------------------------- sections
Rule CompilerRule() {
  return Many("compiler",
              {"autolimits", "boundmass", "boundinertia", "settotalmass", "balanceinertia",
               "strippath", "coordinate", "angle", "fitaabb", "eulerseq", "meshdir",
               "texturedir", "discardvisual", "convexhull", "usethread", "fusestatic",
               "inertiafromgeom", "inertiagrouprange", "exactmeshinertia",
               // 3.x
               "assetdir", "alignfree", "saveinertial", "conflict"},
              {One("lengthrange", {"mode", "useexisting", "uselimit", "accel", "maxforce",
                                   "timeconst", "timestep", "inttotal", "inteval", "tolrange"})});
}

// One rule builder per top-level section, in the order of the MuJoCo schema.
Rule OptionRule() {
  return Many("option",
              {"timestep", "apirate", "impratio", "tolerance", "noslip_tolerance",
               "mpr_tolerance", "gravity", "wind", "magnetic", "density", "viscosity",
               "o_margin", "o_solref", "o_solimp", "integrator", "collision", "cone",
               "jacobian", "solver", "iterations", "noslip_iterations", "mpr_iterations",
               // 3.x
               "ls_tolerance", "ls_iterations", "ccd_tolerance", "ccd_iterations",
               "sleep_tolerance", "o_friction", "sdf_iterations", "sdf_initpoints",
               "actuatorgroupdisable"},
              {One("flag", {"constraint", "equality", "frictionloss", "limit", "contact",
                            "passive", "gravity", "clampctrl", "warmstart", "filterparent",
                            "actuation", "refsafe", "sensor", "override", "energy", "fwdinv",
                            "sensornoise", "multiccd",
                            // 3.x
                            "spring", "damper", "midphase", "eulerdamp", "autoreset",
                            "nativeccd", "island", "invdiscrete", "sleep",
                            // Gauss extensions (types.h, kEnableEqJdotv, kEnableRefsiteRot,
                            // kEnableBoxClip, kEnableMarginSum)
                            "eqjdotv", "refsiterot", "boxclip", "marginsum"})});
}

Rule SizeRule() {
  return Many("size", {"memory", "njmax", "nconmax", "nstack", "nuserdata", "nkey", "nuser_body",
                       "nuser_jnt", "nuser_geom", "nuser_site", "nuser_cam", "nuser_tendon",
                       "nuser_actuator", "nuser_sensor"});
}

Rule VisualRule() {
  return Many("visual", {},
              {One("global", {"fovy", "ipd", "azimuth", "elevation", "linewidth", "glow",
                              "offwidth", "offheight",
                              // 3.x
                              "realtime", "cameraid", "orthographic", "ellipsoidinertia",
                              "bvactive"}),
               One("quality", {"shadowsize", "offsamples", "numslices", "numstacks", "numquads"}),
               One("headlight", {"ambient", "diffuse", "specular", "active"}),
               One("map", {"stiffness", "stiffnessrot", "force", "torque", "alpha", "fogstart",
                           "fogend", "znear", "zfar", "haze", "shadowclip", "shadowscale",
                           "actuatortendon"}),
               One("scale", {"forcewidth", "contactwidth", "contactheight", "connect", "com",
                             "camera", "light", "selectpoint", "jointlength", "jointwidth",
                             "actuatorlength", "actuatorwidth", "framelength", "framewidth",
                             "constraint", "slidercrank", "frustum"}),  // 3.x: frustum
               One("rgba", {"fog", "haze", "force", "inertia", "joint", "actuator",
                            "actuatornegative", "actuatorpositive", "com", "camera", "light",
                            "selectpoint", "connect", "contactpoint", "contactforce",
                            "contactfriction", "contacttorque", "contactgap", "rangefinder",
                            "constraint", "slidercrank", "crankbroken",
                            "frustum", "bv", "bvactive"})});  // 3.x: last three
}

Rule DefaultRule() {
  Rule r = Many("default", {"class"},
                {One("mesh", {"scale", "maxhullvert", "inertia"}),  // 3.x: last two
                 One("material", kMaterial), One("joint", kJoint),
                 One("geom", kGeom), One("site", kSite), One("camera", kCamera),
                 One("light", kLight), One("pair", kPair), One("equality", kEquality),
                 One("tendon", Cat({kTendonFixed, kTendonSpatialExtra})),
                 One("general", kActGeneral), One("motor", kActCommon),
                 One("position", kActPosition),
                 One("velocity", Cat({kActCommon, {"kv"}})),
                 One("intvelocity", kActIntvelocity), One("damper", kActDamper),
                 One("cylinder", kActCylinder), One("muscle", kActMuscle),
                 One("adhesion", kActAdhesion)});
  r.recursive = true;
  return r;
}

Rule CustomRule() {
  Rule text = Many("text", {"name", "data"});
  Rule tuple = Many("tuple", {"name"}, {Many("element", {"objtype", "objname", "prm"})});
  return Many("custom", {}, {Many("numeric", {"name", "size", "data"}), text, tuple});
}

Rule AssetRule() {
  Rule skin = Many("skin", {"name", "file", "material", "rgba", "inflate", "vertex", "texcoord",
                            "face", "group"},
                    {Many("bone", {"body", "bindpos", "bindquat", "vertid", "vertweight"})});
  // elevation: MuJoCo 3.x's inline data (not in 2.2.2), accepted with 3.x's meaning
  Rule hfield = Many("hfield", {"name", "file", "nrow", "ncol", "size",
                                "content_type", "elevation"});  // 3.x: last two
  Rule model = Many("model", {"name", "file", "content_type"});  // 3.x, for <attach>
  model.opaque = true;  // refused by the parser ("not supported yet")
  return Many("asset",
              {},
              {Many("texture", {"name", "type", "file", "gridsize", "gridlayout", "fileright",
                                "fileleft", "fileup", "filedown", "filefront", "fileback",
                                "builtin", "rgb1", "rgb2", "mark", "markrgb", "random", "width",
                                "height", "hflip", "vflip",
                                // 3.x
                                "colorspace", "content_type", "nchannel"}),
               hfield,
               Many("mesh", {"name", "class", "file", "vertex", "normal", "texcoord", "face",
                             "refpos", "refquat", "scale", "smoothnormal",
                             // 3.x
                             "maxhullvert", "inertia", "builtin", "params", "material",
                             "content_type"}),
               skin, Many("material", Cat({{"name", "class"}, kMaterial})), model});
}

// <composite> and what configures the elements it generates (MuJoCo 2.2.2's lists).
Rule CompositeRule() {
  const Names solver = {"solreflimit", "solimplimit", "solreffriction", "solimpfriction"};
  const Names fix = {"kind", "solreffix", "solimpfix", "group", "stiffness", "damping",
                     "limited", "range", "margin", "frictionloss"};
  return Many("composite", {"prefix", "type", "count", "spacing", "offset", "flatinertia",
                            "solrefsmooth", "solimpsmooth",
                            // 3.x (cable): refused by the parser
                            "vertex", "initial", "curve", "size", "quat"},
              {Many("joint", Cat({fix, solver, {"armature"}})),
               Many("tendon", Cat({fix, solver, {"material", "rgba", "width"}})),
               One("skin", {"texcoord", "material", "group", "rgba", "inflate", "subgrid"}),
               One("geom", {"type", "contype", "conaffinity", "condim", "group", "priority",
                            "size", "material", "rgba", "friction", "mass", "density", "solmix",
                            "solref", "solimp", "margin", "gap"}),
               One("site", {"group", "size", "material", "rgba"}),
               Many("pin", {"coord"})});
}

// What a body, a <frame> and a <replicate> may contain besides bodies.
std::vector<Rule> BodyChildren() {
  Rule composite = CompositeRule();
  // 3.x elements refused as a whole ("not supported yet"): their contents are not checked
  Rule flexcomp = Many("flexcomp", {});
  Rule plugin = Many("plugin", {"plugin", "instance"});
  Rule attach = Many("attach", {"model", "body", "frame", "prefix"});
  for (Rule* r : {&flexcomp, &plugin, &attach}) r->opaque = true;
  flexcomp.attributes = {"name", "type", "group", "dim", "dof", "count", "spacing", "radius",
                         "rigid", "mass", "inertiabox", "scale", "file", "point", "element",
                         "texcoord", "material", "rgba", "flatskin", "pos", "quat", "axisangle",
                         "xyaxes", "zaxis", "euler", "origin"};
  return {One("inertial", Cat({{"pos", "mass", "diaginertia", "fullinertia"}, kOrientation})),
          Many("joint", Cat({{"name", "class"}, kJoint})),
          Many("freejoint", {"name", "group", "align"}),  // 3.x: align
          Many("geom", Cat({{"name", "class"}, kGeom})),
          Many("site", Cat({{"name", "class"}, kSite})),
          Many("camera", Cat({{"name", "class", "target"}, kCamera})),
          Many("light", Cat({{"name", "class", "target"}, kLight})),
          composite, flexcomp, plugin, attach};
}

Rule BodyRule() {
  Rule body = Many("body", Cat({{"name", "childclass", "pos", "mocap", "user",
                                 "gravcomp", "sleep"},  // 3.x: last two
                                kOrientation}),
                   BodyChildren());
  body.recursive = true;
  return body;
}

Rule WorldbodyRule() {
  // The world body shares the body's children but takes no attributes (MuJoCo: "World body
  // cannot have attributes"); joints and inertial are refused by the parser with a clear reason.
  Rule world = BodyRule();
  world.name = "worldbody";
  world.attributes.clear();
  world.recursive = false;
  world.children.push_back(BodyRule());
  return world;
}

// 3.x <frame> (a pose and a childclass for what it contains) and <replicate> (copies of its
// contents along a pattern) hold what a body holds, bodies included; as in MuJoCo they are
// checked against the body's rule, with their own attributes.
const Rule& GroupingRule(const std::string& name) {
  static const Rule frame = [] {
    Rule r = BodyRule();
    r.name = "frame";
    r.attributes = Cat({{"name", "childclass", "pos"}, kOrientation});
    r.children.push_back(BodyRule());
    return r;
  }();
  static const Rule replicate = [] {
    Rule r = BodyRule();
    r.name = "replicate";
    r.attributes = {"count", "offset", "euler", "sep"};
    r.children.push_back(BodyRule());
    return r;
  }();
  return name == "frame" ? frame : replicate;
}

bool HoldsBodies(const std::string& name) {
  return name == "body" || name == "worldbody" || name == "frame" || name == "replicate";
}

Rule ContactRule() {
  return Many("contact", {},
              {Many("pair", Cat({{"name", "class", "geom1", "geom2"}, kPair})),
               Many("exclude", {"name", "body1", "body2"})});
}

Rule EqualityRule() {
  const Names base = Cat({{"name", "class"}, kEquality});
  // 3.x, refused with the deformables
  std::vector<Rule> flex = {Many("flex", Cat({base, {"flex"}})),
                            Many("flexvert", Cat({base, {"flex"}})),
                            Many("flexstrain", Cat({base, {"flex", "cell"}}))};
  for (Rule& r : flex) r.opaque = true;
  return Many("equality", {},
              {Many("connect", Cat({base, {"body1", "body2", "anchor",
                                           "site1", "site2"}})),  // 3.x: sites
               Many("weld", Cat({base, {"body1", "body2", "relpose", "anchor", "torquescale",
                                        "site1", "site2"}})),  // 3.x: sites
               Many("joint", Cat({base, {"joint1", "joint2", "polycoef"}})),
               Many("tendon", Cat({base, {"tendon1", "tendon2", "polycoef"}})),
               Many("distance", Cat({base, {"geom1", "geom2", "distance"}})), flex[0],
               flex[1], flex[2]});
}

Rule TendonRule() {
  return Many("tendon", {},
              {Many("spatial", Cat({{"name", "class"}, kTendonFixed, kTendonSpatialExtra}),
                    {Many("site", {"site"}), Many("geom", {"geom", "sidesite"}),
                     Many("pulley", {"divisor"})}),
               Many("fixed", Cat({{"name", "class"}, kTendonFixed}),
                    {Many("joint", {"joint", "coef"})})});
}

Rule ActuatorRule() {
  Rule plugin = Many("plugin", {});  // 3.x, refused as a whole
  plugin.opaque = true;
  plugin.attributes = Cat({kActTarget, kActGeneral, {"plugin", "instance", "actdim"}});
  return Many("actuator", {},
              {Many("general", Cat({kActTarget, kActGeneral, {"body"}})),
               Many("motor", Cat({kActTarget, kActCommon})),
               Many("position", Cat({kActTarget, kActPosition})),
               Many("velocity", Cat({kActTarget, kActCommon, {"kv"}})),
               Many("intvelocity", Cat({kActTarget, kActIntvelocity})),
               Many("damper", Cat({kActTarget, kActDamper})),
               Many("cylinder", Cat({kActTarget, kActCylinder})),
               Many("muscle", Cat({{"name", "class", "lengthrange", "joint", "jointinparent",
                                    "tendon", "slidersite", "cranksite", "tausmooth"},
                                   kActMuscle})),
               Many("adhesion", Cat({{"name", "class", "body"}, kActAdhesion})),
               plugin});
}

Rule SensorRule() {
  const Names noise = {"name", "cutoff", "noise", "user"};
  const Names frame = Cat({noise, {"objtype", "objname", "reftype", "refname"}});
  std::vector<Rule> sensors;
  for (const char* s : {"touch", "accelerometer", "velocimeter", "gyro", "force", "torque",
                        "magnetometer", "rangefinder"}) {
    sensors.push_back(Many(s, Cat({noise, {"site"}})));
  }
  for (const char* s : {"jointpos", "jointvel", "ballquat", "ballangvel", "jointlimitpos",
                        "jointlimitvel", "jointlimitfrc", "jointactuatorfrc"}) {  // 3.x: last
    sensors.push_back(Many(s, Cat({noise, {"joint"}})));
  }
  for (const char* s : {"tendonpos", "tendonvel", "tendonlimitpos", "tendonlimitvel",
                        "tendonlimitfrc"}) {
    sensors.push_back(Many(s, Cat({noise, {"tendon"}})));
  }
  for (const char* s : {"actuatorpos", "actuatorvel", "actuatorfrc"}) {
    sensors.push_back(Many(s, Cat({noise, {"actuator"}})));
  }
  for (const char* s : {"framepos", "framequat", "framexaxis", "frameyaxis", "framezaxis",
                        "framelinvel", "frameangvel"}) {
    sensors.push_back(Many(s, frame));
  }
  for (const char* s : {"framelinacc", "frameangacc"}) {
    sensors.push_back(Many(s, Cat({noise, {"objtype", "objname"}})));
  }
  for (const char* s : {"subtreecom", "subtreelinvel", "subtreeangmom"}) {
    sensors.push_back(Many(s, Cat({noise, {"body"}})));
  }
  sensors.push_back(Many("clock", noise));
  sensors.push_back(Many("user", Cat({noise, {"objtype", "objname", "datatype", "needstage",
                                              "dim"}})));
  // 3.x sensors (sensors3.cc), and plugin sensors (parse_plugins.cc; dim, needstage and
  // datatype are Gauss's: MuJoCo asks the plugin)
  sensors.push_back(Many("tendonactuatorfrc", Cat({noise, {"tendon"}})));
  sensors.push_back(Many("e_potential", noise));
  sensors.push_back(Many("e_kinetic", noise));
  sensors.push_back(Many("insidesite", Cat({noise, {"site", "objtype", "objname"}})));
  sensors.push_back(Many("plugin", Cat({noise, {"plugin", "instance", "objtype", "objname",
                                                "reftype", "refname", "dim", "needstage",
                                                "datatype"}}),
                         {Many("config", {"key", "value"})}));
  // 3.x contact sensor (parse_elements.cc, plugins/sensors/builtin/contact_sensor.cc)
  const Names pair = Cat({noise, {"geom1", "geom2", "body1", "body2"}});
  sensors.push_back(
      Many("contact", Cat({pair, {"subtree1", "subtree2", "site", "num", "data", "reduce"}})));
  // 3.x collision sensors (parse_elements.cc, core/src/geom_distance.cc)
  for (const char* name : {"distance", "normal", "fromto"}) sensors.push_back(Many(name, pair));
  // 3.x sensors refused by the parser ("not supported yet")
  const std::vector<std::pair<const char*, Names>> newer = {
      {"camprojection", Cat({noise, {"site", "camera"}})}};
  for (const auto& [name, attributes] : newer) {
    Rule r = Many(name, attributes);
    r.opaque = true;
    sensors.push_back(r);
  }
  return Many("sensor", {}, sensors);
}

Rule KeyframeRule() {
  return Many("keyframe", {},
              {Many("key", {"name", "time", "qpos", "qvel", "act", "mpos", "mquat", "ctrl"})});
}

// A 3.x section refused by the parser as a whole.
Rule Opaque(const std::string& name) {
  Rule r = Many(name, {});
  r.opaque = true;
  return r;
}

const Rule& RootRule() {
  static const Rule root = One(
      "mujoco", {"model"},
      {CompilerRule(), OptionRule(), SizeRule(), VisualRule(),
       Many("statistic", {"meaninertia", "meanmass", "meansize", "extent", "center"}),
       DefaultRule(), CustomRule(), AssetRule(), WorldbodyRule(), ContactRule(), EqualityRule(),
       TendonRule(), ActuatorRule(), SensorRule(), KeyframeRule(),
       // 3.x sections refused as a whole ("not supported yet")
       Many("extension", {},
            {Many("plugin", {"plugin"},
                  {Many("instance", {"name"}, {Many("config", {"key", "value"})})})}),
       Opaque("deformable")});
  return root;
}

// "a, b, c" for messages.
std::string List(const Names& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out.empty() ? "(none)" : out;
}

// Checks one element against its rule, then its children recursively.
// (element, rule) => () ; throws on the first violation
void Check(const XmlElement& e, const Rule& rule) {
  for (const XmlAttribute& a : e.attributes) {
    bool known = false;
    for (const std::string& n : rule.attributes) known = known || n == a.name;
    if (!known) {
      throw Error(e.Where(a.name), "unknown attribute; <" + e.name +
                                       "> accepts: " + List(rule.attributes));
    }
  }
  if (rule.opaque) return;

  std::vector<int> seen(rule.children.size(), 0);
  for (const XmlElement& c : e.children) {
    const Rule* match = nullptr;
    for (std::size_t i = 0; i < rule.children.size(); ++i) {
      if (rule.children[i].name == c.name) {
        match = &rule.children[i];
        if (++seen[i] > 1 && match->count == Count::kAtMostOnce) {
          throw Error(c.Where(),
                      "<" + c.name + "> may appear at most once inside <" + e.name + ">");
        }
        break;
      }
    }
    if (!match && rule.recursive && c.name == rule.name) match = &rule;
    if (!match && HoldsBodies(rule.name) && (c.name == "frame" || c.name == "replicate")) {
      match = &GroupingRule(c.name);
    }
    if (!match) {
      Names allowed;
      for (const Rule& r : rule.children) allowed.push_back(r.name);
      if (rule.recursive) allowed.push_back(rule.name);
      if (HoldsBodies(rule.name)) allowed.insert(allowed.end(), {"frame", "replicate"});
      throw Error(c.Where(), "unknown element <" + c.name + "> inside <" + e.name +
                                 ">; allowed here: " + List(allowed));
    }
    Check(c, *match);
  }
}

// (rule, its path) => out += one entry per attribute of the rule and its descendants; a
// recursive rule is walked once.
void CollectAttributes(const Rule& rule, const std::string& path, bool inside_refused,
                       std::vector<SchemaAttribute>* out) {
  const std::string here = path.empty() ? rule.name : path + "/" + rule.name;
  const bool refused = inside_refused || rule.opaque;
  for (const std::string& a : rule.attributes) out->push_back({here, a, refused});
  for (const Rule& c : rule.children) CollectAttributes(c, here, refused, out);
}

}  // namespace

// (document) => () ; throws on the first violation
void ValidateSchema(const XmlElement& root) { Check(root, RootRule()); }

std::vector<SchemaAttribute> SchemaAttributes() {
  std::vector<SchemaAttribute> out;
  CollectAttributes(RootRule(), "", false, &out);
  return out;
}

}  // namespace gauss::mjcf
