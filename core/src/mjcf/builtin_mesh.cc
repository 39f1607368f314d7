// MuJoCo 3.x procedural meshes, <mesh builtin="..." params="...">: the compiler makes the
// vertices, and the mesh then goes the way of an inline `vertex` mesh without faces (its convex
// hull; scale, refpos and refquat apply as usual).
//
// Vertex sets measured on MuJoCo 3.12.1 (mesh_vert of compiled models; the body masses and
// inertias of tests/models/mjcf3/builtin_mesh.xml agree, tests/reference/mjcf3_test.cc):
//  - cone (nedge, radius): nedge >= 3 points at angles 2 pi i / nedge on the unit circle at
//    z = -1, and the same at `radius` at z = +1 (radius 0: one apex (0, 0, 1); radius 1: a prism).
//  - sphere (subdivision 0..4): the unit icosahedron with vertices (+-1, +-phi, 0) and their
//    cyclic permutations, normalised; each subdivision splits every triangle in four at its edge
//    midpoints pushed out to the unit sphere, so V = 2 + 10 4^s.
// hemisphere, supersphere, supertorus, wedge and plate are refused: their sampling is not
// measured yet.
#include <cmath>
#include <cstdio>
#include <string>
#include <map>
#include <utility>
#include <vector>

#include "mjcf/attributes.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

std::string Format(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// An integer parameter, checked against [lo, hi]. (params) => (value)
int IntParam(const XmlElement& e, const std::vector<double>& params, int i, int lo, int hi,
             const char* what) {
  const double v = params[i];
  if (v != std::floor(v) || v < lo || v > hi) {
    throw Error(e.Where("params"), std::string(what) + " must be a whole number in [" +
                                       std::to_string(lo) + ", " + std::to_string(hi) +
                                       "], found " + Format(v));
  }
  return static_cast<int>(v);
}

// (nedge, radius) => (vertices)
void Cone(int nedge, double radius, std::vector<double>* v) {
  const double kPi = 3.14159265358979323846;
  for (int i = 0; i < nedge; ++i) {
    const double a = 2 * kPi * i / nedge;
    v->insert(v->end(), {std::cos(a), std::sin(a), -1});
  }
  if (radius == 0) {
    v->insert(v->end(), {0, 0, 1});
    return;
  }
  for (int i = 0; i < nedge; ++i) {
    const double a = 2 * kPi * i / nedge;
    v->insert(v->end(), {radius * std::cos(a), radius * std::sin(a), 1});
  }
}

// (subdivisions) => (vertices of the icosphere)
void Icosphere(int subdivisions, std::vector<double>* v) {
  const double phi = (1 + std::sqrt(5.0)) / 2;
  const double base[12][3] = {{-1, phi, 0}, {1, phi, 0},  {-1, -phi, 0}, {1, -phi, 0},
                              {0, -1, phi}, {0, 1, phi},  {0, -1, -phi}, {0, 1, -phi},
                              {phi, 0, -1}, {phi, 0, 1},  {-phi, 0, -1}, {-phi, 0, 1}};
  std::vector<int> faces = {0, 11, 5, 0, 5,  1,  0,  1, 7, 0, 7,  10, 0, 10, 11,
                            1, 5,  9, 5, 11, 4,  11, 10, 2, 10, 7, 6, 7, 1,  8,
                            3, 9,  4, 3, 4,  2,  3,  2, 6, 3, 6,  8, 3, 8,  9,
                            4, 9,  5, 2, 4,  11, 6,  2, 10, 8, 6, 7, 9, 8,  1};
  auto push_unit = [&](double x, double y, double z) {
    const double n = std::sqrt(x * x + y * y + z * z);
    v->insert(v->end(), {x / n, y / n, z / n});
    return static_cast<int>(v->size() / 3) - 1;
  };
  for (const auto& p : base) push_unit(p[0], p[1], p[2]);
  for (int level = 0; level < subdivisions; ++level) {
    std::map<std::pair<int, int>, int> midpoint;  // edge (smaller, larger) => new vertex
    auto mid = [&](int a, int b) {
      const std::pair<int, int> key(std::min(a, b), std::max(a, b));
      const auto it = midpoint.find(key);
      if (it != midpoint.end()) return it->second;
      const double* pa = &(*v)[3 * a];
      const double* pb = &(*v)[3 * b];
      const int m = push_unit((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2);
      midpoint[key] = m;
      return m;
    };
    std::vector<int> next;
    for (std::size_t f = 0; f < faces.size(); f += 3) {
      const int a = faces[f], b = faces[f + 1], c = faces[f + 2];
      const int ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
    }
    faces = std::move(next);
  }
}

}  // namespace

// (<mesh builtin params>) => (mesh.vertex)
void ReadBuiltinMesh(const XmlElement& e, MeshSpec* mesh) {
  int type = 0;
  ReadKeyword(e, "builtin", {"none", "sphere", "hemisphere", "cone", "supersphere",
                             "supertorus", "wedge", "plate"}, &type);
  if (type == 0) return;
  if (e.Find("file") || e.Find("vertex")) {
    throw Error(e.Where("builtin"), "a builtin mesh takes no file or vertex list");
  }
  std::vector<double> params;
  ReadNumberList(e, "params", &params);
  auto need = [&](std::size_t n, const char* shape) {
    if (params.size() != n) {
      throw Error(e.Where("params"), std::string("a builtin ") + shape + " takes " +
                                         std::to_string(n) + " parameters, found " +
                                         std::to_string(params.size()));
    }
  };
  if (type == 1) {
    need(1, "sphere (subdivision)");
    Icosphere(IntParam(e, params, 0, 0, 4, "the subdivision"), &mesh->vertex);
  } else if (type == 3) {
    need(2, "cone (nedge, radius)");
    const int nedge = IntParam(e, params, 0, 3, 1000000, "the number of edges");
    if (!(params[1] >= 0 && params[1] <= 1)) {
      throw Error(e.Where("params"), "the cone's top radius must be in [0, 1], found " +
                                         Format(params[1]));
    }
    Cone(nedge, params[1], &mesh->vertex);
  } else {
    NotSupported(e, "builtin mesh shape '" + *e.Find("builtin") +
                        "' (only sphere and cone are generated)", "builtin");
  }
}

}  // namespace gauss::mjcf
