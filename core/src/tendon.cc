// Tendons (spec stage 5): lengths and moment arms (the Jacobian rows ten_J).
//
// Fixed tendons are linear combinations of scalar joint positions, L = sum_k coef_k q_k, so
// their Jacobian row holds coef_k at the joints' dofs (MuJoCo 2.2.2 takes the first qpos entry
// of any joint type).
//
// Spatial tendons are paths through sites. Consecutive sites are joined by straight segments;
// a sphere or cylinder between two sites makes the segment wrap around it (WrapPath), adding two
// tangent points attached to the geom's body. A pulley starts a new branch whose length is
// divided by the pulley's divisor. The length is the sum of the segment lengths; its gradient
// is the sum over straight segments of the end-point Jacobian difference projected on the
// segment direction: the arc between the tangent points contributes nothing to first order,
// because the tangent points slide on the surface where the path is tangent to it. Segments
// whose two ends lie on the same body do not change length and are skipped.
//
// Wrapping geometry (WrapPath): the 3D problem is reduced to a circle in a plane, solved there,
// and lifted back. For a sphere the plane contains the sphere center and both end points; for a
// cylinder it is the cross-section (local xy), and the height is distributed along the path
// so that the lifted path is a helix of constant slope.
//
// Choices measured against MuJoCo 2.2.2 (its lengths are the reference to 1e-12):
//  - Of the two tangent constructions (around either side), the one closer to the side site is
//    taken (the direction of the mid-point of the tangent points), else the one whose tangent
//    points are closer to each other; a construction whose two straight segments cross is never
//    taken, and if the chosen one crosses there is no wrap.
//  - Without a side site a path wraps only when the straight segment enters the circle; with
//    one, also when the segment passes on the far side of the center from the side site.
//  - A side site inside the circle selects the inside wrap: the path touches the circle at a
//    single point, found by a Newton iteration with the tolerances below (the result is
//    accurate to those tolerances, so the iteration itself is part of the reference).
#include "tendon.h"

#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "pipeline.h"
#include "jacobian.h"

