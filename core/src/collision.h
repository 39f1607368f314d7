// Collision detection (spec stage 8, Collision in pipeline.h): the collider dispatch table,
// its coverage check, and the broad phase: candidate geom pairs from the filters and the
// bounding spheres.
#pragma once

#include <string>
#include <vector>

#include "gauss/collider.h"
#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// Which collider handles each pair of geom types; only entries with type1 <= type2 are used.
struct CollisionTable {
  const Collider* pair[kNumGeomTypes][kNumGeomTypes] = {};
  // the timer in Data::profile.plugin of the collider of each pair (-1: none)
  int profile_slot[kNumGeomTypes][kNumGeomTypes] = {};
  // false when no geom's contype shares a bit with any geom's conaffinity (DynamicPairsPossible
  // of the Engine's model): the broad phase would pass no pair, so it is not run
  bool dynamic_pairs = true;
};

// Whether some geom's contype shares a bit with some geom's conaffinity, the first condition
// of every dynamic pair (models whose geoms are all visual, contype 0, have none).
bool DynamicPairsPossible(const Model& m);

// Fills `table` from `colliders` in priority order (the first collider declaring a pair wins).
// Collider k times into Data::profile.plugin[first_profile_slot + k] (none when negative).
void BuildCollisionTable(const std::vector<const Collider*>& colliders, CollisionTable& table,
                         int first_profile_slot = -1);

// Throws gauss::Error naming every geom-type pair that can occur in model m (two geoms that may
// collide by contype/conaffinity or an explicit pair) and that no collider in `table` handles.
void CheckCollisionCoverage(const Model& m, const CollisionTable& table,
                            const std::vector<std::string>& collider_names);

// "plane", "hfield", "sphere", ... (MJCF's names), for messages.
const char* GeomTypeName(GeomType type);

// Most contacts one narrow-phase call may return (the buffer handed to Collider::Collide).
inline constexpr int kMaxContactsPerPair = 50;

// (geom_xpos, geom_xmat of g1 and g2, with type(g1) <= type(g2)) => out[0..n), n returned: the
// contacts closer than `margin` that the collider the table assigns to the pair writes (dist,
// pos, frame row 0 = normal from g1 to g2), timed in that collider's profile slot; 0 when the
// table has no collider for the pair. `out` holds kMaxContactsPerPair contacts.
int NarrowPhase(const Model& m, Data& d, const CollisionTable& table, int g1, int g2,
                double margin, Contact* out);

// ---------------------------------------------------------------- broad phase
// (collision_broadphase.cc)

// A candidate of the dynamic (body-pair) mechanism: geom g1 lies on a body with a smaller id
// than geom g2's body.
struct GeomPair {
  int g1;
  int g2;
};

// True when geom type pair (t1, t2) is one MuJoCo never collides (plane-plane, plane-hfield,
// hfield-hfield): such pairs need no collider and are skipped.
bool UnsupportedTypePair(GeomType t1, GeomType t2);

// The dynamic filters of a geom pair (spec "Filtering" 3 and 4 and <exclude>): different weld
// bodies; not parent and child (by weld body, world excepted, unless filterparent is disabled);
// contype/conaffinity compatible; body pair not excluded. Reads only the model.
bool DynamicPairAllowed(const Model& m, int g1, int g2);

// Margin and gap of a geom pair (ipair >= 0: explicit pair ipair, else the dynamic pair (g1,
// g2)): the pair's own, else the geoms' larger values, or their sums under kEnableMarginSum
// (MuJoCo 3.12); o_margin replaces the margin under the override flag.
struct PairMargin {
  double margin, gap;
  // distance below which the colliders report contacts: margin (MuJoCo 2.2.2: the gap narrows
  // the active range to margin - gap) or, under kEnableMarginSum, margin + gap (the gap holds
  // inactive contacts beyond the margin)
  double Detection(const Model& m) const {
    return m.opt.Enabled(kEnableMarginSum) ? margin + gap : margin;
  }
  // distance below which a contact is active (Contact::includemargin)
  double Include(const Model& m) const {
    return m.opt.Enabled(kEnableMarginSum) ? margin : margin - gap;
  }
};
PairMargin PairMargins(const Model& m, int g1, int g2, int ipair);

// Detection distance of a dynamic geom pair (PairMargins(m, g1, g2, -1).Detection(m)).
double DynamicMargin(const Model& m, int g1, int g2);

// Bounding-sphere test with margin (spec "Filtering" 2; a plane against a sphere around the other
// geom); geoms with geom_rbound <= 0 other than planes always pass. Reads geom_xpos, geom_xmat.
bool BoundingSpheresOverlap(const Model& m, const Data& d, int g1, int g2, double margin);

// Doubles of d.arena that BroadPhase takes for model m (on top of the output array).
std::size_t BroadPhaseScratch(const Model& m);

// (geom_xpos, geom_xmat) => pairs: every dynamic candidate (DynamicPairAllowed and
// BoundingSpheresOverlap with DynamicMargin), sorted like MuJoCo 2.2.2 visits them: by body pair
// (lower body id first), then by geom id. Sweep-and-prune along the principal axis of the geom
// centres for geoms with a bounding sphere; planes (and other unbounded geoms) are tested against
// every geom. Returns the number of pairs, or -1 when there are more than `max_pairs` (the
// content of `pairs` is then unspecified). Temporaries from d.arena (BroadPhaseScratch(m)).
int BroadPhase(const Model& m, Data& d, GeomPair* pairs, int max_pairs);

// The same set in the same order by testing every body pair and geom pair (O(ngeom^2), no
// scratch). Calls visit(g1, g2) for each candidate; stops early when visit returns false.
template <class Visit>
void ForEachCandidateBruteForce(const Model& m, const Data& d, Visit&& visit) {
  for (int b1 = 0; b1 < m.nbody; ++b1) {
    const int a1 = m.body_geomadr[b1], n1 = m.body_geomnum[b1];
    if (n1 <= 0) continue;
    for (int b2 = b1 + 1; b2 < m.nbody; ++b2) {
      const int a2 = m.body_geomadr[b2], n2 = m.body_geomnum[b2];
      for (int g1 = a1; g1 < a1 + n1; ++g1) {
        for (int g2 = a2; g2 < a2 + n2; ++g2) {
          if (!DynamicPairAllowed(m, g1, g2)) continue;
          if (!BoundingSpheresOverlap(m, d, g1, g2, DynamicMargin(m, g1, g2))) continue;
          if (!visit(g1, g2)) return;
        }
      }
    }
  }
}

}  // namespace gauss
