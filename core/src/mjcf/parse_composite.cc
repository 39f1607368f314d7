// Reading <composite> into a CompositeSpec, with the type's own defaults and MuJoCo 2.2.2's
// checks (measured against it):
//  - Its elements start from the built-in defaults, never from a default class (a
//    <default><geom friction=...> does not reach composite geoms).
//  - Generated joints, geoms, sites and tendons are in group 3; geoms and tendons in group 0
//    unless a skin draws the object (particle, rope, loop and 1D grids: always group 0).
//  - particle: geoms without friction (condim 1) and priority 1; grid: hard tendon fix
//    constraints; loop: hard closing constraint; box, cylinder, ellipsoid: no self-collision
//    (contype 0), soft smoothing and fix constraints, a hard volume (tendon) constraint.
//  - Attributes on <joint>/<tendon> overwrite these; solreffix/solimpfix set the kind's fix
//    constraint; solrefsmooth/solimpsmooth the smoothing or closing ones.
//  - MuJoCo 2.2.2 reads a composite joint's or tendon's `limited` from the <composite> element
//    itself, so it is never set there; Gauss reads it where it is written.
#include <algorithm>
#include <cstdlib>

#include "mjcf/attributes.h"
#include "mjcf/composite.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

// Solver parameters MuJoCo uses for the generated constraints: level 0 hard, level 1 soft.
void Soften(EqualitySpec* q, int level) {
  q->solref[0] = level == 0 ? 0.01 : 0.02;
  q->solimp[0] = q->solimp[1] = level == 0 ? 0.99 : 0.9;
}

// The type-dependent defaults, once type, count and skin are known. (composite) => (templates)
void SetTypeDefaults(CompositeSpec* c) {
  int dim = 0;
  for (int n : c->count) dim += n > 1;
  for (int k = 0; k < kNumKinds; ++k) {
    c->joint[k].group = 3;
    c->tendon[k].group = 3;
  }
  c->geom.group = 3;
  c->site.group = 3;
  const CompositeType t = c->type;
  if (!c->skin || t == CompositeType::kParticle || t == CompositeType::kRope ||
      t == CompositeType::kLoop || (t == CompositeType::kGrid && dim == 1)) {
    c->geom.group = 0;
    for (TendonSpec& ten : c->tendon) ten.group = 0;
  }
  EqualitySpec smooth;
  switch (t) {
    case CompositeType::kParticle:
      c->geom.condim = 1;
      c->geom.priority = 1;
      break;
    case CompositeType::kGrid:
      Soften(&c->fix[kKindTendon], 0);
      break;
    case CompositeType::kLoop:
      Soften(&smooth, 0);
      break;
    case CompositeType::kBox:
    case CompositeType::kCylinder:
    case CompositeType::kEllipsoid:
      c->geom.contype = 0;
      Soften(&smooth, 1);
      for (EqualitySpec& q : c->fix) Soften(&q, 1);
      Soften(&c->fix[kKindTendon], 0);
      break;
    default:
      break;
  }
  std::copy(smooth.solref, smooth.solref + kNRef, c->solrefsmooth);
  std::copy(smooth.solimp, smooth.solimp + kNImp, c->solimpsmooth);
}

// The attributes of <composite> itself. (element) => (composite)
void ReadCompositeAttributes(const XmlElement& e, const ModelSpec& spec, CompositeSpec* c) {
  for (const char* a : {"vertex", "initial", "curve", "size", "quat"}) {
    if (e.Find(a)) NotSupported(e, std::string("composite ") + a + " (MuJoCo 3.x cable)", a);
  }
  if (spec.compiler.global) {
    throw Error(e.Where(), "a composite needs local coordinates (compiler coordinate=\"local\")");
  }
  ReadString(e, "prefix", &c->prefix);
  RequireAttribute(e, "type");
  const std::string& type = *e.Find("type");
  if (type == "cable") NotSupported(e, "composite type=\"cable\" (MuJoCo 3.x)", "type");
  int t = 0;
  ReadKeyword(e, "type",
              {"particle", "grid", "rope", "loop", "cloth", "box", "cylinder", "ellipsoid"}, &t);
  c->type = static_cast<CompositeType>(t);
  RequireAttribute(e, "count");
  ReadInts(e, "count", c->count, 3, false);
  RequireAttribute(e, "spacing");
  ReadNumber(e, "spacing", &c->spacing);
  ReadNumbers(e, "offset", c->offset, 3);
  ReadNumber(e, "flatinertia", &c->flatinertia);
}

