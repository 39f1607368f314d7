// Convex hull of a 3D point set (quickhull), used by the MJCF compiler for mesh geoms: collision
// detection treats every mesh as its convex hull, and the hull's vertex graph lets support
// functions hill-climb instead of visiting every vertex.
//
// The hull is triangulated: coplanar facets stay split into triangles (so a box has 12 faces
// and 18 edges). Points closer than a tolerance to a facet plane do not become hull vertices;
// exact duplicates are ignored. The layout of the packed graph stored in Model::mesh_graph is
// described in gauss/mesh.h.
#pragma once

#include <string>
#include <vector>

namespace gauss {

struct ConvexHull {
  std::vector<int> vert;  // indices of the input points that are hull vertices, increasing
  std::vector<int> face;  // (nface x 3) indices of input points; counter-clockwise seen from
                          // outside, so (b - a) x (c - a) points out of the hull
};

// Quickhull of points (n x 3). Returns false, with the reason in *why, when the points do not
// span a volume (fewer than 4 distinct points, or all on a line or in a plane within the
// tolerance 1e-9 x the largest extent of their bounding box). (points) => (hull)
bool ComputeConvexHull(const double* points, int n, ConvexHull* hull, std::string* why);

// Packs the hull into the mesh_graph layout of gauss/mesh.h and appends it to *graph.
// (hull) => (graph)
void PackHullGraph(const ConvexHull& hull, std::vector<int>* graph);

}  // namespace gauss
