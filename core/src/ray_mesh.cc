// Ray casting against triangle geometry: meshes (their triangles, not their convex hulls) and
// height fields (the solid between the base and the elevation surface). Semantics of MuJoCo
// 2.2.2's mj_ray, measured with mjref (tests/reference/hfield_test.cc):
//  - a mesh is hit at its nearest triangle, from either side; the ray is first tested against
//    the geom's box (geom_size), which holds every vertex;
//  - a height field is the solid |x| <= size0, |y| <= size1, -size3 <= z <= elevation(x, y):
//    its top surface, its four sides (whose top edge follows the boundary samples), its base,
//    and - as in MuJoCo, which intersects a base box from z = -size3 to 0 and the surface
//    above it - the plane z = 0 inside it: a ray that starts inside the solid above z = 0 and
//    goes down stops there. Each grid cell is split along the diagonal from sample (r, c) to (r + 1, c + 1),
//    as for collisions (plugins/colliders/ccd/hfield.cc).
// Distances are in units of |vec|, as for the primitives (ray.cc).
#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "gauss/sensor_support.h"

namespace gauss {

using namespace math;

namespace {

// Distance along the local ray (p, v) to the triangle (a, b, c), either side, or -1: the plane
// hit, kept when it lies inside all three edges (on an edge counts). (triangle, ray) => x
double RayTriangle(const double a[3], const double b[3], const double c[3], const double p[3],
                   const double v[3]) {
  double ab[3], ac[3], n[3], ap[3];
  Sub3(ab, b, a);
  Sub3(ac, c, a);
  Cross3(n, ab, ac);
  const double denom = Dot3(v, n);
  if (std::fabs(denom) < kMinVal) return -1;  // parallel to the plane (or degenerate)
  Sub3(ap, a, p);
  const double x = Dot3(ap, n) / denom;
  if (x < 0) return -1;
  double hit[3];
  for (int k = 0; k < 3; ++k) hit[k] = p[k] + x * v[k];
  // inside: the hit is on the inner side of each edge, relative to the triangle's normal
  const double* corner[3] = {a, b, c};
  for (int e = 0; e < 3; ++e) {
    const double* from = corner[e];
    const double* to = corner[(e + 1) % 3];
    double edge[3], rel[3], side[3];
    Sub3(edge, to, from);
    Sub3(rel, hit, from);
    Cross3(side, edge, rel);
    if (Dot3(side, n) < 0) return -1;
  }
  return x;
}

// The parameter range [*t0, *t1] of the local ray inside the box lo..hi; false when it misses
// the box or the box lies behind the ray's start. (ray, box) => (range)
bool ClipToBox(const double p[3], const double v[3], const double lo[3], const double hi[3],
               double* t0, double* t1) {
  double enter = 0, leave = INFINITY;
  for (int k = 0; k < 3; ++k) {
    if (std::fabs(v[k]) < kMinVal) {
      if (p[k] < lo[k] || p[k] > hi[k]) return false;
      continue;
    }
    double a = (lo[k] - p[k]) / v[k], b = (hi[k] - p[k]) / v[k];
    if (a > b) std::swap(a, b);
    enter = std::max(enter, a);
    leave = std::min(leave, b);
  }
  *t0 = enter;
  *t1 = leave;
  return enter <= leave;
}

// Height of the boundary of a height field at the position `u` along one side, from the
// boundary samples data[first + k * stride] (k = 0..n-1, spacing `step`, starting at -half).
double BoundaryHeight(const double* data, int first, int stride, int n, double step, double half,
                      double u, double scale) {
  const double s = (u + half) / step;
  const int k = std::clamp(static_cast<int>(std::floor(s)), 0, n - 2);
  const double w = std::clamp(s - k, 0.0, 1.0);
  return scale * ((1 - w) * data[first + k * stride] + w * data[first + (k + 1) * stride]);
}

}  // namespace

// (mesh triangles, geom pose and size) => distance or -1
double RayMesh(const Model& m, const Data& d, int g, const double pnt[3], const double vec[3]) {
  const double* pos = d.geom_xpos.data() + 3 * g;
  const double* mat = d.geom_xmat.data() + 9 * g;
  if (RayGeom(pos, mat, m.geom_size.data() + 3 * g, pnt, vec, GeomType::kBox) < 0) return -1;
  double lp[3], lv[3], offset[3];
  Sub3(offset, pnt, pos);
  MulMatTVec3(lp, mat, offset);
  MulMatTVec3(lv, mat, vec);
  const int mesh = m.geom_dataid[g];
  const double* vert = m.mesh_vert.data() + 3 * m.mesh_vertadr[mesh];
  const int* face = m.mesh_face.data() + 3 * m.mesh_faceadr[mesh];
  double best = -1;
  for (int f = 0; f < m.mesh_facenum[mesh]; ++f) {
    const double x = RayTriangle(vert + 3 * face[3 * f], vert + 3 * face[3 * f + 1],
                                 vert + 3 * face[3 * f + 2], lp, lv);
    if (x >= 0 && (best < 0 || x < best)) best = x;
  }
  return best;
}

// (height field samples, geom pose) => distance or -1
double RayHfield(const Model& m, const Data& d, int g, const double pnt[3], const double vec[3]) {
  const int id = m.geom_dataid[g];
  const double* s = m.hfield_size.data() + 4 * id;
  const int nrow = m.hfield_nrow[id], ncol = m.hfield_ncol[id];
  const double* data = m.hfield_data.data() + m.hfield_adr[id];
  const double* pos = d.geom_xpos.data() + 3 * g;
  const double* mat = d.geom_xmat.data() + 9 * g;
  double lp[3], lv[3], offset[3];
  Sub3(offset, pnt, pos);
  MulMatTVec3(lp, mat, offset);
  MulMatTVec3(lv, mat, vec);

  const double lo[3] = {-s[0], -s[1], -s[3]}, hi[3] = {s[0], s[1], s[2]};
  double t0 = 0, t1 = 0;
  if (!ClipToBox(lp, lv, lo, hi, &t0, &t1)) return -1;
  auto keep = [](double best, double x) { return x >= 0 && (best < 0 || x < best) ? x : best; };
  double best = -1;

  // the base box (z from -size3 to 0: its bottom, its four sides and its top face z = 0, which
  // MuJoCo counts as a surface: a ray starting inside the solid above z = 0 and going down
  // hits it) and the sides of the part above it, up to the boundary samples' height
  const double dx = 2 * s[0] / (ncol - 1), dy = 2 * s[1] / (nrow - 1);
  for (int axis = 0; axis < 3; ++axis) {
    if (std::fabs(lv[axis]) < kMinVal) continue;
    for (double plane : {lo[axis], axis == 2 ? 0.0 : hi[axis]}) {
      const double x = (plane - lp[axis]) / lv[axis];
      if (x < 0) continue;
      double hit[3];
      for (int k = 0; k < 3; ++k) hit[k] = lp[k] + x * lv[k];
      if (std::fabs(hit[0]) > s[0] || std::fabs(hit[1]) > s[1]) continue;
      if (axis == 2) {  // the base or the plane z = 0 (no height test: hit[2] is that plane)
        best = keep(best, x);
        continue;
      }
      if (hit[2] < -s[3]) continue;
      double top = 0;
      if (axis == 0) {  // side x = +-size0: column 0 or ncol-1, along y
        top = BoundaryHeight(data, plane > 0 ? ncol - 1 : 0, ncol, nrow, dy, s[1], hit[1], s[2]);
      } else {  // side y = +-size1: row 0 or nrow-1, along x
        top = BoundaryHeight(data, plane > 0 ? (nrow - 1) * ncol : 0, 1, ncol, dx, s[0], hit[0],
                             s[2]);
      }
      if (hit[2] <= std::max(top, 0.0)) best = keep(best, x);
    }
  }

  // the top surface: the cells under the ray's stretch inside the box (one cell of padding)
  const double sx[2] = {(lp[0] + t0 * lv[0] + s[0]) / dx, (lp[0] + t1 * lv[0] + s[0]) / dx};
  const double sy[2] = {(lp[1] + t0 * lv[1] + s[1]) / dy, (lp[1] + t1 * lv[1] + s[1]) / dy};
  const int cmin = std::max(0, static_cast<int>(std::floor(std::min(sx[0], sx[1]))) - 1);
  const int cmax = std::min(ncol - 1, static_cast<int>(std::ceil(std::max(sx[0], sx[1]))) + 1);
  const int rmin = std::max(0, static_cast<int>(std::floor(std::min(sy[0], sy[1]))) - 1);
  const int rmax = std::min(nrow - 1, static_cast<int>(std::ceil(std::max(sy[0], sy[1]))) + 1);
  auto point = [&](int r, int c, double out[3]) {
    out[0] = dx * c - s[0];
    out[1] = dy * r - s[1];
    out[2] = data[r * ncol + c] * s[2];
  };
  for (int r = rmin; r < rmax; ++r) {
    for (int c = cmin; c < cmax; ++c) {
      double p00[3], p01[3], p10[3], p11[3];  // p<row offset><column offset>
      point(r, c, p00);
      point(r, c + 1, p01);
      point(r + 1, c, p10);
      point(r + 1, c + 1, p11);
      best = keep(best, RayTriangle(p00, p11, p01, lp, lv));
      best = keep(best, RayTriangle(p00, p11, p10, lp, lv));
    }
  }
  return best;
}

}  // namespace gauss
