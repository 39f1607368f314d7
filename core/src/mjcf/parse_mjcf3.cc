// The MuJoCo 3.x additions to <option>, <flag> and <size>, and the checks of 3.x element
// attributes whose semantics Gauss does not have yet (refused with "not supported yet" when
// they would change the physics; accepted when they keep MuJoCo 2.2.2's behaviour).
// docs/mjcf.md, "MuJoCo 3.x", lists each attribute with what Gauss does with it.
#include <cctype>
#include <cmath>
#include <limits>
#include <set>

#include "mjcf/attributes.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

// The value of a written `flag` keyword: 1 enable, 0 disable, -1 not written.
int FlagValue(const XmlElement& flag, const char* name) {
  int k = 0;
  if (!ReadKeyword(flag, name, {"disable", "enable"}, &k)) return -1;
  return k;
}

// Elements, and element/attribute pairs, that exist only in MuJoCo 3.x (not in 2.2.2).
const std::set<std::string> kMjcf3Elements = {
    "frame", "replicate", "attach", "plugin", "extension", "deformable", "flexcomp", "model",
    "flexvert", "flexstrain", "camprojection", "jointactuatorfrc", "tendonactuatorfrc",
    "distance", "normal", "fromto", "e_potential", "e_kinetic", "insidesite"};
const std::set<std::string> kMjcf3Attributes = {
    "compiler/assetdir", "compiler/alignfree", "compiler/saveinertial",
    "option/ls_tolerance", "option/ls_iterations", "option/ccd_tolerance",
    "option/ccd_iterations", "option/sleep_tolerance", "option/o_friction",
    "option/sdf_iterations", "option/sdf_initpoints", "option/actuatorgroupdisable",
    "flag/spring", "flag/damper", "flag/midphase", "flag/eulerdamp", "flag/autoreset",
    "flag/nativeccd", "flag/island", "flag/invdiscrete", "flag/sleep", "size/memory",
    "global/realtime", "global/cameraid", "global/orthographic", "global/ellipsoidinertia",
    "global/bvactive", "scale/frustum", "rgba/frustum", "rgba/bv", "rgba/bvactive",
    "material/metallic", "material/roughness", "texture/colorspace", "texture/nchannel",
    "texture/content_type", "mesh/maxhullvert", "mesh/inertia", "mesh/builtin", "mesh/params",
    "mesh/material", "mesh/content_type", "hfield/elevation", "hfield/content_type",
    "body/gravcomp", "body/sleep", "freejoint/align", "joint/actuatorfrclimited",
    "joint/actuatorfrcrange", "joint/actuatorgravcomp", "geom/surfacevel", "light/type",
    "light/bulbradius", "light/intensity", "light/range", "camera/orthographic",
    "camera/resolution", "camera/focal", "camera/focalpixel", "camera/principal",
    "camera/principalpixel", "camera/sensorsize", "pair/solreffriction", "connect/site1",
    "connect/site2", "weld/site1", "weld/site2", "spatial/armature", "fixed/armature",
    "tendon/armature", "spatial/actuatorfrcrange", "fixed/actuatorfrcrange",
    "tendon/actuatorfrcrange", "spatial/actuatorfrclimited", "fixed/actuatorfrclimited",
    "tendon/actuatorfrclimited", "general/actearly", "general/actdim", "position/kv",
    "position/dampratio", "position/timeconst", "position/inheritrange", "intvelocity/kv",
    "intvelocity/dampratio", "intvelocity/inheritrange", "muscle/tausmooth"};

// (<option actuatorgroupdisable>) => (opt.disableactuator): a list of actuator groups, each an
// integer 0..30 (MuJoCo 3.12.1's rule; a blank list disables none)
void ReadActuatorGroupDisable(const XmlElement& e, Options* o) {
  const char* attr = "actuatorgroupdisable";
  std::string text;
  if (!ReadString(e, attr, &text)) return;
  o->disableactuator = 0;
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return;
  std::vector<double> groups;
  ReadNumberList(e, attr, &groups);
  for (const double g : groups) {
    if (g != std::floor(g) || g < 0 || g > 30) {
      throw Error(e.Where(attr),
                  "expected actuator groups, integers from 0 to 30; found '" + text + "'");
    }
    o->disableactuator |= 1u << static_cast<int>(g);
  }
}

// How many whitespace-separated words `text` holds.
int NumberCount(const std::string& text) {
  int n = 0;
  bool in_word = false;
  for (const char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (!space && !in_word) ++n;
    in_word = !space;
  }
  return n;
}

}  // namespace

// (document) => does it use an element, attribute or keyword that only MuJoCo 3.x has?
bool UsesMjcf3(const XmlElement& e) {
  if (kMjcf3Elements.count(e.name)) return true;
  for (const XmlAttribute& a : e.attributes) {
    if (kMjcf3Attributes.count(e.name + "/" + a.name)) return true;
    if (e.name == "option" && a.name == "integrator" && a.value == "implicitfast") return true;
    if (a.name == "springlength" && NumberCount(a.value) == 2) return true;  // a dead band
  }
  for (const XmlElement& c : e.children) {
    if (UsesMjcf3(c)) return true;
  }
  return false;
}

