// MuJoCo 3.x <replicate count offset euler sep>: copies of the enclosed kinematic-tree elements,
// each copy posed one step further along the pattern and its names given a suffix.
//
// The expansion works on the document tree before the sections are read, so that everything
// after it (frames, classes, name tables, errors located at the original lines) stays the
// ordinary path. Rules measured on MuJoCo 3.12.1 (tests/reference/replicate_test.cc):
//  - Copy k (k = 0..count-1) is a frame with pose T^k, T = (offset, rotation of `euler`): the
//    offset is taken in the previous copy's frame, and rotations accumulate. Angles follow
//    compiler angle and eulerseq.
//  - Every name inside gets sep + k written with as many digits as count has ("00".."10" for
//    count 11, "0".."9" for count 10); unnamed elements stay unnamed. Nested replicates are
//    expanded innermost first, so the inner suffix comes first ("name+03-1").
//  - An element of <tendon>, <equality>, <actuator>, <sensor> or <contact> that names
//    anything inside a replicate is replicated with it: it leaves its place and count copies
//    are appended to its section, copy by copy, in the original order; its references to the
//    inside (and its own name) get copy k's suffix, references to the outside stay. Replicated
//    tendons and actuators count as "inside" for the sections after them (tendons come first,
//    then equality, actuator, sensor, contact), so a sensor of a replicated tendon follows it.
//    Exception: an equality that names both something inside and something outside (even
//    body2="world") is dropped altogether, original included - what MuJoCo 3.12.1 does.
//  - Replicates are expanded in document order (post-order), each appending its copies after
//    those of the replicates before it.
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "mjcf/attributes.h"
#include "mjcf/orientation.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

// Names defined inside a replicate, by the kind of object they name.
using InsideNames = std::map<std::string, std::set<std::string>>;

// The kind of object a kinematic-tree element defines ("" for none).
std::string DefinedKind(const std::string& element) {
  if (element == "freejoint") return "joint";
  for (const char* k : {"body", "joint", "geom", "site", "camera", "light"}) {
    if (element == k) return k;
  }
  return "";
}

// The kind of object attribute `attr` of a referencing element `e` names ("" for none):
// sensor objname/refname take it from objtype/reftype (xbody names a body).
std::string ReferenceKind(const XmlElement& e, const std::string& attr) {
  static const std::map<std::string, std::string> kinds = {
      {"body", "body"},         {"body1", "body"},        {"body2", "body"},
      {"target", "body"},       {"site", "site"},         {"site1", "site"},
      {"site2", "site"},        {"sidesite", "site"},     {"refsite", "site"},
      {"cranksite", "site"},    {"slidersite", "site"},   {"geom", "geom"},
      {"geom1", "geom"},        {"geom2", "geom"},        {"joint", "joint"},
      {"joint1", "joint"},      {"joint2", "joint"},      {"jointinparent", "joint"},
      {"tendon", "tendon"},     {"tendon1", "tendon"},    {"tendon2", "tendon"},
      {"actuator", "actuator"}, {"camera", "camera"}};
  if (attr == "objname" || attr == "refname") {
    const std::string* type = e.Find(attr == "objname" ? "objtype" : "reftype");
    if (!type) return "";
    return *type == "xbody" ? "body" : *type;
  }
  const auto it = kinds.find(attr);
  return it == kinds.end() ? "" : it->second;
}

bool IsInside(const InsideNames& inside, const std::string& kind, const std::string& name) {
  const auto it = inside.find(kind);
  return it != inside.end() && it->second.count(name) > 0;
}

// (subtree) => (inside): the names its tree elements define
void CollectNames(const XmlElement& e, InsideNames* inside) {
  const std::string kind = DefinedKind(e.name);
  const std::string* name = e.Find("name");
  if (!kind.empty() && name && !name->empty()) (*inside)[kind].insert(*name);
  for (const XmlElement& c : e.children) CollectNames(c, inside);
}

// Does `e` name an object outside the replicate (a written reference that is not inside)?
bool ReferencesOutside(const XmlElement& e, const InsideNames& inside) {
  for (const XmlAttribute& a : e.attributes) {
    const std::string kind = ReferenceKind(e, a.name);
    if (!kind.empty() && !IsInside(inside, kind, a.value)) return true;
  }
  return false;
}

// Does `e` (or a child of it: tendon path elements) name anything inside?
bool ReferencesInside(const XmlElement& e, const InsideNames& inside) {
  for (const XmlAttribute& a : e.attributes) {
    const std::string kind = ReferenceKind(e, a.name);
    if (!kind.empty() && IsInside(inside, kind, a.value)) return true;
  }
  for (const XmlElement& c : e.children) {
    if (ReferencesInside(c, inside)) return true;
  }
  return false;
}

// (element) => (element with suffixed references to the inside; `own_name`: its name too)
void RenameReferences(XmlElement* e, const InsideNames& inside, const std::string& suffix,
                      bool own_name) {
  for (XmlAttribute& a : e->attributes) {
    if (a.name == "name") {
      if (own_name && !a.value.empty()) a.value += suffix;
      continue;
    }
    const std::string kind = ReferenceKind(*e, a.name);
    if (!kind.empty() && IsInside(inside, kind, a.value)) a.value += suffix;
  }
  for (XmlElement& c : e->children) RenameReferences(&c, inside, suffix, own_name);
}

