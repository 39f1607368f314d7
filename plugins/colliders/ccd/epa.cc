// EPA (Expanding Polytope Algorithm) on the Minkowski difference A - B, as MuJoCo 3.12 runs it
// after GJK finds the shapes intersecting.
//
// Initial polytope, from GJK's final simplex:
//  - a segment: three support points along directions 120 degrees apart around it (the first
//    perpendicular to the segment and to the axis of its smallest component) make a hexahedron
//    of six triangles with the segment's ends;
//  - a triangle: the support points along both of its normals make a hexahedron;
//  - a tetrahedron: itself.
// A face through the origin turns the tetrahedron or the segment's hexahedron into the triangle
// case on that face; a degenerate triangle, a triangle whose new points lie on it, or a face of
// the triangle's hexahedron through the origin leaves no polytope (no contact).
//
// Expansion: take the face nearest the origin (a lower bound of the depth), the support point w
// along its normal (w.n / |n| bounds the depth from above); stop when the bounds are within the
// tolerance or after the iteration budget. Otherwise remove every face that w sees (a flood over
// face adjacency from the nearest face), and join w to each edge of the hole's rim. New faces
// whose distance lies outside [lower, upper] are kept in the polytope but not offered as
// candidates. The answer is the last nearest face: depth its distance, the contact points the
// support points of A and B weighted by the barycentric coordinates of the origin's projection.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "gauss/math.h"
#include "native_ccd.h"

