// Reading mesh files for <asset><mesh file="...">: STL (binary and ASCII) and Wavefront OBJ.
//
// Coordinates are rounded to single precision as they are read, because MuJoCo 2.2.2 stores
// mesh vertices as floats and computes the mesh's mass properties from them; rounding the same
// way keeps Gauss's compiled masses and inertias within double round-off of MuJoCo's.
#pragma once

#include <string>
#include <vector>

#include "gauss/error.h"

namespace gauss::mjcf {

struct MeshGeometry {
  std::vector<double> vert;  // (nvert x 3)
  std::vector<int> face;     // (nface x 3) triangles, indices into vert
  // MuJoCo 2.2.2 reads an OBJ file with faces as one vertex per face corner, and hands qhull
  // that list: the convex hull is computed from vert[face[c]] for every corner c in order
  // (qhull's answer, down to vertex order, depends on the order of its input points).
  bool hull_from_corners = false;
};

// Reads `path` by its extension (.stl or .obj, any case). STL: binary when the size matches the
// triangle count of its header, else ASCII ("solid ... facet ... vertex ..."); identical
// vertices are merged. OBJ: `v` and `f` records (indices 1-based or negative, with optional
// /texcoord/normal parts), polygons split into fans of triangles, unreferenced vertices
// dropped. Throws gauss::Error located at `where`, naming the file and, for text formats, the
// line. (file) => (mesh)
void ReadMeshFile(const std::string& path, const ErrorLocation& where, MeshGeometry* mesh);

}  // namespace gauss::mjcf
