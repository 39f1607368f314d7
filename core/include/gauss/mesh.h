// Mesh data in the compiled Model, and a read-only view of a mesh's convex hull.
//
// Vertices (Model::mesh_vert) are stored in the mesh frame: origin at the mesh's centre of mass
// and axes along its principal axes of inertia. The geom_pos / geom_quat of a mesh geom already
// include that frame, so a vertex v of geom g is at geom_xpos[g] + geom_xmat[g] v in the world.
//
// Collision detection uses each mesh's convex hull, packed per mesh into Model::mesh_graph,
// starting at g = mesh_graph.data() + mesh_graphadr[k]:
//
//   g[0]                     nv: number of hull vertices
//   g[1]                     nf: number of hull faces (triangles)
//   g[2 .. 2+nv)             vert_id: index of each hull vertex among the mesh's vertices
//                            (its coordinates are mesh_vert row mesh_vertadr[k] + vert_id[i])
//   g[2+nv .. 3+2nv)         edge_adr: nv + 1 offsets into `edges`; the hull neighbours of hull
//                            vertex i are edges[edge_adr[i] .. edge_adr[i+1]), in qhull's order
//   edges                    hull-vertex indices (0 .. nv-1), edge_adr[nv] entries
//   faces                    nf x 3 hull-vertex indices, counter-clockwise seen from outside
#pragma once

#include "gauss/model.h"

namespace gauss {

struct MeshHull {
  int nvert = 0;
  int nface = 0;
  const int* vert_id = nullptr;   // (nvert)
  const int* edge_adr = nullptr;  // (nvert + 1)
  const int* edges = nullptr;     // (edge_adr[nvert])
  const int* faces = nullptr;     // (nface x 3)
  const double* vert = nullptr;   // the mesh's first vertex: vertex j is vert[3j .. 3j+3)

  // Coordinates of hull vertex i (mesh frame).
  const double* Vertex(int i) const { return vert + 3 * vert_id[i]; }
};

// The hull of mesh k. (mesh_graph, mesh_vert) => view
inline MeshHull GetMeshHull(const Model& m, int k) {
  MeshHull h;
  const int* g = m.mesh_graph.data() + m.mesh_graphadr[k];
  h.nvert = g[0];
  h.nface = g[1];
  h.vert_id = g + 2;
  h.edge_adr = g + 2 + h.nvert;
  h.edges = h.edge_adr + h.nvert + 1;
  h.faces = h.edges + h.edge_adr[h.nvert];
  h.vert = m.mesh_vert.data() + 3 * m.mesh_vertadr[k];
  return h;
}

}  // namespace gauss
