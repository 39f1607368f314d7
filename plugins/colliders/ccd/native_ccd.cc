// The contact and the distance of two convex geoms by GJK and EPA (MuJoCo 3.12's native convex
// collision, the `nativeccd` flag; docs/collision.md, "Native convex collision").
//
// Both geoms are inflated by half the pair's margin, so that shapes closer than the margin
// overlap. A sphere or capsule is first reduced to its core (centre or axis segment): GJK gives
// the cores' distance, and subtracting the radii gives the exact answer while it stays positive
// before the radii come off (shallow contacts); deeper, the full shapes go through GJK and EPA.
// GJK starts from the direction between the geom centres.
#include <utility>
#include "gauss/math.h"
#include "native_ccd.h"

namespace gauss::ccd {

using namespace math;

namespace {

// radius of a sphere or capsule's core, and the core it is reduced to
double Reduce(NativeShape& s) {
  const GeomType t = s.geom->type;
  if (t != GeomType::kSphere && t != GeomType::kCapsule) return 0;
  s.core = t == GeomType::kSphere ? Core::kPoint : Core::kSegment;
  return s.geom->size[0];
}

// moves the cores' nearest points out by the radii (r_a on A's side, r_b on B's)
void Inflate(CcdQuery& q, double r_a, double r_b) {
  double n[3];
  Sub3(n, q.b, q.a);
  Normalize3(n);
  if (r_a != 0) AddScaled3(q.a, n, r_a);
  if (r_b != 0) AddScaled3(q.b, n, -r_b);
  q.dist -= r_a + r_b;
}

}  // namespace

// (geoms, margin, q settings) => (q)
double NativeCollide(const Model& m, const ConvexGeom& ga, const ConvexGeom& gb, double margin,
                     CcdQuery& q) {
  NativeShape a = MakeNativeShape(m, ga, margin), b = MakeNativeShape(m, gb, margin);
  Copy3(q.a, ga.pos);
  Copy3(q.b, gb.pos);
  q.iterations = 0;
  q.found = false;
  const double cutoff = q.cutoff;

  double r_a = Reduce(a), r_b = Reduce(b);
  if (a.core != Core::kGeom || b.core != Core::kGeom) {
    // the cores are not inflated: their half margin goes to the radius (measured: 3.12 takes
    // the exact core path whenever the uninflated cores are apart)
    for (auto [shape, radius] : {std::pair{&a, &r_a}, std::pair{&b, &r_b}}) {
      if (shape->core == Core::kGeom) continue;
      shape->half_margin = 0;
      *radius += 0.5 * margin;
    }
    q.cutoff = cutoff + r_a + r_b;
    Gjk(a, b, q);
    q.cutoff = cutoff;
    if (q.dist > 0) {  // the cores are apart: exact
      Inflate(q, r_a, r_b);
      if (q.dist > cutoff) q.dist = kMaxVal;
      return q.dist;
    }
    // the cores touch: start again with the full shapes
    a.core = b.core = Core::kGeom;
    a.half_margin = b.half_margin = 0.5 * margin;
    q.iterations = 0;
    Copy3(q.a, ga.pos);
    Copy3(q.b, gb.pos);
  }

  Gjk(a, b, q);
  if (q.dist <= q.tolerance && q.nsimplex > 1) {
    q.dist = 0;  // touching unless EPA finds a depth
    if (!Epa(a, b, q)) {
      q.found = false;
      q.dist = 0;
    }
  }
  return q.dist;
}

// (geoms, margin, opt.ccd_iterations, opt.ccd_tolerance) => (out), 0 or 1
int NativeContact(const Model& m, const ConvexGeom& a, const ConvexGeom& b, double margin,
                  Contact* out) {
  CcdQuery q;
  q.max_iterations = m.opt.ccd_iterations;
  q.tolerance = m.opt.ccd_tolerance;
  q.cutoff = 0;
  const double dist = NativeCollide(m, a, b, margin, q);
  if (!(dist < 0)) return 0;
  Contact& c = *out;
  c.dist = margin + dist;
  Sub3(c.frame, q.a, q.b);
  Normalize3(c.frame);
  for (int i = 0; i < 3; ++i) c.pos[i] = 0.5 * (q.a[i] + q.b[i]);
  Zero3(c.frame + 3);
  return 1;
}

// (geom poses, sizes, meshes, opt) => (fromto), signed distance or cutoff
double GeomDistance(const Model& m, const Data& d, int g1, int g2, double cutoff,
                    double fromto[6]) {
  ConvexGeom a, b;
  MakeConvexGeom(m, d, g1, 0, &a);
  MakeConvexGeom(m, d, g2, 0, &b);
  CcdQuery q;
  q.max_iterations = m.opt.ccd_iterations;
  q.tolerance = m.opt.ccd_tolerance;
  q.cutoff = cutoff;
  const double dist = NativeCollide(m, a, b, 0, q);
  if (!q.found || dist >= cutoff) return cutoff;
  Copy3(fromto, q.a);
  Copy3(fromto + 3, q.b);
  return dist;
}

}  // namespace gauss::ccd
