// `example_sphere_plane`: a collider for one pair of geom types, sphere against plane, written
// against the installed Gauss SDK as an example of a Collider plugin (docs/plugin-authoring.md).
//
// A configuration lists it before the defaults so that it takes the pairs it declares:
//   colliders: [example_sphere_plane, primitive]
// The plane is infinite (as in MuJoCo): its normal is the plane geom's local z axis.
#include <cmath>

#include <gauss/collider.h>
#include <gauss/plugin.h>

namespace {

class SpherePlane : public gauss::Collider {
 public:
  // geom type pairs, first type <= second (GeomType numbering: plane 0 < sphere 2)
  std::vector<std::pair<gauss::GeomType, gauss::GeomType>> Pairs() const override {
    return {{gauss::GeomType::kPlane, gauss::GeomType::kSphere}};
  }

 protected:
  // (geom_xpos, geom_xmat of plane g1 and sphere g2, sphere radius) => at most one contact
  int DoCollide(const gauss::Model& m, const gauss::Data& d, int g1, int g2, double margin,
                gauss::Contact* out, int max_contacts) const override {
    if (max_contacts < 1) return 0;
    const double* plane_pos = d.geom_xpos.data() + 3 * g1;
    const double* plane_mat = d.geom_xmat.data() + 9 * g1;  // row-major: column 2 = local z
    const double normal[3] = {plane_mat[2], plane_mat[5], plane_mat[8]};
    const double* center = d.geom_xpos.data() + 3 * g2;
    const double radius = m.geom_size[3 * g2];
    double height = 0;  // of the sphere's center above the plane
    for (int k = 0; k < 3; ++k) height += (center[k] - plane_pos[k]) * normal[k];
    const double dist = height - radius;
    if (dist >= margin) return 0;
    gauss::Contact& c = out[0];
    c.dist = dist;
    for (int k = 0; k < 3; ++k) {
      c.pos[k] = center[k] - normal[k] * (radius + 0.5 * dist);  // midway between surfaces
      c.frame[k] = normal[k];                                    // from plane (g1) to sphere
      c.frame[3 + k] = 0;  // no tangent hint: the kernel completes the frame
    }
    return 1;
  }
};

}  // namespace

GAUSS_COLLIDER_PLUGIN(SpherePlane, example_sphere_plane, "1.0.0",
                      "example: sphere against plane, one contact (examples/plugins)",
                      gauss::kCapNone, gauss::kNoParams)