namespace gauss {

using namespace math;

namespace {

constexpr double kPi = 3.14159265358979323846;

double Dot2(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1]; }
double Norm2(const double* a) { return std::sqrt(Dot2(a, a)); }

// Normalizes a 2D vector in place; a (near) zero vector becomes (1, 0), as Normalize3 does, so
// that degenerate (symmetric) configurations still pick a definite side.
void Normalize2(double* a) {
  const double n = Norm2(a);
  if (n < kMinVal) {
    a[0] = 1;
    a[1] = 0;
    return;
  }
  a[0] /= n;
  a[1] /= n;
}

// acos clamped to its domain (round-off can push a unit dot product past +-1).
double SafeAcos(double x) { return std::acos(std::clamp(x, -1.0, 1.0)); }
double SafeAsin(double x) { return std::asin(std::clamp(x, -1.0, 1.0)); }

// True when the 2D segments a0-a1 and b0-b1 intersect (parallel segments never do).
bool SegmentsCross(const double* a0, const double* a1, const double* b0, const double* b1) {
  const double ax = a1[0] - a0[0], ay = a1[1] - a0[1];
  const double bx = b1[0] - b0[0], by = b1[1] - b0[1];
  const double det = by * ax - bx * ay;
  if (std::fabs(det) < kMinVal) return false;
  const double ox = a0[0] - b0[0], oy = a0[1] - b0[1];
  const double s = (bx * oy - by * ox) / det;  // parameter along a
  const double t = (ax * oy - ay * ox) / det;  // parameter along b
  return s >= 0 && s <= 1 && t >= 0 && t <= 1;
}

// Arc length on the circle from t0 to t1, going the way tangent construction `which` turns.
double ArcLength(const double* t0, const double* t1, int which, double radius) {
  double u0[2] = {t0[0], t0[1]}, u1[2] = {t1[0], t1[1]};
  Normalize2(u0);
  Normalize2(u1);
  double angle = SafeAcos(Dot2(u0, u1));
  const double turn = t0[1] * t1[0] - t0[0] * t1[1];
  if ((turn > 0 && which == 1) || (turn < 0 && which == 0)) angle = 2 * kPi - angle;
  return radius * angle;
}

// Circle of `radius` at the origin; end points d (2 x 2), optional side point sd on the
// circle. => tangent points pnt (2 x 2) and the arc length, or -1 when the path does not wrap.
double WrapCircle(double* pnt, const double* d, const double* sd, double radius) {
  const double sq0 = Dot2(d, d), sq1 = Dot2(d + 2, d + 2), sqr = radius * radius;
  if (sq0 < sqr || sq1 < sqr || radius < kMinVal) return -1;
  const double dif[2] = {d[2] - d[0], d[3] - d[1]};
  const double dd = Dot2(dif, dif);
  if (dd < kMinVal) return -1;

  // point of the straight segment nearest to the center: the segment misses the circle (or
  // passes on the side site's side) => no wrap
  const double a = std::clamp(-Dot2(dif, d) / dd, 0.0, 1.0);
  const double near[2] = {d[0] + a * dif[0], d[1] + a * dif[1]};
  if (Dot2(near, near) > sqr && (!sd || Dot2(sd, near) >= 0)) return -1;

  // the two tangent constructions: from each end point, the tangent on either side
  double sol[2][4], good[2];
  const double root0 = std::sqrt(sq0 - sqr), root1 = std::sqrt(sq1 - sqr);
  for (int k = 0; k < 2; ++k) {
    const double s = k == 0 ? 1 : -1;
    double* t = sol[k];
    t[0] = (d[0] * sqr + s * radius * d[1] * root0) / sq0;
    t[1] = (d[1] * sqr - s * radius * d[0] * root0) / sq0;
    t[2] = (d[2] * sqr - s * radius * d[3] * root1) / sq1;
    t[3] = (d[3] * sqr + s * radius * d[2] * root1) / sq1;
    if (sd) {
      double mid[2] = {t[0] + t[2], t[1] + t[3]};
      Normalize2(mid);
      good[k] = Dot2(mid, sd);
    } else {
      const double gap[2] = {t[0] - t[2], t[1] - t[3]};
      good[k] = -Dot2(gap, gap);
    }
    if (SegmentsCross(d, t, d + 2, t + 2)) good[k] = -10000;
  }
  const int best = good[0] > good[1] ? 0 : 1;
  for (int c = 0; c < 4; ++c) pnt[c] = sol[best][c];
  if (SegmentsCross(d, pnt, d + 2, pnt + 2)) return -1;
  return ArcLength(sol[best], sol[best] + 2, best, radius);
}

// Inside wrap: the path from d0 to d1 that touches the circle once, at the point where the
// two straight segments make equal angles with the normal. With A = r/|d0|, B = r/|d1| and G
// the angle d0-center-d1, the contact direction solves
//   asin(A z) + asin(B z) - 2 asin(z) + G = 0
// for z in (0, 1). => pnt (both rows the contact point); 0 on success (or on a numerical
// failure, with the default contact point: the normalized mid-point), -1 for no wrap.
double WrapInside(double* pnt, const double* d, double radius) {
  const int kMaxIter = 20;
  const double kZInit = 1 - 1e-7, kTolerance = 1e-6;
  const double len0 = Norm2(d), len1 = Norm2(d + 2);
  const double dif[2] = {d[2] - d[0], d[3] - d[1]};
  const double dd = Dot2(dif, dif);
  if (len0 <= radius || len1 <= radius || radius < kMinVal || len0 < kMinVal ||
      len1 < kMinVal) {
    return -1;
  }
  // the straight segment crosses the circle: no wrap
  if (dd > kMinVal) {
    const double a = -Dot2(dif, d) / dd;
    if (a > 0 && a < 1) {
      const double near[2] = {d[0] + a * dif[0], d[1] + a * dif[1]};
      if (Norm2(near) <= radius) return -1;
    }
  }

  // default contact point, kept when the iteration cannot proceed
  pnt[0] = 0.5 * (d[0] + d[2]);
  pnt[1] = 0.5 * (d[1] + d[3]);
  Normalize2(pnt);
  pnt[0] *= radius;
  pnt[1] *= radius;
  pnt[2] = pnt[0];
  pnt[3] = pnt[1];

  const double A = radius / len0, B = radius / len1;
  const double cos_g = (len0 * len0 + len1 * len1 - dd) / (2 * len0 * len1);
  if (cos_g < -1 + kMinVal) return -1;
  if (cos_g > 1 - kMinVal) return 0;
  const double G = std::acos(cos_g);
  auto f = [&](double z) { return SafeAsin(A * z) + SafeAsin(B * z) - 2 * SafeAsin(z) + G; };

  // Newton from just below z = 1, where f is negative unless the geometry is degenerate
  double z = kZInit;
  double fz = f(z);
  if (fz > 0) return 0;
  int iter = 0;
  for (; iter < kMaxIter && std::fabs(fz) > kTolerance; ++iter) {
    const double df = A / std::max(kMinVal, std::sqrt(1 - z * z * A * A)) +
                      B / std::max(kMinVal, std::sqrt(1 - z * z * B * B)) -
                      2 / std::max(kMinVal, std::sqrt(1 - z * z));
    if (df > -kMinVal) return 0;  // f must be decreasing here
    const double z1 = z - fz / df;
    if (z1 > z) return 0;  // the iteration must move left
    z = z1;
    fz = f(z);
    if (fz > kTolerance) return 0;  // overshoot
  }
  if (iter >= kMaxIter) return 0;

  // rotate the shorter-angle end direction towards the other end by the contact angle
  double vec[2];
  double angle;
  if (d[0] * d[3] - d[1] * d[2] > 0) {
    vec[0] = d[0];
    vec[1] = d[1];
    angle = SafeAsin(z) - SafeAsin(A * z);
  } else {
    vec[0] = d[2];
    vec[1] = d[3];
    angle = SafeAsin(z) - SafeAsin(B * z);
  }
  Normalize2(vec);
  const double c = std::cos(angle), s = std::sin(angle);
  pnt[0] = radius * (c * vec[0] - s * vec[1]);
  pnt[1] = radius * (s * vec[0] + c * vec[1]);
  pnt[2] = pnt[0];
  pnt[3] = pnt[1];
  return 0;
}

// In-plane axes (axis0, axis1) of the wrapping plane through the sphere center and the local
// end points p0, p1: axis0 along p0, axis1 in the plane towards p1. When p0 and p1 are
// collinear with the center any plane containing them will do; a fixed choice keeps the
// result deterministic.
void SpherePlane(double* axis0, double* axis1, const double* p0, const double* p1) {
  Copy3(axis0, p0);
  Normalize3(axis0);
  double normal[3];
  Cross3(normal, p0, p1);
  if (Normalize3(normal) < kMinVal) {
    int big = 0;
    if (std::fabs(axis0[1]) > std::fabs(axis0[0]) && std::fabs(axis0[1]) > std::fabs(axis0[2])) {
      big = 1;
    }
    if (std::fabs(axis0[2]) > std::fabs(axis0[0]) && std::fabs(axis0[2]) > std::fabs(axis0[1])) {
      big = 2;
    }
    double other[3] = {1, 1, 1};
    other[big] = 0;
    Cross3(normal, axis0, other);
    Normalize3(normal);
  }
  Cross3(axis1, normal, axis0);
  Normalize3(axis1);
}

}  // namespace

