// STL and OBJ readers (see mesh_io.h). Each reader fills a MeshGeometry or throws with the file
// name, the line (text formats) and what was expected.
#include "mjcf/mesh_io.h"

#include "gauss/input_file.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace gauss::mjcf {
namespace {

// MuJoCo 2.2.2's limit on the triangle count of an STL file.
constexpr std::uint32_t kMaxStlFaces = 200000;

[[noreturn]] void Fail(const ErrorLocation& where, const std::string& path, int line,
                       const std::string& what) {
  const std::string at = line > 0 ? " line " + std::to_string(line) : "";
  throw Error(where, "mesh file '" + path + "'" + at + ": " + what);
}

// Merges identical vertices (compared as floats, as stored). (corner coordinates) => (mesh)
class VertexMerger {
 public:
  explicit VertexMerger(MeshGeometry* mesh) : mesh_(mesh) {}
  // (corner v) => (mesh.vert gains v if new, mesh.face gains its index)
  void Add(const float v[3]) {
    const std::array<float, 3> key = {v[0], v[1], v[2]};
    auto [it, inserted] = index_.emplace(key, static_cast<int>(mesh_->vert.size() / 3));
    if (inserted) mesh_->vert.insert(mesh_->vert.end(), {double(v[0]), double(v[1]), double(v[2])});
    mesh_->face.push_back(it->second);
  }

 private:
  MeshGeometry* mesh_;
  std::map<std::array<float, 3>, int> index_;
};

// Binary STL: 80-byte header, uint32 count, then per triangle a normal and 3 vertices (12
// little-endian floats) and a 2-byte attribute. (bytes) => (mesh)
void ReadBinaryStl(const std::string& bytes, const std::string& path, const ErrorLocation& where,
                   MeshGeometry* mesh) {
  std::uint32_t n = 0;
  std::memcpy(&n, bytes.data() + 80, 4);
  if (n < 1 || n > kMaxStlFaces) {
    Fail(where, path, 0, "binary STL with " + std::to_string(n) +
                             " triangles (1 to 200000 are accepted)");
  }
  VertexMerger merger(mesh);
  for (std::uint32_t t = 0; t < n; ++t) {
    const char* rec = bytes.data() + 84 + 50 * static_cast<std::size_t>(t);
    for (int k = 0; k < 3; ++k) {
      float v[3];
      std::memcpy(v, rec + 12 + 12 * k, 12);
      for (float x : v) {
        if (!std::isfinite(x)) Fail(where, path, 0, "triangle " + std::to_string(t) +
                                                        " has a non-finite coordinate");
      }
      merger.Add(v);
    }
  }
}

// Reads a float the way MuJoCo stores it; false when `token` is not a finite number.
bool ParseFloat(const std::string& token, float* out) {
  if (token.empty()) return false;
  char* end = nullptr;
  const double x = std::strtod(token.c_str(), &end);
  if (*end != '\0' || !std::isfinite(x)) return false;
  *out = static_cast<float>(x);
  return std::isfinite(*out);
}

// ASCII STL: "solid", then facets of "outer loop", three "vertex x y z", "endloop",
// "endfacet". Only the vertex records carry data; the rest is checked for structure.
void ReadAsciiStl(const std::string& text, const std::string& path, const ErrorLocation& where,
                  MeshGeometry* mesh) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0, corners = 0;
  VertexMerger merger(mesh);
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ls(line);
    std::string word;
    if (!(ls >> word)) continue;
    if (word == "vertex") {
      std::string tok[3];
      float v[3];
      for (int k = 0; k < 3; ++k) {
        if (!(ls >> tok[k]) || !ParseFloat(tok[k], &v[k])) {
          Fail(where, path, lineno, "expected 3 numbers after 'vertex'");
        }
      }
      merger.Add(v);
      ++corners;
    } else if (word == "endloop") {
      if (corners % 3 != 0) Fail(where, path, lineno, "a facet needs exactly 3 vertices");
    } else if (word != "solid" && word != "facet" && word != "outer" && word != "endfacet" &&
               word != "endsolid") {
      Fail(where, path, lineno, "unexpected '" + word + "' in an ASCII STL file");
    }
  }
  if (corners == 0 || corners % 3 != 0) {
    Fail(where, path, 0, "no complete triangle in the ASCII STL file");
  }
}

