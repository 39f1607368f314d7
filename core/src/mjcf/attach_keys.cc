// Keyframes of models attached with <attach> (attach.cc), as MuJoCo 3.12.1 composes them
// (measured with its compiled key_* arrays):
//  - The parent's own keys come first, read as written against the whole model.
//  - Then, attachment by attachment in document order, every key of the attached model,
//    named prefix + its name (an unnamed key is named by the prefix alone), with its time.
//    Such a key gives values only to what the attachment brought: the joints, actuators and
//    mocap bodies of the attached subtree, and only in the fields the child's key wrote
//    (qpos, qvel, act, ctrl, mpos, mquat). Everything else is the whole model's default:
//    qpos0 (for the attached joints too when the key wrote no qpos: their attached pose),
//    zero velocities, activations and controls, the mocap bodies' own poses. The values are
//    copied as written, not moved into the attachment's frame (a free joint's key position
//    stays the child's world position).
//  - A child's key must have the child's own sizes (3.12 refuses a shorter one on attach, as
//    Gauss refuses one of the wrong size).
// MuJoCo stores key values on the elements themselves; so does this file: the child is
// compiled on its own (its key_* arrays in its layout), each value is written onto the XML
// element it belongs to (kAttachedKeyValue), the elements travel with the attached subtree,
// and the compiler gathers them per key (compile_sensors.cc). Values of elements left outside
// the subtree are dropped with them.
// Where 3.12.1 is inconsistent Gauss keeps the rule above (docs/mjcf.md): 3.12 does not prefix
// the keys of a nested attachment again (it warns that they "will not be namespaced
// correctly"), and when one model is attached twice its first attachment's key values leak
// into the elements the second one brings from outside the first's subtree.
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "mjcf/attributes.h"
#include "mjcf/compiler.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

// The joints written in a body (directly or in its frames) and its child bodies, in document
// order. (body element) => (joints, bodies)
void BodyParts(XmlElement* e, std::vector<XmlElement*>* joints,
               std::vector<XmlElement*>* bodies) {
  for (XmlElement& c : e->children) {
    if (c.name == "frame") {
      BodyParts(&c, joints, bodies);
    } else if (c.name == "joint" || c.name == "freejoint") {
      joints->push_back(&c);
    } else if (c.name == "body") {
      bodies->push_back(&c);
    }
  }
}

// The compiler's order (compile_tree.cc): bodies in preorder, a body's joints before its
// descendants'. (body element) => (joints, bodies below it)
void Preorder(XmlElement* body, std::vector<XmlElement*>* joints,
              std::vector<XmlElement*>* bodies) {
  std::vector<XmlElement*> children;
  BodyParts(body, joints, &children);
  for (XmlElement* c : children) {
    bodies->push_back(c);
    Preorder(c, joints, bodies);
  }
}

// The child's elements that hold key values, in compiled order.
struct KeyHolders {
  std::vector<XmlElement*> joints, actuators, mocap;
};

KeyHolders FindHolders(XmlElement* child) {
  KeyHolders h;
  std::vector<XmlElement*> bodies;
  for (XmlElement& s : child->children) {
    if (s.name == "worldbody") Preorder(&s, &h.joints, &bodies);
    if (s.name == "actuator") {
      for (XmlElement& a : s.children) h.actuators.push_back(&a);
    }
  }
  for (XmlElement* b : bodies) {
    bool mocap = false;
    ReadBool(*b, "mocap", &mocap);
    if (mocap) h.mocap.push_back(b);
  }
  return h;
}

std::string Format(int id, const char* field, const double* v, int n) {
  std::string s = std::to_string(id) + " " + field;
  char buf[32];
  for (int i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, " %.17g", v[i]);
    s += buf;
  }
  return s;
}

// Did the child's own attachment `old_id` give element `e` a value of `field`?
bool HeldBefore(const XmlElement& e, int old_id, const char* field) {
  for (const AttachedKeyValue& v : ReadAttachedKeyValues(e)) {
    if (v.key == old_id && v.field == field) return true;
  }
  return false;
}

void DropKeyValues(XmlElement* e) {
  std::vector<XmlAttribute> kept;
  for (XmlAttribute& a : e->attributes) {
    if (a.name != kAttachedKeyValue) kept.push_back(std::move(a));
  }
  e->attributes = std::move(kept);
}

}  // namespace

