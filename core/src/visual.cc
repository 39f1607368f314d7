// The colours elements are drawn with and skin vertices posed by their bones (gauss/visual.h).
#include "gauss/visual.h"

#include <algorithm>
#include <vector>

#include "gauss/math.h"

namespace gauss {

// (own rgba, matid, mat_rgba) => rgba
void VisibleRgba(const Model& m, const double own[4], int matid, double rgba[4]) {
  const bool is_default = std::equal(own, own + 4, kDefaultRgba);
  const double* from = matid >= 0 && is_default ? &m.mat_rgba[4 * matid] : own;
  std::copy(from, from + 4, rgba);
}

void GeomRgba(const Model& m, int g, double rgba[4]) {
  VisibleRgba(m, &m.geom_rgba[4 * g], m.geom_matid[g], rgba);
}

void SiteRgba(const Model& m, int s, double rgba[4]) {
  VisibleRgba(m, &m.site_rgba[4 * s], m.site_matid[s], rgba);
}

void SkinRgba(const Model& m, int k, double rgba[4]) {
  VisibleRgba(m, &m.skin_rgba[4 * k], m.skin_matid[k], rgba);
}

// (skin_* of skin k, xpos, xquat) => vert
void SkinVertices(const Model& m, int k, const double* xpos, const double* xquat, double* vert) {
  const int nvert = m.skin_vertnum[k];
  const double* bind_vert = &m.skin_vert[3 * m.skin_vertadr[k]];
  std::fill(vert, vert + 3 * nvert, 0.0);
  for (int b = m.skin_boneadr[k]; b < m.skin_boneadr[k] + m.skin_bonenum[k]; ++b) {
    // the bone's motion since the bind pose: rotation xquat bindquat^-1, and the translation
    // that takes the bind position to the body's position
    const int body = m.skin_bonebodyid[b];
    double unbind[4], rot[4], moved_bindpos[3], shift[3];
    math::NegQuat(unbind, &m.skin_bonebindquat[4 * b]);
    math::MulQuat(rot, &xquat[4 * body], unbind);
    math::RotVecQuat(moved_bindpos, &m.skin_bonebindpos[3 * b], rot);
    for (int i = 0; i < 3; ++i) shift[i] = xpos[3 * body + i] - moved_bindpos[i];
    for (int j = m.skin_bonevertadr[b]; j < m.skin_bonevertadr[b] + m.skin_bonevertnum[b]; ++j) {
      const int v = m.skin_bonevertid[j];
      const double w = m.skin_bonevertweight[j];
      double p[3];
      math::RotVecQuat(p, &bind_vert[3 * v], rot);
      for (int i = 0; i < 3; ++i) vert[3 * v + i] += w * (p[i] + shift[i]);
    }
  }
  const double inflate = m.skin_inflate[k];
  if (inflate == 0) return;
  // vertex normals: the face normals (cross products, so weighted by area) summed per vertex
  std::vector<double> normal(3 * nvert, 0.0);
  for (int f = m.skin_faceadr[k]; f < m.skin_faceadr[k] + m.skin_facenum[k]; ++f) {
    const int* face = &m.skin_face[3 * f];
    double e1[3], e2[3], n[3];
    for (int i = 0; i < 3; ++i) {
      e1[i] = vert[3 * face[1] + i] - vert[3 * face[0] + i];
      e2[i] = vert[3 * face[2] + i] - vert[3 * face[0] + i];
    }
    math::Cross3(n, e1, e2);
    for (int c = 0; c < 3; ++c) {
      for (int i = 0; i < 3; ++i) normal[3 * face[c] + i] += n[i];
    }
  }
  for (int v = 0; v < nvert; ++v) {
    math::Normalize3(&normal[3 * v]);
    for (int i = 0; i < 3; ++i) vert[3 * v + i] += inflate * normal[3 * v + i];
  }
}

}  // namespace gauss
