// Support points for GJK and EPA by MuJoCo 3.12's rules (measured against its contacts in
// tests/reference/native_ccd_reference_test.cc; they differ from the MPR ones of support.cc):
//   sphere    centre + r d, in world coordinates (d is a unit vector)
//   capsule   r d + (d_z >= 0 ? h : -h) z          (local frame)
//   ellipsoid s * (s * d) / |s * d|                (a zero s * d gives the x end)
//   cylinder  r d_xy / |d_xy| + (d_z >= 0 ? h : -h) z (no radial part when |d_xy|^2 < 1e-30)
//   box       (d_i >= 0 ? s_i : -s_i) per axis     (a zero component picks the + side)
//   mesh      the vertex with the largest d.v: every vertex for meshes under 10 vertices, else
//             hill climbing over the hull graph; both start from the previous answer
//   point     the centre (sphere core);  segment: the axis end (d_z >= 0 ? +h : -h) (capsule core)
// then the inflation adds (margin / 2) d in world coordinates.
#include <cfloat>

#include "gauss/math.h"
#include "native_ccd.h"

namespace gauss::ccd {

using namespace math;

namespace {

// Meshes with fewer vertices are searched exhaustively (MuJoCo 3.12's threshold).
constexpr int kHillClimbMinVertices = 10;

// (local point, geom pose) => world point: mat * p + pos
void ToWorld(const ConvexGeom& g, const double local[3], double out[3]) {
  MulMatVec3(out, g.mat, local);
  AddTo3(out, g.pos);
}

// (mesh shape, local direction) => index of the mesh vertex with the largest projection
int MeshVertexSearch(NativeShape& s, const double dir[3]) {
  const MeshHull& hull = s.geom->hull;
  if (s.mesh_nvert < kHillClimbMinVertices || hull.nvert == 0) {
    // every vertex, the previous answer first so that ties keep it
    int best = 0;
    double best_proj = -FLT_MAX;
    if (s.last_vertex >= 0) {
      best = s.last_vertex;
      best_proj = Dot3(dir, hull.vert + 3 * best);
    }
    for (int i = 0; i < s.mesh_nvert; ++i) {
      const double p = Dot3(dir, hull.vert + 3 * i);
      if (p > best_proj) {
        best_proj = p;
        best = i;
      }
    }
    s.last_vertex = best;
    return best;
  }
  // hill climbing from the previous hull vertex: the start itself is not scored, so the first
  // neighbour always takes over and the climb goes on until a sweep changes nothing
  int best = s.last_hull < 0 ? 0 : s.last_hull;
  double best_proj = -FLT_MAX;
  int from;
  do {
    from = best;
    for (int e = hull.edge_adr[from]; e < hull.edge_adr[from + 1]; ++e) {
      const int v = hull.edges[e];
      const double p = Dot3(dir, hull.Vertex(v));
      if (p > best_proj) {
        best_proj = p;
        best = v;
      }
    }
  } while (best != from);
  s.last_hull = best;
  s.last_vertex = hull.vert_id[best];
  return s.last_vertex;
}

}  // namespace

// (geom, margin) => shape
NativeShape MakeNativeShape(const Model& m, const ConvexGeom& g, double margin) {
  NativeShape s;
  s.geom = &g;
  s.half_margin = 0.5 * margin;
  if (g.type == GeomType::kMesh) s.mesh_nvert = m.mesh_vertnum[m.geom_dataid[g.geom]];
  return s;
}

// (shape, unit world direction) => world support point
void NativeSupport(NativeShape& s, const double dir[3], double out[3]) {
  const ConvexGeom& g = *s.geom;
  const double* size = g.size;
  double local_dir[3], local[3];
  if (s.core == Core::kPoint) {
    Copy3(out, g.pos);
  } else if (g.type == GeomType::kSphere && s.core == Core::kGeom) {
    for (int i = 0; i < 3; ++i) out[i] = size[0] * dir[i] + g.pos[i];
  } else {
    MulMatTVec3(local_dir, g.mat, dir);
    const double half_z = local_dir[2] >= 0 ? size[1] : -size[1];
    switch (g.type) {
      case GeomType::kCapsule:
        if (s.core == Core::kSegment) {  // the core: the axis segment
          local[0] = local[1] = 0;
          local[2] = half_z;
          break;
        }
        Scale3(local, local_dir, size[0]);
        local[2] += half_z;
        break;
      case GeomType::kEllipsoid: {
        for (int i = 0; i < 3; ++i) local[i] = local_dir[i] * size[i];
        const double n = Norm3(local);
        if (n < kMinVal) {
          local[0] = size[0];
          local[1] = local[2] = 0;
        } else {
          const double inv = 1 / n;
          for (int i = 0; i < 3; ++i) local[i] *= inv * size[i];
        }
        break;
      }
      case GeomType::kCylinder: {
        double r2 = local_dir[0] * local_dir[0] + local_dir[1] * local_dir[1];
        if (r2 > kMinVal * kMinVal) {
          r2 = size[0] / std::sqrt(r2);
          local[0] = local_dir[0] * r2;
          local[1] = local_dir[1] * r2;
        } else {
          local[0] = local[1] = 0;
        }
        local[2] = half_z;
        break;
      }
      case GeomType::kBox:
        for (int i = 0; i < 3; ++i) local[i] = (local_dir[i] >= 0 ? 1 : -1) * size[i];
        break;
      case GeomType::kMesh:
        Copy3(local, g.hull.vert + 3 * MeshVertexSearch(s, local_dir));
        break;
      default:
        Zero3(local);
    }
    ToWorld(g, local, out);
  }
  if (s.half_margin > 0) AddScaled3(out, dir, s.half_margin);
}

}  // namespace gauss::ccd
