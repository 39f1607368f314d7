// MuJoCo 3.x model composition: <asset><model name file/> declares another MJCF file, and
// <attach model body prefix/> (in a body, a frame or the worldbody) grafts that model's body
// `body` (or, without `body` or with body="world", everything in its worldbody) where it is
// written, every name given `prefix` in front.
//
// The expansion works on the document tree before the sections are read (like replicate.cc),
// so that classes, frames and name tables stay the ordinary path. Rules measured on MuJoCo
// 3.12.1 (tests/reference/mjcf3_test.cc, tests/models/mjcf3/attach*.xml):
//  - The attached body keeps its pose, now relative to the place of <attach>.
//  - The child is compiled with its own default classes, not the parent's: its class tree
//    becomes a second root class tree (names prefixed) that starts from the built-in
//    defaults, and the attached elements use it (their childclass is the nearest one above
//    the attached body in the child, else the child's main class).
//  - The child's tendons, equalities, actuators, sensors and contact pairs/excludes whose
//    every reference lies in the attached subtree (tendons and actuators taken along count as
//    inside for the later sections) come along, prefixed, after the parent's own elements of
//    their section; those naming anything outside are dropped.
//  - Assets of the child come along with prefixed names (all of them: MuJoCo may compile fewer,
//    which changes nmesh/nmat but no dynamics).
//  - The child's keyframes are appended after the parent's, prefixed, holding values for
//    what the attachment brought (attach_keys.cc).
// Gauss refuses what it cannot reproduce this way: attach `frame`, a child whose compiler
// settings differ from the parent's (angle, eulerseq, meshdir, inertia rules, ... are applied
// once per document here), asset files of a child in another folder, and more than 16 nested
// levels.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "mjcf/attributes.h"
#include "mjcf/parser.h"
#include "mjcf/schema.h"

namespace gauss::mjcf {
namespace {

constexpr int kMaxDepth = 16;

// Attribute => what it names: a tree object ("tree") or an asset ("asset"). Sensor
// objname/refname name tree objects too.
bool IsTreeReference(const std::string& attr) {
  static const std::set<std::string> refs = {
      "body",      "body1",     "body2",      "target",        "site",     "site1",
      "site2",     "sidesite",  "refsite",    "cranksite",     "slidersite", "geom",
      "geom1",     "geom2",     "joint",      "joint1",        "joint2",   "jointinparent",
      "tendon",    "tendon1",   "tendon2",    "actuator",      "camera",   "objname",
      "refname"};
  return refs.count(attr) > 0;
}
bool IsAssetReference(const std::string& attr) {
  return attr == "mesh" || attr == "material" || attr == "hfield" || attr == "texture" ||
         attr == "skin";
}

std::string Folder(const std::string& file) {
  const std::size_t slash = file.find_last_of('/');
  return slash == std::string::npos ? "" : file.substr(0, slash + 1);
}

// (subtree) => (names): every name defined in it
void CollectNames(const XmlElement& e, std::set<std::string>* names) {
  const std::string* name = e.Find("name");
  if (name && !name->empty()) names->insert(*name);
  for (const XmlElement& c : e.children) CollectNames(c, names);
}

// Does `e` (or a tendon path element below it) name a tree object, and all inside `inside`?
bool AllReferencesInside(const XmlElement& e, const std::set<std::string>& inside,
                         bool* any) {
  for (const XmlAttribute& a : e.attributes) {
    if (!IsTreeReference(a.name)) continue;
    *any = true;
    if (!inside.count(a.value)) return false;
  }
  for (const XmlElement& c : e.children) {
    if (!AllReferencesInside(c, inside, any)) return false;
  }
  return true;
}

// The prefixing of one attachment.
struct Renamer {
  std::string prefix;
  std::set<std::string> child_names;   // tree names defined anywhere in the child
  std::set<std::string> child_assets;  // asset names of the child

