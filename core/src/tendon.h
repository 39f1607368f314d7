// Tendon helpers shared with tests (tendon.cc): the wrapping geometry of spatial tendons, which
// wrap around spheres and cylinders (spec "Tendons").
//
// A spatial tendon segment site0 -> site1 that passes through a wrapping geom is replaced by
// the shortest path around it: a straight segment to a tangent point, an arc (a helix for a
// cylinder) on the surface, and a straight segment from the second tangent point. A side site
// chooses the side of the obstacle the path goes around; a side site inside the obstacle makes
// the path touch the surface at a single point instead (no arc).
#pragma once

#include "gauss/arena.h"
#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/types.h"

namespace gauss {

// MuJoCo 3.x tendon armature (tendon_armature.cc): the inertia a J' J and the bias
// a J' (dJ/dt qvel) of each tendon with armature a and Jacobian row J of ten_J.
// (ten_J) => qM += a J' J on the entries the tree-sparse qM stores (frozen trees skipped)
void AddTendonArmatureInertia(const Model& m, Data& d);
// (ten_J, qacc) => y += (the tendon-armature part of qM) qacc
void AddTendonArmatureTimes(const Model& m, const Data& d, const double* qacc, double* y);
// (ten_J, site_xpos, subtree_com, cvel, cdof_dot, qvel) => result += a J' (dJ/dt qvel)
void AddTendonArmatureBias(const Model& m, const Data& d, double* result);

// The dofs [*begin, *end) outside which tendon t's row of ten_J is zero at every configuration:
// those of its joints (fixed tendon) or of the chains of the bodies its path passes (spatial
// tendon); an empty span (begin == end) for a tendon that moves with no dof. Tendons writes
// each row only within its span, so stages may read rows only there.
void TendonDofSpan(const Model& m, int t, int* begin, int* end);

// The arena blocks Tendons takes (the spatial tendons' segment Jacobians), for ScratchSize.
ArenaPlan TendonScratchPlan(const Model& m);

// Path from x0 to x1 around a sphere or an infinite cylinder (its axis is the local z axis) of
// the given radius, with the frame (pos, mat row-major). `side` (world position of the side
// site) may be null. Returns the length of the part of the path on the surface and writes the
// two tangent points (world, 2 x 3) to `points`; returns -1 (points untouched) when the straight
// segment does not touch the obstacle, or when the geometry admits no wrap (an end point inside
// the obstacle). With an inside side site both points coincide and the length is 0.
double WrapPath(double points[6], const double x0[3], const double x1[3], const double pos[3],
                const double mat[9], double radius, WrapType type, const double* side);

}  // namespace gauss
