// Quickhull in 3D (Barber, Dobkin, Huhdanpaa 1996), written for mesh hulls at compile time.
//
// Start from a tetrahedron of extreme points; every other point goes into the "outside set" of
// one facet it lies above. Repeatedly take the farthest point of some outside set, find the
// connected set of facets it sees, replace them by a fan of new facets from the point to the
// horizon edges, and hand the orphaned outside points to the new facets. Points within the
// tolerance of a facet plane count as inside: coplanar and duplicate points never become hull
// vertices, which keeps facets well shaped and the visible set connected.
#include "convex_hull.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace gauss {
namespace {

struct Facet {
  int v[3];              // counter-clockwise from outside
  int adj[3];            // adj[k]: facet across edge (v[k], v[k+1])
  double n[3], d;        // unit outward normal and offset: distance(p) = n.p - d
  std::vector<int> outside;  // points above this facet
  bool alive = true;
};

class Quickhull {
 public:
  Quickhull(const double* p, int n, double eps) : p_(p), n_(n), eps_(eps) {}

  // (points) => (facets_), false when degenerate
  bool Run(std::string* why);
  void Output(ConvexHull* hull) const;

 private:
  const double* P(int i) const { return p_ + 3 * i; }
  double Distance(const Facet& f, int i) const {
    const double* x = P(i);
    return f.n[0] * x[0] + f.n[1] * x[1] + f.n[2] * x[2] - f.d;
  }
  // A facet (a, b, c) with its plane. (points) => (facet)
  int AddFacet(int a, int b, int c);
  bool InitialSimplex(std::string* why);
  // Gives point i to the first of `facets` it lies above, if any. (facets) => (outside sets)
  void Assign(int i, const std::vector<int>& facets);
  void AddPoint(int f0, int apex);

