// The `ccd` collider plugin: contacts between any two convex geoms (sphere, capsule, ellipsoid,
// cylinder, box, mesh as its convex hull) by libccd's Minkowski Portal Refinement, planes
// against ellipsoids and meshes, and height fields against all of them (hfield.cc). It follows MuJoCo 2.2.2's general convex collider, measured as
// a black box (see docs/collision.md, "The ccd collider"):
//  - both geoms inflated by half the margin (support.cc), so that MPR, which only detects
//    penetration, finds pairs within the margin; dist = margin - depth;
//  - MPR options from <option mpr_tolerance mpr_iterations> (Options::ccd_tolerance,
//    ccd_iterations), libccd's default first direction, geom centres as interior points;
//  - position as MPR returns it (midway between the inflated surfaces); normal from geom 1 to
//    geom 2, replaced by the smooth-geom normals of normal.cc;
//  - with the nativeccd flag (MuJoCo 3.12), GJK and EPA instead of MPR, without the smooth-geom
//    normals (native_ccd.h);
//  - the multiccd enable flag (pairs without a sphere or ellipsoid): four more runs with
//    geom 1 rotated by -+1e-3 rad and geom 2 by +-1e-3 rad about the first contact's tangent
//    axes (tangent 1, then 2) through its position; a run's contact is kept, with the first
//    contact's distance, when it lies farther than 1e-3 x (the smaller bounding radius) from
//    every contact kept so far.
// No heap allocation: libccd works on the stack and the geoms are copied into locals.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "ccd_collider.h"
#include "native_ccd.h"
#include "gauss/collider.h"
#include "gauss/math.h"

