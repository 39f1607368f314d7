// <compiler conflict>: what <attach> does with the attached model's global settings (its
// <option>, its <flag>s and its <size>), as MuJoCo 3.12.1 resolves them (measured with its
// compiled options; docs/mjcf.md). A setting counts when the child writes it:
//  - warning (the default): the parent's settings stay.
//  - merge: a setting only the child writes is adopted; one both write differently is merged
//    by its kind: the smaller of timestep and the tolerances, the larger of the iteration
//    counts and sizes, an error for every other setting (integrator, cone, solver, jacobian,
//    impratio, density, viscosity, o_margin and the vectors gravity, wind, magnetic, o_solref,
//    o_solimp, o_friction); every flag the child disables (or, for the enable flags,
//    enables) is added, and so are its disabled actuator groups.
//  - error: a setting both write differently is an error (a flag both write with different
//    values too); one only the child writes keeps the parent's value.
// Sizes are compared with their defaults instead (MuJoCo does not track whether they are
// written): a size counts when it differs from the default. Visual settings (znear, zfar,
// realtime) do not change what Gauss computes and are left as the parent has them.
// The resolution rewrites the parent document's <option> and <size>, attachment by attachment,
// before the sections are read.
#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "mjcf/attributes.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

enum class Merge { kMin, kMax, kNone };

struct Setting {
  const char* name;
  Merge merge;
};

// Settings of <option>, in MuJoCo's order (scalars, then vectors).
const Setting kOptionSettings[] = {
    {"timestep", Merge::kMin},          {"tolerance", Merge::kMin},
    {"ls_tolerance", Merge::kMin},      {"noslip_tolerance", Merge::kMin},
    {"ccd_tolerance", Merge::kMin},     {"mpr_tolerance", Merge::kMin},
    {"sleep_tolerance", Merge::kMin},   {"iterations", Merge::kMax},
    {"ls_iterations", Merge::kMax},     {"noslip_iterations", Merge::kMax},
    {"ccd_iterations", Merge::kMax},    {"mpr_iterations", Merge::kMax},
    {"sdf_iterations", Merge::kMax},    {"sdf_initpoints", Merge::kMax},
    {"impratio", Merge::kNone},         {"density", Merge::kNone},
    {"viscosity", Merge::kNone},        {"o_margin", Merge::kNone},
    {"integrator", Merge::kNone},       {"cone", Merge::kNone},
    {"jacobian", Merge::kNone},         {"solver", Merge::kNone},
    {"gravity", Merge::kNone},          {"wind", Merge::kNone},
    {"magnetic", Merge::kNone},         {"o_solref", Merge::kNone},
    {"o_solimp", Merge::kNone},         {"o_friction", Merge::kNone}};

// Sizes of <size> merged by their maximum, with MuJoCo 3.12's defaults.
struct SizeSetting {
  const char* name;
  double fallback;
};
const SizeSetting kSizeSettings[] = {
    {"njmax", -1},         {"nconmax", -1},       {"nuserdata", 0},      {"nkey", 0},
    {"nuser_body", -1},    {"nuser_jnt", -1},     {"nuser_geom", -1},    {"nuser_site", -1},
    {"nuser_cam", -1},     {"nuser_tendon", -1},  {"nuser_actuator", -1}, {"nuser_sensor", -1}};

// MuJoCo's disable flags: Gauss's disable bits (kDisableNames: 2.2.2's and 3.12's) and the 3.12
// disable flags that are enable bits or no bits in Gauss; every other flag is an enable flag
bool IsDisableFlag(const std::string& name) {
  for (const char* n : kDisableNames) {
    if (name == n) return true;
  }
  return name == "midphase" || name == "nativeccd" || name == "island";
}

// The last value a document writes for `attr` in its `section` elements, or null.
const std::string* LastValue(const XmlElement& doc, const char* section, const char* attr) {
  const std::string* v = nullptr;
  for (const XmlElement& s : doc.children) {
    if (s.name != section) continue;
    if (const std::string* a = s.Find(attr)) v = a;
  }
  return v;
}

// The values written in one attribute (numbers, or one keyword as its own word).
std::vector<std::string> Words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

bool IsNumber(const std::string& w) {
  char* end = nullptr;
  std::strtod(w.c_str(), &end);
  return end && *end == '\0' && !w.empty();
}

bool SameValue(const std::string& a, const std::string& b) {
  const std::vector<std::string> wa = Words(a), wb = Words(b);
  if (wa.size() != wb.size()) return false;
  for (std::size_t i = 0; i < wa.size(); ++i) {
    if (IsNumber(wa[i]) && IsNumber(wb[i])) {
      if (std::strtod(wa[i].c_str(), nullptr) != std::strtod(wb[i].c_str(), nullptr)) return false;
    } else if (wa[i] != wb[i]) {
      return false;
    }
  }
  return true;
}

void Set(XmlElement* e, const std::string& attr, const std::string& value) {
  for (XmlAttribute& a : e->attributes) {
    if (a.name == attr) {
      a.value = value;
      return;
    }
  }
  e->attributes.push_back({attr, value});
}

