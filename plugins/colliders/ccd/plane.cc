// Planes against ellipsoids and meshes: the contacts are the points of the geom deepest below
// the plane (MuJoCo 2.2.2's plane-convex collider, measured as a black box).
//
// The plane is geom 1; its local z axis is the normal. The contact at a point x of the other
// geom at signed height h = n.(x - origin) has dist = h, position x - (h / 2) n (midway to the
// plane surface) and normal n; it exists when h <= margin.
//  - ellipsoid: the support point along -n, one contact;
//  - mesh: the deepest vertex of its convex hull, then up to two more hull vertices within
//    the margin: the one farthest from the first along the plane, then the one farthest from
//    the line through both, so that the three span the largest triangle the contact patch
//    allows. MuJoCo 2.2.2 also stops at three contacts (measured on 20 000 random poses of a
//    box mesh and an octagonal prism), but takes the first two hull neighbours of the deepest
//    vertex within the margin in its qhull graph's order: three corners bunched on one side of
//    a face, under which a flat mesh rocks and sinks on the unsupported side (measured: an
//    octagonal prism resting on a floor rocks at 0.1 rad/s in MuJoCo; here it comes to rest).
#include <cmath>

#include "ccd_collider.h"
#include "gauss/math.h"

namespace gauss::ccd {

using namespace math;

namespace {

// Contact of world point x at height h above the plane with normal n. (x, h, n) => (out)
void PlanePoint(const double n[3], const double x[3], double h, Contact* out) {
  out->dist = h;
  for (int i = 0; i < 3; ++i) out->pos[i] = x[i] - 0.5 * h * n[i];
  Copy3(out->frame, n);
  Zero3(out->frame + 3);
}

// World position of hull vertex i of mesh geom g and its height above the plane.
double HullPointHeight(const ConvexGeom& g, int i, const double origin[3], const double n[3],
                       double x[3]) {
  MulMatVec3(x, g.mat, g.hull.Vertex(i));
  AddTo3(x, g.pos);
  double dif[3];
  Sub3(dif, x, origin);
  return Dot3(dif, n);
}

}  // namespace

// (plane pose, geom pose and shape) => (contacts), returns their number
int PlaneConvex(const Model& m, const Data& d, int p, int g, double margin, Contact* out,
                int max_contacts) {
  const double* pmat = d.geom_xmat.data() + 9 * p;
  const double* origin = d.geom_xpos.data() + 3 * p;
  const double n[3] = {pmat[2], pmat[5], pmat[8]};
  const double down[3] = {-n[0], -n[1], -n[2]};
  ConvexGeom geom;
  MakeConvexGeom(m, d, g, 0, &geom);

  if (geom.type != GeomType::kMesh) {
    double x[3], dif[3];
    SupportPoint(geom, down, x);
    Sub3(dif, x, origin);
    const double h = Dot3(dif, n);
    if (h > margin) return 0;
    PlanePoint(n, x, h, out);
    return 1;
  }

  // deepest hull vertex
  double local_down[3], x[3];
  MulMatTVec3(local_down, geom.mat, down);
  const int v0 = MeshSupportVertex(geom.hull, local_down);
  const double h0 = HullPointHeight(geom, v0, origin, n, x);
  if (h0 > margin) return 0;
  PlanePoint(n, x, h0, out);
  int count = 1;

  // two more hull vertices within the margin, spanning the largest triangle with the deepest
  // one: the farthest from it (along the plane), then the one farthest from their line
  const MeshHull& hull = geom.hull;
  double a[3], ab[3] = {0, 0, 0};
  HullPointHeight(geom, v0, origin, n, a);
  int best[2] = {-1, -1};
  double far = 0;
  for (int v = 0; v < hull.nvert; ++v) {
    const double h = HullPointHeight(geom, v, origin, n, x);
    if (h > margin || v == v0) continue;
    double d[3];
    Sub3(d, x, a);
    AddScaled3(d, n, -Dot3(d, n));
    if (Dot3(d, d) > far) {
      far = Dot3(d, d);
      best[0] = v;
      Copy3(ab, d);
    }
  }
  double area = 0;
  for (int v = 0; v < hull.nvert && best[0] >= 0; ++v) {
    const double h = HullPointHeight(geom, v, origin, n, x);
    if (h > margin || v == v0 || v == best[0]) continue;
    double d[3], c[3];
    Sub3(d, x, a);
    Cross3(c, ab, d);
    const double twice = std::fabs(Dot3(c, n));  // twice the triangle's area on the plane
    if (twice > area) {
      area = twice;
      best[1] = v;
    }
  }
  for (int k = 0; k < 2 && best[k] >= 0 && count < max_contacts; ++k) {
    const double h = HullPointHeight(geom, best[k], origin, n, x);
    PlanePoint(n, x, h, out + count++);
  }
  return count;
}

}  // namespace gauss::ccd