namespace gauss {
namespace ccd {

using namespace math;

namespace {

constexpr double kMultiAngle = 1e-3;  // rotation of the multiccd runs (radians)

// True for the geom types MPR handles (every convex solid, meshes by their hulls).
bool IsConvexSolid(GeomType t) {
  return t == GeomType::kSphere || t == GeomType::kCapsule || t == GeomType::kEllipsoid ||
         t == GeomType::kCylinder || t == GeomType::kBox || t == GeomType::kMesh;
}

// Tangents of a unit normal as the kernel completes contact frames: world y (z when the normal
// is near y) made orthogonal, then normal x tangent1. (n) => (t1, t2)
void Tangents(const double n[3], double t1[3], double t2[3]) {
  t1[0] = 0;
  t1[1] = std::fabs(n[1]) < 0.5 ? 1 : 0;
  t1[2] = std::fabs(n[1]) < 0.5 ? 0 : 1;
  AddScaled3(t1, n, -Dot3(n, t1));
  Normalize3(t1);
  Cross3(t2, n, t1);
}

// A copy of g rotated by `angle` about the unit `axis` through `point`. (g) => (rotated)
ConvexGeom Rotated(const ConvexGeom& g, const double axis[3], double angle,
                   const double point[3]) {
  ConvexGeom r = g;
  double q[4], rot[9], rel[3];
  AxisAngleToQuat(q, axis, angle);
  QuatToMat(rot, q);
  MulMat3(r.mat, rot, g.mat);
  // pos - (rot rel - rel) with rel = point - pos: this rounding order is MuJoCo's (measured:
  // rot (pos - point) + point differs in the last bits, which deep multiccd runs amplify)
  double moved[3];
  Sub3(rel, point, g.pos);
  MulMatVec3(moved, rot, rel);
  Sub3(moved, moved, rel);
  Sub3(r.pos, g.pos, moved);
  return r;
}

}  // namespace

// (geom poses, options) => (one contact or none)
int MprContact(const Model& m, const ConvexGeom& a, const ConvexGeom& b, double margin,
               Contact* out) {
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.first_dir = ccdFirstDirDefault;
  ccd.support1 = Support;
  ccd.support2 = Support;
  ccd.center1 = Center;
  ccd.center2 = Center;
  ccd.max_iterations = static_cast<unsigned long>(std::max(0, m.opt.ccd_iterations));
  ccd.mpr_tolerance = m.opt.ccd_tolerance;
  ccd_real_t depth = 0;
  ccd_vec3_t dir, pos;
  if (ccdMPRPenetration(&a, &b, &ccd, &depth, &dir, &pos) != 0) return 0;

  out->dist = margin - depth;
  Copy3(out->pos, pos.v);
  double n1[3], n2[3];
  const bool has1 = SmoothNormal(a, out->pos, n1);
  const bool has2 = SmoothNormal(b, out->pos, n2);
  if (has1 && has2) {
    Sub3(out->frame, n1, n2);
    Normalize3(out->frame);
  } else if (has1) {
    Copy3(out->frame, n1);
  } else if (has2) {
    Scale3(out->frame, n2, -1);
  } else {
    Copy3(out->frame, dir.v);
  }
  Zero3(out->frame + 3);
  return 1;
}

namespace {

// The convex-convex pair (g1, g2): one MPR contact, plus the multiccd runs when enabled.
// (geom poses, options) => (contacts), returns their number
int ConvexConvex(const Model& m, const Data& d, int g1, int g2, double margin, Contact* out,
                 int max_contacts) {
  ConvexGeom a, b;
  MakeConvexGeom(m, d, g1, margin, &a);
  MakeConvexGeom(m, d, g2, margin, &b);
  // MuJoCo 3.12's GJK/EPA (native_ccd.cc) or 2.2.2's MPR, for the first contact and the
  // multiccd runs alike
  const auto contact = m.opt.Enabled(kEnableNativeCcd) ? NativeContact : MprContact;
  if (!contact(m, a, b, margin, out)) return 0;
  int n = 1;

  const bool round = [](GeomType t1, GeomType t2) {
    return t1 == GeomType::kSphere || t1 == GeomType::kEllipsoid || t2 == GeomType::kSphere ||
           t2 == GeomType::kEllipsoid;
  }(a.type, b.type);
  if (!m.opt.Enabled(kEnableMulticcd) || round || n >= max_contacts) return n;

  // multiccd: small opposite rotations of the two geoms about the contact's tangent axes
  const double tol = 1e-3 * std::min(m.geom_rbound[g1], m.geom_rbound[g2]);
  double axes[2][3], point[3];
  Tangents(out[0].frame, axes[0], axes[1]);
  Copy3(point, out[0].pos);
  const double dist = out[0].dist;
  for (const double* axis : axes) {
    for (double angle : {-kMultiAngle, kMultiAngle}) {
      if (n >= max_contacts) return n;
      const ConvexGeom ra = Rotated(a, axis, angle, point);
      const ConvexGeom rb = Rotated(b, axis, -angle, point);
      Contact c;
      if (!contact(m, ra, rb, margin, &c)) continue;
      bool is_new = true;
      for (int k = 0; k < n && is_new; ++k) {
        double dif[3];
        Sub3(dif, c.pos, out[k].pos);
        is_new = Norm3(dif) > tol;
      }
      if (!is_new) continue;
      c.dist = dist;
      out[n++] = c;
    }
  }
  return n;
}

}  // namespace
}  // namespace ccd

namespace {

class CcdCollider : public Collider {
 public:
  std::vector<std::pair<GeomType, GeomType>> Pairs() const override {
    std::vector<std::pair<GeomType, GeomType>> out = {{GeomType::kPlane, GeomType::kEllipsoid},
                                                      {GeomType::kPlane, GeomType::kMesh}};
    for (int b = 0; b < kNumGeomTypes; ++b) {
      if (ccd::IsConvexSolid(GeomType(b))) out.emplace_back(GeomType::kHfield, GeomType(b));
    }
    for (int a = 0; a < kNumGeomTypes; ++a) {
      for (int b = a; b < kNumGeomTypes; ++b) {
        if (ccd::IsConvexSolid(GeomType(a)) && ccd::IsConvexSolid(GeomType(b))) {
          out.emplace_back(GeomType(a), GeomType(b));
        }
      }
    }
    return out;
  }

 protected:
  // (geom_xpos, geom_xmat, geom_size, meshes, opt) => out[0..n)
  int DoCollide(const Model& m, const Data& d, int g1, int g2, double margin, Contact* out,
                int max_contacts) const override {
    if (max_contacts <= 0) return 0;
    const GeomType t1 = m.geom_type[g1], t2 = m.geom_type[g2];
    if (t1 == GeomType::kPlane) {
      if (t2 != GeomType::kEllipsoid && t2 != GeomType::kMesh) return 0;
      return ccd::PlaneConvex(m, d, g1, g2, margin, out, max_contacts);
    }
    if (t1 == GeomType::kHfield) {
      if (!ccd::IsConvexSolid(t2)) return 0;
      return ccd::HfieldConvex(m, d, g1, g2, margin, out, max_contacts);
    }
    if (!ccd::IsConvexSolid(t1) || !ccd::IsConvexSolid(t2)) return 0;
    return ccd::ConvexConvex(m, d, g1, g2, margin, out, max_contacts);
  }
};

}  // namespace
}  // namespace gauss

GAUSS_COLLIDER_PLUGIN(gauss::CcdCollider, ccd, "1.0.0",
                      "convex-convex contacts by libccd's MPR (spheres, capsules, ellipsoids, "
                      "cylinders, boxes, mesh hulls), multiccd, planes against ellipsoids and "
                      "meshes, height fields against convex geoms",
                      gauss::kCapNone, gauss::kNoParams)
