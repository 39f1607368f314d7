// Collider plugin interface: narrow-phase contact generation for pairs of geom types.
//
// At engine creation each collider declares the geom-type pairs it handles; the engine fills its
// dispatch table collide[type1][type2] in configuration priority order (first plugin wins) and
// reports, at load, any pair present in the model that no loaded collider covers.
#pragma once

#include <utility>
#include <vector>

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/plugin.h"

namespace gauss {

// One contact between two geoms, in the world frame.
struct Contact {
  double dist = 0;          // signed distance between the surfaces (negative: penetration)
  double pos[3] = {0, 0, 0};  // midway between the two surfaces
  double frame[9] = {0};    // rows: normal (from geom1 to geom2), tangent 1, tangent 2
  double includemargin = 0;   // margin - gap: the contact produces force when dist < this
  double friction[5] = {0};   // tangent1, tangent2, spin, roll1, roll2
  double solref[kNRef] = {0};
  double solimp[kNImp] = {0};
  int dim = 0;                // condim: 1, 3, 4 or 6
  int geom1 = -1;
  int geom2 = -1;
  int efc_address = -1;       // first constraint row, -1 if excluded
};

class Collider : public Plugin {
 public:
  // The (type1, type2) pairs with type1 <= type2 that this collider handles.
  virtual std::vector<std::pair<GeomType, GeomType>> Pairs() const = 0;

  // Writes up to `max_contacts` contacts between geoms g1 and g2 (types in the order declared)
  // whose distance is below `margin`; fills dist, pos, frame (normal first), geom1/geom2.
  // Returns the number written.
  int Collide(const Model& m, const Data& d, int g1, int g2, double margin, Contact* out,
              int max_contacts) const {
    return DoCollide(m, d, g1, g2, margin, out, max_contacts);
  }

 protected:
  virtual int DoCollide(const Model& m, const Data& d, int g1, int g2, double margin,
                        Contact* out, int max_contacts) const = 0;
};

}  // namespace gauss
