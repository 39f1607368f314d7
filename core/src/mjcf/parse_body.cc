// Parsing <worldbody>: bodies and what they contain (inertial, joint, freejoint, geom, site,
// camera, light). Rules measured against MuJoCo 2.2.2:
//  - The world body takes no attributes, joints or inertial.
//  - <freejoint> is a free joint built from the built-in joint defaults, not from the class:
//    a <default><joint damping="3"/></default> does not reach it (only name and group apply).
//  - <inertial> needs pos and mass; fullinertia counts as an orientation (writing it together
//    with quat/euler/... is an error) and takes precedence over diaginertia.
//  - <composite> expands into bodies, joints, geoms, ... where it is written (composite.h).
//  - 3.x <frame>: its children belong to the enclosing body, posed by the frame (composed
//    with enclosing frames); its childclass applies to them (<replicate> is expanded into
//    frames before, replicate.cc; <attach> is grafted before that, attach.cc).
//    <plugin> and <flexcomp> are refused (not supported yet).
#include "mjcf/attributes.h"
#include "mjcf/composite.h"
#include "mjcf/orientation.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

// (<inertial>) => (inertial spec)
void ReadInertial(const XmlElement& e, InertialSpec* in) {
  in->src = SourceOf(e);
  RequireAttribute(e, "pos");
  RequireAttribute(e, "mass");
  ReadNumbers(e, "pos", in->pos, 3);
  ReadNumber(e, "mass", &in->mass);
  if (e.Find("fullinertia")) {
    for (const char* a : {"quat", "axisangle", "xyaxes", "zaxis", "euler"}) {
      if (e.Find(a)) {
        throw Error(e.Where(a), "fullinertia already sets the principal axes; remove '" +
                                    std::string(a) + "'");
      }
    }
  }
  ReadOrientation(e, &in->orient);
  if (ReadNumbers(e, "diaginertia", in->diaginertia, 3)) in->has_diag = true;
  if (ReadNumbers(e, "fullinertia", in->fullinertia, 6)) in->has_full = true;
}

// A light: name and target kept, the rest checked for well-formed values.
VisualObjectSpec ReadLight(const XmlElement& e, const ModelSpec& spec, int childclass) {
  ElementClass(e, spec, childclass);  // the class must exist
  VisualObjectSpec v;
  v.src = SourceOf(e);
  ReadString(e, "name", &v.name);
  ReadString(e, "target", &v.target);
  const std::vector<std::string> modes = {"fixed", "track", "trackcom", "targetbody",
                                          "targetbodycom"};
  int mode = 0;  // without a target, MuJoCo 2.2.2 accepts the target* modes as well
  ReadKeyword(e, "mode", modes, &mode);
  double buf[3];
  bool flag = false;
  ReadNumbers(e, "pos", buf, 3);
  ReadNumbers(e, "dir", buf, 3);
  ReadBool(e, "directional", &flag);
  ReadBool(e, "castshadow", &flag);
  ReadBool(e, "active", &flag);
  ReadNumbers(e, "attenuation", buf, 3);
  ReadNumber(e, "cutoff", buf);
  ReadNumber(e, "exponent", buf);
  ReadNumbers(e, "ambient", buf, 3);
  ReadNumbers(e, "diffuse", buf, 3);
  ReadNumbers(e, "specular", buf, 3);
  // 3.x: visual only
  int type = 0;
  ReadKeyword(e, "type", {"spot", "directional", "point", "image"}, &type);
  for (const char* a : {"bulbradius", "intensity", "range"}) ReadNumber(e, a, buf);
  std::string texture;  // 3.x image-based lighting (type="image"): visual only
  ReadString(e, "texture", &texture);
  return v;
}

// The pose of a <frame> composed with the enclosing frames' pose. (frame element) => (pose)
FramePose ComposeFrame(const XmlElement& e, const ModelSpec& spec, const FramePose& outer) {
  if (spec.compiler.global) {
    throw Error(e.Where(), "a <frame> cannot be used with compiler coordinate=\"global\"");
  }
  double pos[3] = {0, 0, 0}, quat[4];
  Orientation o;
  ReadNumbers(e, "pos", pos, 3);
  ReadOrientation(e, &o);
  OrientationToQuat(o, spec.compiler.degree, spec.compiler.eulerseq, SourceOf(e), quat);
  FramePose f;
  LocalToGlobal(outer.pos, outer.quat, pos, quat, f.pos, f.quat);
  f.identity = false;
  return f;
}

// The default class an element of a body uses (its own class, else the nearest childclass).
const DefaultClass& DefaultsOf(const XmlElement& c, int childclass, const ModelSpec* spec) {
  return spec->defaults[ElementClass(c, *spec, childclass)];
}