// (end points, geom frame and radius, side site) => (tangent points, wrap length)
double WrapPath(double points[6], const double x0[3], const double x1[3], const double pos[3],
                const double mat[9], double radius, WrapType type, const double* side) {
  // end points in the geom's frame
  double p[2][3], tmp[3];
  Sub3(tmp, x0, pos);
  MulMatTVec3(p[0], mat, tmp);
  Sub3(tmp, x1, pos);
  MulMatTVec3(p[1], mat, tmp);
  if (Norm3(p[0]) < kMinVal || Norm3(p[1]) < kMinVal) return -1;

  // the plane of the 2D problem
  double axis0[3] = {1, 0, 0}, axis1[3] = {0, 1, 0};
  if (type == WrapType::kSphere) SpherePlane(axis0, axis1, p[0], p[1]);
  const double d[4] = {Dot3(p[0], axis0), Dot3(p[0], axis1), Dot3(p[1], axis0),
                       Dot3(p[1], axis1)};

  // side site projected on the circle; inside the circle it selects the inside wrap
  double sd[2] = {0, 0};
  if (side) {
    double s[3];
    Sub3(tmp, side, pos);
    MulMatTVec3(s, mat, tmp);
    sd[0] = Dot3(s, axis0);
    sd[1] = Dot3(s, axis1);
    if (Norm2(sd) >= radius) {
      Normalize2(sd);
      sd[0] *= radius;
      sd[1] *= radius;
    } else {
      sd[0] = sd[1] = 0;
    }
  }
  double pnt[4];
  double length = side && sd[0] == 0 && sd[1] == 0 ? WrapInside(pnt, d, radius)
                                                   : WrapCircle(pnt, d, side ? sd : nullptr, radius);
  if (length < 0) return -1;

  // back to 3D (geom frame)
  double res[2][3];
  for (int k = 0; k < 2; ++k) {
    for (int c = 0; c < 3; ++c) res[k][c] = axis0[c] * pnt[2 * k] + axis1[c] * pnt[2 * k + 1];
  }
  if (type == WrapType::kCylinder) {
    // the height changes at a constant rate along the unrolled path: straight, arc, straight
    const double l0 = std::hypot(p[0][0] - res[0][0], p[0][1] - res[0][1]);
    const double l1 = std::hypot(p[1][0] - res[1][0], p[1][1] - res[1][1]);
    const double total = l0 + length + l1;
    const double rise = p[1][2] - p[0][2];
    res[0][2] = p[0][2] + rise * l0 / total;
    res[1][2] = p[0][2] + rise * (l0 + length) / total;
    const double height = std::fabs(res[1][2] - res[0][2]);
    length = std::sqrt(length * length + height * height);
  }

  // to the world frame
  for (int k = 0; k < 2; ++k) {
    MulMatVec3(points + 3 * k, mat, res[k]);
    AddTo3(points + 3 * k, pos);
  }
  return length;
}

