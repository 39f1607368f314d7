// Mass properties of primitive geoms. Formulas checked against MuJoCo 2.2.2 to the last digit
// (tests/reference/model_compile_test.cc, model "inertia_primitives.xml"):
//  - sphere (r):          V = 4/3 pi r^3,            I = 2/5 m r^2
//  - capsule (r, h/2):    V = pi r^2 h + 4/3 pi r^3; the cylinder part and the two hemispheres
//                         share the mass by volume; each hemisphere adds 2/5 ms r^2 about its
//                         own center and is displaced along z (MuJoCo's term: ms h (3r + 2h)/8
//                         for the pair, where ms is the mass of both hemispheres)
//  - ellipsoid (a, b, c): V = 4/3 pi a b c,          Ix = m (b^2 + c^2) / 5, ...
//  - cylinder (r, h/2):   V = pi r^2 h,              Ix = m (3 r^2 + h^2) / 12, Iz = m r^2 / 2
//  - box (a, b, c):       V = 8 a b c,               Ix = m (b^2 + c^2) / 3, ...
// h is the full length 2 size[1].
#include "mjcf/geom_inertia.h"

#include <algorithm>
#include <cmath>

namespace gauss::mjcf {
namespace {

constexpr double kPi = 3.14159265358979323846;

}  // namespace

// (type, size) => volume
double GeomVolume(GeomType type, const double size[3]) {
  switch (type) {
    case GeomType::kSphere:
      return 4 * kPi * size[0] * size[0] * size[0] / 3;
    case GeomType::kCapsule: {
      const double r = size[0], h = 2 * size[1];
      return kPi * (r * r * h + 4 * r * r * r / 3);
    }
    case GeomType::kEllipsoid:
      return 4 * kPi * size[0] * size[1] * size[2] / 3;
    case GeomType::kCylinder: {
      const double r = size[0], h = 2 * size[1];
      return kPi * r * r * h;
    }
    case GeomType::kBox:
      return 8 * size[0] * size[1] * size[2];
    default:
      return 0;
  }
}

// (type, size, mass) => principal moments about the geom center
void GeomInertia(GeomType type, const double size[3], double mass, double inertia[3]) {
  inertia[0] = inertia[1] = inertia[2] = 0;
  switch (type) {
    case GeomType::kSphere:
      inertia[0] = inertia[1] = inertia[2] = 2 * mass * size[0] * size[0] / 5;
      break;
    case GeomType::kCapsule: {
      const double r = size[0], h = 2 * size[1];
      // mass split by volume: hemispheres 4/3 pi r^3 against the cylinder pi r^2 h
      const double ms = mass * 4 * r / (4 * r + 3 * h);
      const double mc = mass - ms;
      inertia[0] = inertia[1] = mc * (3 * r * r + h * h) / 12;
      inertia[2] = mc * r * r / 2;
      const double sphere = 2 * ms * r * r / 5;
      inertia[0] += sphere + ms * h * (3 * r + 2 * h) / 8;
      inertia[1] += sphere + ms * h * (3 * r + 2 * h) / 8;
      inertia[2] += sphere;
      break;
    }
    case GeomType::kEllipsoid: {
      const double a = size[0], b = size[1], c = size[2];
      inertia[0] = mass * (b * b + c * c) / 5;
      inertia[1] = mass * (a * a + c * c) / 5;
      inertia[2] = mass * (a * a + b * b) / 5;
      break;
    }
    case GeomType::kCylinder: {
      const double r = size[0], h = 2 * size[1];
      inertia[0] = inertia[1] = mass * (3 * r * r + h * h) / 12;
      inertia[2] = mass * r * r / 2;
      break;
    }
    case GeomType::kBox: {
      const double a = size[0], b = size[1], c = size[2];
      inertia[0] = mass * (b * b + c * c) / 3;
      inertia[1] = mass * (a * a + c * c) / 3;
      inertia[2] = mass * (a * a + b * b) / 3;
      break;
    }
    default:
      break;
  }
}

// (type, size) => geom_rbound
double GeomBoundingRadius(GeomType type, const double size[3]) {
  switch (type) {
    case GeomType::kSphere:
      return size[0];
    case GeomType::kCapsule:
      return size[0] + size[1];
    case GeomType::kCylinder:
      return std::sqrt(size[0] * size[0] + size[1] * size[1]);
    case GeomType::kEllipsoid:
      return std::max(size[0], std::max(size[1], size[2]));
    case GeomType::kBox:
      return std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
    default:
      return 0;
  }
}

}  // namespace gauss::mjcf
