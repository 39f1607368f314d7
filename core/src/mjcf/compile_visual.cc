// The visual assets: materials (only their colour; textures are checked to exist, never
// decoded) and skins. Nothing here changes the dynamics.
//
// Skins as MuJoCo 2.2.2 compiles them (measured): vertices, bind poses and weights are stored
// in single precision, and each vertex's weights are divided by their sum. A .skn file is
// binary, little-endian: four int32 (vertex, texcoord, face and bone counts), the vertices
// (float32 x 3), texcoords (float32 x 2), faces (int32 x 3), then per bone: its body's name
// (40 bytes, zero-padded), bind position (float32 x 3), bind quaternion (float32 x 4), the
// number of vertices it moves (int32), their indices (int32) and weights (float32).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

#include "gauss/math.h"
#include "mjcf/compiler.h"

namespace gauss::mjcf {
namespace {

inline double Float(double x) { return static_cast<double>(static_cast<float>(x)); }

// Sequential reads from a .skn file's bytes; every read checks that the bytes are there.
class SknReader {
 public:
  SknReader(std::vector<char> bytes, ErrorLocation where, std::string path)
      : bytes_(std::move(bytes)), where_(std::move(where)), path_(std::move(path)) {}

  int32_t Int() { return Read<int32_t>(); }
  double Real() { return Read<float>(); }
  std::string Name() {
    Need(40, "a bone's body name");
    std::string name(bytes_.data() + at_, strnlen(bytes_.data() + at_, 40));
    at_ += 40;
    return name;
  }
  // A count read from the file, checked against what the rest of the file can hold.
  int Count(const char* what, size_t bytes_each) {
    const int32_t n = Int();
    if (n < 0 || static_cast<size_t>(n) * bytes_each > bytes_.size() - at_) {
      throw Error(where_, "skin file '" + path_ + "': bad " + what + " count " +
                              std::to_string(n) + " at byte " + std::to_string(at_ - 4));
    }
    return n;
  }
  bool AtEnd() const { return at_ == bytes_.size(); }

