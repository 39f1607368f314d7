// Support functions of the convex geoms for libccd's MPR.
//
// A support function maps a direction to the geom's point farthest along it. The direction is
// turned into the geom frame, the local support point is computed per type, turned back, and
// the geom is inflated by half the pair's margin along the direction (in the geom frame, before
// rotating back: that order reproduces MuJoCo's results bit for bit). The per-type rules are
// those MuJoCo 2.2.2 uses (measured by calling its support callbacks with chosen directions),
// so that libccd, run on the same points, takes the same iterations:
//   sphere    r d                              (d not normalized)
//   capsule   r d + sign(d_z) h z
//   ellipsoid s * normalize(s * d)             (* per axis; a zero vector becomes x)
//   cylinder  r d_xy / |d_xy| + sign(d_z) h z  (no radial part when |d_xy| < 1e-15)
//   box       sign(d_i) s_i per axis           (sign(0) = 0: the middle of a face or edge)
//   mesh      the hull vertex with the largest d.v, by hill climbing over the hull graph
// and the inflation adds (margin / 2) d, again with d as given.
#include <cmath>

#include "ccd_collider.h"
#include "gauss/math.h"

namespace gauss::ccd {

using namespace math;

namespace {

inline double Sign(double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

// The local support point of geom g along the local direction d. (g, d) => (res)
void LocalSupport(const ConvexGeom& g, const double d[3], double res[3]) {
  const double* s = g.size;
  switch (g.type) {
    case GeomType::kSphere:
      Scale3(res, d, s[0]);
      break;
    case GeomType::kCapsule:
      Scale3(res, d, s[0]);
      res[2] += Sign(d[2]) * s[1];
      break;
    case GeomType::kEllipsoid: {
      double v[3] = {d[0] * s[0], d[1] * s[1], d[2] * s[2]};
      Normalize3(v);
      for (int i = 0; i < 3; ++i) res[i] = v[i] * s[i];
      break;
    }
    case GeomType::kCylinder: {
      const double n = std::sqrt(d[0] * d[0] + d[1] * d[1]);
      res[0] = n > kMinVal ? d[0] / n * s[0] : 0;  // this rounding order is MuJoCo's
      res[1] = n > kMinVal ? d[1] / n * s[0] : 0;
      res[2] = Sign(d[2]) * s[1];
      break;
    }
    case GeomType::kBox:
      for (int i = 0; i < 3; ++i) res[i] = Sign(d[i]) * s[i];
      break;
    case GeomType::kMesh: {
      Copy3(res, g.hull.Vertex(MeshSupportVertex(g.hull, d)));
      break;
    }
    default:
      Zero3(res);
  }
}

}  // namespace

// (geom_xpos, geom_xmat, geom_size, mesh hull of g) => geom
void MakeConvexGeom(const Model& m, const Data& d, int g, double margin, ConvexGeom* geom) {
  geom->type = m.geom_type[g];
  geom->geom = g;
  Copy3(geom->pos, d.geom_xpos.data() + 3 * g);
  for (int i = 0; i < 9; ++i) geom->mat[i] = d.geom_xmat[9 * g + i];
  geom->size = m.geom_size.data() + 3 * g;
  geom->half_margin = margin / 2;
  if (geom->type == GeomType::kMesh) geom->hull = GetMeshHull(m, m.geom_dataid[g]);
}

// (hull, local direction) => hull vertex with the largest projection
int MeshSupportVertex(const MeshHull& hull, const double dir[3]) {
  auto proj = [&](int i) { return Dot3(hull.Vertex(i), dir); };
  // steepest ascent along hull edges: on a convex polytope a vertex no neighbour improves on
  // is a global maximum (up to the hull's coplanarity tolerance). When two vertices are equally
  // far, the answer depends on the path: like MuJoCo 2.2.2, every search starts at hull vertex
  // 0 (no warm start from the previous support point), moves only on strict improvement, and
  // moves to the first best neighbour in the graph's order, which is qhull's as in MuJoCo
  // (core/src/mjcf/convex_hull.h); measured bit-equal in tests/reference/ccd_reference_test.cc
  int cur = 0;
  double cur_proj = proj(cur);
  for (;;) {
    int next = cur;
    double next_proj = cur_proj;
    for (int e = hull.edge_adr[cur]; e < hull.edge_adr[cur + 1]; ++e) {
      const double p = proj(hull.edges[e]);
      if (p > next_proj) {
        next_proj = p;
        next = hull.edges[e];
      }
    }
    if (next == cur) return cur;
    cur = next;
    cur_proj = next_proj;
  }
}

// libccd support callback. (geom, world direction) => (world support point)
void Support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const ConvexGeom& g = *static_cast<const ConvexGeom*>(obj);
  double local_dir[3], local[3], world[3];
  MulMatTVec3(local_dir, g.mat, dir->v);
  LocalSupport(g, local_dir, local);
  // inflate in the geom frame, then place: the same rounding as MuJoCo (bitwise, measured)
  AddScaled3(local, local_dir, g.half_margin);
  MulMatVec3(world, g.mat, local);
  for (int i = 0; i < 3; ++i) out->v[i] = world[i] + g.pos[i];
}

// libccd centre callback. (geom) => (centre)
void Center(const void* obj, ccd_vec3_t* out) {
  const ConvexGeom& g = *static_cast<const ConvexGeom*>(obj);
  for (int i = 0; i < 3; ++i) out->v[i] = g.pos[i];
}

// (geom, unit world direction) => (support point of the geom without inflation)
void SupportPoint(const ConvexGeom& g, const double dir[3], double out[3]) {
  double local_dir[3], local[3];
  MulMatTVec3(local_dir, g.mat, dir);
  LocalSupport(g, local_dir, local);
  MulMatVec3(out, g.mat, local);
  AddTo3(out, g.pos);
}

}  // namespace gauss::ccd