namespace gauss::ccd {

using namespace math;

namespace {

// Iterations beyond this are not run (MuJoCo's default is 35); the polytope's buffers are sized
// for it, on the stack.
constexpr int kMaxEpaIterations = 200;
// Faces: 6 per iteration, at least 1000 (MuJoCo 3.12's bound).
constexpr int kMaxFaces = std::max(6 * kMaxEpaIterations, 1000);
// sin(120 degrees) to the 11 digits MuJoCo 3.12 uses (the exact value moves the support points)
constexpr double kSin120 = 0.86602540378;

struct Face {
  int vert[3];     // polytope vertices, counter-clockwise seen from outside
  int adj[3];      // neighbour across edge (vert[i], vert[i + 1])
  double near[3];  // origin projected on the face's plane: the face normal times its distance
  double dist;     // |near|
  int slot;        // position among the candidates; -1 not a candidate; -2 removed
};

struct Polytope {
  MinkowskiPoint vert[5 + kMaxEpaIterations];
  int nvert = 0;
  Face face[kMaxFaces];
  int nface = 0;
  int candidate[kMaxFaces];  // faces that may still be nearest, in an order removal preserves
  int ncandidate = 0;
};

int AddVertex(Polytope& pt, const MinkowskiPoint& p) {
  pt.vert[pt.nvert] = p;
  return pt.nvert++;
}

// (direction d of norm |d|) => index of the new support point of A - B along d
int AddSupport(Polytope& pt, NativeShape& a, NativeShape& b, const double d[3], double norm) {
  double along[3] = {1, 0, 0}, against[3] = {-1, 0, 0};
  if (norm > kMinVal) {
    for (int c = 0; c < 3; ++c) along[c] = d[c] / norm;
    Scale3(against, along, -1);
  }
  MinkowskiPoint& v = pt.vert[pt.nvert];
  NativeSupport(a, along, v.a);
  NativeSupport(b, against, v.b);
  Sub3(v.w, v.a, v.b);
  return pt.nvert++;
}

// Appends face (v1, v2, v3) with neighbours (n1, n2, n3); returns its distance to the origin, 0
// for a degenerate face.
double AddFace(Polytope& pt, int v1, int v2, int v3, int n1, int n2, int n3) {
  Face& f = pt.face[pt.nface++];
  f.vert[0] = v1, f.vert[1] = v2, f.vert[2] = v3;
  f.adj[0] = n1, f.adj[1] = n2, f.adj[2] = n3;
  if (ProjectOriginOnPlane(f.near, pt.vert[v3].w, pt.vert[v2].w, pt.vert[v1].w)) {
    f.dist = 0;
    f.slot = -1;
    return 0;
  }
  f.dist = Norm3(f.near);
  f.slot = -1;
  return f.dist;
}

void MakeCandidates(Polytope& pt, int n) {
  for (int i = 0; i < n; ++i) {
    pt.candidate[i] = i;
    pt.face[i].slot = i;
  }
  pt.ncandidate = n;
}

// barycentric coordinates of p (in the plane of a, b, c) on the triangle
void TriangleCoordinates(double l[3], const double a[3], const double b[3], const double c[3],
                         const double p[3]) {
  int x, y;
  const double area = LargestShadow(a, b, c, &x, &y);
  l[0] = SubArea(p, b, c, x, y) / area;
  l[1] = SubArea(p, c, a, x, y) / area;
  l[2] = SubArea(p, a, b, x, y) / area;
}

// p lies on triangle (a, b, c)
bool OnTriangle(const double a[3], const double b[3], const double c[3], const double p[3]) {
  double l[3];
  TriangleCoordinates(l, a, b, c, p);
  if (l[0] < 0 || l[1] < 0 || l[2] < 0) return false;
  double q[3];
  for (int i = 0; i < 3; ++i) q[i] = a[i] * l[0] + b[i] * l[1] + c[i] * l[2];
  Sub3(q, q, p);
  return Norm3(q) < kMinVal;
}

// p3 and the origin lie strictly on the same side of the plane through p0, p1, p2
bool SameSide(const double p0[3], const double p1[3], const double p2[3], const double p3[3]) {
  double e1[3], e2[3], n[3], to_p3[3], to_origin[3];
  Sub3(e1, p1, p0);
  Sub3(e2, p2, p0);
  Cross3(n, e1, e2);
  Sub3(to_p3, p3, p0);
  Scale3(to_origin, p0, -1);
  const double d1 = Dot3(n, to_p3), d2 = Dot3(n, to_origin);
  return (d1 > 0 && d2 > 0) || (d1 < 0 && d2 < 0);
}

// the tetrahedron (p0, p1, p2, p3) holds the origin
bool HoldsOrigin(const double* p0, const double* p1, const double* p2, const double* p3) {
  return SameSide(p0, p1, p2, p3) && SameSide(p1, p2, p3, p0) && SameSide(p2, p3, p0, p1) &&
         SameSide(p3, p0, p1, p2);
}

// Replaces the query's simplex by the polytope's triangle (v1, v2, v3) and empties the polytope.
void RestartFromTriangle(Polytope& pt, CcdQuery& q, int v1, int v2, int v3) {
  q.nsimplex = 3;
  const int v[3] = {v1, v2, v3};
  for (int i = 0; i < 3; ++i) q.simplex[i] = pt.vert[v[i]];
  pt.nface = 0;
  pt.nvert = 0;
}

// hexahedron around GJK's triangle; false: no polytope
bool FromTriangle(Polytope& pt, NativeShape& a, NativeShape& b, CcdQuery& q) {
  const double* p1 = q.simplex[0].w;
  const double* p2 = q.simplex[1].w;
  const double* p3 = q.simplex[2].w;
  double e1[3], e2[3], n[3], minus_n[3];
  Sub3(e1, p2, p1);
  Sub3(e2, p3, p1);
  Cross3(n, e1, e2);
  const double n_norm = Norm3(n);
  if (n_norm < kMinVal) return false;
  Scale3(minus_n, n, -1);
  const int v1 = AddVertex(pt, q.simplex[0]);
  const int v2 = AddVertex(pt, q.simplex[1]);
  const int v3 = AddVertex(pt, q.simplex[2]);
  const int v5 = AddSupport(pt, a, b, minus_n, n_norm);
  const int v4 = AddSupport(pt, a, b, n, n_norm);
  if (OnTriangle(p1, p2, p3, pt.vert[v4].w)) return false;
  if (OnTriangle(p1, p2, p3, pt.vert[v5].w)) return false;
  AddFace(pt, v4, v1, v2, 1, 3, 2);
  AddFace(pt, v4, v3, v1, 2, 4, 0);
  AddFace(pt, v4, v2, v3, 0, 5, 1);
  AddFace(pt, v5, v2, v1, 5, 0, 4);
  AddFace(pt, v5, v1, v3, 3, 1, 5);
  AddFace(pt, v5, v3, v2, 4, 2, 3);
  for (int i = 0; i < 6; ++i) {
    pt.candidate[i] = i;
    pt.face[i].slot = i;
    if (pt.face[i].dist < kMinVal) return false;
  }
  pt.ncandidate = 6;
  return true;
}

// rotation by 120 degrees about axis
void Turn120(double r[9], const double axis[3]) {
  const double n = Norm3(axis);
  const double u1 = axis[0] / n, u2 = axis[1] / n, u3 = axis[2] / n;
  const double s = kSin120, c = -0.5;
  r[0] = c + u1 * u1 * (1 - c);
  r[1] = u1 * u2 * (1 - c) - u3 * s;
  r[2] = u1 * u3 * (1 - c) + u2 * s;
  r[3] = u2 * u1 * (1 - c) + u3 * s;
  r[4] = c + u2 * u2 * (1 - c);
  r[5] = u2 * u3 * (1 - c) - u1 * s;
  r[6] = u1 * u3 * (1 - c) - u2 * s;
  r[7] = u2 * u3 * (1 - c) + u1 * s;
  r[8] = c + u3 * u3 * (1 - c);
}

// hexahedron around GJK's segment
bool FromSegment(Polytope& pt, NativeShape& a, NativeShape& b, CcdQuery& q) {
  double axis[3];
  Sub3(axis, q.simplex[1].w, q.simplex[0].w);
  double smallest = kMaxVal;
  int k = 0;
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(axis[i]) < smallest) {
      smallest = std::fabs(axis[i]);
      k = i;
    }
  }
  double e[3] = {0, 0, 0}, d1[3], d2[3], d3[3], turn[9];
  e[k] = 1;
  Cross3(d1, e, axis);
  Turn120(turn, axis);
  MulMatVec3(d2, turn, d1);
  MulMatVec3(d3, turn, d2);
  const int v1 = AddVertex(pt, q.simplex[0]);
  const int v2 = AddVertex(pt, q.simplex[1]);
  const int v3 = AddSupport(pt, a, b, d1, Norm3(d1));
  const int v4 = AddSupport(pt, a, b, d2, Norm3(d2));
  const int v5 = AddSupport(pt, a, b, d3, Norm3(d3));
  const int faces[6][6] = {{v1, v3, v4, 1, 3, 2}, {v1, v5, v3, 2, 4, 0}, {v1, v4, v5, 0, 5, 1},
                           {v2, v4, v3, 5, 0, 4}, {v2, v3, v5, 3, 1, 5}, {v2, v5, v4, 4, 2, 3}};
  for (const auto& f : faces) {
    if (AddFace(pt, f[0], f[1], f[2], f[3], f[4], f[5]) < kMinVal) {
      RestartFromTriangle(pt, q, f[0], f[1], f[2]);
      return FromTriangle(pt, a, b, q);
    }
  }
  MakeCandidates(pt, 6);
  return true;
}

