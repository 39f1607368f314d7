// GJK (Gilbert-Johnson-Keerthi) on the Minkowski difference A - B, as MuJoCo 3.12 runs it:
//  - the k-th iterate x is the point of the current simplex nearest the origin, found by the
//    signed-volume sub-distance algorithm (Montanari, Petrinic and Barbieri, ACM ToG 2017):
//    barycentric coordinates from cofactors, projected to the axis plane or axis where the
//    simplex's shadow is largest, falling back to the best face / edge when the origin's
//    projection lies outside;
//  - stop when the Frank-Wolfe duality gap 2 x.(x - s) drops below tolerance^2 (0 between two
//    polytopes - boxes and meshes without margin - where GJK terminates exactly), when x stops
//    moving (all components within 1e-15), or when the simplex is a tetrahedron holding the
//    origin;
//  - when no distance is wanted (cutoff 0), stop at the first support plane that separates the
//    origin, and once a tetrahedron exists, switch to the intersection test below;
//  - otherwise stop when the separation exceeds the cutoff.
// Intersection test: keep a tetrahedron; while the origin lies outside one of its faces (the one
// nearest the origin), replace the opposite vertex by the support point along that face's
// normal; inside: intersecting; a support point that does not pass the origin: separate.
#include <cmath>

#include "gauss/math.h"
#include "native_ccd.h"

