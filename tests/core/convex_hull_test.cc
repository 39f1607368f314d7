// The quickhull of core/src/convex_hull.cc: on random, coplanar-heavy, duplicated and spherical
// point sets the hull must contain every point, have outward faces, form a closed triangulated
// surface (each edge in two faces, V - E + F = 2) and use only extreme points; degenerate sets
// are refused with a reason. The packed graph (gauss/mesh.h layout) must be the symmetric edge
// graph of the faces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "convex_hull.h"

namespace gauss {
namespace {

// Checks the hull of `p` and returns the number of hull vertices.
int CheckHull(const std::vector<double>& p, const ConvexHull& hull) {
  const int n = static_cast<int>(p.size() / 3), nf = static_cast<int>(hull.face.size() / 3);
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
  EXPECT_EQ(std::vector<int>(used.begin(), used.end()), hull.vert);
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

TEST(ConvexHull, DegenerateSetsAreRefusedWithAReason) {
  ConvexHull hull;
  std::string why;
  const std::vector<double> three = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  EXPECT_FALSE(ComputeConvexHull(three.data(), 3, &hull, &why));
  EXPECT_NE(why.find("fewer than 4"), std::string::npos) << why;
  const std::vector<double> same = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
  EXPECT_FALSE(ComputeConvexHull(same.data(), 5, &hull, &why));
  EXPECT_NE(why.find("coincide"), std::string::npos) << why;
  const std::vector<double> line = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0.5, 0.5, 0.5};
  EXPECT_FALSE(ComputeConvexHull(line.data(), 5, &hull, &why));
  EXPECT_NE(why.find("line"), std::string::npos) << why;
  const std::vector<double> flat = {0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0.3, 0.6, 1};
  EXPECT_FALSE(ComputeConvexHull(flat.data(), 5, &hull, &why));
  EXPECT_NE(why.find("plane"), std::string::npos) << why;
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
    EXPECT_TRUE(std::is_sorted(edges + adr[i], edges + adr[i + 1]));
    for (int e = adr[i]; e < adr[i + 1]; ++e) from_graph.insert({i, edges[e]});
  }
  EXPECT_EQ(from_graph, from_faces);
}

}  // namespace
}  // namespace gauss
