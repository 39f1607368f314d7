// Plane against sphere, capsule, cylinder, ellipsoid and box. The plane is the first geom: its
// local z axis is the contact normal (pointing into the other geom's half-space) and it is
// infinite and one-sided, so a geom below it is in penetration however deep.
#include <cmath>

#include "gauss/math.h"
#include "primitive.h"

namespace gauss::primitive {

using namespace math;

namespace {

// One contact at world point `deepest` of the other geom whose signed height above the plane is
// `dist`: the position is moved half that height towards the plane surface.
void PlanePoint(const double* normal, const double* deepest, double dist, const double* hint,
                Contact* out) {
  out->dist = dist;
  for (int i = 0; i < 3; ++i) out->pos[i] = deepest[i] - 0.5 * dist * normal[i];
  Copy3(out->frame, normal);
  if (hint) {
    Copy3(out->frame + 3, hint);
  } else {
    Zero3(out->frame + 3);
  }
}

// Ball of radius r at `centre` against the plane (point `origin`, unit `normal`); `hint` is the
// tangent hint of the contact (may be null).
int PlaneBall(const double* origin, const double* normal, const double* centre, double r,
              double margin, const double* hint, Contact* out) {
  double dif[3];
  Sub3(dif, centre, origin);
  const double height = Dot3(dif, normal);
  if (height > margin + r) return 0;
  double deepest[3];
  Copy3(deepest, centre);
  AddScaled3(deepest, normal, -r);
  PlanePoint(normal, deepest, height - r, hint, out);
  return 1;
}

}  // namespace

// (plane pose, sphere pose, radius) => one contact at the sphere's lowest point
int PlaneSphere(const Geom& plane, const Geom& sphere, double margin, Contact* out) {
  double normal[3];
  ZAxis(plane.mat, normal);
  return PlaneBall(plane.pos, normal, sphere.pos, sphere.size[0], margin, nullptr, out);
}

// (plane, capsule) => up to 2 contacts: the end balls of the capsule (the +z end first), each
// with the capsule axis as tangent hint so that friction directions follow the capsule
int PlaneCapsule(const Geom& plane, const Geom& capsule, double margin, Contact* out) {
  double normal[3], axis[3], end[3];
  ZAxis(plane.mat, normal);
  ZAxis(capsule.mat, axis);
  int n = 0;
  for (double side : {1.0, -1.0}) {
    Copy3(end, capsule.pos);
    AddScaled3(end, axis, side * capsule.size[1]);
    n += PlaneBall(plane.pos, normal, end, capsule.size[0], margin, axis, out + n);
  }
  return n;
}

// (plane, cylinder) => up to 4 contacts on the rims: the rim point nearest the plane on the cap
// closer to it, the same rim point on the other cap, then two points at +-120 degrees on the
// near rim. Stops after the first when even the nearest rim point is beyond the margin. No
// tangent hint (unlike capsules): MuJoCo 2.2.2 gives none for cylinders.
int PlaneCylinder(const Geom& plane, const Geom& cylinder, double margin, Contact* out) {
  double normal[3], axis[3];
  ZAxis(plane.mat, normal);
  ZAxis(cylinder.mat, axis);
  const double radius = cylinder.size[0], half = cylinder.size[1];

  // orient the axis towards the plane, so that +axis reaches the near cap
  double cos_axis = Dot3(normal, axis);
  if (cos_axis > 0) {
    Scale3(axis, axis, -1);
    cos_axis = -cos_axis;
  }
  double dif[3];
  Sub3(dif, cylinder.pos, plane.pos);
  const double height = Dot3(dif, normal);

  // radial direction of the rim point nearest the plane: -normal without its axial part; a
  // cap parallel to the plane has no such direction, and the cylinder's x axis stands in
  double radial[3];
  Scale3(radial, axis, cos_axis);
  AddScaled3(radial, normal, -1);
  const double len2 = Dot3(radial, radial);
  if (len2 >= kMinVal * kMinVal) {
    Scale3(radial, radial, radius / std::sqrt(len2));
  } else {
    const double x_axis[3] = {cylinder.mat[0], cylinder.mat[3], cylinder.mat[6]};
    Scale3(radial, x_axis, radius);
  }
  const double drop_radial = Dot3(radial, normal);  // <= 0
  double half_axis[3];
  Scale3(half_axis, axis, half);
  const double drop_axis = cos_axis * half;  // <= 0

  int n = 0;
  double point[3];
  // nearest rim point on the near cap
  const double dist1 = height + drop_axis + drop_radial;
  if (dist1 > margin) return 0;
  Add3(point, cylinder.pos, radial);
  AddTo3(point, half_axis);
  PlanePoint(normal, point, dist1, nullptr, out + n++);

  // the same rim point on the far cap
  const double dist2 = height - drop_axis + drop_radial;
  if (dist2 <= margin) {
    Add3(point, cylinder.pos, radial);
    AddScaled3(point, half_axis, -1);
    PlanePoint(normal, point, dist2, nullptr, out + n++);
  }

  // two more points of the near rim, 120 degrees either side of the nearest one
  const double dist3 = height + drop_axis - 0.5 * drop_radial;
  if (dist3 <= margin) {
    double side[3];
    Cross3(side, radial, half_axis);
    Normalize3(side);
    Scale3(side, side, radius * std::sqrt(3.0) / 2);
    for (double s : {1.0, -1.0}) {
      Copy3(point, cylinder.pos);
      AddScaled3(point, side, s);
      AddTo3(point, half_axis);
      AddScaled3(point, radial, -0.5);
      PlanePoint(normal, point, dist3, nullptr, out + n++);
    }
  }
  return n;
}

// (plane, ellipsoid) => one contact at the ellipsoid's support point in the -normal direction:
// for x'A^-2 x = 1 with semi-axes A the support along u is A^2 u / |A u| (local frame)
int PlaneEllipsoid(const Geom& plane, const Geom& ellipsoid, double margin, Contact* out) {
  double normal[3], down[3], local[3];
  ZAxis(plane.mat, normal);
  Scale3(down, normal, -1);
  MulMatTVec3(local, ellipsoid.mat, down);
  for (int i = 0; i < 3; ++i) local[i] *= ellipsoid.size[i];
  Normalize3(local);
  for (int i = 0; i < 3; ++i) local[i] *= ellipsoid.size[i];
  double deepest[3], dif[3];
  MulMatVec3(deepest, ellipsoid.mat, local);
  AddTo3(deepest, ellipsoid.pos);
  Sub3(dif, deepest, plane.pos);
  const double dist = Dot3(dif, normal);
  if (dist > margin) return 0;
  PlanePoint(normal, deepest, dist, nullptr, out);
  return 1;
}

// (plane, box) => up to 4 contacts at the corners on the plane's side of the box centre that
// are within the margin, in corner order (x fastest, - before +)
int PlaneBox(const Geom& plane, const Geom& box, double margin, Contact* out) {
  double normal[3], dif[3];
  ZAxis(plane.mat, normal);
  Sub3(dif, box.pos, plane.pos);
  const double height = Dot3(dif, normal);
  int n = 0;
  for (int corner = 0; corner < 8 && n < 4; ++corner) {
    const double local[3] = {(corner & 1) ? box.size[0] : -box.size[0],
                             (corner & 2) ? box.size[1] : -box.size[1],
                             (corner & 4) ? box.size[2] : -box.size[2]};
    double offset[3];
    MulMatVec3(offset, box.mat, local);
    const double drop = Dot3(normal, offset);
    // corners on the far side of the centre are never the lowest: a plane contact has <= 4
    if (height + drop > margin || drop > 0) continue;
    double point[3];
    Add3(point, box.pos, offset);
    PlanePoint(normal, point, height + drop, nullptr, out + n++);
  }
  return n;
}

}  // namespace gauss::primitive
