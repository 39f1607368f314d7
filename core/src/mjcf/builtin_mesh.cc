// MuJoCo 3.x procedural meshes, <mesh builtin="..." params="...">: the compiler makes the
// vertices, and the mesh then goes the way of an inline `vertex` mesh without faces (its convex
// hull; scale, refpos and refquat apply as usual).
//
// Vertex sets measured on MuJoCo 3.12.1 (its mesh_vert mapped back through mesh_pos/mesh_quat;
// tests/reference/mjcf3/builtin_vertices.csv, checked by tests/reference/mjcf3_test.cc), in
// MuJoCo's order. c(w, m) = sign(cos w) |cos w|^m and s(w, m) = sign(sin w) |sin w|^m:
//  - cone (nedge, radius): nedge >= 3 points at angles 2 pi i / nedge on the unit circle at
//    z = -1, and the same at `radius` at z = +1 (radius 0: one apex (0, 0, 1); radius 1: a prism).
//  - sphere (subdivision 0..4): the unit icosahedron with vertices (+-1, +-phi, 0) and their
//    cyclic permutations, normalised; each subdivision splits every triangle in four at its edge
//    midpoints pushed out to the unit sphere, so V = 2 + 10 4^s.
//  - hemisphere (r in 0..10), N = r + 1: the pole (0, 0, 1); rings k = 1..N of the 4k integer
//    points (i, j) with |i| + |j| = k, counter-clockwise from (k, 0), lifted to z = N - k and
//    normalised (ring N is the equator); the centre (0, 0, 0). V = 2 + 2 N (N + 1).
//  - supersphere (res >= 3, e >= 0, n >= 0): the south pole (0, 0, -1), rings at latitudes
//    phi = -pi/2 + pi i / res (i = 1..res-1) of res points at longitudes theta = -pi + 2 pi j / res:
//    (c(phi, n) c(theta, e), c(phi, n) s(theta, e), s(phi, n)); the north pole (0, 0, 1).
//  - supertorus (res >= 3, radius in (0, 1], s > 0, t > 0): for v = 2 pi j / res (outer loop)
//    and u = 2 pi i / res (inner): ((1 + radius c(u, s)) c(v, t), (1 + radius c(u, s)) s(v, t),
//    radius s(u, s)), with the triangles of its grid (cell (j, i): (a, b, c), (b, d, c) for
//    a = (j, i), b = (j+1, i), c = (j, i+1), d = (j+1, i+1)). Not convex: its hull collides, and
//    it weighs by the default (legacy) rule on these triangles, as in 3.12 (measured: its hull
//    would be 3% heavier at radius 0.35). The convex shapes keep no triangles: their hull's
//    give the same mass properties as 3.12's own triangles.
//  - wedge (res_phi, res_theta >= 1, fov_phi in (0, 180], fov_theta in (0, 90) degrees,
//    gamma in [0, 1]): points of the unit sphere around -z, (cos th sin ph, sin th,
//    -cos th cos ph), ph outer and th inner. Along each axis [-1, 1] is cut into res equal
//    cells whose edges x are bent to (1 - gamma) x + gamma x^5 (foveal: finer near the centre);
//    the angle of cell k is fov times the mean of its two bent edges.
//  - plate (res_x, res_y >= 1): the centres of a res_x x res_y grid of cells on [-1, 1]^2 at
//    z = -1, x outer. Always flat, so it has no convex hull: Gauss refuses it (MuJoCo refuses
//    it in a geom but keeps an unused one, for its tactile sensors, which Gauss refuses).
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mjcf/attributes.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

constexpr double kPi = 3.14159265358979323846;

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


// sign(cos w) |cos w|^m and sign(sin w) |sin w|^m: the superquadric "signed powers".
double SignedCos(double w, double m) {
  const double c = std::cos(w);
  return std::copysign(std::pow(std::fabs(c), m), c);
}
double SignedSin(double w, double m) {
  const double s = std::sin(w);
  return std::copysign(std::pow(std::fabs(s), m), s);
}

// (resolution) => (vertices of the hemisphere)
void Hemisphere(int resolution, std::vector<double>* v) {
  const int rings = resolution + 1;
  v->insert(v->end(), {0, 0, 1});
  for (int k = 1; k <= rings; ++k) {
    // 4k lattice points with |i| + |j| = k, counter-clockwise from (k, 0), one quadrant at a time
    for (int q = 0; q < 4; ++q) {
      for (int step = 0; step < k; ++step) {
        const int a = k - step, b = step;  // (a, b) in the first quadrant, rotated q quarters
        const int i = q == 0 ? a : q == 1 ? -b : q == 2 ? -a : b;
        const int j = q == 0 ? b : q == 1 ? a : q == 2 ? -b : -a;
        const double z = rings - k;
        const double n = std::sqrt(static_cast<double>(i * i + j * j) + z * z);
        v->insert(v->end(), {i / n, j / n, z / n});
      }
    }
  }
  v->insert(v->end(), {0, 0, 0});
}

// (resolution, e, n) => (vertices of the supersphere)
void Supersphere(int res, double e, double n, std::vector<double>* v) {
  v->insert(v->end(), {0, 0, -1});
  for (int i = 1; i < res; ++i) {
    const double phi = -kPi / 2 + kPi * i / res;
    for (int j = 0; j < res; ++j) {
      const double theta = -kPi + 2 * kPi * j / res;
      const double r = SignedCos(phi, n);
      v->insert(v->end(), {r * SignedCos(theta, e), r * SignedSin(theta, e), SignedSin(phi, n)});
    }
  }
  v->insert(v->end(), {0, 0, 1});
}

