// The `primitive` collider plugin: analytic narrow phase for pairs of primitive geoms.
//
// Pairs: plane against sphere, capsule, ellipsoid, cylinder and box; sphere against sphere,
// capsule and box; capsule against capsule and box; box against box. The other primitive pairs
// (those with an ellipsoid or a cylinder, except against a plane) and meshes are left to a
// general convex collider (`ccd`), as MuJoCo 2.2.2 leaves them to MPR.
#include <algorithm>
#include <utility>
#include <vector>

#include "gauss/collider.h"
#include "primitive.h"

namespace gauss {
namespace {

using primitive::Geom;
using PairFunction = int (*)(const Geom&, const Geom&, double, Contact*);

// The function for (type1, type2), type1 <= type2; null for pairs this plugin does not handle.
PairFunction Lookup(GeomType t1, GeomType t2) {
  using T = GeomType;
  switch (t1) {
    case T::kPlane:
      switch (t2) {
        case T::kSphere:
          return primitive::PlaneSphere;
        case T::kCapsule:
          return primitive::PlaneCapsule;
        case T::kEllipsoid:
          return primitive::PlaneEllipsoid;
        case T::kCylinder:
          return primitive::PlaneCylinder;
        case T::kBox:
          return primitive::PlaneBox;
        default:
          return nullptr;
      }
    case T::kSphere:
      switch (t2) {
        case T::kSphere:
          return primitive::SphereSphere;
        case T::kCapsule:
          return primitive::SphereCapsule;
        case T::kBox:
          return primitive::SphereBox;
        default:
          return nullptr;
      }
    case T::kCapsule:
      switch (t2) {
        case T::kCapsule:
          return primitive::CapsuleCapsule;
        case T::kBox:
          return primitive::CapsuleBox;
        default:
          return nullptr;
      }
    case T::kBox:
      return t2 == T::kBox ? primitive::BoxBox : nullptr;
    default:
      return nullptr;
  }
}

class PrimitiveCollider : public Collider {
 public:
  std::vector<std::pair<GeomType, GeomType>> Pairs() const override {
    std::vector<std::pair<GeomType, GeomType>> out;
    for (int a = 0; a < kNumGeomTypes; ++a) {
      for (int b = a; b < kNumGeomTypes; ++b) {
        if (Lookup(GeomType(a), GeomType(b))) out.emplace_back(GeomType(a), GeomType(b));
      }
    }
    return out;
  }

 protected:
  // (geom_xpos, geom_xmat, geom_size of g1 and g2, opt.enableflags) => out[0..n)
  int DoCollide(const Model& m, const Data& d, int g1, int g2, double margin, Contact* out,
                int max_contacts) const override {
    PairFunction fn = Lookup(m.geom_type[g1], m.geom_type[g2]);
    if (fn == primitive::BoxBox && m.opt.Enabled(kEnableBoxClip)) fn = primitive::BoxBoxClip;
    if (!fn || max_contacts <= 0) return 0;
    const Geom a = primitive::GetGeom(m, d, g1), b = primitive::GetGeom(m, d, g2);
    if (max_contacts >= primitive::kPrimitiveMax) return fn(a, b, margin, out);
    // a short buffer: keep the first contacts, as a full contact buffer would
    Contact local[primitive::kPrimitiveMax];
    const int n = std::min(fn(a, b, margin, local), max_contacts);
    std::copy(local, local + n, out);
    return n;
  }
};

}  // namespace
}  // namespace gauss

GAUSS_COLLIDER_PLUGIN(gauss::PrimitiveCollider, primitive, "1.0.0",
                      "analytic contacts between planes, spheres, capsules, boxes (and planes "
                      "against ellipsoids and cylinders)",
                      gauss::kCapNone, gauss::kNoParams)