// A geom, site or camera: its class's defaults overridden by its attributes, where it is
// written and its enclosing frames' pose. (element, defaults, frame) => (spec)
template <class Spec, class ReadAttributes>
Spec ReadPlaced(const XmlElement& c, Spec spec, const FramePose& frame, ReadAttributes read) {
  read(c, &spec);
  spec.src = SourceOf(c);
  spec.frame = frame;
  ReadString(c, "name", &spec.name);
  return spec;
}

// Reads the children of a body (or of the world body, or of a frame inside them) into `body`;
// `frame` is the pose of the enclosing frames. (element) => (body)
void ReadBodyContents(const XmlElement& e, int childclass, bool world, const FramePose& frame,
                      ModelSpec* spec, BodySpec* body) {
  for (const XmlElement& c : e.children) {
    if (c.name == "frame") {
      std::string name;
      ReadString(c, "name", &name);
      int cls = childclass;
      std::string frame_class;
      if (ReadString(c, "childclass", &frame_class)) {
        cls = FindClass(*spec, frame_class);
        if (cls < 0) {
          throw Error(c.Where("childclass"), "undefined default class '" + frame_class + "'");
        }
      }
      ReadBodyContents(c, cls, world, ComposeFrame(c, *spec, frame), spec, body);
      continue;
    }
    if (c.name == "inertial" && !frame.identity) {
      NotSupported(c, "<inertial> inside a <frame>");
    }
    if (c.name == "plugin") NotSupported(c, "body <plugin> (MuJoCo 3.x engine plugins)");
    if (c.name == "flexcomp") NotSupported(c, "<flexcomp> (MuJoCo 3.x flex deformables)");
    if (c.name == "inertial") {
      if (world) throw Error(c.Where(), "the world body cannot have an <inertial>");
      body->has_inertial = true;
      ReadInertial(c, &body->inertial);
    } else if (c.name == "joint" || c.name == "freejoint") {
      if (world) throw Error(c.Where(), "the world body cannot have joints");
      JointSpec j;
      if (c.name == "joint") {
        j = spec->defaults[ElementClass(c, *spec, childclass)].joint;
        ReadJointAttributes(c, &j);
      } else {
        j.type = JointType::kFree;
        j.is_freejoint_element = true;
        ReadInt(c, "group", &j.group);
        ReadKeyword(c, "align", {"false", "true", "auto"}, &j.free_align);  // 3.x
      }
      j.src = SourceOf(c);
      j.frame = frame;
      j.key_values = ReadAttachedKeyValues(c);
      ReadString(c, "name", &j.name);
      body->joints.push_back(j);
    } else if (c.name == "geom") {
      body->geoms.push_back(ReadPlaced(c, DefaultsOf(c, childclass, spec).geom, frame,
                                       ReadGeomAttributes));
    } else if (c.name == "site") {
      body->sites.push_back(ReadPlaced(c, DefaultsOf(c, childclass, spec).site, frame,
                                       ReadSiteAttributes));
    } else if (c.name == "camera") {
      body->cameras.push_back(ReadPlaced(c, DefaultsOf(c, childclass, spec).camera, frame,
                                         ReadCameraAttributes));
    } else if (c.name == "light") {
      body->lights.push_back(ReadLight(c, *spec, childclass));
    } else if (c.name == "composite") {
      if (!frame.identity) NotSupported(c, "<composite> inside a <frame>");
      ReadComposite(c, spec, body);
    } else if (c.name == "body") {
      auto child = std::make_unique<BodySpec>();
      child->src = SourceOf(c);
      child->frame = frame;
      child->key_values = ReadAttachedKeyValues(c);
      ReadString(c, "name", &child->name);
      int cls = childclass;
      if (ReadString(c, "childclass", &child->childclass)) {
        cls = FindClass(*spec, child->childclass);
        if (cls < 0) {
          throw Error(c.Where("childclass"), "undefined default class '" + child->childclass + "'");
        }
      }
      ReadNumbers(c, "pos", child->pos, 3);
      ReadOrientation(c, &child->orient);
      ReadBool(c, "mocap", &child->mocap);
      ReadNumber(c, "gravcomp", &child->gravcomp);  // 3.x
      ReadKeyword(c, "sleep", {"auto", "never", "allowed", "init"}, &child->sleep);
      std::vector<double> user;
      ReadNumberList(c, "user", &user);
      ReadBodyContents(c, cls, false, FramePose{}, spec, child.get());
      body->children.push_back(std::move(child));
    }
  }
}

}  // namespace

// (<worldbody>) => (spec.world and its subtree)
void ReadWorldbody(const XmlElement& section, ModelSpec* spec) {
  spec->world.src = SourceOf(section);
  ReadBodyContents(section, 0, true, FramePose{}, spec, &spec->world);
}

}  // namespace gauss::mjcf