// GJK's tetrahedron
bool FromTetrahedron(Polytope& pt, NativeShape& a, NativeShape& b, CcdQuery& q) {
  const int v1 = AddVertex(pt, q.simplex[0]);
  const int v2 = AddVertex(pt, q.simplex[1]);
  const int v3 = AddVertex(pt, q.simplex[2]);
  const int v4 = AddVertex(pt, q.simplex[3]);
  const int faces[4][6] = {
      {v1, v2, v3, 1, 3, 2}, {v1, v4, v2, 2, 3, 0}, {v1, v3, v4, 0, 3, 1}, {v4, v3, v2, 2, 0, 1}};
  for (const auto& f : faces) {
    if (AddFace(pt, f[0], f[1], f[2], f[3], f[4], f[5]) < kMinVal) {
      RestartFromTriangle(pt, q, f[0], f[1], f[2]);
      return FromTriangle(pt, a, b, q);
    }
  }
  if (!HoldsOrigin(pt.vert[v1].w, pt.vert[v2].w, pt.vert[v3].w, pt.vert[v4].w)) return false;
  MakeCandidates(pt, 4);
  return true;
}

// The rim of the faces a new point sees: faces beyond it are removed, and each edge between a
// removed face and a kept one is recorded (kept face, its edge index).
struct Rim {
  int face[kMaxFaces];
  int edge[kMaxFaces];
  int n = 0;
  const double* point = nullptr;
};

void Remove(Polytope& pt, Face& f) {
  if (f.slot >= 0) {
    const int moved = pt.candidate[--pt.ncandidate];
    pt.candidate[f.slot] = moved;
    pt.face[moved].slot = f.slot;
  }
  f.slot = -2;
}

int EdgeStartingAt(const Face& f, int vertex) {
  if (f.vert[0] == vertex) return 0;
  if (f.vert[1] == vertex) return 1;
  return 2;
}