namespace {

// Up to this many dofs, rows are handled whole: finding a tendon's dofs would cost more than the
// zeros it skips (MuJoCo's arm26, nv = 2, became 10 % slower with spans and chains).
constexpr int kWholeRowDofs = 32;

// Scratch of the segment Jacobians: the dofs that move either end (at most nv) and the two
// ends' point Jacobians over those dofs only (3 x nv each).
struct SegmentScratch {
  int *chain0 = nullptr, *chain1 = nullptr, *dofs = nullptr;
  double *jac0 = nullptr, *jac1 = nullptr;
  template <class Take>
  void Blocks(Take& take, int nv) {
    take(&chain0, nv, "dofs moving the segment's first end");
    take(&chain1, nv, "dofs moving the segment's second end");
    take(&dofs, nv, "their union");
    take(&jac0, 3 * nv, "first end's point Jacobian");
    take(&jac1, 3 * nv, "second end's point Jacobian");
  }
};

// ten_J row += (J(b1, p1) - J(b0, p0))' unit(p1 - p0) * scale, over the dofs that move either
// end: the others' columns of both Jacobians are zero, and adding their zero products would
// leave the row as it is (a row entry is never -0), so skipping them keeps every bit. On a model
// of many bodies (a composite grid) this is a few dofs instead of nv per segment.
void AddSegmentJacobian(const Model& m, const Data& d, int b0, const double* p0, int b1,
                        const double* p1, double scale, const SegmentScratch& s, double* row) {
  double dir[3];
  Sub3(dir, p1, p0);
  Normalize3(dir);
  int n = m.nv;  // few dofs: all of them (s.dofs holds 0..nv-1)
  if (m.nv > kWholeRowDofs) {
    const int n0 = BodyChain(m, b0, s.chain0);
    const int n1 = BodyChain(m, b1, s.chain1);
    n = MergeChains(s.chain0, n0, s.chain1, n1, s.dofs);
  }
  ChainJacobian(m, d, b0, p0, s.dofs, n, s.jac0, nullptr);
  ChainJacobian(m, d, b1, p1, s.dofs, n, s.jac1, nullptr);
  for (int k = 0; k < n; ++k) {
    double v = 0;
    for (int r = 0; r < 3; ++r) v += (s.jac1[r * n + k] - s.jac0[r * n + k]) * dir[r];
    row[s.dofs[k]] += scale * v;
  }
}

// Spatial tendon t: (site_xpos, geom_xpos, geom_xmat, cdof) => (length, row of ten_J)
double SpatialTendon(const Model& m, Data& d, int t, double* row, const SegmentScratch& scratch) {
  const int adr = m.tendon_adr[t], num = m.tendon_num[t];
  double length = 0, divisor = 1;
  int k = 0;
  while (k < num - 1) {
    const WrapType type0 = m.wrap_type[adr + k];
    WrapType type1 = m.wrap_type[adr + k + 1];

    // a pulley ends a branch: the next branch starts after it, with a new divisor
    if (type0 == WrapType::kPulley || type1 == WrapType::kPulley) {
      if (type0 == WrapType::kPulley) divisor = m.wrap_prm[adr + k];
      ++k;
      continue;
    }

    // the path piece starts at a site and ends at the next site, possibly around a geom
    const int site0 = m.wrap_objid[adr + k];
    int site1 = m.wrap_objid[adr + k + 1];
    int geom = -1;
    double points[12];  // site0, tangent point 0, tangent point 1, site1
    int body[4];
    Copy3(points, d.site_xpos.data() + 3 * site0);
    body[0] = m.site_bodyid[site0];
    double arc = -1;
    if (type1 == WrapType::kSphere || type1 == WrapType::kCylinder) {
      geom = site1;
      site1 = m.wrap_objid[adr + k + 2];
      const int side = static_cast<int>(std::lround(m.wrap_prm[adr + k + 1]));
      arc = WrapPath(points + 3, points, d.site_xpos.data() + 3 * site1,
                     d.geom_xpos.data() + 3 * geom, d.geom_xmat.data() + 9 * geom,
                     m.geom_size[3 * geom], type1,
                     side >= 0 ? d.site_xpos.data() + 3 * side : nullptr);
    } else {
      type1 = WrapType::kNone;
    }

    // lengths of the straight segments (and arc), and their contributions to the Jacobian
    int segments = 1;
    if (arc < 0) {
      Copy3(points + 3, d.site_xpos.data() + 3 * site1);
      body[1] = m.site_bodyid[site1];
      double dif[3];
      Sub3(dif, points + 3, points);
      length += Norm3(dif) / divisor;
    } else {
      Copy3(points + 9, d.site_xpos.data() + 3 * site1);
      body[1] = body[2] = m.geom_bodyid[geom];
      body[3] = m.site_bodyid[site1];
      double dif0[3], dif1[3];
      Sub3(dif0, points + 3, points);
      Sub3(dif1, points + 9, points + 6);
      length += (Norm3(dif0) + arc + Norm3(dif1)) / divisor;
      segments = 3;
    }
    for (int s = 0; s < segments; ++s) {
      if (body[s] == body[s + 1]) continue;
      AddSegmentJacobian(m, d, body[s], points + 3 * s, body[s + 1], points + 3 * s + 3,
                         1 / divisor, scratch, row);
    }
    k += type1 == WrapType::kNone ? 1 : 2;
  }
  return length;
}

}  // namespace