// One OBJ face corner "i", "i/t", "i//n" or "i/t/n" -> 0-based vertex index (negative counts
// from the last vertex read so far); -1 when malformed or out of range.
int ObjIndex(const std::string& token, int nvert) {
  const std::string head = token.substr(0, token.find('/'));
  char* end = nullptr;
  const long i = std::strtol(head.c_str(), &end, 10);
  if (head.empty() || *end != '\0' || i == 0) return -1;
  const long index = i > 0 ? i - 1 : nvert + i;
  return index >= 0 && index < nvert ? static_cast<int>(index) : -1;
}

// OBJ: "v x y z [...]" and "f a b c [...]"; the other records (vt, vn, o, g, s, usemtl,
// mtllib, l, p, comments) carry nothing collision or inertia need.
void ReadObj(const std::string& text, const std::string& path, const ErrorLocation& where,
             MeshGeometry* mesh) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  std::vector<double> vert;
  std::vector<int> face;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ls(line);
    std::string word;
    if (!(ls >> word) || word[0] == '#') continue;
    if (word == "v") {
      std::string tok;
      for (int k = 0; k < 3; ++k) {
        float x = 0;
        if (!(ls >> tok) || !ParseFloat(tok, &x)) {
          Fail(where, path, lineno, "expected 3 numbers after 'v'");
        }
        vert.push_back(x);
      }
    } else if (word == "f") {
      std::vector<int> poly;
      std::string tok;
      const int nvert = static_cast<int>(vert.size() / 3);
      while (ls >> tok) {
        const int i = ObjIndex(tok, nvert);
        if (i < 0) {
          Fail(where, path, lineno, "face index '" + tok + "' is not a vertex defined before "
                                    "(1.." + std::to_string(nvert) + " or negative)");
        }
        poly.push_back(i);
      }
      if (poly.size() < 3) Fail(where, path, lineno, "a face needs at least 3 vertices");
      for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
        face.insert(face.end(), {poly[0], poly[k], poly[k + 1]});
      }
    }
  }
  if (vert.empty()) Fail(where, path, 0, "no vertex ('v' record) in the OBJ file");
  if (face.empty()) {
    mesh->vert = vert;  // a point cloud: the compiler uses its convex hull's faces
    return;
  }
  // keep the vertices that faces use, in file order
  std::vector<int> remap(vert.size() / 3, -1);
  for (int i : face) remap[i] = 0;
  int next = 0;
  for (std::size_t i = 0; i < remap.size(); ++i) {
    if (remap[i] < 0) continue;
    remap[i] = next++;
    mesh->vert.insert(mesh->vert.end(), vert.begin() + 3 * i, vert.begin() + 3 * i + 3);
  }
  for (int i : face) mesh->face.push_back(remap[i]);
  mesh->hull_from_corners = true;
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

// (file) => (mesh)
void ReadMeshFile(const std::string& path, const ErrorLocation& where, MeshGeometry* mesh) {
  mesh->vert.clear();
  mesh->face.clear();
  mesh->hull_from_corners = false;
  const std::string lower = Lower(path);
  auto ends_with = [&lower](const char* ext) {
    const std::size_t n = std::strlen(ext);
    return lower.size() >= n && lower.compare(lower.size() - n, n, ext) == 0;
  };
  const bool stl = ends_with(".stl"), obj = ends_with(".obj");
  if (!stl && !obj) {
    throw Error(where, "mesh file '" + path + "': unknown file type (expected .stl or .obj)");
  }
  std::string bytes, reason;
  if (!ReadInputFile(path, &bytes, &reason)) {
    throw Error(where, "mesh file '" + path + "' could not be opened: " + reason);
  }

  if (obj) {
    ReadObj(bytes, path, where, mesh);
    return;
  }
  std::uint32_t n = 0;
  if (bytes.size() >= 84) std::memcpy(&n, bytes.data() + 80, 4);
  if (bytes.size() >= 84 && bytes.size() == 84 + 50 * static_cast<std::size_t>(n)) {
    ReadBinaryStl(bytes, path, where, mesh);
  } else if (bytes.compare(0, 5, "solid") == 0) {
    ReadAsciiStl(bytes, path, where, mesh);
  } else {
    Fail(where, path, 0, "neither a binary STL (size " + std::to_string(bytes.size()) +
                             " bytes does not match 84 + 50 x its triangle count) nor an ASCII "
                             "STL (starting with 'solid')");
  }
}

}  // namespace gauss::mjcf
