// Collider plugin interface: narrow-phase contact generation for pairs of geom types.
//
// At engine creation each collider declares the geom-type pairs it handles; the engine fills its
// dispatch table collide[type1][type2] in configuration priority order (first plugin wins) and
// reports, at load, any pair present in the model that no loaded collider covers.
#pragma once

#include <utility>
#include <vector>

#include "gauss/contact.h"
#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/plugin.h"

namespace gauss {

class Collider : public Plugin {
 public:
  // The (type1, type2) pairs with type1 <= type2 that this collider handles.
  virtual std::vector<std::pair<GeomType, GeomType>> Pairs() const = 0;

  // Writes up to `max_contacts` contacts between geoms g1 and g2 (with type(g1) <= type(g2))
  // whose distance is below `margin`; fills dist, pos, frame (normal first, pointing from g1
  // to g2). The kernel fills geom1/geom2 and the contact parameters. Returns the number written.
  // Frame rows: the collider writes row 0 (the normal) and row 1 (a hint for the first tangent,
  // or zeros for none); the kernel then makes row 1 orthonormal to the normal and sets row 2 =
  // row 0 x row 1. Without a hint row 1 is world y, or world z when the normal is near y.
  int Collide(const Model& m, const Data& d, int g1, int g2, double margin, Contact* out,
              int max_contacts) const {
    return DoCollide(m, d, g1, g2, margin, out, max_contacts);
  }

 protected:
  virtual int DoCollide(const Model& m, const Data& d, int g1, int g2, double margin,
                        Contact* out, int max_contacts) const = 0;
};

}  // namespace gauss