// (options) => (options): where MuJoCo 3.x and 2.2.2 compute different things for one file,
// Gauss follows the version the file is written for; the file's own <flag> still decides.
// 3.x solves each constraint island on its own (2.2.2 has no islands; docs/islands.md) and adds
// the velocity term to connect/weld constraints with its weld conventions (kEnableEqJdotv,
// docs/mjcf.md), turns a refsite's reference frame in its moment (kEnableRefsiteRot), computes
// box-box contacts by face clipping (kEnableBoxClip) and sums geom margins and gaps, the gap
// widening detection (kEnableMarginSum). Mesh inertia, the other such default, is decided at
// compile time (compile_mesh.cc, from ModelSpec::mjcf3).
void ApplyMjcf3Defaults(Options* o) {
  o->enableflags |=
      kEnableIsland | kEnableEqJdotv | kEnableRefsiteRot | kEnableBoxClip | kEnableMarginSum;
}

// (<option>) => (options): the 3.x attributes
void ReadOption3x(const XmlElement& e, Options* o) {
  // the 3.x names of mpr_tolerance / mpr_iterations (Gauss keeps 2.2.2's defaults, 1e-6 and
  // 50; 3.x lowered the iteration default to 35, which matters only to libccd collisions)
  ReadNumber(e, "ccd_tolerance", &o->ccd_tolerance);
  ReadInt(e, "ccd_iterations", &o->ccd_iterations);
  // Gauss's line search (Newton, CG) is exact to round-off: the 3.x early stop is not used
  double ls_tolerance = 0.01;
  int ls_iterations = 50;
  if (ReadNumber(e, "ls_tolerance", &ls_tolerance) && !(ls_tolerance >= 0)) {
    throw Error(e.Where("ls_tolerance"), "must not be negative");
  }
  if (ReadInt(e, "ls_iterations", &ls_iterations) && ls_iterations < 0) {
    throw Error(e.Where("ls_iterations"), "must not be negative");
  }
  int sdf = 0;  // SDF collisions need plugins, which are refused
  ReadInt(e, "sdf_iterations", &sdf);
  ReadInt(e, "sdf_initpoints", &sdf);
  ReadActuatorGroupDisable(e, o);
  // o_friction is the 3.x override of contact friction: it acts only with <flag
  // override="enable">, where Gauss overrides margin, solref and solimp as 2.2.2 does
  double o_friction[5];
  if (ReadNumbers(e, "o_friction", o_friction, 5, false)) {
    for (const XmlElement& flag : e.children) {
      if (FlagValue(flag, "override") == 1) {
        NotSupported(e, "o_friction with the override flag (friction override)", "o_friction");
      }
    }
  }
}

// (<flag>) => (options): the 3.x flags
void ReadFlags3x(const XmlElement& flag, Options* o) {
  // 3.x splits 2.2.2's passive flag into spring and damper
  const int spring = FlagValue(flag, "spring"), damper = FlagValue(flag, "damper");
  if (spring == 0 && damper == 0) {
    o->disableflags |= kDisablePassive;
  } else if (spring == 0 || damper == 0) {
    NotSupported(flag, "disabling only one of spring and damper (Gauss disables the passive "
                       "forces as a whole: write both)",
                 spring == 0 ? "spring" : "damper");
  }
  // no effect on what Gauss computes: the broad phase finds the same pairs either way, and
  // Gauss's convex collisions are always its MPR/libccd-style ones (3.x: nativeccd=disable)
  FlagValue(flag, "midphase");
  FlagValue(flag, "nativeccd");
  // eulerdamp and autoreset are disable flags of their own (kDisableEulerdamp,
  // kDisableAutoreset), read with the 2.2.2 ones
  if (FlagValue(flag, "invdiscrete") == 1) {
    NotSupported(flag, "invdiscrete (discrete-time inverse dynamics)", "invdiscrete");
  }
}

// (<size memory>) => (spec size): bytes, with an optional K M G T P E suffix, or -1
void ReadMemorySize(const XmlElement& e, SizeSpec* s) {
  std::string text;
  if (!ReadString(e, "memory", &text)) return;
  for (const char* other : {"njmax", "nstack"}) {
    if (e.Find(other)) {
      throw Error(e.Where(other), "memory and " + std::string(other) +
                                      " cannot both be written (MuJoCo 3.x)");
    }
  }
  const std::size_t first = text.find_first_not_of(" \t\n");
  const std::size_t last = text.find_last_not_of(" \t\n");
  const std::string v = first == std::string::npos ? "" : text.substr(first, last - first + 1);
  if (v == "-1") return;
  std::size_t digits = 0;
  while (digits < v.size() && std::isdigit(static_cast<unsigned char>(v[digits]))) ++digits;
  const std::string suffixes = "KMGTPE";
  const bool suffix = digits + 1 == v.size() &&
                      suffixes.find(static_cast<char>(std::toupper(v.back()))) != std::string::npos;
  if (digits == 0 || (digits != v.size() && !suffix) || digits > 18) {
    throw Error(e.Where("memory"), "expected a number of bytes with an optional suffix K, M, "
                                   "G, T, P or E (e.g. 10M), or -1; found '" + text + "'");
  }
  double bytes = std::stod(v.substr(0, digits));
  if (suffix) {
    bytes *= std::pow(1024.0, 1 + suffixes.find(static_cast<char>(std::toupper(v.back()))));
  }
  s->memory = bytes;
}

// (actuator element after its class) => ()
void CheckActuator3x(const XmlElement& e, const ActuatorSpec& a) {
  if (a.actdim >= 0 && a.actdim != (a.dyntype == DynType::kNone ? 0 : 1)) {
    NotSupported(e, "actdim other than the dynamics' own (0 stateless, 1 stateful)", "actdim");
  }
}

}  // namespace gauss::mjcf
