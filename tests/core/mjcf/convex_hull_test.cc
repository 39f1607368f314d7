// Mesh hulls by qhull (core/src/mjcf/convex_hull.cc): on random, spherical, coplanar-heavy and
// duplicated point sets the hull must contain every point (none above any face plane by more
// than 1e-9 x the extent), have outward counter-clockwise faces, form a closed triangulated
// surface (each edge in exactly two faces, in opposite directions) with Euler characteristic
// V - E + F = 2, use only extreme points, and list each vertex's neighbours exactly as the
// faces connect them. Degenerate sets (too few, coincident, collinear, coplanar points) are
// refused with a reason that includes qhull's own message, and qhull prints nothing. The
// packed graph follows the gauss/mesh.h layout. (Equality with MuJoCo 2.2.2's qhull graphs,
// order included: tests/reference/mesh_hull_test.cc.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mjcf/convex_hull.h"

namespace gauss::mjcf {
namespace {

// Checks the hull of `p` and returns the number of hull vertices.
int CheckHull(const std::vector<double>& p, const ConvexHull& hull) {
  const int n = static_cast<int>(p.size() / 3), nf = static_cast<int>(hull.face.size() / 3);
  const int nv = static_cast<int>(hull.vert.size());
  double extent = 0;
  for (double x : p) extent = std::max(extent, std::fabs(x));
  const double tol = 1e-9 * extent;
  std::map<std::pair<int, int>, int> edges;
  std::set<int> used;
  for (int f = 0; f < nf; ++f) {
    const int* t = &hull.face[3 * f];
    const double *a = &p[3 * t[0]], *b = &p[3 * t[1]], *c = &p[3 * t[2]];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double nrm[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                     u[0] * w[1] - u[1] * w[0]};
    const double len = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    EXPECT_GT(len, 0) << "degenerate face " << f;
    for (double& x : nrm) x /= len;
    // every point on the inner side of the face (outward normals, convexity)
    for (int i = 0; i < n; ++i) {
      const double h = nrm[0] * (p[3 * i] - a[0]) + nrm[1] * (p[3 * i + 1] - a[1]) +
                       nrm[2] * (p[3 * i + 2] - a[2]);
      EXPECT_LE(h, tol) << "point " << i << " above face " << f;
    }
    for (int k = 0; k < 3; ++k) {
      ++edges[{t[k], t[(k + 1) % 3]}];
      used.insert(t[k]);
    }
  }
  // closed 2-manifold: each directed edge once, its reverse once
  for (const auto& [e, count] : edges) {
    EXPECT_EQ(count, 1);
    EXPECT_EQ(edges.count({e.second, e.first}), 1u) << "open edge " << e.first << "-" << e.second;
  }
  const int V = static_cast<int>(used.size()), E = static_cast<int>(edges.size()) / 2;
  EXPECT_EQ(V - E + nf, 2);
  // the vertex list: exactly the points the faces use, each once
  EXPECT_EQ(std::set<int>(hull.vert.begin(), hull.vert.end()), used);
  EXPECT_EQ(nv, V);
  // each vertex's neighbours: the points it shares a face edge with, each listed once
  std::map<int, int> local;
  for (int i = 0; i < nv; ++i) local[hull.vert[i]] = i;
  EXPECT_EQ(static_cast<int>(hull.edge_adr.size()), nv + 1);
  for (int i = 0; i < nv && static_cast<int>(hull.edge_adr.size()) == nv + 1; ++i) {
    std::set<int> want;
    for (const auto& [e, count] : edges) {
      if (e.first == hull.vert[i]) want.insert(local[e.second]);
    }
    const std::vector<int> got(hull.edges.begin() + hull.edge_adr[i],
                               hull.edges.begin() + hull.edge_adr[i + 1]);
    EXPECT_EQ(std::set<int>(got.begin(), got.end()), want) << "hull vertex " << i;
    EXPECT_EQ(got.size(), want.size()) << "hull vertex " << i << " lists a neighbour twice";
  }
  return V;
}

TEST(ConvexHull, RandomPointsInABall) {
  std::mt19937_64 gen(11);
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(0, 1);
  std::vector<double> p;
  for (int i = 0; i < 2000; ++i) {
    double v[3] = {nd(gen), nd(gen), nd(gen)};
    const double r = std::cbrt(ud(gen)) / std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (double x : v) p.push_back(3 + 2 * x * r);  // off the origin
  }
  ConvexHull hull;
  std::string why;
  ASSERT_TRUE(ComputeConvexHull(p.data(), 2000, &hull, &why)) << why;
  const int nv = CheckHull(p, hull);
  EXPECT_GT(nv, 50);
  EXPECT_LT(nv, 2000);
}

TEST(ConvexHull, PointsOnASphereAreAllVertices) {
  std::vector<double> p;
  const int rings = 12, per = 16;
  p.insert(p.end(), {0, 0, 1, 0, 0, -1});
  for (int r = 1; r < rings; ++r) {
    const double th = M_PI * r / rings;
    for (int k = 0; k < per; ++k) {
      const double ph = 2 * M_PI * (k + 0.5 * r) / per;
      p.insert(p.end(), {std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)});
    }
  }
  ConvexHull hull;
  std::string why;
  const int n = static_cast<int>(p.size() / 3);
  ASSERT_TRUE(ComputeConvexHull(p.data(), n, &hull, &why)) << why;
  EXPECT_EQ(CheckHull(p, hull), n);
  EXPECT_EQ(static_cast<int>(hull.face.size() / 3), 2 * n - 4);  // triangulated sphere
}

// A lattice filling a box, faces and edges included, every point three times: only the 8
// corners are vertices, however many points lie on the faces.
TEST(ConvexHull, CoplanarAndDuplicatePointsAreNotVertices) {
  std::vector<double> p;
  for (int copy = 0; copy < 3; ++copy) {
    for (int i = 0; i <= 6; ++i) {
      for (int j = 0; j <= 5; ++j) {
        for (int k = 0; k <= 4; ++k) p.insert(p.end(), {0.1 * i, 0.2 * j - 0.3, 0.05 * k});
      }
    }
  }
  ConvexHull hull;
  std::string why;
  ASSERT_TRUE(ComputeConvexHull(p.data(), static_cast<int>(p.size() / 3), &hull, &why)) << why;
  EXPECT_EQ(CheckHull(p, hull), 8);
  EXPECT_EQ(hull.face.size(), 36u);  // 12 triangles
}

// Each degenerate set is refused with its reason and qhull's message, and qhull prints nothing
// (its streams are captured) nor ends the process.
TEST(ConvexHull, DegenerateSetsAreRefusedWithAReason) {
  struct Case {
    std::vector<double> points;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {{0, 0, 0, 1, 0, 0, 0, 1, 0}, "fewer than 4 vertices (3)"},
      {{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}, "all vertices coincide"},
      {{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0.5, 0.5, 0.5}, "all vertices lie on a line"},
      {{0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0.3, 0.6, 1}, "all vertices lie in a plane"},
      // a tilted plane through many points
      {{0, 0, 0, 1, 0, 0.5, 0, 1, 0.25, 1, 1, 0.75, 0.5, 0.5, 0.375, 2, 3, 1.75},
       "all vertices lie in a plane"},
  };
  for (const Case& c : cases) {
    ConvexHull hull;
    std::string why;
    ::testing::internal::CaptureStderr();
    ::testing::internal::CaptureStdout();
    const bool ok = ComputeConvexHull(c.points.data(), static_cast<int>(c.points.size() / 3),
                                      &hull, &why);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << c.reason;
    EXPECT_EQ(::testing::internal::GetCapturedStdout(), "") << c.reason;
    EXPECT_FALSE(ok) << c.reason;
    EXPECT_NE(why.find(c.reason), std::string::npos) << why;
    if (c.points.size() >= 12) {
      EXPECT_NE(why.find("qhull: QH"), std::string::npos) << "qhull's message: " << why;
    }
  }
}

// A hull computed from a list that repeats points (MuJoCo's OBJ meshes: one point per face
// corner) renamed to the vertices the repeats stand for.
TEST(ConvexHull, RenumberedHullUsesTheOriginalVertices) {
  const std::vector<double> vert = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  const std::vector<int> corner = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  std::vector<double> points;
  for (int i : corner) points.insert(points.end(), vert.begin() + 3 * i, vert.begin() + 3 * i + 3);
  ConvexHull hull;
  std::string why;
  ASSERT_TRUE(ComputeConvexHull(points.data(), 12, &hull, &why)) << why;
  RenumberHullPoints(corner, &hull);
  EXPECT_EQ(CheckHull(vert, hull), 4);
  EXPECT_EQ(hull.face.size(), 12u);
}

// gauss/mesh.h layout: [nv, nf, vert_id(nv), edge_adr(nv+1), edges, faces(3 nf)].
TEST(ConvexHull, PackedGraphIsTheSymmetricEdgeGraph) {
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> ud(-1, 1);
  std::vector<double> p;
  for (int i = 0; i < 300; ++i) p.insert(p.end(), {ud(gen), 2 * ud(gen), 0.5 * ud(gen)});
  ConvexHull hull;
  std::string why;
  ASSERT_TRUE(ComputeConvexHull(p.data(), 300, &hull, &why)) << why;
  std::vector<int> g = {42};  // appended after existing content
  PackHullGraph(hull, &g);
  const int nv = g[1], nf = g[2];
  ASSERT_EQ(nv, static_cast<int>(hull.vert.size()));
  ASSERT_EQ(nf, static_cast<int>(hull.face.size() / 3));
  const int* vert_id = &g[3];
  const int* adr = vert_id + nv;
  const int* edges = adr + nv + 1;
  const int* faces = edges + adr[nv];
  EXPECT_EQ(static_cast<std::size_t>(faces + 3 * nf - g.data()), g.size());
  EXPECT_EQ(adr[nv], 3 * nf);  // every undirected edge twice, E = 3F/2
  std::set<std::pair<int, int>> from_faces;
  for (int f = 0; f < nf; ++f) {
    for (int k = 0; k < 3; ++k) {
      const int a = faces[3 * f + k], b = faces[3 * f + (k + 1) % 3];
      EXPECT_EQ(vert_id[a], hull.face[3 * f + k]);
      from_faces.insert({a, b});
      from_faces.insert({b, a});
    }
  }
  std::set<std::pair<int, int>> from_graph;
  for (int i = 0; i < nv; ++i) {
    EXPECT_EQ(vert_id[i], hull.vert[i]);
    EXPECT_EQ(adr[i], hull.edge_adr[i]);
    for (int e = adr[i]; e < adr[i + 1]; ++e) {
      EXPECT_EQ(edges[e], hull.edges[e]);  // qhull's order kept
      from_graph.insert({i, edges[e]});
    }
  }
  EXPECT_EQ(from_graph, from_faces);
}

}  // namespace
}  // namespace gauss::mjcf