void TendonDofSpan(const Model& m, int t, int* begin, int* end) {
  if (m.nv <= kWholeRowDofs) {
    *begin = 0;
    *end = m.nv;
    return;
  }
  int lo = m.nv, hi = 0;
  auto add_dof_range = [&lo, &hi](int first, int last) {
    lo = std::min(lo, first);
    hi = std::max(hi, last + 1);
  };
  for (int w = m.tendon_adr[t]; w < m.tendon_adr[t] + m.tendon_num[t]; ++w) {
    const int id = m.wrap_objid[w];
    int body = -1;
    switch (m.wrap_type[w]) {
      case WrapType::kJoint:
        add_dof_range(m.jnt_dofadr[id], m.jnt_dofadr[id]);
        continue;
      case WrapType::kSite:
        body = m.site_bodyid[id];
        break;
      case WrapType::kSphere:
      case WrapType::kCylinder:
        body = m.geom_bodyid[id];
        break;
      default:  // pulley: no object
        continue;
    }
    // the body's chain: its last dof and the ancestors' (smaller indices) up to the root's
    const int last = LastDof(m, body);
    if (last < 0) continue;
    int first = last;
    while (m.dof_parentid[first] >= 0) first = m.dof_parentid[first];
    add_dof_range(first, last);
  }
  *begin = lo < hi ? lo : 0;
  *end = lo < hi ? hi : 0;
}

