// Ray casting against geoms (spec "Sensors": rangefinder; touch uses it against the sensor
// zone). A ray is pnt + x vec with x >= 0; distances are in units of |vec|. Each primitive is
// intersected in its own frame, where its surface is a quadric or a set of flat faces; the
// nearest non-negative solution wins, so a ray starting inside a solid hits it from inside.
// Semantics measured on MuJoCo 2.2.2's mj_ray: planes are one-sided and limited to their
// rendered rectangle and ignore the group filter, near-tangent rays (discriminant below
// kMinVal) miss, and invisible (alpha 0) geoms are skipped. Meshes and height fields:
// ray_mesh.cc.
#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "gauss/sensor_support.h"

namespace gauss {

using namespace math;

namespace {

// The ray in the frame (pos, mat): lpnt = mat' (pnt - pos), lvec = mat' vec.
void ToLocal(const double pos[3], const double mat[9], const double pnt[3], const double vec[3],
             double lpnt[3], double lvec[3]) {
  double offset[3];
  Sub3(offset, pnt, pos);
  MulMatTVec3(lpnt, mat, offset);
  MulMatTVec3(lvec, mat, vec);
}

// Roots x[0] <= x[1] of a x^2 + 2 b x + c = 0 (a > 0) and the smallest non-negative one, or -1
// (and roots -1) when the discriminant is below kMinVal: a grazing ray counts as a miss.
double SolveQuadratic(double a, double b, double c, double x[2]) {
  double disc = b * b - a * c;
  if (disc < kMinVal) {
    x[0] = x[1] = -1;
    return -1;
  }
  disc = std::sqrt(disc);
  x[0] = (-b - disc) / a;
  x[1] = (-b + disc) / a;
  if (x[0] >= 0) return x[0];
  return x[1] >= 0 ? x[1] : -1;
}

// The smaller of two candidate distances, -1 meaning none.
double Nearer(double best, double candidate) {
  if (candidate < 0) return best;
  return best < 0 || candidate < best ? candidate : best;
}

// Sphere of squared radius r2 centered at pos (world frame: a sphere needs no rotation).
double RaySphere(const double pos[3], double r2, const double pnt[3], const double vec[3]) {
  double offset[3], x[2];
  Sub3(offset, pnt, pos);
  return SolveQuadratic(Dot3(vec, vec), Dot3(vec, offset), Dot3(offset, offset) - r2, x);
}

// Plane z = 0 of the local frame, seen from its front (+z) side, within |x| <= size[0] and
// |y| <= size[1] when those are positive (an infinite plane otherwise).
double RayPlane(const double lpnt[3], const double lvec[3], const double size[3]) {
  if (lvec[2] > -kMinVal) return -1;  // moving away from the front face, or parallel
  const double x = -lpnt[2] / lvec[2];
  if (x < 0) return -1;
  const double px = lpnt[0] + x * lvec[0];
  const double py = lpnt[1] + x * lvec[1];
  const bool inside_x = size[0] <= 0 || std::fabs(px) <= size[0];
  const bool inside_y = size[1] <= 0 || std::fabs(py) <= size[1];
  return inside_x && inside_y ? x : -1;
}

// Round side x^2 + y^2 = r^2 of a cylinder of half-height h along local z.
double RayRoundSide(const double lpnt[3], const double lvec[3], double r, double h) {
  double x[2];
  const double a = lvec[0] * lvec[0] + lvec[1] * lvec[1];
  const double b = lvec[0] * lpnt[0] + lvec[1] * lpnt[1];
  const double c = lpnt[0] * lpnt[0] + lpnt[1] * lpnt[1] - r * r;
  const double sol = SolveQuadratic(a, b, c, x);
  return sol >= 0 && std::fabs(lpnt[2] + sol * lvec[2]) <= h ? sol : -1;
}

// Capsule: radius size[0], half-length size[1] of its cylinder along local z.
double RayCapsule(const double lpnt[3], const double lvec[3], const double size[3]) {
  const double r = size[0], h = size[1];
  double best = RayRoundSide(lpnt, lvec, r, h);
  // the two hemispherical caps: whole spheres at z = +-h, keeping the hits on their outer half
  for (int side = -1; side <= 1; side += 2) {
    const double center[3] = {0, 0, side * h};
    double offset[3], x[2];
    Sub3(offset, lpnt, center);
    SolveQuadratic(Dot3(lvec, lvec), Dot3(lvec, offset), Dot3(offset, offset) - r * r, x);
    for (double sol : x) {
      const double z = lpnt[2] + sol * lvec[2];
      if (sol >= 0 && side * z >= h) best = Nearer(best, sol);
    }
  }
  return best;
}

// Ellipsoid with semi-axes size[0..2]: the unit sphere after scaling each axis.
double RayEllipsoid(const double lpnt[3], const double lvec[3], const double size[3]) {
  double a = 0, b = 0, c = -1, x[2];
  for (int k = 0; k < 3; ++k) {
    const double s = 1 / (size[k] * size[k]);
    a += s * lvec[k] * lvec[k];
    b += s * lvec[k] * lpnt[k];
    c += s * lpnt[k] * lpnt[k];
  }
  return SolveQuadratic(a, b, c, x);
}

// Cylinder: radius size[0], half-height size[1] along local z; flat caps plus round side.
double RayCylinder(const double lpnt[3], const double lvec[3], const double size[3]) {
  const double r = size[0], h = size[1];
  double best = -1;
  if (std::fabs(lvec[2]) > kMinVal) {
    for (int side = -1; side <= 1; side += 2) {
      const double sol = (side * h - lpnt[2]) / lvec[2];
      if (sol < 0) continue;
      const double px = lpnt[0] + sol * lvec[0];
      const double py = lpnt[1] + sol * lvec[1];
      if (px * px + py * py <= r * r) best = Nearer(best, sol);
    }
  }
  return Nearer(best, RayRoundSide(lpnt, lvec, r, h));
}

// Box with half-sizes size[0..2]: the six faces.
double RayBox(const double lpnt[3], const double lvec[3], const double size[3]) {
  double best = -1;
  for (int k = 0; k < 3; ++k) {
    if (std::fabs(lvec[k]) <= kMinVal) continue;
    const int u = (k + 1) % 3, v = (k + 2) % 3;
    for (int side = -1; side <= 1; side += 2) {
      const double sol = (side * size[k] - lpnt[k]) / lvec[k];
      if (sol < 0) continue;
      if (std::fabs(lpnt[u] + sol * lvec[u]) <= size[u] &&
          std::fabs(lpnt[v] + sol * lvec[v]) <= size[v]) {
        best = Nearer(best, sol);
      }
    }
  }
  return best;
}

// Ray's exclusion rules for geom g (see Ray).
bool Excluded(const Model& m, int g, const unsigned char* geomgroup, bool include_static,
              int bodyexclude) {
  const int body = m.geom_bodyid[g];
  if (body == bodyexclude) return true;
  // invisible: MuJoCo 2.2.2 looks at the material's alpha when the geom has a material (even
  // if the geom's own rgba is what is drawn), else at the geom's own (measured)
  const int mat = m.geom_matid[g];
  if ((mat >= 0 ? m.mat_rgba[4 * mat + 3] : m.geom_rgba[4 * g + 3]) == 0) return true;
  if (!include_static && m.body_weldid[body] == 0) return true;
  // MuJoCo 2.2.2 filters by group every geom type but planes (measured)
  if (geomgroup && m.geom_type[g] != GeomType::kPlane) {
    const int group = std::clamp(m.geom_group[g], 0, 5);
    if (geomgroup[group] == 0) return true;
  }
  return false;
}

}  // namespace

// (primitive pose and size, ray) => distance or -1
double RayGeom(const double pos[3], const double mat[9], const double size[3],
               const double pnt[3], const double vec[3], GeomType type) {
  // solids are first tested against their bounding sphere, which is cheap and exact to reject
  switch (type) {
    case GeomType::kSphere:
      return RaySphere(pos, size[0] * size[0], pnt, vec);
    case GeomType::kCapsule: {
      const double bound = size[0] + size[1];
      if (RaySphere(pos, bound * bound, pnt, vec) < 0) return -1;
      break;
    }
    case GeomType::kCylinder:
      if (RaySphere(pos, size[0] * size[0] + size[1] * size[1], pnt, vec) < 0) return -1;
      break;
    case GeomType::kBox:
      if (RaySphere(pos, Dot3(size, size), pnt, vec) < 0) return -1;
      break;
    case GeomType::kPlane:
    case GeomType::kEllipsoid:
      break;
    default:
      return -1;  // mesh, height field: RayMesh, RayHfield (ray_mesh.cc)
  }
  double lpnt[3], lvec[3];
  ToLocal(pos, mat, pnt, vec, lpnt, lvec);
  switch (type) {
    case GeomType::kPlane:
      return RayPlane(lpnt, lvec, size);
    case GeomType::kCapsule:
      return RayCapsule(lpnt, lvec, size);
    case GeomType::kEllipsoid:
      return RayEllipsoid(lpnt, lvec, size);
    case GeomType::kCylinder:
      return RayCylinder(lpnt, lvec, size);
    default:
      return RayBox(lpnt, lvec, size);
  }
}

// (geom_xpos, geom_xmat, geom_size, geom_type, exclusions) => (distance, *geomid)
double Ray(const Model& m, const Data& d, const double pnt[3], const double vec[3],
           const unsigned char* geomgroup, bool include_static, int bodyexclude, int* geomid) {
  double best = -1;
  *geomid = -1;
  for (int g = 0; g < m.ngeom; ++g) {
    if (Excluded(m, g, geomgroup, include_static, bodyexclude)) continue;
    const GeomType type = m.geom_type[g];
    const double dist =
        type == GeomType::kMesh     ? RayMesh(m, d, g, pnt, vec)
        : type == GeomType::kHfield ? RayHfield(m, d, g, pnt, vec)
                                    : RayGeom(d.geom_xpos.data() + 3 * g, d.geom_xmat.data() + 9 * g,
                                              m.geom_size.data() + 3 * g, pnt, vec, type);
    if (dist >= 0 && (best < 0 || dist < best)) {
      best = dist;
      *geomid = g;
    }
  }
  return best;
}

}  // namespace gauss
