// Sphere-sphere, sphere-capsule and capsule-capsule: all reduce to balls at the closest points
// of the capsules' axis segments.
#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "primitive.h"

namespace gauss::primitive {

using namespace math;

// (centres, radii) => one contact on the centre line. Coincident centres have no centre line:
// the normal is then z1 x z2 of the two orientations (world x if those are parallel).
int SpherePoints(const double* c1, const double* mat1, double r1, const double* c2,
                 const double* mat2, double r2, double margin, Contact* out) {
  double dif[3];
  Sub3(dif, c2, c1);
  const double reach = margin + r1 + r2;
  const double dist2 = Dot3(dif, dif);
  if (dist2 > reach * reach) return 0;

  out->dist = std::sqrt(dist2) - r1 - r2;
  double* normal = out->frame;
  Copy3(normal, dif);
  if (Normalize3(normal) < kMinVal) {
    double z1[3], z2[3];
    ZAxis(mat1, z1);
    ZAxis(mat2, z2);
    Cross3(normal, z1, z2);
    Normalize3(normal);
  }
  for (int i = 0; i < 3; ++i) out->pos[i] = c1[i] + (r1 + 0.5 * out->dist) * normal[i];
  Zero3(out->frame + 3);
  return 1;
}

int SphereSphere(const Geom& s1, const Geom& s2, double margin, Contact* out) {
  return SpherePoints(s1.pos, s1.mat, s1.size[0], s2.pos, s2.mat, s2.size[0], margin, out);
}

// (sphere, capsule) => ball at the point of the capsule's axis segment nearest the sphere centre
int SphereCapsule(const Geom& sphere, const Geom& capsule, double margin, Contact* out) {
  double axis[3], dif[3], nearest[3];
  ZAxis(capsule.mat, axis);
  Sub3(dif, sphere.pos, capsule.pos);
  const double half = capsule.size[1];
  const double t = std::clamp(Dot3(axis, dif), -half, half);
  Copy3(nearest, capsule.pos);
  AddScaled3(nearest, axis, t);
  return SpherePoints(sphere.pos, sphere.mat, sphere.size[0], nearest, capsule.mat, capsule.size[0],
                      margin, out);
}

// (capsule, capsule) => one contact between the closest points of the two axis segments, or, for
// parallel segments, up to two contacts: each end of segment 1 against its nearest point on
// segment 2, then (while fewer than two were found) each end of segment 2 likewise.
int CapsuleCapsule(const Geom& c1, const Geom& c2, double margin, Contact* out) {
  // segments p1 + s a1 and p2 + t a2 with s, t in [-1, 1], a = half-length * unit axis
  double a1[3], a2[3], dif[3];
  ZAxis(c1.mat, a1);
  ZAxis(c2.mat, a2);
  Scale3(a1, a1, c1.size[1]);
  Scale3(a2, a2, c2.size[1]);
  Sub3(dif, c1.pos, c2.pos);
  const double r1 = c1.size[0], r2 = c2.size[0];

  // stationarity of |p1 + s a1 - p2 - t a2|^2: [aa -ab; -ab bb] [s; t] = [-a1.dif; a2.dif]
  const double aa = Dot3(a1, a1), bb = Dot3(a2, a2), ab = Dot3(a1, a2);
  const double u = -Dot3(a1, dif), v = Dot3(a2, dif);
  const double det = aa * bb - ab * ab;

  auto ball_pair = [&](double s, double t, Contact* c) {
    double q1[3], q2[3];
    Copy3(q1, c1.pos);
    AddScaled3(q1, a1, s);
    Copy3(q2, c2.pos);
    AddScaled3(q2, a2, t);
    return SpherePoints(q1, c1.mat, r1, q2, c2.mat, r2, margin, c);
  };
  // nearest parameter on segment 2 to the point s of segment 1, and vice versa
  auto t_of = [&](double s) { return (v + ab * s) / bb; };
  auto s_of = [&](double t) { return (u + ab * t) / aa; };

  if (std::fabs(det) >= kMinVal) {
    // unconstrained minimum, then clamp s and re-project, then clamp t and re-project s: the
    // exact closest points of two segments
    double s = (bb * u + ab * v) / det;
    double t = (aa * v + ab * u) / det;
    if (s > 1 || s < -1) {
      s = s > 1 ? 1 : -1;
      t = t_of(s);
    }
    if (t > 1 || t < -1) {
      t = t > 1 ? 1 : -1;
      s = std::clamp(s_of(t), -1.0, 1.0);
    }
    return ball_pair(s, t, out);
  }

  // parallel axes: the overlap of the two segments is a line of closest points
  int n = 0;
  for (double s : {1.0, -1.0}) n += ball_pair(s, std::clamp(t_of(s), -1.0, 1.0), out + n);
  for (double t : {1.0, -1.0}) {
    if (n >= 2) break;
    n += ball_pair(std::clamp(s_of(t), -1.0, 1.0), t, out + n);
  }
  return n;
}

}  // namespace gauss::primitive