// <joint kind>, <tendon kind>, <pin>, <geom>, <site> (the skin is read first). => (composite)
void ReadCompositeChildren(const XmlElement& e, CompositeSpec* c) {
  for (const XmlElement& k : e.children) {
    if (k.name == "geom") {
      ReadGeomAttributes(k, &c->geom);
    } else if (k.name == "site") {
      ReadSiteAttributes(k, &c->site);
    } else if (k.name == "joint" || k.name == "tendon") {
      RequireAttribute(k, "kind");
      int kind = 0;
      if (k.name == "joint") {
        ReadKeyword(k, "kind", {"main", "twist", "stretch"}, &kind);
        ReadJointAttributes(k, &c->joint[kind]);
      } else {
        ReadKeyword(k, "kind", {"main", "shear"}, &kind);
        kind += kKindTendon;
        ReadTendonAttributes(k, &c->tendon[kind]);
      }
      c->add[kind] = true;
      ReadNumbers(k, "solreffix", c->fix[kind].solref, kNRef, false);
      ReadNumbers(k, "solimpfix", c->fix[kind].solimp, kNImp, false);
    } else if (k.name == "pin") {
      RequireAttribute(k, "coord");
      int coord[2] = {0, 0};
      ReadInts(k, "coord", coord, 2, false);
      c->pins.push_back(coord[0]);
      c->pins.push_back(coord[1]);
    }
  }
}

// The <skin> child, read before the type defaults (which depend on it). => (composite skin)
void ReadSkinChild(const XmlElement& e, CompositeSpec* c) {
  for (const XmlElement& k : e.children) {
    if (k.name != "skin") continue;
    c->skin = true;
    bool texcoord = false;  // texture coordinates are not compiled (visual only)
    ReadBool(k, "texcoord", &texcoord);
    ReadString(k, "material", &c->skin_material);
    ReadNumbers(k, "rgba", c->skin_rgba, 4);
    ReadNumber(k, "inflate", &c->skin_inflate);
    ReadInt(k, "subgrid", &c->skin_subgrid);
    if (ReadInt(k, "group", &c->skin_group) && (c->skin_group < 0 || c->skin_group > 5)) {
      throw Error(k.Where("group"), "skin group must be between 0 and 5");
    }
  }
}

// The number after "<prefix>B" in the name of the body that holds a rope, loop or cloth; `two`
// reads "x_y". Returns false when the name does not have that form.
bool RootCoordinates(const std::string& name, const std::string& prefix, bool two, int* x,
                     int* y) {
  const std::string lead = prefix + "B";
  if (name.compare(0, lead.size(), lead) != 0) return false;
  const char* s = name.c_str() + lead.size();
  char* end = nullptr;
  *x = static_cast<int>(std::strtol(s, &end, 10));
  if (end == s) return false;
  if (!two) return true;
  if (*end != '_') return false;
  s = end + 1;
  *y = static_cast<int>(std::strtol(s, &end, 10));
  return end != s;
}

