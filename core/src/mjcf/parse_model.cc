// Parsing the top-level sections that do not describe the body tree: <compiler>, <option>,
// <size>, <statistic>, <custom>, <visual>, <asset>, <keyframe>; and the section order of
// ParseModel. Keywords are case-sensitive as in MuJoCo 2.2.2 ("Euler", "RK4", "implicit",
// "PGS", "CG", "Newton"); plugin names in Options are the lowercase forms.
#include <filesystem>

#include "mjcf/attributes.h"
#include "mjcf/orientation.h"
#include "mjcf/parser.h"
#include "options_check.h"

namespace gauss::mjcf {
namespace {

// (<compiler>) => (compiler spec)
void ReadCompiler(const XmlElement& e, CompilerSpec* c) {
  bool flag = false;
  ReadBool(e, "autolimits", &c->autolimits);
  ReadNumber(e, "boundmass", &c->boundmass);
  ReadNumber(e, "boundinertia", &c->boundinertia);
  ReadNumber(e, "settotalmass", &c->settotalmass);
  ReadBool(e, "balanceinertia", &c->balanceinertia);
  ReadBool(e, "strippath", &c->strippath);
  int k = 0;
  if (ReadKeyword(e, "coordinate", {"local", "global"}, &k)) c->global = k == 1;
  if (ReadKeyword(e, "angle", {"radian", "degree"}, &k)) c->degree = k == 1;
  // 3.x: what <attach> does when the attached model's options differ; applied by the
  // expansion of <attach> (attach_conflict.cc), only checked here
  ReadKeyword(e, "conflict", {"warning", "merge", "error"}, &k);
  ReadBool(e, "fitaabb", &flag);
  if (ReadString(e, "eulerseq", &c->eulerseq) && !ValidEulerSeq(c->eulerseq)) {
    throw Error(e.Where("eulerseq"), "expected 3 letters from x, y, z, X, Y, Z, found '" +
                                         c->eulerseq + "'");
  }
  ReadString(e, "meshdir", &c->meshdir);
  ReadString(e, "texturedir", &c->texturedir);
  ReadBool(e, "discardvisual", &c->discardvisual);
  ReadBool(e, "convexhull", &flag);
  ReadBool(e, "usethread", &flag);
  ReadBool(e, "fusestatic", &c->fusestatic);
  ReadLimited(e, "inertiafromgeom", &c->inertiafromgeom);
  ReadInts(e, "inertiagrouprange", c->inertiagrouprange, 2);
  ReadBool(e, "exactmeshinertia", &c->exactmeshinertia);
  // 3.x: assetdir is the default of both meshdir and texturedir
  std::string assetdir;
  if (ReadString(e, "assetdir", &assetdir)) {
    if (!e.Find("meshdir")) c->meshdir = assetdir;
    if (!e.Find("texturedir")) c->texturedir = assetdir;
  }
  ReadBool(e, "saveinertial", &flag);  // writes a file in MuJoCo; nothing to compile
  ReadBool(e, "alignfree", &c->alignfree);  // 3.x, align_free.cc
  for (const XmlElement& lr : e.children) {
    // lengthrange: options of the actuator length-range computation (lengthrange.h)
    LengthRangeOptions& o = c->lengthrange;
    int mode = static_cast<int>(o.mode);
    if (ReadKeyword(lr, "mode", {"none", "muscle", "muscleuser", "all"}, &mode)) {
      o.mode = static_cast<LengthRangeMode>(mode);
    }
    ReadBool(lr, "useexisting", &o.useexisting);
    ReadBool(lr, "uselimit", &o.uselimit);
    ReadNumber(lr, "accel", &o.accel);
    ReadNumber(lr, "maxforce", &o.maxforce);
    ReadNumber(lr, "timeconst", &o.timeconst);
    ReadNumber(lr, "timestep", &o.timestep);
    ReadNumber(lr, "inttotal", &o.inttotal);
    ReadNumber(lr, "inteval", &o.inteval);
    ReadNumbers(lr, "tolrange", &o.tolrange, 1);
  }
}

// (<option>, <flag>) => (options)
void ReadOption(const XmlElement& e, Options* o) {
  double apirate = 0;
  ReadNumber(e, "timestep", &o->timestep);
  ReadNumber(e, "apirate", &apirate);
  ReadNumber(e, "impratio", &o->impratio);
  ReadNumber(e, "tolerance", &o->tolerance);
  ReadNumber(e, "noslip_tolerance", &o->noslip_tolerance);
  ReadNumber(e, "mpr_tolerance", &o->ccd_tolerance);
  ReadNumbers(e, "gravity", o->gravity.data(), 3);
  ReadNumbers(e, "wind", o->wind.data(), 3);
  ReadNumbers(e, "magnetic", o->magnetic.data(), 3);
  ReadNumber(e, "density", &o->density);
  ReadNumber(e, "viscosity", &o->viscosity);
  ReadNumber(e, "o_margin", &o->o_margin);
  ReadNumbers(e, "o_solref", o->o_solref.data(), kNRef, false);
  ReadNumbers(e, "o_solimp", o->o_solimp.data(), kNImp, false);
  int k = 0;
  if (ReadKeyword(e, "integrator", {"Euler", "RK4", "implicit", "implicitfast"}, &k)) {
    const char* plugins[] = {"euler", "rk4", "implicit", "implicitfast"};  // 3.x: implicitfast
    o->integrator = plugins[k];
  }
  if (ReadKeyword(e, "collision", {"all", "predefined", "dynamic"}, &k)) {
    o->collision = static_cast<CollisionMode>(k);
  }
  if (ReadKeyword(e, "cone", {"pyramidal", "elliptic"}, &k)) o->cone = static_cast<Cone>(k);
  if (ReadKeyword(e, "jacobian", {"dense", "sparse", "auto"}, &k)) {
    o->jacobian = static_cast<JacobianType>(k);
  }
  if (ReadKeyword(e, "solver", {"PGS", "CG", "Newton"}, &k)) {
    o->solver = k == 0 ? "pgs" : k == 1 ? "cg" : "newton";
  }
  ReadInt(e, "iterations", &o->iterations);
  ReadInt(e, "noslip_iterations", &o->noslip_iterations);
  // MuJoCo's noslip post-processing (extra friction-only sweeps after the solver) does not
  // exist in Gauss; 0 (the default) is accepted, anything else would be silently ignored.
  if (o->noslip_iterations > 0) {
    NotSupported(e, "noslip post-processing (noslip_iterations > 0)", "noslip_iterations");
  }
  ReadInt(e, "mpr_iterations", &o->ccd_iterations);
  ReadNumber(e, "sleep_tolerance", &o->sleep_tolerance);
  ReadOption3x(e, o);
  // the one validation every source of options goes through (options_check.h)
  const OptionProblem problem = CheckOptions(*o);
  if (problem.field) throw Error(e.Where(problem.field), problem.message);

  for (const XmlElement& flag : e.children) {
    ReadFlags3x(flag, o);
    for (int i = 0; i < kNumDisableBits; ++i) {
      if (ReadKeyword(flag, kDisableNames[i], {"disable", "enable"}, &k)) {
        if (k == 0) o->disableflags |= 1u << i; else o->disableflags &= ~(1u << i);
      }
    }
    for (int i = 0; i < kNumEnableBits; ++i) {
      if (ReadKeyword(flag, kEnableNames[i], {"disable", "enable"}, &k)) {
        if (k == 1) o->enableflags |= 1u << i; else o->enableflags &= ~(1u << i);
      }
    }
  }
}

// (<size>) => (size spec); the other sizes are checked only
void ReadSize(const XmlElement& e, SizeSpec* s) {
  int unused = 0;
  ReadMemorySize(e, s);  // 3.x
  ReadInt(e, "njmax", &s->njmax);
  ReadInt(e, "nconmax", &s->nconmax);
  ReadInt(e, "nkey", &s->nkey);
  for (const char* a : {"nstack", "nuserdata", "nuser_body", "nuser_jnt", "nuser_geom",
                        "nuser_site", "nuser_cam", "nuser_tendon", "nuser_actuator",
                        "nuser_sensor"}) {
    ReadInt(e, a, &unused);
  }
  if (s->nkey < 0) throw Error(e.Where("nkey"), "must not be negative");
  // buffers sized from these are allocated per Data: values that can only exhaust memory are
  // refused (documented maxima, docs/mjcf.md)
  const struct {
    const char* attr;
    int value, max;
  } limits[] = {{"njmax", s->njmax, kMaxConstraintRows}, {"nconmax", s->nconmax, kMaxContacts},
                {"nkey", s->nkey, kMaxKeyframes}};
  for (const auto& l : limits) {
    if (l.value > l.max) {
      throw Error(e.Where(l.attr), std::to_string(l.value) + " is beyond the limit of " +
                                       std::to_string(l.max));
    }
  }
}

// (<statistic>) => (statistic spec)
void ReadStatistic(const XmlElement& e, StatisticSpec* s) {
  double buf[3];
  s->has_meaninertia = ReadNumber(e, "meaninertia", &s->meaninertia) || s->has_meaninertia;
  s->has_meanmass = ReadNumber(e, "meanmass", &s->meanmass) || s->has_meanmass;
  s->has_extent = ReadNumber(e, "extent", &s->extent) || s->has_extent;
  ReadNumber(e, "meansize", buf);
  ReadNumbers(e, "center", buf, 3);
}

// <custom><text> and <tuple> (no physics, no Model field): checked, not stored, but for the
// geoms a tuple names (discard_visual.cc keeps them). A tuple element names an object by type
// and name (checked to be a string) with a number prm.
void CheckCustomTextOrTuple(const XmlElement& c, ModelSpec* spec) {
  std::string text;
  ReadString(c, "name", &text);
  if (c.name == "text") {
    RequireAttribute(c, "data");
    return;
  }
  for (const XmlElement& element : c.children) {
    const std::string& type = RequireAttribute(element, "objtype");
    const std::string& name = RequireAttribute(element, "objname");
    if (type == "geom") spec->tuple_geoms.push_back(name);
    double prm = 0;
    ReadNumber(element, "prm", &prm);
  }
}

// (<custom>) => (spec.numerics)
void ReadCustom(const XmlElement& e, ModelSpec* spec) {
  for (const XmlElement& c : e.children) {
    if (c.name == "text" || c.name == "tuple") {
      CheckCustomTextOrTuple(c, spec);
      continue;
    }
    NumericSpec n;
    n.src = SourceOf(c);
    n.name = RequireAttribute(c, "name");
    ReadInt(c, "size", &n.size);
    ReadNumberList(c, "data", &n.data);
    if (n.size < 0) n.size = static_cast<int>(n.data.size());
    if (n.size < 1 || n.size > 500) {
      throw Error(c.Where("size"), "a numeric field needs 1 to 500 values (size or data)");
    }
    if (static_cast<int>(n.data.size()) > n.size) {
      throw Error(c.Where("data"), "more values than size=" + std::to_string(n.size));
    }
    n.data.resize(n.size, 0.0);
    spec->numerics.push_back(n);
  }
}

// Visual settings have no Model field; their values are checked to be numbers (booleans for
// the 3.x switches).
void ReadVisual(const XmlElement& e) {
  for (const XmlElement& c : e.children) {
    for (const XmlAttribute& a : c.attributes) {
      bool flag = false;
      if (c.name == "global" && (a.name == "orthographic" || a.name == "ellipsoidinertia" ||
                                 a.name == "bvactive")) {
        ReadBool(c, a.name, &flag);
        continue;
      }
      std::vector<double> values;
      ReadNumberList(c, a.name, &values);
    }
  }
}

// (<mesh>) => (spec.meshes): the file is read by the compiler (compile_mesh.cc)
void ReadMesh(const XmlElement& c, ModelSpec* spec) {
  MeshSpec mesh;
  mesh.src = SourceOf(c);
  const int cls = ElementClass(c, *spec, 0);
  for (int k = 0; k < 3; ++k) mesh.scale[k] = spec->defaults[cls].mesh_scale[k];
  ReadString(c, "name", &mesh.name);
  ReadString(c, "file", &mesh.file);
  ReadNumbers(c, "scale", mesh.scale, 3);
  ReadNumbers(c, "refpos", mesh.refpos, 3);
  ReadNumbers(c, "refquat", mesh.refquat, 4);
  ReadNumberList(c, "vertex", &mesh.vertex);
  std::vector<double> face, unused;
  ReadNumberList(c, "face", &face);
  for (double f : face) {
    if (f != static_cast<int>(f) || f < 0) {
      throw Error(c.Where("face"), "expected non-negative integer vertex indices");
    }
    mesh.face.push_back(static_cast<int>(f));
  }
  ReadNumberList(c, "normal", &unused);    // visual only
  ReadNumberList(c, "texcoord", &unused);  // visual only
  bool smooth = false;
  ReadBool(c, "smoothnormal", &smooth);
  // 3.x
  mesh.inertia = spec->defaults[cls].mesh_inertia;
  ReadMeshInertia(c, &mesh.inertia);
  int maxhullvert = -1;
  ReadInt(c, "maxhullvert", &maxhullvert);
  std::string material, content_type;
  ReadString(c, "material", &material);
  ReadString(c, "content_type", &content_type);
  if (c.Find("builtin")) ReadBuiltinMesh(c, &mesh);  // 3.x, builtin_mesh.cc (with params)
  if (mesh.file.empty() && mesh.vertex.empty()) {
    throw Error(c.Where(), "a mesh needs a file, a vertex list or (3.x) a builtin shape");
  }
  if (!mesh.file.empty() && !mesh.vertex.empty()) {
    throw Error(c.Where("vertex"), "a mesh takes its vertices from a file or from the vertex "
                                   "attribute, not both");
  }
  if (mesh.vertex.size() % 3 != 0) {
    throw Error(c.Where("vertex"), "the number of values must be a multiple of 3");
  }
  if (mesh.face.size() % 3 != 0) {
    throw Error(c.Where("face"), "the number of values must be a multiple of 3");
  }
  if (mesh.name.empty()) {
    if (mesh.file.empty()) throw Error(c.Where("name"), "an inline mesh needs a name");
    mesh.name = std::filesystem::path(mesh.file).stem().string();  // MuJoCo's default name
  }
  spec->meshes.push_back(mesh);
}

// (<hfield>) => (spec.hfields): the file is read and the data scaled by the compiler
// (compile_hfield.cc). Exactly one source: a file, or nrow and ncol (with optional inline
// elevations, row by row from the largest y down, as in MuJoCo 3.x; zeros without them).
void ReadHfield(const XmlElement& c, ModelSpec* spec) {
  HfieldSpec h;
  h.src = SourceOf(c);
  ReadString(c, "name", &h.name);
  ReadString(c, "file", &h.file);
  const bool has_nrow = ReadInt(c, "nrow", &h.nrow);
  const bool has_ncol = ReadInt(c, "ncol", &h.ncol);
  RequireAttribute(c, "size");
  ReadNumbers(c, "size", h.size, 4);
  ReadNumberList(c, "elevation", &h.elevation);
  for (int k = 0; k < 4; ++k) {
    if (!(h.size[k] > 0)) {
      throw Error(c.Where("size"), "the four sizes (radius_x radius_y elevation_z base_z) must be "
                                   "positive");
    }
  }
  if (!h.file.empty()) {
    if (has_nrow || has_ncol || !h.elevation.empty()) {
      throw Error(c.Where(has_nrow ? "nrow" : has_ncol ? "ncol" : "elevation"),
                  "a height field takes its data from a file or from nrow/ncol (and elevation), "
                  "not both");
    }
  } else {
    if (!has_nrow || !has_ncol) {
      throw Error(c.Where(has_nrow ? "ncol" : "nrow"),
                  "a height field without a file needs both nrow and ncol");
    }
    if (h.nrow < 2 || h.ncol < 2) {
      throw Error(c.Where(h.nrow < 2 ? "nrow" : "ncol"),
                  "nrow and ncol must be at least 2, found " + std::to_string(h.nrow) + " x " +
                      std::to_string(h.ncol));
    }
    const long n = static_cast<long>(h.nrow) * h.ncol;
    if (!h.elevation.empty() && static_cast<long>(h.elevation.size()) != n) {
      throw Error(c.Where("elevation"), "expected nrow x ncol = " + std::to_string(n) +
                                            " values, found " +
                                            std::to_string(h.elevation.size()));
    }
  }
  if (h.name.empty()) {
    if (h.file.empty()) throw Error(c.Where("name"), "a height field without a file needs a name");
    h.name = std::filesystem::path(h.file).stem().string();  // MuJoCo's default name
  }
  spec->hfields.push_back(h);
}

// Non-negative integers written as a number list. (attribute) => (out)
void ReadIndexList(const XmlElement& c, const char* attr, std::vector<int>* out) {
  std::vector<double> values;
  ReadNumberList(c, attr, &values);
  for (double v : values) {
    if (v != static_cast<int>(v) || v < 0) {
      throw Error(c.Where(attr), "expected non-negative integer indices");
    }
    out->push_back(static_cast<int>(v));
  }
}

// (<skin> and its <bone>s) => (spec.skins); a file is read by the compiler
void ReadSkin(const XmlElement& c, ModelSpec* spec) {
  SkinSpec skin;
  skin.src = SourceOf(c);
  ReadString(c, "name", &skin.name);
  ReadString(c, "file", &skin.file);
  ReadString(c, "material", &skin.material);
  ReadNumbers(c, "rgba", skin.rgba, 4);
  ReadNumber(c, "inflate", &skin.inflate);
  ReadInt(c, "group", &skin.group);
  ReadNumberList(c, "vertex", &skin.vertex);
  ReadIndexList(c, "face", &skin.face);
  std::vector<double> texcoord;  // visual only: textures are not drawn
  ReadNumberList(c, "texcoord", &texcoord);
  for (const XmlElement& b : c.children) {
    SkinBoneSpec bone;
    bone.src = SourceOf(b);
    bone.body = RequireAttribute(b, "body");
    RequireAttribute(b, "bindpos");
    RequireAttribute(b, "bindquat");
    ReadNumbers(b, "bindpos", bone.bindpos, 3);
    ReadNumbers(b, "bindquat", bone.bindquat, 4);
    ReadIndexList(b, "vertid", &bone.vertid);
    ReadNumberList(b, "vertweight", &bone.vertweight);
    if (bone.vertid.size() != bone.vertweight.size()) {
      throw Error(b.Where("vertweight"), "expected one weight per vertid (" +
                                             std::to_string(bone.vertid.size()) + "), found " +
                                             std::to_string(bone.vertweight.size()));
    }
    skin.bones.push_back(bone);
  }
  if (skin.file.empty() == skin.vertex.empty()) {
    throw Error(c.Where(skin.file.empty() ? "vertex" : "file"),
                "a skin takes its data from a file or from the vertex attribute (and bones), "
                "one of the two");
  }
  if (!skin.file.empty() && (!skin.face.empty() || !skin.bones.empty())) {
    throw Error(c.Where("file"), "a skin read from a file cannot also have faces or bones");
  }
  if (skin.vertex.size() % 3 != 0) {
    throw Error(c.Where("vertex"), "the number of values must be a multiple of 3");
  }
  if (skin.face.size() % 3 != 0) {
    throw Error(c.Where("face"), "the number of values must be a multiple of 3");
  }
  spec->skins.push_back(skin);
}

// (<asset>) => (meshes, height fields, skins, materials, texture names)
void ReadAsset(const XmlElement& e, ModelSpec* spec) {
  for (const XmlElement& c : e.children) {
    if (c.name == "mesh") {
      ReadMesh(c, spec);
      continue;
    }
    if (c.name == "hfield") {
      ReadHfield(c, spec);
      continue;
    }
    if (c.name == "skin") {
      ReadSkin(c, spec);
      continue;
    }
    std::string name;
    ReadString(c, "name", &name);
    double buf[4];
    bool flag = false;
    int k = 0;
    if (c.name == "texture") {
      ReadKeyword(c, "type", {"2d", "cube", "skybox"}, &k);
      ReadKeyword(c, "builtin", {"none", "gradient", "checker", "flat"}, &k);
      ReadKeyword(c, "mark", {"none", "edge", "cross", "random"}, &k);
      for (const char* a : {"rgb1", "rgb2", "markrgb"}) ReadNumbers(c, a, buf, 3);
      ReadNumber(c, "random", buf);
      ReadInt(c, "width", &k);
      ReadInt(c, "height", &k);
      int grid[2];
      ReadInts(c, "gridsize", grid, 2);
      ReadBool(c, "hflip", &flag);
      ReadBool(c, "vflip", &flag);
      ReadKeyword(c, "colorspace", {"auto", "linear", "sRGB"}, &k);  // 3.x, visual
      ReadInt(c, "nchannel", &k);
      for (const char* a : {"file", "fileright", "fileleft", "fileup", "filedown", "filefront",
                            "fileback"}) {
        std::string file;
        if (!ReadString(c, a, &file)) continue;
        // Texture images are visual only and not decoded, but a missing file is an error.
        std::filesystem::path p(file);
        if (spec->compiler.strippath) p = p.filename();
        if (p.is_relative()) {
          p = std::filesystem::path(spec->base_path).parent_path() / spec->compiler.texturedir / p;
        }
        std::error_code ec;
        if (!std::filesystem::exists(p, ec)) {
          throw Error(c.Where(a), "texture file '" + p.string() + "' not found");
        }
      }
      if (!name.empty()) spec->textures.emplace_back(name, SourceOf(c));
    } else if (c.name == "material") {
      MaterialSpec mat;
      mat.src = SourceOf(c);
      const DefaultClass& cls = spec->defaults[ElementClass(c, *spec, 0)];
      for (int k = 0; k < 4; ++k) mat.rgba[k] = cls.material_rgba[k];
      mat.name = RequireAttribute(c, "name");
      for (const char* a : {"emission", "specular", "shininess", "reflectance", "metallic",
                            "roughness"}) {
        ReadNumber(c, a, buf);
      }
      ReadNumbers(c, "rgba", mat.rgba, 4);
      ReadNumbers(c, "texrepeat", buf, 2);
      ReadBool(c, "texuniform", &flag);
      ReadString(c, "texture", &mat.texture);
      spec->materials.push_back(mat);
    }
  }
}

// (<keyframe>) => (spec.keys)
void ReadKeyframe(const XmlElement& e, ModelSpec* spec) {
  for (const XmlElement& c : e.children) {
    KeySpec k;
    k.src = SourceOf(c);
    ReadString(c, "name", &k.name);
    ReadNumber(c, "time", &k.time);
    ReadNumberList(c, "qpos", &k.qpos);
    ReadNumberList(c, "qvel", &k.qvel);
    ReadNumberList(c, "act", &k.act);
    ReadNumberList(c, "ctrl", &k.ctrl);
    ReadNumberList(c, "mpos", &k.mpos);
    ReadNumberList(c, "mquat", &k.mquat);
    if (const std::string* id = c.Find(kAttachedKeyId)) k.attached = std::stoi(*id);
    spec->keys.push_back(k);
  }
}

}  // namespace

// (document) => (spec), sections in MuJoCo's fixed order
void ParseModel(const XmlElement& root, ModelSpec* spec) {
  ReadString(root, "model", &spec->name);
  spec->mjcf3 = UsesMjcf3(root);
  // the version's defaults, before <option> can override them (parse_mjcf3.cc)
  if (spec->mjcf3) ApplyMjcf3Defaults(&spec->option);
  spec->defaults.assign(1, DefaultClass{});
  spec->defaults[0].name = "main";
  spec->world.name = "world";
  spec->world.src = SourceOf(root);

  const XmlElement* doc = &root;
  auto each = [&](const char* section, auto&& read) {
    for (const XmlElement& c : doc->children) {
      if (c.name == section) read(c);
    }
  };
  for (const XmlElement& c : root.children) {
    if (c.name == "deformable") NotSupported(c, "<deformable> (MuJoCo 3.x flex deformables)");
  }
  each("extension", [&](const XmlElement& c) { ReadExtension(c, spec); });
  each("compiler", [&](const XmlElement& c) { ReadCompiler(c, &spec->compiler); });
  // 3.x <attach> (attach.cc), then <replicate> (replicate.cc): the rest is read from the
  // expanded document
  XmlElement attached;
  if (ExpandAttachments(root, &attached)) doc = &attached;
  XmlElement expanded;
  if (ExpandReplicates(*doc, spec->compiler, &expanded)) doc = &expanded;
  each("option", [&](const XmlElement& c) { ReadOption(c, &spec->option); });
  each("size", [&](const XmlElement& c) { ReadSize(c, &spec->size); });
  each("default", [&](const XmlElement& c) { ReadDefaultSection(c, spec); });
  each("custom", [&](const XmlElement& c) { ReadCustom(c, spec); });
  each("visual", [&](const XmlElement& c) { ReadVisual(c); });
  each("statistic", [&](const XmlElement& c) { ReadStatistic(c, &spec->statistic); });
  each("asset", [&](const XmlElement& c) { ReadAsset(c, spec); });
  each("worldbody", [&](const XmlElement& c) { ReadWorldbody(c, spec); });
  each("contact", [&](const XmlElement& c) { ReadContact(c, spec); });
  each("equality", [&](const XmlElement& c) { ReadEquality(c, spec); });
  each("tendon", [&](const XmlElement& c) { ReadTendons(c, spec); });
  each("actuator", [&](const XmlElement& c) { ReadActuators(c, spec); });
  each("sensor", [&](const XmlElement& c) { ReadSensors(c, spec); });
  each("keyframe", [&](const XmlElement& c) { ReadKeyframe(c, spec); });
}

}  // namespace gauss::mjcf
