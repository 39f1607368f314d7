// Sphere-box and capsule-box, in the box's frame.
//
// Sphere-box: the nearest box point to the centre; a centre inside the box is pushed out through
// the nearest face. Capsule-box: the point of the capsule's axis segment nearest the box is found
// among two kinds of features, a segment end over a box face and the segment against each of the
// 12 box edges; a ball there gives the first contact. A second ball further along the segment
// covers a capsule lying along a face or an edge: from an end over a face, where the segment
// leaves the region over that face; from a box corner, along the edge or across the face that
// the capsule follows; from the middle of an edge, where the segment leaves the adjacent face it
// lies along. MuJoCo 2.2.2's capsule-box uses the same features and second-point rules.
#include <algorithm>
#include <cmath>
#include <optional>

#include "gauss/math.h"
#include "primitive.h"

namespace gauss::primitive {

using namespace math;

// (centre, radius) against a box => one contact, normal from the ball into the box
int SpherePointBox(const double* centre, const double* mat, double radius, const Geom& box,
                   double margin, Contact* out) {
  (void)mat;
  const double* size = box.size;
  double dif[3], local[3], nearest[3], normal[3], pos[3];
  Sub3(dif, centre, box.pos);
  MulMatTVec3(local, box.mat, dif);
  for (int i = 0; i < 3; ++i) nearest[i] = std::clamp(local[i], -size[i], size[i]);
  Sub3(normal, nearest, local);
  const double gap = Normalize3(normal);
  if (gap - radius > margin) return 0;

  if (gap <= kMinVal) {
    // centre inside: leave through the nearest face (first of -x, +x, -y, +y, -z, +z on ties)
    double closest = 2 * (size[0] + size[1] + size[2]);
    int face = 0;
    for (int f = 0; f < 6; ++f) {
      const double depth = std::fabs((f % 2 ? 1 : -1) * size[f / 2] - local[f / 2]);
      if (depth < closest) {
        closest = depth;
        face = f;
      }
    }
    Zero3(normal);
    normal[face / 2] = face % 2 ? -1 : 1;
    Copy3(pos, local);
    AddScaled3(pos, normal, 0.5 * (radius - closest));
  } else {
    // midway between the box point and the ball's deepest point
    for (int i = 0; i < 3; ++i) pos[i] = 0.5 * (nearest[i] + local[i] + radius * normal[i]);
  }
  MulMatVec3(out->frame, box.mat, normal);
  MulMatVec3(out->pos, box.mat, pos);
  AddTo3(out->pos, box.pos);
  out->dist = gap - radius;
  Zero3(out->frame + 3);
  return 1;
}

int SphereBox(const Geom& sphere, const Geom& box, double margin, Contact* out) {
  return SpherePointBox(sphere.pos, sphere.mat, sphere.size[0], box, margin, out);
}

namespace {

// The feature of a box nearest to a capsule's axis segment, in the box frame. The segment is
// p + s a for s in [-1, 1] (a = half-length x unit axis).
struct SegmentFeature {
  enum Kind { kNone, kEndOverFace, kEdge } kind = kNone;
  double dist2 = 0;  // squared distance from the segment point to the box feature
  double s = 0;      // segment parameter of the nearest point
  int face = -1;     // kEndOverFace: the axis of the face below the end; -1 if the end is inside
  int edge = -1;     // kEdge: the edge's axis
  double t = 0;      // kEdge: parameter along the edge in [-1, 1]
  bool at_corner = false;  // kEdge: the nearest edge point is one of its ends
  int corner = 0;  // kEdge: sign bits (bit k: + side on axis k) of the edge's lower end, or of
                   // the corner reached when at_corner
};

// Nearest feature among the two segment ends over a face (or inside) and the 12 edges. Ends come
// first and ties keep the earlier; an edge must be closer by more than kMinVal, which keeps an end
// lying on a face from being displaced by round-off in the edge tests. `limit` bounds dist2.
SegmentFeature NearestFeature(const double* p, const double* a, double half, const double* size,
                              double limit) {
  SegmentFeature best;
  best.dist2 = limit;
  for (int end : {-1, 1}) {
    double q[3], clamped[3];
    Copy3(q, p);
    AddScaled3(q, a, end);
    Copy3(clamped, q);
    int nclamped = 0, face = -1;
    for (int k = 0; k < 3; ++k) {
      if (q[k] < -size[k] || q[k] > size[k]) {
        clamped[k] = q[k] < -size[k] ? -size[k] : size[k];
        ++nclamped;
        face = k;
      }
    }
    if (nclamped > 1) continue;  // beyond an edge or corner: the edge tests cover it
    double dif[3];
    Sub3(dif, clamped, q);
    const double dist2 = Dot3(dif, dif);
    if (dist2 < best.dist2) {
      best = SegmentFeature();
      best.kind = SegmentFeature::kEndOverFace;
      best.dist2 = dist2;
      best.s = end;
      best.face = face;
    }
  }

  for (int j = 0; j < 3; ++j) {
    for (int corner = 0; corner < 8; ++corner) {
      if (corner & (1 << j)) continue;
      // edge mid + t size_j e_j; closest points with the segment, clamped like capsule-capsule
      double mid[3];
      for (int k = 0; k < 3; ++k) mid[k] = (corner & (1 << k)) ? size[k] : -size[k];
      mid[j] = 0;
      double dif[3];
      Sub3(dif, mid, p);
      const double ee = size[j] * size[j], aa = half * half, ea = size[j] * a[j];
      const double u = -size[j] * dif[j], v = Dot3(a, dif);
      const double det = ee * aa - ea * ea;
      if (std::fabs(det) < kMinVal) continue;  // parallel to this edge: other features decide
      const double inv = 1 / det;
      double t = (aa * u + ea * v) * inv, s = (ee * v + ea * u) * inv;
      int t_state = 1;
      if (t > 1 || t < -1) {
        t = t > 1 ? 1 : -1;
        t_state = t > 0 ? 2 : 0;
        s = (v + ea * t) * (1 / aa);
      }
      if (s > 1 || s < -1) {
        s = s > 1 ? 1 : -1;
        // the end state of the first clamp stays when t comes back inside (MuJoCo does so)
        t = (u + ea * s) * (1 / ee);
        if (t > 1 || t < -1) {
          t = t > 1 ? 1 : -1;
          t_state = t > 0 ? 2 : 0;
        }
      }
      AddScaled3(dif, a, -s);
      dif[j] += size[j] * t;
      const double dist2 = Dot3(dif, dif);
      if (dist2 < best.dist2 - kMinVal) {
        best = SegmentFeature();
        best.kind = SegmentFeature::kEdge;
        best.dist2 = dist2;
        best.s = s;
        best.t = t;
        best.edge = j;
        best.at_corner = t_state != 1;
        best.corner = corner + (t_state == 2 ? (1 << j) : 0);
      }
    }
  }
  return best;
}

// Segment parameter offset of the second contact from the nearest feature; nothing if none.
std::optional<double> SecondOffset(const SegmentFeature& f, const double* p, const double* unit,
                                   const double* a, const double* size) {
  int axis_signs = 0;  // bit k: the axis points to + on box axis k
  for (int k = 0; k < 3; ++k) axis_signs |= a[k] > 0 ? 1 << k : 0;

  if (f.kind == SegmentFeature::kEndOverFace) {
    // slide from this end towards the other until the segment leaves the prism over the face
    if (f.face < 0) return std::nullopt;  // the end is inside the box
    const double dir = f.s < 0 ? 1 : -1;
    double from[3];
    Copy3(from, p);
    AddScaled3(from, a, -dir);
    double reach = 2;
    for (int k = 0; k < 3; ++k) {
      if (k == f.face) continue;
      for (double bound : {size[k], -size[k]}) {
        const double e = (bound - from[k]) / a[k] * dir;
        if (e > 0 && e < reach) reach = e;
      }
    }
    return reach * dir;
  }

  // bit k of `differ`: the axis heads from the feature's side of axis k towards the other side
  int differ = axis_signs ^ f.corner;
  if (f.at_corner) {
    // a capsule pointing into or out of the corner's octant touches at one point only
    if (differ == 0 || differ == 7) return std::nullopt;
    // one axis `ax` on which moving along `dir` enters the box while leaving on the others
    const bool one_bit = differ == 1 || differ == 2 || differ == 4;
    const double dir = one_bit ? 1 : -1;
    if (!one_bit) differ = 7 - differ;
    const int ax = differ == 1 ? 0 : differ == 2 ? 1 : 2;
    const int ax1 = (ax + 1) % 3, ax2 = (ax + 2) % 3;
    const double ahead = 1 - dir * f.s, behind = 1 + dir * f.s;  // segment left either way
    if (unit[ax] * unit[ax] > 0.5) {
      // along the edge on axis ax, at most its length
      return dir * std::min(ahead, 2 * size[ax] / std::fabs(a[ax]));
    }
    // across the face spanned by the two other axes, until leaving it
    double reach = std::min(behind, 2 * size[ax1] / std::fabs(a[ax1]));
    reach = std::min(reach, 2 * size[ax2] / std::fabs(a[ax2]));
    return -dir * reach;
  }

  // middle of an edge: a second point only when the capsule crosses the edge along one of its two
  // faces (one differing side), not when it points across the edge's diagonal
  differ &= 7 - (1 << f.edge);
  if (differ != 1 && differ != 2 && differ != 4) return std::nullopt;
  const int ax = f.edge;
  int ax1 = (ax + 1) % 3, ax2 = (ax + 2) % 3;
  if (std::fabs(unit[ax1]) > std::fabs(unit[ax2])) ax1 = ax2;
  ax2 = 3 - ax - ax1;  // the face axis the capsule runs along most
  const double dir = (differ & (1 << ax2)) ? 1 : -1;
  double reach = 1 - dir * f.s;
  reach = std::min(reach, 2 * size[ax2] / std::fabs(a[ax2]));
  // nor beyond the edge's end in the direction the capsule drifts along it
  const bool same = ((axis_signs >> ax) & 1) == ((differ >> ax2) & 1);
  reach = std::min(reach, size[ax] * (same ? 1 - f.t : 1 + f.t) / std::fabs(a[ax]));
  return dir * reach;
}

}  // namespace

// (capsule, box) => up to 2 contacts: balls on the capsule axis at the nearest feature and, for a
// capsule lying along the box, at the far end of the stretch it lies along
int CapsuleBox(const Geom& capsule, const Geom& box, double margin, Contact* out) {
  const double radius = capsule.size[0], half = capsule.size[1];
  double dif[3], p[3], world_axis[3], unit[3], a[3];
  Sub3(dif, capsule.pos, box.pos);
  MulMatTVec3(p, box.mat, dif);
  ZAxis(capsule.mat, world_axis);
  MulMatTVec3(unit, box.mat, world_axis);
  Scale3(a, unit, half);

  const double* size = box.size;
  const double limit = margin + 2 * (radius + half + size[0] + size[1] + size[2]);
  const SegmentFeature f = NearestFeature(p, a, half, size, limit);
  if (f.kind == SegmentFeature::kNone) return 0;
  const std::optional<double> offset = SecondOffset(f, p, unit, a, size);

  auto ball = [&](double s, Contact* c) {
    double local[3], centre[3];
    Copy3(local, p);
    AddScaled3(local, a, s);
    MulMatVec3(centre, box.mat, local);
    AddTo3(centre, box.pos);
    return SpherePointBox(centre, capsule.mat, radius, box, margin, c);
  };
  int n = ball(f.s, out);
  if (offset) n += ball(f.s + *offset, out + n);
  return n;
}

}  // namespace gauss::primitive