// Face f, entered across its edge e: removed and searched further when the point sees it;
// returns whether it was removed.
bool Visit(Polytope& pt, Rim& rim, Face& f, int e) {
  if (!(Dot3(f.near, rim.point) >= f.dist * f.dist)) return false;
  Remove(pt, f);
  for (int k = 1; k < 3; ++k) {
    const int i = (e + k) % 3;
    Face& next = pt.face[f.adj[i]];
    if (next.slot > -2) {
      const int next_edge = EdgeStartingAt(next, f.vert[(i + 1) % 3]);
      if (!Visit(pt, rim, next, next_edge) && rim.n < kMaxFaces) {
        rim.face[rim.n] = f.adj[i];
        rim.edge[rim.n++] = next_edge;
      }
    }
  }
  return true;
}

// removes `nearest` and every face the rim's point sees from it, filling the rim
void CarveHole(Polytope& pt, Rim& rim, Face& nearest) {
  Remove(pt, nearest);
  for (int i = 0; i < 3; ++i) {
    Face& next = pt.face[nearest.adj[i]];
    const int next_edge = EdgeStartingAt(next, nearest.vert[(i + 1) % 3]);
    if ((i == 0 || next.slot > -2) && !Visit(pt, rim, next, next_edge) && rim.n < kMaxFaces) {
      rim.face[rim.n] = nearest.adj[i];
      rim.edge[rim.n++] = next_edge;
    }
  }
}

}  // namespace

// (shapes, q with GJK's simplex) => (q.dist = -depth, q.a, q.b)
bool Epa(NativeShape& a, NativeShape& b, CcdQuery& q) {
  Polytope pt;
  bool built = false;
  if (q.nsimplex == 2) {
    built = FromSegment(pt, a, b, q);
  } else if (q.nsimplex == 3) {
    built = FromTriangle(pt, a, b, q);
  } else {
    built = FromTetrahedron(pt, a, b, q);
  }
  if (!built) return false;

  const int iterations = std::min(q.max_iterations, kMaxEpaIterations);
  const int max_faces = std::max(6 * iterations, 1000);
  Rim rim;
  double upper = FLT_MAX;
  int best = pt.candidate[0];
  for (int k = 0; k < iterations; ++k) {
    const int previous = best;
    double lower = FLT_MAX;
    for (int i = 0; i < pt.ncandidate; ++i) {
      const Face& f = pt.face[pt.candidate[i]];
      if (f.dist < lower) {
        best = pt.candidate[i];
        lower = f.dist;
      }
    }
    if (lower > upper) {  // the bounds crossed: the previous face stands
      best = previous;
      break;
    }
    if (lower <= 0) break;  // the origin on a face's plane: no better estimate
    Face& nearest = pt.face[best];
    const int wi = AddSupport(pt, a, b, nearest.near, lower);
    const double* w = pt.vert[wi].w;
    upper = std::min(upper, Dot3(nearest.near, w) / lower);
    if (upper - lower < q.tolerance) break;

    rim.point = w;
    CarveHole(pt, rim, nearest);
    if (rim.n < 3) return false;  // round-off broke the polytope
    const int first = pt.nface, n = rim.n;
    if (n > max_faces - pt.nface) break;  // out of face storage: keep the current estimate
    for (int i = 0; i < n; ++i) {
      Face& kept = pt.face[rim.face[i]];
      const int e = rim.edge[i];
      const int v1 = kept.vert[e], v2 = kept.vert[(e + 1) % 3];
      kept.adj[e] = first + i;
      const int before = i == 0 ? first + n - 1 : first + i - 1;
      const double dist = AddFace(pt, wi, v2, v1, before, rim.face[i], first + (i + 1) % n);
      if (dist == 0) return false;
      if (dist >= lower && dist <= upper) {
        pt.candidate[pt.ncandidate] = pt.nface - 1;
        pt.face[pt.nface - 1].slot = pt.ncandidate++;
      }
    }
    rim.n = 0;
    if (pt.ncandidate == 0) break;
  }

  // contact points from the answer face
  const Face& f = pt.face[best];
  const MinkowskiPoint& p1 = pt.vert[f.vert[0]];
  const MinkowskiPoint& p2 = pt.vert[f.vert[1]];
  const MinkowskiPoint& p3 = pt.vert[f.vert[2]];
  double l[3];
  TriangleCoordinates(l, p1.w, p2.w, p3.w, f.near);
  for (int c = 0; c < 3; ++c) {
    q.a[c] = p1.a[c] * l[0] + p2.a[c] * l[1] + p3.a[c] * l[2];
    q.b[c] = p1.b[c] * l[0] + p2.b[c] * l[1] + p3.b[c] * l[2];
  }
  q.found = true;
  q.dist = -f.dist;
  return true;
}

}  // namespace gauss::ccd