std::vector<AttachedKeyValue> ReadAttachedKeyValues(const XmlElement& e) {
  std::vector<AttachedKeyValue> out;
  for (const XmlAttribute& a : e.attributes) {
    if (a.name != kAttachedKeyValue) continue;
    std::istringstream in(a.value);
    AttachedKeyValue v;
    in >> v.key >> v.field;
    std::string number;
    while (in >> number) v.values.push_back(std::strtod(number.c_str(), nullptr));
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<XmlElement> TakeAttachedKeys(XmlElement* child, const std::string& prefix,
                                         const XmlElement& attach, int* next_id) {
  std::vector<const XmlElement*> keys;
  for (const XmlElement& s : child->children) {
    if (s.name != "keyframe") continue;
    for (const XmlElement& k : s.children) keys.push_back(&k);
  }
  if (keys.empty()) return {};

  // the child on its own: its key arrays in its layout, sizes checked as for any model
  ModelSpec spec;
  spec.source_file = child->file;
  spec.base_path = child->file;
  ParseModel(*child, &spec);
  Model m;
  CompileModel(&spec, &m);
  const KeyHolders h = FindHolders(child);
  if (static_cast<int>(h.joints.size()) != m.njnt ||
      static_cast<int>(h.actuators.size()) != m.nu ||
      static_cast<int>(h.mocap.size()) != m.nmocap) {
    NotSupported(attach, "keyframes of an attached model whose joints, actuators or mocap "
                         "bodies are not all written as elements (e.g. <composite>)");
  }

  // per element, the new values of every key (computed before the old ones are dropped)
  std::vector<std::vector<std::string>> joint_values(h.joints.size()),
      actuator_values(h.actuators.size()), mocap_values(h.mocap.size());
  std::vector<XmlElement> out;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const XmlElement& key = *keys[k];
    const int id = (*next_id)++;
    int old_id = -1;
    if (const std::string* s = key.Find(kAttachedKeyId)) old_id = std::stoi(*s);
    // a plain key gives a field to every element when it writes it; a key of the child's own
    // attachment gives it where it gave it before
    auto given = [&](const XmlElement& e, const char* field) {
      if (old_id >= 0) return HeldBefore(e, old_id, field);
      const std::string* v = key.Find(field);
      return v && v->find_first_not_of(" \t\r\n") != std::string::npos;
    };
    for (int j = 0; j < m.njnt; ++j) {
      const int nq = JointNq(m.jnt_type[j]), nv = JointNv(m.jnt_type[j]);
      if (given(*h.joints[j], "qpos")) {
        joint_values[j].push_back(
            Format(id, "qpos", &m.key_qpos[k * m.nq + m.jnt_qposadr[j]], nq));
      }
      if (given(*h.joints[j], "qvel")) {
        joint_values[j].push_back(
            Format(id, "qvel", &m.key_qvel[k * m.nv + m.jnt_dofadr[j]], nv));
      }
    }
    for (int a = 0; a < m.nu; ++a) {
      if (given(*h.actuators[a], "ctrl")) {
        actuator_values[a].push_back(Format(id, "ctrl", &m.key_ctrl[k * m.nu + a], 1));
      }
      if (m.actuator_actadr[a] >= 0 && given(*h.actuators[a], "act")) {
        actuator_values[a].push_back(Format(id, "act", &m.key_act[k * m.na + m.actuator_actadr[a]],
                                            m.actuator_actnum[a]));
      }
    }
    for (int b = 0; b < m.nmocap; ++b) {
      if (given(*h.mocap[b], "mpos")) {
        mocap_values[b].push_back(Format(id, "mpos", &m.key_mpos[(k * m.nmocap + b) * 3], 3));
      }
      if (given(*h.mocap[b], "mquat")) {
        mocap_values[b].push_back(Format(id, "mquat", &m.key_mquat[(k * m.nmocap + b) * 4], 4));
      }
    }
    XmlElement made;
    made.name = "key";
    made.file = key.file;
    made.line = key.line;
    std::string name;
    ReadString(key, "name", &name);
    char time[32];
    std::snprintf(time, sizeof time, "%.17g", m.key_time[k]);
    made.attributes = {
        {"name", prefix + name}, {"time", time}, {kAttachedKeyId, std::to_string(id)}};
    out.push_back(std::move(made));
  }
  auto write = [](const std::vector<XmlElement*>& elements,
                  const std::vector<std::vector<std::string>>& values) {
    for (std::size_t i = 0; i < elements.size(); ++i) {
      DropKeyValues(elements[i]);
      for (const std::string& v : values[i]) {
        elements[i]->attributes.push_back({kAttachedKeyValue, v});
      }
    }
  };
  write(h.joints, joint_values);
  write(h.actuators, actuator_values);
  write(h.mocap, mocap_values);
  return out;
}

}  // namespace gauss::mjcf
