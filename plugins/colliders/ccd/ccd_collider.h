// Internal interface of the `ccd` collider plugin: convex geoms as libccd sees them (support
// and centre functions), the contact of one MPR run, MuJoCo's smooth-geom normals, the plane
// functions and height fields.
//
// Every geom is convex (a mesh is its convex hull). A geom is described by its world pose and
// sizes, and inflated by half the pair's margin, so that MPR, which only finds penetration,
// reports pairs closer than the margin: the true distance is then margin - depth.
#pragma once

#include <ccd/ccd.h>

#include "gauss/contact.h"
#include "gauss/data.h"
#include "gauss/mesh.h"
#include "gauss/model.h"

namespace gauss::ccd {

// A geom for libccd: a copy of its pose (multiccd rotates copies) and what the support
// function needs.
struct ConvexGeom {
  GeomType type = GeomType::kSphere;
  int geom = -1;
  double pos[3] = {0, 0, 0};  // centre (for a mesh: its centre of mass)
  double mat[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // orientation, row-major
  const double* size = nullptr;
  double half_margin = 0;     // inflation of the surface: half the pair's margin
  MeshHull hull;              // meshes only
};

// (geom_xpos, geom_xmat, geom_size, mesh hull of g) => geom
void MakeConvexGeom(const Model& m, const Data& d, int g, double margin, ConvexGeom* geom);

// libccd callbacks (support.cc). Support: the point of the inflated geom farthest along `dir`
// (not normalized, as MuJoCo 2.2.2 uses it); Center: the geom's centre.
void Support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out);
void Center(const void* obj, ccd_vec3_t* out);
// Support point of the geom itself (no inflation) along a unit world direction.
void SupportPoint(const ConvexGeom& g, const double dir[3], double out[3]);
// Hull vertex of a mesh geom farthest along a local direction: hill climbing over the hull
// graph from hull vertex 0. (hull) => (hull vertex index)
int MeshSupportVertex(const MeshHull& hull, const double local_dir[3]);

// Outward unit normal of a smooth geom (sphere, capsule, ellipsoid, cylinder side) at the
// contact position `pos`, by MuJoCo 2.2.2's rules (normal.cc); false when the geom gives none
// (box, mesh, cylinder caps and rims). (geom, pos) => (normal)
bool SmoothNormal(const ConvexGeom& g, const double pos[3], double normal[3]);

// One MPR run: the contact between two convex geoms (a, b) if their inflated shapes overlap.
// dist = margin - depth, pos from MPR, frame row 0 from a to b (replaced by the smooth-geom
// normals when a geom has one), row 1 zero. (geoms, ccd options) => (contact), 0 or 1
int MprContact(const Model& m, const ConvexGeom& a, const ConvexGeom& b, double margin,
               Contact* out);

// Plane (geom p) against an ellipsoid or a mesh (geom g): one contact at the support point;
// meshes add up to two more hull vertices within the margin, spanning the largest triangle.
// (plane, geom poses) => (contacts), returns their number
int PlaneConvex(const Model& m, const Data& d, int p, int g, double margin, Contact* out,
                int max_contacts);

// Height field (geom h) against a convex geom (g): one MPR contact per triangular prism of the
// grid cells under g's bounding box (hfield.cc). (poses, field) => (contacts), their number
int HfieldConvex(const Model& m, const Data& d, int h, int g, double margin, Contact* out,
                 int max_contacts);

}  // namespace gauss::ccd