  const double* p_;
  int n_;
  double eps_;
  std::vector<Facet> facets_;
  bool failed_ = false;
};

// (points a, b, c) => new facet with its unit normal and offset; returns its index
int Quickhull::AddFacet(int a, int b, int c) {
  Facet f;
  f.v[0] = a;
  f.v[1] = b;
  f.v[2] = c;
  f.adj[0] = f.adj[1] = f.adj[2] = -1;
  const double *A = P(a), *B = P(b), *C = P(c);
  const double u[3] = {B[0] - A[0], B[1] - A[1], B[2] - A[2]};
  const double w[3] = {C[0] - A[0], C[1] - A[1], C[2] - A[2]};
  f.n[0] = u[1] * w[2] - u[2] * w[1];
  f.n[1] = u[2] * w[0] - u[0] * w[2];
  f.n[2] = u[0] * w[1] - u[1] * w[0];
  const double len = std::sqrt(f.n[0] * f.n[0] + f.n[1] * f.n[1] + f.n[2] * f.n[2]);
  // a sliver from nearly collinear points: keep it, its plane is that of its normal's best guess
  for (double& x : f.n) x = len > 0 ? x / len : 0;
  f.d = f.n[0] * A[0] + f.n[1] * A[1] + f.n[2] * A[2];
  facets_.push_back(std::move(f));
  return static_cast<int>(facets_.size()) - 1;
}

// The tetrahedron: the farthest pair of axis-extreme points, the point farthest from their
// line, the point farthest from their plane. (points) => (4 facets, outside sets)
bool Quickhull::InitialSimplex(std::string* why) {
  int ext[6];
  for (int k = 0; k < 3; ++k) {
    ext[2 * k] = ext[2 * k + 1] = 0;
    for (int i = 1; i < n_; ++i) {
      if (P(i)[k] < P(ext[2 * k])[k]) ext[2 * k] = i;
      if (P(i)[k] > P(ext[2 * k + 1])[k]) ext[2 * k + 1] = i;
    }
  }
  auto dist2 = [this](int a, int b) {
    double s = 0;
    for (int k = 0; k < 3; ++k) s += (P(a)[k] - P(b)[k]) * (P(a)[k] - P(b)[k]);
    return s;
  };
  int i0 = ext[0], i1 = ext[1];
  for (int a = 0; a < 6; ++a) {
    for (int b = a + 1; b < 6; ++b) {
      if (dist2(ext[a], ext[b]) > dist2(i0, i1)) {
        i0 = ext[a];
        i1 = ext[b];
      }
    }
  }
  if (std::sqrt(dist2(i0, i1)) <= eps_) {
    *why = "all vertices coincide";
    return false;
  }
  // farthest from the line i0-i1
  const double* A = P(i0);
  double e[3] = {P(i1)[0] - A[0], P(i1)[1] - A[1], P(i1)[2] - A[2]};
  const double elen = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  for (double& x : e) x /= elen;
  int i2 = -1;
  double best = eps_;
  for (int i = 0; i < n_; ++i) {
    const double d[3] = {P(i)[0] - A[0], P(i)[1] - A[1], P(i)[2] - A[2]};
    const double c[3] = {d[1] * e[2] - d[2] * e[1], d[2] * e[0] - d[0] * e[2],
                         d[0] * e[1] - d[1] * e[0]};
    const double r = std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    if (r > best) {
      best = r;
      i2 = i;
    }
  }
  if (i2 < 0) {
    *why = "all vertices lie on a line";
    return false;
  }
  // farthest from the plane i0-i1-i2
  const int base = AddFacet(i0, i1, i2);
  int i3 = -1;
  best = eps_;
  for (int i = 0; i < n_; ++i) {
    const double d = std::fabs(Distance(facets_[base], i));
    if (d > best) {
      best = d;
      i3 = i;
    }
  }
  if (i3 < 0) {
    *why = "all vertices lie in a plane (the mesh has no volume)";
    return false;
  }
  facets_.clear();
  // orient the base so that i3 is below it, then the three side facets
  int a = i0, b = i1, c = i2;
  {
    const int f = AddFacet(a, b, c);
    const bool above = Distance(facets_[f], i3) > 0;
    facets_.clear();
    if (above) std::swap(b, c);
  }
  const int f0 = AddFacet(a, b, c);   // edges ab, bc, ca
  const int f1 = AddFacet(a, i3, b);  // edges a-i3, i3-b, b-a
  const int f2 = AddFacet(b, i3, c);  // edges b-i3, i3-c, c-b
  const int f3 = AddFacet(c, i3, a);  // edges c-i3, i3-a, a-c
  auto link = [this](int f, int a0, int a1, int a2) {
    facets_[f].adj[0] = a0;
    facets_[f].adj[1] = a1;
    facets_[f].adj[2] = a2;
  };
  link(f0, f1, f2, f3);
  link(f1, f3, f2, f0);
  link(f2, f1, f3, f0);
  link(f3, f2, f1, f0);
  const std::vector<int> all = {f0, f1, f2, f3};
  for (int i = 0; i < n_; ++i) {
    if (i != i0 && i != i1 && i != i2 && i != i3) Assign(i, all);
  }
  return true;
}

// (point i, candidate facets) => (the outside set of the first facet it lies above)
void Quickhull::Assign(int i, const std::vector<int>& facets) {
  for (int f : facets) {
    if (Distance(facets_[f], i) > eps_) {
      facets_[f].outside.push_back(i);
      return;
    }
  }
}

// Adds `apex` (the farthest outside point of facet f0): removes the facets it sees and fans
// new facets from it to the horizon. (facets_) => (facets_)
void Quickhull::AddPoint(int f0, int apex) {
  // visible facets: connected component of f0 among facets with the apex strictly above
  std::vector<int> visible = {f0}, stack = {f0};
  std::vector<char> seen(facets_.size(), 0);
  seen[f0] = 1;
  struct Edge {
    int a, b, outer;  // horizon edge (a, b) as oriented in the visible facet, and the facet
  };                  // beyond it
  std::vector<Edge> horizon;
  while (!stack.empty()) {
    const int f = stack.back();
    stack.pop_back();
    for (int k = 0; k < 3; ++k) {
      const int g = facets_[f].adj[k];
      const bool sees = Distance(facets_[g], apex) > eps_;
      if (sees && !seen[g]) {
        seen[g] = 1;
        visible.push_back(g);
        stack.push_back(g);
      } else if (!sees) {
        horizon.push_back({facets_[f].v[k], facets_[f].v[(k + 1) % 3], g});
      }
    }
  }
  // new facets (a, b, apex); their side edges are shared with the new facets of the
  // neighbouring horizon edges
  std::unordered_map<int, int> by_start, by_end;
  std::vector<int> created;
  for (const Edge& e : horizon) {
    const int f = AddFacet(e.a, e.b, apex);
    created.push_back(f);
    by_start[e.a] = f;
    by_end[e.b] = f;
    facets_[f].adj[0] = e.outer;
    Facet& outer = facets_[e.outer];
    for (int k = 0; k < 3; ++k) {
      if (outer.v[k] == e.b && outer.v[(k + 1) % 3] == e.a) outer.adj[k] = f;
    }
  }
  // a horizon that is not one simple cycle (round-off in the visibility test) cannot be fanned
  if (by_start.size() != horizon.size() || by_end.size() != horizon.size()) {
    failed_ = true;
    return;
  }
  for (int f : created) {
    auto s = by_start.find(facets_[f].v[1]), e = by_end.find(facets_[f].v[0]);
    if (s == by_start.end() || e == by_end.end()) {
      failed_ = true;
      return;
    }
    facets_[f].adj[1] = s->second;  // edge (b, apex): the new facet starting at b
    facets_[f].adj[2] = e->second;  // edge (apex, a): the new facet ending at a
  }
  // orphaned outside points go to the new facets (or are inside now)
  for (int f : visible) {
    facets_[f].alive = false;
    std::vector<int> orphans;
    orphans.swap(facets_[f].outside);
    for (int i : orphans) {
      if (i != apex) Assign(i, created);
    }
  }
}

// (points) => (facets_): the simplex, then one apex at a time while an outside set is left
bool Quickhull::Run(std::string* why) {
  if (n_ < 4) {
    *why = "fewer than 4 vertices";
    return false;
  }
  if (!InitialSimplex(why)) return false;
  for (std::size_t f = 0; f < facets_.size(); ++f) {
    // facets_ grows inside the loop: new facets are visited later in the same pass
    if (!facets_[f].alive || facets_[f].outside.empty()) continue;
    int apex = facets_[f].outside[0];
    double far = Distance(facets_[f], apex);
    for (int i : facets_[f].outside) {
      const double d = Distance(facets_[f], i);
      if (d > far) {
        far = d;
        apex = i;
      }
    }
    AddPoint(static_cast<int>(f), apex);
    if (failed_) {
      *why = "the hull could not be built (round-off in nearly coplanar vertices)";
      return false;
    }
  }
  return true;
}

// (live facets) => (hull faces and the increasing list of the points they use)
void Quickhull::Output(ConvexHull* hull) const {
  hull->vert.clear();
  hull->face.clear();
  std::vector<char> used(n_, 0);
  for (const Facet& f : facets_) {
    if (!f.alive) continue;
    for (int k = 0; k < 3; ++k) {
      hull->face.push_back(f.v[k]);
      used[f.v[k]] = 1;
    }
  }
  for (int i = 0; i < n_; ++i) {
    if (used[i]) hull->vert.push_back(i);
  }
}

}  // namespace