 private:
  template <typename T>
  T Read() {
    Need(sizeof(T), "a number");
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  void Need(size_t n, const char* what) {
    if (bytes_.size() - at_ < n) {
      throw Error(where_, "skin file '" + path_ + "' ends at byte " +
                              std::to_string(bytes_.size()) + " where " + what + " was expected");
    }
  }
  std::vector<char> bytes_;
  size_t at_ = 0;
  ErrorLocation where_;
  std::string path_;
};

// Reads a .skn file into the skin's vertex, face and bone fields. (file) => (skin)
void ReadSkinFile(const ModelSpec& spec, SkinSpec* skin) {
  const ErrorLocation where = skin->src.Where("file");
  const std::string path = ResolveMeshPath(spec, skin->file);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(where, "skin file '" + skin->file + "' not found: tried " + path);
  SknReader r(std::vector<char>(std::istreambuf_iterator<char>(in), {}), where, path);
  const int nvert = r.Count("vertex", 12);
  const int ntexcoord = r.Count("texcoord", 8);
  const int nface = r.Count("face", 12);
  const int nbone = r.Count("bone", 72);
  for (int i = 0; i < 3 * nvert; ++i) skin->vertex.push_back(r.Real());
  for (int i = 0; i < 2 * ntexcoord; ++i) r.Real();  // texcoords: textures are not drawn
  for (int i = 0; i < 3 * nface; ++i) skin->face.push_back(r.Int());
  for (int b = 0; b < nbone; ++b) {
    SkinBoneSpec bone;
    bone.src = skin->src;
    bone.body = r.Name();
    for (double& x : bone.bindpos) x = r.Real();
    for (double& x : bone.bindquat) x = r.Real();
    const int n = r.Count("bone vertex", 8);
    for (int i = 0; i < n; ++i) bone.vertid.push_back(r.Int());
    for (int i = 0; i < n; ++i) bone.vertweight.push_back(r.Real());
    skin->bones.push_back(bone);
  }
  if (!r.AtEnd()) throw Error(where, "skin file '" + path + "' has bytes after its last bone");
}

// One skin, checked and appended to the skin_* arrays. (skin spec, body names) => (skin_*)
void CompileSkin(const CompileContext& c, const SkinSpec& s, Model& m) {
  const int nvert = static_cast<int>(s.vertex.size() / 3);
  const int nface = static_cast<int>(s.face.size() / 3);
  const ErrorLocation where = s.src.Where(s.file.empty() ? "face" : "file");
  for (int v : s.face) {
    if (v < 0 || v >= nvert) {
      throw Error(where, "face vertex " + std::to_string(v) + " out of range (the skin has " +
                             std::to_string(nvert) + " vertices)");
    }
  }
  if (s.bones.empty()) throw Error(s.src.Where(), "a skin needs at least one <bone>");
  // each vertex's total weight, to divide by: summed in single precision as MuJoCo does
  // (the weights of composite subgrid skins add up to 1 only up to round-off)
  std::vector<float> total(nvert, 0.0f);
  for (const SkinBoneSpec& b : s.bones) {
    for (size_t j = 0; j < b.vertid.size(); ++j) {
      if (b.vertid[j] < 0 || b.vertid[j] >= nvert) {
        throw Error(b.src.Where("vertid"), "vertex " + std::to_string(b.vertid[j]) +
                                               " out of range (the skin has " +
                                               std::to_string(nvert) + " vertices)");
      }
      total[b.vertid[j]] += Float(b.vertweight[j]);
    }
  }
  for (int v = 0; v < nvert; ++v) {
    if (!(total[v] > 0)) {
      throw Error(where, "skin vertex " + std::to_string(v) + " has no positive bone weight");
    }
  }
  m.skin_matid.push_back(
      s.material.empty() ? -1 : c.material_names.Require(s.material, s.src, "material", "material"));
  m.skin_group.push_back(s.group);
  m.skin_rgba.insert(m.skin_rgba.end(), s.rgba, s.rgba + 4);
  m.skin_inflate.push_back(Float(s.inflate));
  m.skin_vertadr.push_back(m.nskinvert);
  m.skin_vertnum.push_back(nvert);
  m.skin_faceadr.push_back(m.nskinface);
  m.skin_facenum.push_back(nface);
  m.skin_boneadr.push_back(m.nskinbone);
  m.skin_bonenum.push_back(static_cast<int>(s.bones.size()));
  for (double x : s.vertex) m.skin_vert.push_back(Float(x));
  m.skin_face.insert(m.skin_face.end(), s.face.begin(), s.face.end());
  for (const SkinBoneSpec& b : s.bones) {
    m.skin_bonebodyid.push_back(c.body_names.Require(b.body, b.src, "body", "body"));
    m.skin_bonevertadr.push_back(m.nskinbonevert);
    m.skin_bonevertnum.push_back(static_cast<int>(b.vertid.size()));
    for (double x : b.bindpos) m.skin_bonebindpos.push_back(Float(x));
    double quat[4];
    math::Copy4(quat, b.bindquat);
    math::NormalizeQuat(quat);
    for (double x : quat) m.skin_bonebindquat.push_back(Float(x));
    for (size_t j = 0; j < b.vertid.size(); ++j) {
      m.skin_bonevertid.push_back(b.vertid[j]);
      m.skin_bonevertweight.push_back(Float(Float(b.vertweight[j]) / total[b.vertid[j]]));
    }
    m.nskinbonevert += static_cast<int>(b.vertid.size());
    ++m.nskinbone;
  }
  m.skin_name.push_back(s.name);
  m.nskinvert += nvert;
  m.nskinface += nface;
  ++m.nskin;
}

}  // namespace

// (spec materials, texture names) => (nmat, mat_rgba, mat_name, material_names)
void CompileMaterials(CompileContext* c) {
  Model& m = *c->m;
  for (const MaterialSpec& mat : c->spec->materials) {
    if (!mat.texture.empty()) c->texture_names.Require(mat.texture, mat.src, "texture", "texture");
    c->material_names.Add(mat.name, m.nmat++, mat.src, "material");
    m.mat_rgba.insert(m.mat_rgba.end(), mat.rgba, mat.rgba + 4);
    m.mat_name.push_back(mat.name);
  }
}

// (spec skins, body and material names) => (skin_*)
void CompileSkins(CompileContext* c) {
  NameTable skin_names;
  for (SkinSpec& s : c->spec->skins) {
    skin_names.Add(s.name, c->m->nskin, s.src, "skin");
    if (!s.file.empty()) ReadSkinFile(*c->spec, &s);
    CompileSkin(*c, s, *c->m);
  }
}

}  // namespace gauss::mjcf