ArenaPlan TendonScratchPlan(const Model& m) {
  ArenaPlan plan;
  SegmentScratch().Blocks(plan, std::max(m.nv, 0));
  return plan;
}

// (qpos; site_xpos, geom_xpos, geom_xmat, cdof for spatial tendons) => (ten_length, ten_J)
void Tendons(const Model& m, Data& d) {
  if (m.ntendon == 0) return;
  ArenaScope scope(d.arena);
  SegmentScratch scratch;
  bool carved = false;
  for (int t = 0; t < m.ntendon; ++t) {
    double* row = d.ten_J.data() + t * m.nv;
    // only the span can be nonzero: the rest of the row has stayed zero since the Data was
    // reset (nothing else writes ten_J), which saves clearing ntendon x nv entries per step
    // on a model of many bodies and tendons (a composite grid: 178 x 312)
    int begin, end;
    TendonDofSpan(m, t, &begin, &end);
    std::fill(row + begin, row + end, 0.0);
    const int adr = m.tendon_adr[t];
    if (m.wrap_type[adr] != WrapType::kJoint) {
      if (!carved) {
        ArenaCarve carve(d.arena);
        scratch.Blocks(carve, m.nv);
        for (int i = 0; i < m.nv; ++i) scratch.dofs[i] = i;  // AddSegmentJacobian's few-dof case
        carved = true;
      }
      d.ten_length[t] = SpatialTendon(m, d, t, row, scratch);
      continue;
    }
    double length = 0;
    for (int w = adr; w < adr + m.tendon_num[t]; ++w) {
      const int j = m.wrap_objid[w];
      const double coef = m.wrap_prm[w];
      length += coef * d.qpos[m.jnt_qposadr[j]];
      row[m.jnt_dofadr[j]] += coef;
    }
    d.ten_length[t] = length;
  }
}

// (ten_J, qvel) => ten_velocity
// (the zero entries outside a row's span would add only zeros to a sum that starts at +0)
void TendonVelocity(const Model& m, Data& d) {
  for (int t = 0; t < m.ntendon; ++t) {
    const double* jac = d.ten_J.data() + t * m.nv;
    int begin, end;
    TendonDofSpan(m, t, &begin, &end);
    double v = 0;
    for (int i = begin; i < end; ++i) v += jac[i] * d.qvel[i];
    d.ten_velocity[t] = v;
  }
}

}  // namespace gauss