// (points) => (hull), false with a reason for degenerate input
bool ComputeConvexHull(const double* points, int n, ConvexHull* hull, std::string* why) {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = i == 0 ? points[3 * i + k] : std::min(lo[k], points[3 * i + k]);
      hi[k] = i == 0 ? points[3 * i + k] : std::max(hi[k], points[3 * i + k]);
    }
  }
  const double extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  Quickhull qh(points, n, 1e-9 * extent);
  if (!qh.Run(why)) return false;
  qh.Output(hull);
  return true;
}

// (hull) => graph += [nv, nf, vert_id, edge_adr, edges, faces]
void PackHullGraph(const ConvexHull& hull, std::vector<int>* graph) {
  const int nv = static_cast<int>(hull.vert.size());
  const int nf = static_cast<int>(hull.face.size()) / 3;
  std::unordered_map<int, int> local;  // input point -> hull vertex index
  for (int i = 0; i < nv; ++i) local[hull.vert[i]] = i;
  std::vector<std::vector<int>> nbr(nv);
  for (int f = 0; f < nf; ++f) {
    for (int k = 0; k < 3; ++k) {
      const int a = local[hull.face[3 * f + k]], b = local[hull.face[3 * f + (k + 1) % 3]];
      nbr[a].push_back(b);  // each edge appears once per direction over the two facets
    }
  }
  graph->push_back(nv);
  graph->push_back(nf);
  graph->insert(graph->end(), hull.vert.begin(), hull.vert.end());
  int adr = 0;
  for (auto& list : nbr) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    graph->push_back(adr);
    adr += static_cast<int>(list.size());
  }
  graph->push_back(adr);
  for (const auto& list : nbr) graph->insert(graph->end(), list.begin(), list.end());
  for (int f = 0; f < 3 * nf; ++f) graph->push_back(local[hull.face[f]]);
}

}  // namespace gauss
