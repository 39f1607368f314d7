// Internal interface of the `primitive` collider plugin: one function per pair of geom types.
//
// Every function reads the two geoms' world poses and sizes, writes at most kPrimitiveMax
// contacts with dist < margin (or <= margin at the boundary), and returns their number. A
// contact's frame row 0 is the unit normal pointing from the first geom to the second; row 1 is
// a tangent hint (or zeros), completed by the kernel. The position lies midway between the two
// surfaces along the normal.
#pragma once

#include "gauss/contact.h"
#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss::primitive {

// Most contacts a primitive pair function writes (box-box: the clipped face polygon).
inline constexpr int kPrimitiveMax = 32;

// World pose and size of one geom.
struct Geom {
  const double* pos;   // (3) centre
  const double* mat;   // (9) orientation, row-major; column 2 is the local z axis
  const double* size;  // (3) type-specific sizes
};

inline Geom GetGeom(const Model& m, const Data& d, int g) {
  return {d.geom_xpos.data() + 3 * g, d.geom_xmat.data() + 9 * g, m.geom_size.data() + 3 * g};
}

// Local z axis (column 2) of a rotation matrix.
inline void ZAxis(const double* mat, double* axis) {
  axis[0] = mat[2];
  axis[1] = mat[5];
  axis[2] = mat[8];
}

// plane.cc
int PlaneSphere(const Geom& plane, const Geom& sphere, double margin, Contact* out);
int PlaneCapsule(const Geom& plane, const Geom& capsule, double margin, Contact* out);
int PlaneCylinder(const Geom& plane, const Geom& cylinder, double margin, Contact* out);
int PlaneEllipsoid(const Geom& plane, const Geom& ellipsoid, double margin, Contact* out);
int PlaneBox(const Geom& plane, const Geom& box, double margin, Contact* out);

// sphere_capsule.cc
// Two spheres given by centre and radius; `mat1`, `mat2` orient them (their z axes pick the
// normal when the centres coincide).
int SpherePoints(const double* c1, const double* mat1, double r1, const double* c2,
                 const double* mat2, double r2, double margin, Contact* out);
int SphereSphere(const Geom& s1, const Geom& s2, double margin, Contact* out);
int SphereCapsule(const Geom& sphere, const Geom& capsule, double margin, Contact* out);
int CapsuleCapsule(const Geom& c1, const Geom& c2, double margin, Contact* out);

// box.cc
// Sphere (centre, radius, orientation) against a box.
int SpherePointBox(const double* centre, const double* mat, double radius, const Geom& box,
                   double margin, Contact* out);
int SphereBox(const Geom& sphere, const Geom& box, double margin, Contact* out);
int CapsuleBox(const Geom& capsule, const Geom& box, double margin, Contact* out);

// box_box.cc: MuJoCo 2.2.2's box-box contacts
int BoxBox(const Geom& b1, const Geom& b2, double margin, Contact* out);

// box_clip.cc: MuJoCo 3.12's box-box contacts (face clipping; the boxclip flag)
int BoxBoxClip(const Geom& b1, const Geom& b2, double margin, Contact* out);

}  // namespace gauss::primitive
