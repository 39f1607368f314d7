// Convex hull of a mesh's vertices, computed by qhull (the reentrant libqhull_r, Debian
// libqhull-dev) as MuJoCo 2.2.2 computes it: options "Qt" (triangulated output), then the
// vertex-facet neighbourhoods. Collision detection treats every mesh as its convex hull, and the
// hull's vertex graph lets support functions hill-climb instead of visiting every vertex.
//
// The graph is kept in qhull's own order, which is MuJoCo's: hull vertices in qhull's vertex
// list order; the neighbours of a vertex in the order they are first met walking its facets
// (qhull's vertex->neighbors) and each facet's vertices; faces in qhull's facet list order.
// A hill climb over it therefore visits the same vertices and breaks ties between equally far
// vertices the same way as MuJoCo's, and mesh collisions agree bit for bit
// (tests/reference/ccd_reference_test.cc, mesh_compile_test.cc).
//
// The hull is triangulated: coplanar facets are split into triangles (a box has 12 faces and
// 18 edges). qhull merges facets that are coplanar within its round-off estimate, so points on
// (or within round-off of) the hull surface do not become vertices. The layout of the packed
// graph stored in Model::mesh_graph is described in gauss/mesh.h.
#pragma once

#include <string>
#include <vector>

namespace gauss::mjcf {

struct ConvexHull {
  std::vector<int> vert;      // input point of each hull vertex, in qhull's vertex order
  std::vector<int> edge_adr;  // (vert.size() + 1) offsets into `edges`
  std::vector<int> edges;     // hull-vertex indices: the neighbours of hull vertex i are
                              // edges[edge_adr[i] .. edge_adr[i+1]), in qhull's order
  std::vector<int> face;      // (nface x 3) input points, counter-clockwise seen from outside,
                              // so (b - a) x (c - a) points out of the hull
};

// Hull of points (n x 3). Returns false, with the reason in *why, when there is no hull:
// fewer than 4 points, or points that do not span a volume (all equal, on a line or in a
// plane), or any other qhull error (its message is included). qhull's own output is captured,
// never printed, and its errors never end the process. (points) => (hull)
bool ComputeConvexHull(const double* points, int n, ConvexHull* hull, std::string* why);

// Renames the hull's points: point p becomes vertex[p] (for a hull computed from a list that
// repeats vertices, e.g. one point per face corner). (hull, vertex) => (hull)
void RenumberHullPoints(const std::vector<int>& vertex, ConvexHull* hull);

// Packs the hull into the mesh_graph layout of gauss/mesh.h and appends it to *graph.
// (hull) => (graph)
void PackHullGraph(const ConvexHull& hull, std::vector<int>* graph);

}  // namespace gauss::mjcf