// Suffix of copy k: sep, then k with as many digits as `count` has.
std::string Suffix(const std::string& sep, int k, int count) {
  const int digits = static_cast<int>(std::to_string(count).size());
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*d", digits, k);
  return sep + buf;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// The referencing sections, in the order in which their replicated names become visible to
// the later ones.
const char* const kReferencingSections[] = {"tendon", "equality", "actuator", "sensor",
                                            "contact"};

// (replicate element, document) => (its copies as frames, referencing elements replicated)
std::vector<XmlElement> ExpandOne(const XmlElement& rep, const CompilerSpec& compiler,
                                  XmlElement* root) {
  int count = 0;
  RequireAttribute(rep, "count");
  ReadInt(rep, "count", &count);
  if (count < 1) throw Error(rep.Where("count"), "must be positive, found " + std::to_string(count));
  double offset[3] = {0, 0, 0};
  ReadNumbers(rep, "offset", offset, 3);
  Orientation step;
  step.has_euler = ReadNumbers(rep, "euler", step.euler, 3) > 0;
  double step_quat[4];
  OrientationToQuat(step, compiler.degree, compiler.eulerseq, SourceOf(rep), step_quat);
  std::string sep;
  ReadString(rep, "sep", &sep);

  InsideNames inside;
  for (const XmlElement& c : rep.children) CollectNames(c, &inside);

  // the tree copies: frame k holds the children with suffixed names
  std::vector<XmlElement> frames;
  double pos[3] = {0, 0, 0}, quat[4] = {1, 0, 0, 0};
  for (int k = 0; k < count; ++k) {
    XmlElement frame;
    frame.name = "frame";
    frame.file = rep.file;
    frame.line = rep.line;
    frame.attributes = {{"pos", Number(pos[0]) + " " + Number(pos[1]) + " " + Number(pos[2])},
                        {"quat", Number(quat[0]) + " " + Number(quat[1]) + " " +
                                     Number(quat[2]) + " " + Number(quat[3])}};
    frame.children = rep.children;
    const std::string suffix = Suffix(sep, k, count);
    for (XmlElement& c : frame.children) RenameReferences(&c, inside, suffix, true);
    frames.push_back(std::move(frame));
    double next_pos[3], next_quat[4];
    LocalToGlobal(pos, quat, offset, step_quat, next_pos, next_quat);
    for (int i = 0; i < 3; ++i) pos[i] = next_pos[i];
    for (int i = 0; i < 4; ++i) quat[i] = next_quat[i];
  }

  // the referencing elements: moved to the end of their section, one copy per replica
  for (const char* section : kReferencingSections) {
    std::vector<XmlElement> moved;
    XmlElement* last = nullptr;
    for (XmlElement& s : root->children) {
      if (s.name != section) continue;
      last = &s;
      std::vector<XmlElement> kept;
      for (XmlElement& c : s.children) {
        if (!ReferencesInside(c, inside)) {
          kept.push_back(std::move(c));
        } else if (!(s.name == "equality" && ReferencesOutside(c, inside))) {
          moved.push_back(std::move(c));
        }  // else: MuJoCo 3.12 drops an equality between the inside and the outside
      }
      s.children = std::move(kept);
    }
    if (moved.empty()) continue;
    for (const XmlElement& c : moved) {
      const std::string* name = c.Find("name");
      if (name && !name->empty() && (c.name == "spatial" || c.name == "fixed")) {
        inside["tendon"].insert(*name);
      } else if (name && !name->empty() && std::string(section) == "actuator") {
        inside["actuator"].insert(*name);
      }
    }
    for (int k = 0; k < count; ++k) {
      for (const XmlElement& c : moved) {
        XmlElement copy = c;
        RenameReferences(&copy, inside, Suffix(sep, k, count), true);
        last->children.push_back(std::move(copy));
      }
    }
  }
  return frames;
}

// Expands the replicates below `e` (post-order: inner ones first). (e, document) => (e, document)
void ExpandBelow(XmlElement* e, const CompilerSpec& compiler, XmlElement* root) {
  std::vector<XmlElement> children;
  children.reserve(e->children.size());
  for (std::size_t i = 0; i < e->children.size(); ++i) {
    ExpandBelow(&e->children[i], compiler, root);
    if (e->children[i].name != "replicate") {
      children.push_back(std::move(e->children[i]));
      continue;
    }
    for (XmlElement& frame : ExpandOne(e->children[i], compiler, root)) {
      children.push_back(std::move(frame));
    }
  }
  e->children = std::move(children);
}

bool HasReplicate(const XmlElement& e) {
  for (const XmlElement& c : e.children) {
    if (c.name == "replicate" || HasReplicate(c)) return true;
  }
  return false;
}

}  // namespace

// (document, compiler settings) => (document without <replicate>), or false when it has none
bool ExpandReplicates(const XmlElement& root, const CompilerSpec& compiler, XmlElement* out) {
  bool any = false;
  for (const XmlElement& c : root.children) any = any || (c.name == "worldbody" && HasReplicate(c));
  if (!any) return false;
  for (const XmlElement& c : root.children) {
    if (c.name == "keyframe" && !c.children.empty()) {
      // MuJoCo 3.12.1 turns each key into count + 1 keys sized for one copy and loses some
      // ctrl values (measured; docs/mjcf.md, "MuJoCo 3.x"): not reproduced
      NotSupported(c, "keyframes in a model with <replicate> (MuJoCo 3.12 sizes them for one "
                      "copy and splits each key into one per copy; see docs/mjcf.md)");
    }
  }
  *out = root;
  for (XmlElement& section : out->children) {
    if (section.name == "worldbody") ExpandBelow(&section, compiler, out);
  }
  return true;
}

}  // namespace gauss::mjcf