// MuJoCo 2.2.2's checks of a composite before expansion. (element, composite, holder) => ()
void CheckComposite(const XmlElement& e, const BodySpec& body, CompositeSpec* c) {
  const GeomType g = c->geom.type;
  if (g != GeomType::kSphere && g != GeomType::kCapsule && g != GeomType::kEllipsoid) {
    throw Error(e.Where(), "composite geom type must be sphere, capsule or ellipsoid");
  }
  for (int i = 0; i < 3; ++i) {
    if (c->count[i] < 1) throw Error(e.Where("count"), "composite counts must be positive");
  }
  // far beyond any model MuJoCo simulates, but bounded so that a typo is an error, not an
  // exhausted memory
  constexpr long long kMaxPoints = 1000000;
  const long long points = 1LL * c->count[0] * c->count[1] * c->count[2];
  if (points > kMaxPoints) {
    throw Error(e.Where("count"), "a composite of " + std::to_string(points) +
                                      " grid points; at most " + std::to_string(kMaxPoints));
  }
  if (c->skin && c->skin_subgrid > 0) {
    const long long side = static_cast<long long>(c->skin_subgrid) + 1;
    const long long n0 = (c->count[0] - 1) * side + 1, n1 = (c->count[1] - 1) * side + 1;
    if (c->skin_subgrid > 1000 || n0 * n1 > 10 * kMaxPoints) {
      throw Error(e.Where(), "a composite skin subgrid of " + std::to_string(c->skin_subgrid) +
                                 " makes too many vertices (at most " +
                                 std::to_string(10 * kMaxPoints) + " per side)");
    }
  }
  if (c->spacing < 1e-15) throw Error(e.Where("spacing"), "composite spacing must be positive");
  bool singleton = false;
  for (int i = 0; i < 3; ++i) {
    if (c->count[i] == 1) {
      singleton = true;
    } else {
      ++c->dim;
      if (singleton) {
        throw Error(e.Where("count"), "composite counts equal to 1 must come last");
      }
    }
  }
  if (c->skin && c->skin_subgrid > 0 && (c->count[0] < 3 || c->count[1] < 3)) {
    throw Error(e.Where("count"), "a composite skin with subgrid needs at least 3x3 bodies");
  }
  const std::string type = *e.Find("type");
  auto need_dim = [&](bool ok, const std::string& what) {
    if (!ok) throw Error(e.Where("count"), "composite type \"" + type + "\" must be " + what);
  };
  int x = 0, y = 0;
  switch (c->type) {
    case CompositeType::kGrid:
      need_dim(c->dim <= 2, "1D or 2D");
      if (c->add[kKindShear] && c->dim != 2) {
        throw Error(e.Where(), "composite shear tendons need a 2D grid");
      }
      if (c->skin && c->dim != 2) throw Error(e.Where(), "a composite skin needs a 2D grid");
      break;
    case CompositeType::kRope:
    case CompositeType::kLoop:
    case CompositeType::kCloth: {
      const bool cloth = c->type == CompositeType::kCloth;
      need_dim(c->dim == (cloth ? 2 : 1), cloth ? "two-dimensional" : "one-dimensional");
      const std::string form = c->prefix + (cloth ? "B<x>_<y>" : "B<x>");
      if (!RootCoordinates(body.name, c->prefix, cloth, &x, &y)) {
        throw Error(e.Where(), "the body holding a " + type + " composite must be named " + form +
                                   " (the grid point it is), not '" + body.name + "'");
      }
      if (x < 0 || x >= c->count[0] || (cloth && (y < 0 || y >= c->count[1]))) {
        throw Error(e.Where(), "body '" + body.name + "' names a grid point outside the " +
                                   type + " composite's count");
      }
      break;
    }
    case CompositeType::kBox:
    case CompositeType::kCylinder:
    case CompositeType::kEllipsoid:
      need_dim(c->dim == 3, "three-dimensional");
      break;
    default:
      break;
  }
}

}  // namespace

// (prefix, letter, coordinates) => "<prefix><letter><i>_<j>..."
std::string CompositeName(const CompositeSpec& c, const char* letter,
                          std::initializer_list<int> ix) {
  std::string s = c.prefix + letter;
  bool first = true;
  for (int i : ix) {
    s += (first ? "" : "_") + std::to_string(i);
    first = false;
  }
  return s;
}

// (<composite> element inside `body`) => (body, spec)
void ReadComposite(const XmlElement& e, ModelSpec* spec, BodySpec* body) {
  CompositeSpec c;
  c.src = SourceOf(e);
  c.neighbour = spec->defaults[0].equality;
  ReadCompositeAttributes(e, *spec, &c);
  ReadSkinChild(e, &c);
  SetTypeDefaults(&c);
  ReadNumbers(e, "solrefsmooth", c.solrefsmooth, kNRef, false);
  ReadNumbers(e, "solimpsmooth", c.solimpsmooth, kNImp, false);
  ReadCompositeChildren(e, &c);
  CheckComposite(e, *body, &c);
  ExpandComposite(c, spec, body);
}

}  // namespace gauss::mjcf