namespace gauss::ccd {

using namespace math;

namespace {

// r = sum of coef[i] v[i] for i < n, summed left to right
void Combine(double r[3], const double* coef, int n, const double* v0, const double* v1,
             const double* v2, const double* v3) {
  const double* v[4] = {v0, v1, v2, v3};
  for (int c = 0; c < 3; ++c) {
    double sum = coef[0] * v[0][c];
    for (int i = 1; i < n; ++i) sum += coef[i] * v[i][c];
    r[c] = sum;
  }
}

// determinant of the matrix with columns a, b, c: a . (b x c)
double Det3(const double a[3], const double b[3], const double c[3]) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

// 1 if both are positive, -1 if both negative, 0 otherwise
int SameSign(double a, double b) {
  if (a > 0 && b > 0) return 1;
  if (a < 0 && b < 0) return -1;
  return 0;
}

// origin projected on the line through a and b
void ProjectOriginOnLine(double r[3], const double a[3], const double b[3]) {
  double ab[3];
  Sub3(ab, b, a);
  const double t = -(Dot3(b, ab) / Dot3(ab, ab));
  for (int c = 0; c < 3; ++c) r[c] = b[c] + t * ab[c];
}

// Barycentric coordinates (l[0], l[1]) of the point of segment (a, b) nearest the origin; the
// end b when the origin projects outside.
void NearestOnSegment(double l[2], const double a[3], const double b[3]) {
  double p[3];
  ProjectOriginOnLine(p, a, b);
  double widest = 0;
  int axis = 0;
  for (int c = 0; c < 3; ++c) {
    const double extent = a[c] - b[c];
    if (std::fabs(extent) >= std::fabs(widest)) {
      widest = extent;
      axis = c;
    }
  }
  const double to_b = p[axis] - b[axis], to_a = a[axis] - p[axis];
  if (SameSign(widest, to_b) && SameSign(widest, to_a)) {
    l[0] = to_b / widest;
    l[1] = to_a / widest;
  } else {
    l[0] = 0;
    l[1] = 1;
  }
}

// Barycentric coordinates of the point of triangle (a, b, c) nearest the origin.
void NearestOnTriangle(double l[3], const double a[3], const double b[3], const double c[3]) {
  double p[3];
  if (ProjectOriginOnPlane(p, a, b, c)) {  // degenerate triangle
    NearestOnSegment(l, a, b);
    l[2] = 0;
    return;
  }
  int x, y;
  const double area = LargestShadow(a, b, c, &x, &y);
  const double c1 = SubArea(p, b, c, x, y), c2 = SubArea(p, c, a, x, y),
               c3 = SubArea(p, a, b, x, y);
  const bool in1 = SameSign(area, c1), in2 = SameSign(area, c2), in3 = SameSign(area, c3);
  if (in1 && in2 && in3) {
    l[0] = c1 / area;
    l[1] = c2 / area;
    l[2] = c3 / area;
    return;
  }
  // the nearest of the edges whose opposite sub-area has the wrong sign
  const double* corner[3] = {a, b, c};
  const bool inside[3] = {in1, in2, in3};
  double nearest = kMaxVal;
  bool first = true;
  for (int k = 0; k < 3; ++k) {
    if (inside[k]) continue;
    const int i = k == 0 ? 1 : 0, j = k == 2 ? 1 : 2;  // the edge without corner k
    double le[2], q[3];
    NearestOnSegment(le, corner[i], corner[j]);
    Combine(q, le, 2, corner[i], corner[j], nullptr, nullptr);
    const double d2 = Dot3(q, q);
    if (first || d2 < nearest) {
      l[k] = 0;
      l[i] = le[0];
      l[j] = le[1];
      nearest = d2;
      first = false;
    }
  }
}

// Barycentric coordinates of the point of tetrahedron (a, b, c, d) nearest the origin.
void NearestOnTetrahedron(double l[4], const double a[3], const double b[3], const double c[3],
                          const double d[3]) {
  // cofactors of the last row of [a b c d; 1 1 1 1]: signed volumes with the origin
  const double cof[4] = {-Det3(b, c, d), Det3(a, c, d), -Det3(a, b, d), Det3(a, b, c)};
  const double volume = cof[0] + cof[1] + cof[2] + cof[3];
  bool inside[4];
  for (int k = 0; k < 4; ++k) inside[k] = SameSign(volume, cof[k]);
  if (inside[0] && inside[1] && inside[2] && inside[3]) {
    for (int k = 0; k < 4; ++k) l[k] = cof[k] / volume;
    return;
  }
  // the nearest of the faces opposite a corner whose cofactor has the wrong sign
  const double* corner[4] = {a, b, c, d};
  double nearest = kMaxVal;
  bool first = true;
  for (int k = 0; k < 4; ++k) {
    if (inside[k]) continue;
    int face[3], n = 0;
    for (int i = 0; i < 4; ++i) {
      if (i != k) face[n++] = i;
    }
    double lf[3], q[3];
    NearestOnTriangle(lf, corner[face[0]], corner[face[1]], corner[face[2]]);
    Combine(q, lf, 3, corner[face[0]], corner[face[1]], corner[face[2]], nullptr);
    const double d2 = Dot3(q, q);
    if (first || d2 < nearest) {
      l[k] = 0;
      for (int i = 0; i < 3; ++i) l[face[i]] = lf[i];
      nearest = d2;
      first = false;
    }
  }
}

// (simplex of n points) => l[0..4): barycentric coordinates of its point nearest the origin
void SubDistance(double l[4], int n, const MinkowskiPoint* s) {
  l[0] = l[1] = l[2] = l[3] = 0;
  if (n == 4) {
    NearestOnTetrahedron(l, s[0].w, s[1].w, s[2].w, s[3].w);
  } else if (n == 3) {
    NearestOnTriangle(l, s[0].w, s[1].w, s[2].w);
  } else if (n == 2) {
    NearestOnSegment(l, s[0].w, s[1].w);
  } else {
    l[0] = 1;
  }
}

// both geoms are polytopes (boxes, meshes) without margin: GJK converges exactly
bool Polytopes(const NativeShape& a, const NativeShape& b) {
  auto flat = [](const NativeShape& s) {
    return s.half_margin == 0 && s.core == Core::kGeom &&
           (s.geom->type == GeomType::kBox || s.geom->type == GeomType::kMesh);
  };
  return flat(a) && flat(b);
}

// Outward unit normal n of face (p, q, r) of a tetrahedron, and the face's signed distance to
// the origin along it; kMaxVal when the face is degenerate.
double FaceDistance(double n[3], const MinkowskiPoint& p, const MinkowskiPoint& q,
                    const MinkowskiPoint& r) {
  double pr[3], pq[3];
  Sub3(pr, r.w, p.w);
  Sub3(pq, q.w, p.w);
  Cross3(n, pr, pq);
  const double n2 = Dot3(n, n);
  if (n2 > kMinVal * kMinVal && n2 < kMaxVal * kMaxVal) {
    Scale3(n, n, 1 / std::sqrt(n2));
    return Dot3(n, p.w);
  }
  return kMaxVal;
}

// The intersection test on the tetrahedron q.simplex: 1 intersecting (q.simplex then holds the
// origin), 0 separate, -1 undecided within the iteration budget or degenerate.
int IntersectTest(NativeShape& a, NativeShape& b, CcdQuery& q) {
  MinkowskiPoint s[4] = {q.simplex[0], q.simplex[1], q.simplex[2], q.simplex[3]};
  int order[4] = {0, 1, 2, 3};
  for (; q.iterations < q.max_iterations; ++q.iterations) {
    double dist[4], normal[4][3];
    dist[0] = FaceDistance(normal[0], s[order[2]], s[order[1]], s[order[3]]);
    dist[1] = FaceDistance(normal[1], s[order[0]], s[order[2]], s[order[3]]);
    dist[2] = FaceDistance(normal[2], s[order[1]], s[order[0]], s[order[3]]);
    dist[3] = FaceDistance(normal[3], s[order[0]], s[order[1]], s[order[2]]);
    if (dist[0] == 0 || dist[1] == 0 || dist[2] == 0 || dist[3] == 0) return -1;
    const int i = dist[0] < dist[1] ? 0 : 1;
    const int j = dist[2] < dist[3] ? 2 : 3;
    const int k = dist[i] < dist[j] ? i : j;
    if (dist[k] > 0) {
      for (int v = 0; v < 4; ++v) q.simplex[v] = s[order[v]];
      q.nsimplex = 4;
      return 1;
    }
    // the vertex opposite face k moves to the support point beyond it
    MinkowskiPoint& p = s[order[k]];
    double away[3];
    Scale3(away, normal[k], -1);
    NativeSupport(a, normal[k], p.a);
    NativeSupport(b, away, p.b);
    Sub3(p.w, p.a, p.b);
    if (Dot3(normal[k], p.w) < 0) {
      q.nsimplex = 0;
      return 0;
    }
    // keep the orientation of the tetrahedron
    const int u = (k + 1) & 3, v = (k + 2) & 3;
    const int t = order[u];
    order[u] = order[v];
    order[v] = t;
  }
  return -1;
}

// Support point of A - B against x (direction -x), unit direction; -x axis for x near 0.
void SupportAgainst(NativeShape& a, NativeShape& b, const double x[3], MinkowskiPoint& p) {
  double towards_a[3] = {-1, 0, 0}, towards_b[3] = {1, 0, 0};
  const double x2 = Dot3(x, x);
  if (x2 > kMinVal * kMinVal) {
    Scale3(towards_b, x, 1 / std::sqrt(x2));
    Scale3(towards_a, towards_b, -1);
  }
  NativeSupport(a, towards_a, p.a);
  NativeSupport(b, towards_b, p.b);
  Sub3(p.w, p.a, p.b);
}

bool Equal3(const double a[3], const double b[3]) {
  return std::fabs(a[0] - b[0]) < kMinVal && std::fabs(a[1] - b[1]) < kMinVal &&
         std::fabs(a[2] - b[2]) < kMinVal;
}

}  // namespace

// (origin projected on the plane of a, b, c) => r; true when the triangle is degenerate.
// The normal is tried from three corners in turn (MuJoCo 3.12's order: the first whose
// projection is nonzero and whose normal is not tiny).
bool ProjectOriginOnPlane(double r[3], const double a[3], const double b[3], const double c[3]) {
  double ab[3], ac[3], bc[3], n[3];
  Sub3(ab, b, a);
  Sub3(ac, c, a);
  Sub3(bc, c, b);
  const double* pairs[3][3] = {{bc, ab, b}, {ab, ac, a}, {ac, bc, c}};
  for (int t = 0; t < 3; ++t) {
    Cross3(n, pairs[t][0], pairs[t][1]);
    const double nv = Dot3(n, pairs[t][2]), nn = Dot3(n, n);
    if (t < 2) {
      if (nn == 0) return true;
      if (nv == 0 || nn <= kMinVal) continue;
    }
    Scale3(r, n, nv / nn);
    return false;
  }
  return false;
}

// (triangle a, b, c) => the axis plane (x, y) where its shadow is largest, and that shadow's
// signed area: the minors of the 4x3 matrix [a b c; 1 1 1], ties to the earlier plane
double LargestShadow(const double a[3], const double b[3], const double c[3], int* x, int* y) {
  const double m_yz = b[1] * c[2] - b[2] * c[1] - a[1] * c[2] + a[2] * c[1] + a[1] * b[2] -
                      a[2] * b[1];
  const double m_xz = b[0] * c[2] - b[2] * c[0] - a[0] * c[2] + a[2] * c[0] + a[0] * b[2] -
                      a[2] * b[0];
  const double m_xy = b[0] * c[1] - b[1] * c[0] - a[0] * c[1] + a[1] * c[0] + a[0] * b[1] -
                      a[1] * b[0];
  if (std::fabs(m_yz) >= std::fabs(m_xz) && std::fabs(m_yz) >= std::fabs(m_xy)) {
    *x = 1, *y = 2;
    return m_yz;
  }
  if (std::fabs(m_xz) >= std::fabs(m_xy)) {
    *x = 0, *y = 2;
    return m_xz;
  }
  *x = 0, *y = 1;
  return m_xy;
}

// Signed area of triangle (p, q, r) projected on axes (x, y): the cofactor of the barycentric
// coordinate of the corner not in it.
double SubArea(const double p[3], const double q[3], const double r[3], int x, int y) {
  return p[x] * q[y] + p[y] * r[x] + q[x] * r[y] - p[x] * r[y] - p[y] * q[x] - r[x] * q[y];
}

// (shapes, q: settings and the start in q.a - q.b) => (q)
void Gjk(NativeShape& a, NativeShape& b, CcdQuery& q) {
  const bool want_distance = q.cutoff > 0;
  bool test_intersection = !want_distance;
  MinkowskiPoint* s = q.simplex;
  int n = 0;
  double x[3], l[4] = {1, 0, 0, 0};
  const double cutoff2 = q.cutoff * q.cutoff;
  const double gap_tolerance = Polytopes(a, b) ? 0 : q.tolerance * q.tolerance;
  Sub3(x, q.a, q.b);

  int k = 0;
  for (; k < q.max_iterations; ++k) {
    SupportAgainst(a, b, x, s[n]);
    const double* w = s[n].w;
    double gap[3];
    Sub3(gap, x, w);
    if (2 * Dot3(x, gap) < gap_tolerance) {
      if (k == 0) n = 1;
      break;
    }
    // a separating plane (no contact wanted), or farther apart than the cutoff
    const double xw = Dot3(x, w);
    const bool apart = want_distance
                           ? q.cutoff < kMaxVal && xw > 0 && xw * xw / Dot3(x, x) >= cutoff2
                           : xw > 0;
    if (apart) {
      q.iterations = k;
      q.nsimplex = 0;
      q.found = false;
      q.dist = kMaxVal;
      return;
    }
    if (n == 3 && test_intersection) {
      q.iterations = k;
      const int hit = IntersectTest(a, b, q);
      if (hit != -1) {
        q.found = false;
        q.dist = hit > 0 ? 0 : kMaxVal;
        return;
      }
      k = q.iterations;
      test_intersection = false;
    }
    SubDistance(l, n + 1, s);
    n = 0;
    for (int i = 0; i < 4; ++i) {  // keep the points with nonzero weight
      if (l[i] == 0) continue;
      s[n] = s[i];
      l[n++] = l[i];
    }
    double next[3];
    Combine(next, l, n, s[0].w, s[1].w, s[2].w, s[3].w);
    if (Equal3(next, x)) break;
    Copy3(x, next);
    if (n == 4) break;
  }
  Combine(q.a, l, n, s[0].a, s[1].a, s[2].a, s[3].a);
  Combine(q.b, l, n, s[0].b, s[1].b, s[2].b, s[3].b);
  q.found = true;
  q.iterations = k;
  q.nsimplex = n;
  q.dist = n == 4 ? 0 : Norm3(x);  // a tetrahedron around the origin: intersecting
}

}  // namespace gauss::ccd
