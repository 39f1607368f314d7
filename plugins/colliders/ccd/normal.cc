// Contact normals of smooth geoms, replacing MPR's penetration direction as MuJoCo 2.2.2 does.
//
// MPR's direction is the normal of the final portal of the Minkowski difference: for a sphere
// or an ellipsoid pressed on a face it wobbles with the portal. MuJoCo 2.2.2 replaces it, for
// the smooth geoms of the pair, by the geom's own surface normal at the contact position p.
// Measured by feeding chosen MPR results (depth, direction, position) to its colliders:
//   sphere     p - centre
//   capsule    p - (closest point of the axis segment)
//   ellipsoid  normal at the point of the surface closest to p (none when p is the centre or
//              lies on the surface)
//   cylinder   radial direction, only when h - |z| >= 0.05 h and 4 (h - |z|) >= |R - r|
//              (p in the geom frame, r = |p_xy|): contacts near the side; none on caps and rims
//   box, mesh  none
// With outward normals n1 (geom 1) and n2 (geom 2) the contact normal is normalize(n1 - n2), or
// n1, or -n2 when only one geom has a normal; with none MPR's direction stays.
#include <algorithm>
#include <cmath>

#include "ccd_collider.h"
#include "gauss/math.h"

namespace gauss::ccd {

using namespace math;

namespace {

// Ellipsoid semi-axes s, local point p (not the centre, not on the surface): unit normal at
// the closest surface point. The closest point is x_i = p_i s_i^2 / (s_i^2 + t) with t the
// root of F(t) = sum (p_i s_i / (s_i^2 + t))^2 - 1 in (-min s_i^2, inf): F decreases there, so
// Newton's method kept inside a shrinking bracket converges. (s, p) => (n)
void EllipsoidNormal(const double s[3], const double p[3], double n[3]) {
  auto F = [&](double t, double* dF) {
    double f = -1, df = 0;
    for (int i = 0; i < 3; ++i) {
      const double q = s[i] * s[i] + t;
      const double r = p[i] * s[i] / q;
      f += r * r;
      df += -2 * r * r / q;
    }
    *dF = df;
    return f;
  };
  int k = 0;  // smallest axis: the interior roots lie right of -s_k^2
  for (int i = 1; i < 3; ++i) {
    if (s[i] < s[k]) k = i;
  }
  double dF = 0;
  const double f0 = F(0, &dF);
  double lo, hi, t;
  if (f0 > 0) {  // outside: 0 < t < |p| max s
    lo = 0;
    hi = 2 * Norm3(p) * std::max({s[0], s[1], s[2]});
    t = 0;
  } else {  // inside: -s_k^2 < t < 0
    lo = -s[k] * s[k];
    hi = 0;
    t = 0;
    double d;
    if (F(lo * (1 - 1e-12), &d) <= 0) {
      // p has no component along the smallest axis and lies so close to that axis' plane that
      // the closest point is off it: t = -s_k^2, x_k from the surface equation
      double x[3], rest = 1;
      for (int i = 0; i < 3; ++i) {
        if (i == k) continue;
        const double q = s[i] * s[i] - s[k] * s[k];
        x[i] = q > 0 ? p[i] * s[i] * s[i] / q : 0;
        rest -= (x[i] / s[i]) * (x[i] / s[i]);
      }
      x[k] = s[k] * std::sqrt(std::max(0.0, rest));
      for (int i = 0; i < 3; ++i) n[i] = x[i] / (s[i] * s[i]);
      Normalize3(n);
      return;
    }
  }
  for (int iter = 0; iter < 100; ++iter) {
    const double f = F(t, &dF);
    if (f > 0) lo = t; else hi = t;
    double next = dF < 0 ? t - f / dF : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::fabs(next - t) <= 1e-15 * (1 + std::fabs(t))) {
      t = next;
      break;
    }
    t = next;
  }
  for (int i = 0; i < 3; ++i) n[i] = p[i] / (s[i] * s[i] + t);
  Normalize3(n);
}

}  // namespace

// (geom pose and size, contact position) => (outward unit normal), false if none
bool SmoothNormal(const ConvexGeom& g, const double pos[3], double normal[3]) {
  double dif[3], p[3], local[3];
  Sub3(dif, pos, g.pos);
  const double* s = g.size;
  switch (g.type) {
    case GeomType::kSphere:
      Copy3(normal, dif);
      Normalize3(normal);
      return true;
    case GeomType::kCapsule: {
      MulMatTVec3(p, g.mat, dif);
      const double z = std::clamp(p[2], -s[1], s[1]);
      local[0] = p[0];
      local[1] = p[1];
      local[2] = p[2] - z;
      Normalize3(local);
      break;
    }
    case GeomType::kEllipsoid: {
      MulMatTVec3(p, g.mat, dif);
      const double f = (p[0] / s[0]) * (p[0] / s[0]) + (p[1] / s[1]) * (p[1] / s[1]) +
                       (p[2] / s[2]) * (p[2] / s[2]);
      if (f < 1e-20 || std::fabs(f - 1) < 1e-12) return false;
      EllipsoidNormal(s, p, local);
      break;
    }
    case GeomType::kCylinder: {
      MulMatTVec3(p, g.mat, dif);
      const double cap = s[1] - std::fabs(p[2]);  // distance to the cap plane (inside: > 0)
      const double r = std::sqrt(p[0] * p[0] + p[1] * p[1]);
      if (!(cap >= 0.05 * s[1] && 4 * cap >= std::fabs(s[0] - r))) return false;
      local[0] = p[0];
      local[1] = p[1];
      local[2] = 0;
      Normalize3(local);
      break;
    }
    default:
      return false;
  }
  MulMatVec3(normal, g.mat, local);
  return true;
}

}  // namespace gauss::ccd