  // (element) => (element with prefixed name, classes and references into the child)
  void Apply(XmlElement* e) const {
    for (XmlAttribute& a : e->attributes) {
      if (a.name == "name" || a.name == "class" || a.name == "childclass") {
        if (!a.value.empty()) a.value = prefix + a.value;
      } else if (IsTreeReference(a.name) && child_names.count(a.value)) {
        a.value = prefix + a.value;
      } else if (IsAssetReference(a.name) && child_assets.count(a.value)) {
        a.value = prefix + a.value;
      }
    }
    for (XmlElement& c : e->children) Apply(&c);
  }
};

// Compiler attributes that change how a document is read or compiled: the child must agree.
void RequireSameCompiler(const XmlElement& parent, const XmlElement& child,
                         const XmlElement& attach) {
  static const char* const kAttrs[] = {
      "angle", "eulerseq", "coordinate", "autolimits", "meshdir", "texturedir", "assetdir",
      "strippath", "inertiafromgeom", "inertiagrouprange", "exactmeshinertia", "boundmass",
      "boundinertia", "balanceinertia", "settotalmass", "discardvisual", "fusestatic",
      "alignfree", "fitaabb"};
  auto value = [](const XmlElement& doc, const char* attr) {
    std::string v;
    for (const XmlElement& c : doc.children) {
      if (c.name != "compiler") continue;
      if (const std::string* s = c.Find(attr)) v = *s;
    }
    return v;
  };
  for (const char* attr : kAttrs) {
    if (value(parent, attr) != value(child, attr)) {
      NotSupported(attach, std::string("<attach> of a model whose compiler ") + attr +
                               " differs from the parent's ('" + value(child, attr) +
                               "' vs '" + value(parent, attr) + "')");
    }
  }
}

// Finds body `name` below `e`; `childclass` = the nearest childclass above it (kept if none).
const XmlElement* FindBody(const XmlElement& e, const std::string& name,
                           std::string* childclass) {
  for (const XmlElement& c : e.children) {
    if (c.name != "body" && c.name != "frame") continue;
    const std::string* n = c.Find("name");
    if (c.name == "body" && n && *n == name) return &c;
    std::string inner = *childclass;
    if (const std::string* cc = c.Find("childclass")) inner = *cc;
    if (const XmlElement* found = FindBody(c, name, &inner)) {
      *childclass = inner;
      return found;
    }
  }
  return nullptr;
}

void ExpandIn(XmlElement* root, int depth);

// What one <attach> adds to the parent document.
struct Attachment {
  XmlElement frame;                   // replaces the <attach>
  std::vector<XmlElement> sections;   // default, asset, referencing and keyframe sections
};

// (attach element, model declarations, parent document, next key id) => (attachment)
Attachment AttachOne(const XmlElement& attach, const std::map<std::string, std::string>& models,
                     XmlElement* parent_doc, int depth, int* next_key_id) {
  const XmlElement& parent = *parent_doc;
  if (depth >= kMaxDepth) {
    throw Error(attach.Where(), "<attach> nested deeper than " + std::to_string(kMaxDepth) +
                                    " levels (a model attaching itself?)");
  }
  if (attach.Find("frame")) NotSupported(attach, "<attach frame=...> (attaching a frame)");
  RequireAttribute(attach, "model");
  const std::string& model = *attach.Find("model");
  const auto it = models.find(model);
  if (it == models.end()) {
    throw Error(attach.Where("model"), "unknown model asset '" + model + "'");
  }
  std::string prefix;
  ReadString(attach, "prefix", &prefix);
  std::string body_name;
  ReadString(attach, "body", &body_name);

  XmlElement child = ReadXmlFile(it->second);
  ValidateSchema(child);
  ExpandIn(&child, depth + 1);
  RequireSameCompiler(parent, child, attach);
  ResolveAttachConflicts(parent_doc, child, attach);
  // before the subtree is copied: the key values ride on its elements (attach_keys.cc)
  std::vector<XmlElement> keys = TakeAttachedKeys(&child, prefix, attach, next_key_id);

  Renamer rename;
  rename.prefix = prefix;
  std::string main_class = "main";
  for (const XmlElement& s : child.children) {
    if (s.name == "worldbody") CollectNames(s, &rename.child_names);
    if (s.name == "tendon" || s.name == "actuator") CollectNames(s, &rename.child_names);
    if (s.name == "asset") {
      for (const XmlElement& a : s.children) {
        const std::string* n = a.Find("name");
        if (n) rename.child_assets.insert(*n);
        if (a.Find("file") && Folder(child.file) != Folder(parent.file)) {
          NotSupported(a, "<attach> of a model with asset files in another folder");
        }
      }
    }
    if (s.name == "default") {
      if (const std::string* c = s.Find("class")) main_class = *c;
    }
  }

  // the attached tree, in a frame whose childclass gives it the child's classes
  Attachment out;
  out.frame.name = "frame";
  out.frame.file = attach.file;
  out.frame.line = attach.line;
  std::string childclass = main_class;
  std::set<std::string> inside;
  for (const XmlElement& s : child.children) {
    if (s.name != "worldbody") continue;
    if (body_name.empty() || body_name == "world") {
      for (const XmlElement& c : s.children) out.frame.children.push_back(c);
      continue;
    }
    std::string cc = main_class;
    if (const XmlElement* b = FindBody(s, body_name, &cc)) {
      childclass = cc;
      out.frame.children.push_back(*b);
    }
  }
  if (out.frame.children.empty() && !body_name.empty() && body_name != "world") {
    throw Error(attach.Where("body"), "model '" + model + "' has no body '" + body_name + "'");
  }
  for (const XmlElement& c : out.frame.children) CollectNames(c, &inside);
  out.frame.attributes.push_back({"childclass", childclass});
  rename.Apply(&out.frame);

  // the child's classes: a second root tree (see ReadDefaultSection)
  bool has_default = false;
  for (const XmlElement& s : child.children) {
    if (s.name != "default") continue;
    XmlElement d = s;
    if (!d.Find("class")) d.attributes.push_back({"class", main_class});
    d.attributes.push_back({kAttachedDefault, "true"});
    rename.Apply(&d);
    out.sections.push_back(std::move(d));
    has_default = true;
  }
  if (!has_default) {
    XmlElement d;
    d.name = "default";
    d.file = child.file;
    d.attributes = {{"class", prefix + main_class}, {kAttachedDefault, "true"}};
    out.sections.push_back(std::move(d));
  }
  for (const XmlElement& s : child.children) {
    if (s.name != "asset") continue;
    XmlElement a = s;
    rename.Apply(&a);
    out.sections.push_back(std::move(a));
  }

  // referencing sections: the elements whose references all lie inside
  for (const char* section : {"tendon", "equality", "actuator", "sensor", "contact"}) {
    XmlElement taken;
    taken.name = section;
    taken.file = child.file;
    for (const XmlElement& s : child.children) {
      if (s.name != section) continue;
      for (const XmlElement& c : s.children) {
        bool any = false;
        if (!AllReferencesInside(c, inside, &any) || !any) continue;
        const std::string* n = c.Find("name");
        if (n && !n->empty()) inside.insert(*n);
        XmlElement copy = c;
        const bool has_class = std::string(section) != "sensor" && c.name != "exclude";
        if (has_class && !copy.Find("class")) {
          copy.attributes.push_back({"class", main_class});
        }
        rename.Apply(&copy);
        taken.children.push_back(std::move(copy));
      }
    }
    if (!taken.children.empty()) out.sections.push_back(std::move(taken));
  }
  if (!keys.empty()) {
    XmlElement keyframe;
    keyframe.name = "keyframe";
    keyframe.file = child.file;
    keyframe.children = std::move(keys);
    out.sections.push_back(std::move(keyframe));
  }
  return out;
}

// Replaces the <attach> elements below `e`. (e) => (e with frames, appended sections)
void ExpandBelow(XmlElement* e, const std::map<std::string, std::string>& models,
                 XmlElement* root, int depth, std::vector<XmlElement>* sections,
                 int* next_key_id) {
  for (XmlElement& c : e->children) {
    if (c.name == "attach") {
      Attachment a = AttachOne(c, models, root, depth, next_key_id);
      c = std::move(a.frame);
      for (XmlElement& s : a.sections) sections->push_back(std::move(s));
    } else if (c.name == "body" || c.name == "frame" || c.name == "replicate") {
      ExpandBelow(&c, models, root, depth, sections, next_key_id);
    }
  }
}

// (model file) => the name MuJoCo gives it: its root's `model` attribute, else "MuJoCo Model"
std::string ModelName(const std::string& path) {
  const XmlElement root = ReadXmlFile(path);
  const std::string* model = root.Find("model");
  return model ? *model : "MuJoCo Model";
}

bool HasAttach(const XmlElement& e) {
  for (const XmlElement& c : e.children) {
    if (c.name == "attach" || HasAttach(c)) return true;
  }
  return false;
}

// (document) => (document without <attach> and <model> assets)
void ExpandIn(XmlElement* root, int depth) {
  std::map<std::string, std::string> models;
  for (XmlElement& s : root->children) {
    if (s.name != "asset") continue;
    std::vector<XmlElement> kept;
    for (XmlElement& a : s.children) {
      if (a.name != "model") {
        kept.push_back(std::move(a));
        continue;
      }
      RequireAttribute(a, "file");
      const std::string& file = *a.Find("file");
      const std::string path = file.empty() || file[0] == '/' ? file : Folder(a.file) + file;
      std::string name;
      ReadString(a, "name", &name);
      // as MuJoCo 3.12 does (measured): without `name`, the model is known by the `model`
      // attribute of the file's root, MuJoCo's default "MuJoCo Model" if it has none
      if (!a.Find("name")) name = ModelName(path);
      models[name] = path;
    }
    s.children = std::move(kept);
  }
  bool any = false;
  for (const XmlElement& s : root->children) any = any || (s.name == "worldbody" && HasAttach(s));
  if (!any) return;
  // the sections that <compiler conflict> may rewrite exist before the worldbody is expanded
  // (attach_conflict.cc), so that no child of the document moves while it is
  for (const char* section : {"option", "size"}) {
    if (std::none_of(root->children.begin(), root->children.end(),
                     [&](const XmlElement& c) { return c.name == section; })) {
      XmlElement made;
      made.name = section;
      made.file = root->file;
      made.line = root->line;
      root->children.insert(root->children.begin(), std::move(made));
    }
  }
  std::vector<XmlElement> sections;
  int next_key_id = 0;  // kAttachedKeyId of the keys the attachments bring, in this document
  for (XmlElement& s : root->children) {
    if (s.name == "worldbody") ExpandBelow(&s, models, root, depth, &sections, &next_key_id);
  }
  for (XmlElement& s : sections) root->children.push_back(std::move(s));
}

}  // namespace

// (document) => (document with every <attach> grafted), or false when it has none
bool ExpandAttachments(const XmlElement& root, XmlElement* out) {
  bool any = false;
  for (const XmlElement& c : root.children) {
    if (c.name == "worldbody" && HasAttach(c)) any = true;
    if (c.name == "asset") {
      for (const XmlElement& a : c.children) any = any || a.name == "model";
    }
  }
  if (!any) return false;
  *out = root;
  ExpandIn(out, 0);
  return true;
}

}  // namespace gauss::mjcf
