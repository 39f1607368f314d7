// MuJoCo 3.12's native convex collision (the `nativeccd` enable flag): GJK for the distance of
// two convex geoms, EPA for their penetration, as docs/collision.md ("Native convex collision")
// describes. Independent of libccd: the geoms are ConvexGeom (pose, sizes, mesh hull) and every
// buffer lives on the stack, so no call allocates.
//
// Files: native_support.cc (support points by MuJoCo 3.12's rules), gjk.cc (distance and the
// intersection test), epa.cc (initial polytope and expansion), native_ccd.cc (the contact and
// the distance query built on them).
#pragma once

#include "ccd_collider.h"

namespace gauss::ccd {

// Which point set a shape's support function walks: the geom, or the core of a sphere (its
// centre) or of a capsule (its axis segment), which the distance query inflates afterwards.
enum class Core { kGeom, kPoint, kSegment };

// A geom as GJK and EPA see it: the geom, its inflation and the warm starts of the mesh searches
// (MuJoCo 3.12 starts each mesh support search from the previous answer of the same query).
struct NativeShape {
  const ConvexGeom* geom = nullptr;
  Core core = Core::kGeom;
  double half_margin = 0;  // the surface moves out by this along the support direction
  int mesh_nvert = 0;      // number of mesh vertices (meshes only)
  int last_vertex = -1;    // last support vertex of a mesh (mesh vertex index), -1: none yet
  int last_hull = -1;      // last support vertex of a mesh hull climb (hull index), -1: none
};

// (geom, margin of the pair, model for mesh sizes) => shape with its core set to kGeom
NativeShape MakeNativeShape(const Model& m, const ConvexGeom& g, double margin);

// Support point of the shape (core and inflation) along the unit world direction dir.
// (shape pose, sizes; warm starts) => (out; warm starts)
void NativeSupport(NativeShape& s, const double dir[3], double out[3]);

// A point of the Minkowski difference A - B with the two support points that make it.
struct MinkowskiPoint {
  double w[3];   // a - b
  double a[3];   // on shape A
  double b[3];   // on shape B
};

// The state of one query: settings, then what GJK and EPA found.
struct CcdQuery {
  int max_iterations = 35;  // GJK and EPA each
  double tolerance = 1e-6;
  // GJK stops as soon as the shapes are known to be more than `cutoff` apart; 0: only whether
  // they intersect is wanted (no distance when they do not)
  double cutoff = 0;

  double dist = 0;          // distance (> 0), 0 when touching or intersecting, or the depth (< 0)
  double a[3], b[3];        // witness points on A and B
  bool found = false;       // a and b are set
  MinkowskiPoint simplex[4];
  int nsimplex = 0;
  int iterations = 0;       // GJK iterations used so far
};

// Geometry shared by GJK and EPA (gjk.cc). Origin projected on the plane of triangle (a, b, c):
// r; true when the triangle is degenerate (no projection). (a, b, c) => (r)
bool ProjectOriginOnPlane(double r[3], const double a[3], const double b[3], const double c[3]);
// The axis plane (x, y) where triangle (a, b, c) casts its largest shadow; returns that
// shadow's signed area.
double LargestShadow(const double a[3], const double b[3], const double c[3], int* x, int* y);
// Signed area of triangle (p, q, r) projected on the axis plane (x, y).
double SubArea(const double p[3], const double q[3], const double r[3], int x, int y);

// GJK: the distance of A and B, their closest points and the final simplex; starts from the
// direction between the centres in q.a - q.b. (shapes, q settings) => (q)
void Gjk(NativeShape& a, NativeShape& b, CcdQuery& q);

// EPA on GJK's simplex (which contains the origin): q.dist = -depth, q.a and q.b the deepest
// points; false when the polytope cannot be built or expanded (no contact then).
// (shapes, q after Gjk) => (q)
bool Epa(NativeShape& a, NativeShape& b, CcdQuery& q);

// Penetration or distance of two convex geoms as MuJoCo 3.12's native collider computes it:
// spheres and capsules first by their cores (exact for shallow contacts), GJK, then EPA when
// the shapes intersect. Returns q.dist (kMaxVal, gauss/types.h, beyond the cutoff).
// (geoms, margin, settings) => (q)
double NativeCollide(const Model& m, const ConvexGeom& a, const ConvexGeom& b, double margin,
                     CcdQuery& q);

// One contact of two convex geoms by GJK/EPA (the nativeccd flag): dist = margin - depth,
// normal from a to b through the witness points, position midway between them.
// (geoms, margin, opt.ccd_iterations, opt.ccd_tolerance) => (out), 0 or 1
int NativeContact(const Model& m, const ConvexGeom& a, const ConvexGeom& b, double margin,
                  Contact* out);

// Signed distance of geoms g1 and g2 (convex solids: sphere, capsule, ellipsoid, cylinder, box,
// mesh hull) when it is below `cutoff`: the distance if they are apart, minus the penetration
// depth if they overlap; fromto gets the nearest points (on g1, then on g2). Returns `cutoff`
// when they are farther apart (fromto untouched). For distance sensors.
// (geom_xpos, geom_xmat, geom_size, meshes, opt.ccd_*) => (fromto)
double GeomDistance(const Model& m, const Data& d, int g1, int g2, double cutoff,
                    double fromto[6]);

}  // namespace gauss::ccd