// The element named `name` among `parent`'s children (the last one), made when missing
// (ExpandAttachments makes the document's <option> and <size> before it expands, so that the
// document's own children never move while it does).
XmlElement* Section(XmlElement* parent, const char* name) {
  XmlElement* found = nullptr;
  for (XmlElement& c : parent->children) {
    if (c.name == name) found = &c;
  }
  if (found) return found;
  XmlElement made;
  made.name = name;
  made.file = parent->file;
  made.line = parent->line;
  parent->children.push_back(std::move(made));
  return &parent->children.back();
}

// The conflicts of one attachment: errors, and the parent's settings to write.
struct Resolution {
  int mode = 0;  // 0 warning, 1 merge, 2 error
  std::vector<std::string> errors;
  std::vector<std::pair<std::string, std::string>> option, size, flags;

  // A setting the child writes as `child` and the parent as `parent` (null: not written).
  void Scalar(const char* name, Merge merge, const std::string* parent, const std::string& child) {
    if (parent && SameValue(*parent, child)) return;
    if (!parent) {
      if (mode == 1) option.emplace_back(name, child);
      return;
    }
    const std::string conflict =
        std::string(name) + ": parent has " + *parent + ", child has " + child;
    if (mode == 2 || merge == Merge::kNone || !IsNumber(*parent) || !IsNumber(child)) {
      if (mode != 0) errors.push_back(conflict);
      return;
    }
    if (mode != 1) return;
    const double p = std::strtod(parent->c_str(), nullptr), c = std::strtod(child.c_str(), nullptr);
    if (merge == Merge::kMin ? c < p : c > p) option.emplace_back(name, child);
  }
};

}  // namespace

void ResolveAttachConflicts(XmlElement* parent, const XmlElement& child,
                            const XmlElement& attach) {
  Resolution r;
  if (const std::string* mode = LastValue(*parent, "compiler", "conflict")) {
    r.mode = *mode == "merge" ? 1 : *mode == "error" ? 2 : 0;
  }
  if (r.mode == 0) return;  // warning: the parent's settings stay (what is read below)

  for (const Setting& s : kOptionSettings) {
    const std::string* c = LastValue(child, "option", s.name);
    if (c) r.Scalar(s.name, s.merge, LastValue(*parent, "option", s.name), *c);
  }
  // sizes: written or not is not tracked; a size differing from the default counts
  for (const SizeSetting& s : kSizeSettings) {
    const std::string* c = LastValue(child, "size", s.name);
    if (!c || !IsNumber(*c) || std::strtod(c->c_str(), nullptr) == s.fallback) continue;
    const std::string* p = LastValue(*parent, "size", s.name);
    const double cv = std::strtod(c->c_str(), nullptr);
    const double pv = p && IsNumber(*p) ? std::strtod(p->c_str(), nullptr) : s.fallback;
    if (cv == pv) continue;
    if (pv == s.fallback || r.mode == 1) {
      if (r.mode == 1 && cv > pv) r.size.emplace_back(s.name, *c);
    } else {
      r.errors.push_back(std::string(s.name) + ": parent has " + *p + ", child has " + *c);
    }
  }
  // flags: merge adds what the child sets; error refuses what both write differently
  for (const XmlElement& o : child.children) {
    if (o.name != "option") continue;
    for (const XmlElement& flag : o.children) {
      if (flag.name != "flag") continue;
      for (const XmlAttribute& a : flag.attributes) {
        const bool sets = IsDisableFlag(a.name) ? a.value == "disable" : a.value == "enable";
        if (r.mode == 1) {
          if (sets) r.flags.emplace_back(a.name, a.value);
          continue;
        }
        std::string written;
        for (const XmlElement& po : parent->children) {
          if (po.name != "option") continue;
          for (const XmlElement& pf : po.children) {
            if (pf.name != "flag") continue;
            if (const std::string* v = pf.Find(a.name)) written = *v;
          }
        }
        if (!written.empty() && written != a.value) {
          r.errors.push_back("flag '" + a.name + "': parent " + written + ", child " + a.value);
        }
      }
    }
  }
  if (const std::string* groups = LastValue(child, "option", "actuatorgroupdisable")) {
    const std::string* mine = LastValue(*parent, "option", "actuatorgroupdisable");
    if (r.mode == 1) {
      r.option.emplace_back("actuatorgroupdisable", (mine ? *mine + " " : "") + *groups);
    } else if (mine && !SameValue(*mine, *groups)) {
      r.errors.push_back("actuatorgroupdisable: parent has " + *mine + ", child has " + *groups);
    }
  }

  if (!r.errors.empty()) {
    std::string message = std::string("conflicting settings of the attached model (compiler "
                                      "conflict=\"") +
                          (r.mode == 1 ? "merge" : "error") + "\"):";
    for (const std::string& e : r.errors) message += "\n  " + e;
    throw Error(attach.Where(), message);
  }
  XmlElement* option = Section(parent, "option");
  for (const auto& [name, value] : r.option) Set(option, name, value);
  if (!r.flags.empty()) {
    XmlElement* flag = Section(option, "flag");
    for (const auto& [name, value] : r.flags) Set(flag, name, value);
  }
  if (!r.size.empty()) {
    XmlElement* size = Section(parent, "size");
    for (const auto& [name, value] : r.size) Set(size, name, value);
  }
}

}  // namespace gauss::mjcf