// (resolution, minor radius, s, t) => (vertices and triangles of the supertorus)
void Supertorus(int res, double radius, double s, double t, std::vector<double>* v,
                std::vector<int>* faces) {
  for (int j = 0; j < res; ++j) {
    const double major = 2 * kPi * j / res;
    for (int i = 0; i < res; ++i) {
      const double minor = 2 * kPi * i / res;
      const double r = 1 + radius * SignedCos(minor, s);
      v->insert(v->end(), {r * SignedCos(major, t), r * SignedSin(major, t),
                           radius * SignedSin(minor, s)});
    }
  }
  // each grid cell (j, i) as two triangles, as MuJoCo 3.12.1 splits it (measured mesh_face)
  for (int j = 0; j < res; ++j) {
    for (int i = 0; i < res; ++i) {
      const int a = j * res + i, b = (j + 1) % res * res + i;
      const int c = j * res + (i + 1) % res, d = (j + 1) % res * res + (i + 1) % res;
      faces->insert(faces->end(), {a, b, c, b, d, c});
    }
  }
}

// Cell k of `res` equal cells on [-1, 1], edges bent by x -> (1 - gamma) x + gamma x^5: the mean
// of its two bent edges (gamma 0: the cell's centre). (res, k, gamma) => (position in [-1, 1])
double FovealCell(int res, int k, double gamma) {
  auto bend = [gamma](double x) { return (1 - gamma) * x + gamma * std::pow(x, 5); };
  return (bend(-1 + 2.0 * k / res) + bend(-1 + 2.0 * (k + 1) / res)) / 2;
}

// (resolutions, fields of view in degrees, gamma) => (vertices of the wedge)
void Wedge(int res_phi, int res_theta, double fov_phi, double fov_theta, double gamma,
           std::vector<double>* v) {
  const double deg = kPi / 180;
  for (int a = 0; a < res_phi; ++a) {
    const double ph = fov_phi * deg * FovealCell(res_phi, a, gamma);
    for (int b = 0; b < res_theta; ++b) {
      const double th = fov_theta * deg * FovealCell(res_theta, b, gamma);
      v->insert(v->end(), {std::cos(th) * std::sin(ph), std::sin(th), -std::cos(th) * std::cos(ph)});
    }
  }
}

// (resolutions) => (vertices of the plate)
void Plate(int res_x, int res_y, std::vector<double>* v) {
  for (int a = 0; a < res_x; ++a) {
    for (int b = 0; b < res_y; ++b) {
      v->insert(v->end(), {FovealCell(res_x, a, 0), FovealCell(res_y, b, 0), -1});
    }
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
  // a real parameter in an interval, open or closed at each end
  auto real = [&](int i, double lo, bool lo_open, double hi, bool hi_open, const char* what) {
    const double x = params[i];
    if ((lo_open ? x <= lo : x < lo) || (hi_open ? x >= hi : x > hi)) {
      throw Error(e.Where("params"), std::string(what) + " must be in " + (lo_open ? "(" : "[") +
                                         Format(lo) + ", " + Format(hi) + (hi_open ? ")" : "]") +
                                         ", found " + Format(x));
    }
    return x;
  };
  const double kInf = std::numeric_limits<double>::infinity();
  std::vector<double>* v = &mesh->vertex;
  if (type == 1) {
    need(1, "sphere (subdivision)");
    Icosphere(IntParam(e, params, 0, 0, 4, "the subdivision"), v);
  } else if (type == 2) {
    need(1, "hemisphere (resolution)");
    Hemisphere(IntParam(e, params, 0, 0, 10, "the resolution"), v);
  } else if (type == 3) {
    need(2, "cone (nedge, radius)");
    const int nedge = IntParam(e, params, 0, 3, 1000000, "the number of edges");
    Cone(nedge, real(1, 0, false, 1, false, "the cone's top radius"), v);
  } else if (type == 4) {
    need(3, "supersphere (resolution, e, n)");
    const int res = IntParam(e, params, 0, 3, 1000, "the resolution");
    Supersphere(res, real(1, 0, false, kInf, true, "the exponent e"),
                real(2, 0, false, kInf, true, "the exponent n"), v);
  } else if (type == 5) {
    need(4, "supertorus (resolution, radius, s, t)");
    const int res = IntParam(e, params, 0, 3, 1000, "the resolution");
    Supertorus(res, real(1, 0, true, 1, false, "the minor radius"),
               real(2, 0, true, kInf, true, "the exponent s"),
               real(3, 0, true, kInf, true, "the exponent t"), v, &mesh->face);
  } else if (type == 6) {
    need(5, "wedge (res_phi, res_theta, fov_phi, fov_theta, gamma)");
    const int res_phi = IntParam(e, params, 0, 1, 1000, "res_phi");
    const int res_theta = IntParam(e, params, 1, 1, 1000, "res_theta");
    Wedge(res_phi, res_theta, real(2, 0, true, 180, false, "fov_phi (degrees)"),
          real(3, 0, true, 90, true, "fov_theta (degrees)"),
          real(4, 0, false, 1, false, "gamma"), v);
  } else {
    need(2, "plate (res_x, res_y)");
    Plate(IntParam(e, params, 0, 1, 1000, "res_x"), IntParam(e, params, 1, 1, 1000, "res_y"), v);
  }
}

}  // namespace gauss::mjcf
