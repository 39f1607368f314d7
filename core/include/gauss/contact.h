// One contact between two geoms, as produced by collision detection (spec "Collision
// detection") and consumed by the constraint assembly.
#pragma once

#include "gauss/types.h"

namespace gauss {

struct Contact {
  double dist = 0;            // signed distance between the surfaces (negative: penetration)
  double pos[3] = {0, 0, 0};  // midway between the two surfaces
  double frame[9] = {0};      // rows: normal (pointing from geom1 to geom2), tangent 1, tangent 2
  double includemargin = 0;   // margin - gap: the contact produces force when dist < this
  double friction[5] = {0};   // tangent1, tangent2, spin, roll1, roll2
  double solref[kNRef] = {0};
  double solimp[kNImp] = {0};
  // 3.x pair solreffriction: solref of the friction rows under elliptic cones; (0, 0): solref
  double solreffriction[kNRef] = {0};
  // 3.x adhesion: the contact may pull with up to this force (a constant attraction along the
  // normal in qfrc_passive plus the matching shift of its rows' reference acceleration)
  double adhesion = 0;
  int dim = 0;                // condim: 1, 3, 4 or 6
  int geom1 = -1;
  int geom2 = -1;
  int exclude = 0;            // 1: in the gap (margin - gap <= dist < margin): no force;
                              // adhesive contacts there keep one frictionless row (dim 1)
  int efc_address = -1;       // first constraint row, -1 if it has none
};

}  // namespace gauss
