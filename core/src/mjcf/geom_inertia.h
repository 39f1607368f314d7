// Volume, mass distribution and bounding sphere of primitive geoms (solid, uniform density),
// in the geom's own frame, as MuJoCo 2.2.2 computes them.
#pragma once

#include "gauss/types.h"

namespace gauss::mjcf {

// Volume of a solid primitive; 0 for planes. size is the MJCF geom size (half-sizes / radii).
double GeomVolume(GeomType type, const double size[3]);

// Principal moments of inertia about the geom's center, along its own axes, for total `mass`.
// (type, size, mass) => (inertia)
void GeomInertia(GeomType type, const double size[3], double mass, double inertia[3]);

// Radius of the bounding sphere centered at the geom frame origin (0 for planes).
double GeomBoundingRadius(GeomType type, const double size[3]);

}  // namespace gauss::mjcf
