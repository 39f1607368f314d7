// What a model looks like: the colour a geom or site is drawn with, and the vertices of a skin
// posed by its bone bodies. Visual only: nothing here is used by the time step.
#pragma once

#include "gauss/model.h"

namespace gauss {

// MJCF's colour of a geom or site that writes no rgba (and of most default classes).
inline constexpr double kDefaultRgba[4] = {0.5, 0.5, 0.5, 1};

// The colour an element is drawn with, MuJoCo 2.2.2's rule: the element's own rgba when it
// differs from kDefaultRgba or when it names no material; otherwise its material's rgba.
// (own rgba, matid, mat_rgba) => rgba
void VisibleRgba(const Model& m, const double own[4], int matid, double rgba[4]);
// VisibleRgba of geom g / site s.
void GeomRgba(const Model& m, int g, double rgba[4]);
void SiteRgba(const Model& m, int s, double rgba[4]);

// VisibleRgba of skin k (MuJoCo 2.2.2 applies the same rule to skins, measured).
void SkinRgba(const Model& m, int k, double rgba[4]);

// The world positions of skin k's vertices for body poses xpos (nbody x 3) and xquat
// (nbody x 4): each vertex is the weighted sum over the bones that list it of
// xpos_b + R(xquat_b bindquat_b^-1) (v - bindpos_b), then moved by skin_inflate along its
// normal (the normalized sum of the un-normalized normals of the faces that use it).
// (skin_*, xpos, xquat) => vert (skin_vertnum[k] x 3)
void SkinVertices(const Model& m, int k, const double* xpos, const double* xquat, double* vert);

}  // namespace gauss
