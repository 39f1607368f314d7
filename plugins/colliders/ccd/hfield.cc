// Height field against a convex geom (sphere, capsule, ellipsoid, cylinder, box, mesh hull):
// the spec's approach ("Collision detection": height fields are unions of triangular prisms).
//
// In the height field's frame, the convex geom's bounding box (its support points along the
// six axis directions) selects the grid cells it can touch. Each cell (r, c) is split along
// the diagonal from sample (r, c) to (r + 1, c + 1) into two triangles; each triangle with the base
// below it is a convex prism, and MPR (libccd, as for any convex pair) finds the penetration of
// the prism and the geom. Every prism that overlaps gives one contact, up to max_contacts.
// MuJoCo 2.2.2's semantics, reproduced (measured with mjref; docs/collision.md, "Height
// fields"):
//  - the prisms' top vertices are raised by the pair's margin and the geom is inflated by half
//    the margin, and dist = -depth: a contact within the margin reports a distance 1.5 margin
//    below the true one (with margin 0 the distance is exact);
//  - the bounding box is tested against the field (with the margin) and a prism whose three
//    top vertices lie below the geom's lowest point is skipped;
//  - MPR starts from the direction +z of the field, and the prism's interior point is the mean
//    of its six vertices; the contact position is MPR's, the normal MPR's direction, replaced by
//    the geom's own normal where it is smooth (normal.cc).
#include <algorithm>
#include <cmath>

#include "ccd_collider.h"
#include "gauss/math.h"

namespace gauss::ccd {

using namespace math;

namespace {

// One triangular prism of the field in the field's frame: vertices 0-2 at the base, 3-5 above
// them at the samples' heights (plus the margin).
struct Prism {
  double v[6][3];
};

// libccd support callback of a prism: its vertex farthest along dir (the base triangle when
// dir points down, the top one otherwise). (prism, dir) => (vertex)
void PrismSupport(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const Prism& p = *static_cast<const Prism*>(obj);
  const int first = dir->v[2] < 0 ? 0 : 3;
  int best = first;
  double best_dot = Dot3(p.v[first], dir->v);
  for (int i = first + 1; i < first + 3; ++i) {
    const double dot = Dot3(p.v[i], dir->v);
    if (dot > best_dot) {
      best = i;
      best_dot = dot;
    }
  }
  Copy3(out->v, p.v[best]);
}

// libccd centre callback of a prism: the mean of its six vertices (summed in order, then
// scaled: the rounding MuJoCo's result needs). (prism) => (centre)
void PrismCenter(const void* obj, ccd_vec3_t* out) {
  const Prism& p = *static_cast<const Prism*>(obj);
  double sum[3] = {0, 0, 0};
  for (const double* v : p.v) AddTo3(sum, v);
  Scale3(out->v, sum, 1.0 / 6.0);
}

// MPR's first search direction: up, out of the field.
void FirstDirUp(const void*, const void*, ccd_vec3_t* dir) { ccdVec3Set(dir, 0, 0, 1); }

// Appends the grid point (x, y, z) to the prism under construction: the prism is a sliding
// window over the last three points of a row strip. (prism, point) => (prism, count)
void PushVertex(Prism* p, int* count, double x, double y, double z) {
  for (int i : {0, 3}) {
    Copy3(p->v[i], p->v[i + 1]);
    Copy3(p->v[i + 1], p->v[i + 2]);
  }
  p->v[2][0] = p->v[5][0] = x;
  p->v[2][1] = p->v[5][1] = y;
  p->v[5][2] = z;
  ++*count;
}

}  // namespace

// (field pose and data, geom pose, options) => (contacts), returns their number
int HfieldConvex(const Model& m, const Data& d, int h, int g, double margin, Contact* out,
                 int max_contacts) {
  const int id = m.geom_dataid[h];
  const double* size = m.hfield_size.data() + 4 * id;
  const int nrow = m.hfield_nrow[id], ncol = m.hfield_ncol[id];
  const double* data = m.hfield_data.data() + m.hfield_adr[id];
  const double* hpos = d.geom_xpos.data() + 3 * h;
  const double* hmat = d.geom_xmat.data() + 9 * h;

  // the geom's centre in the field's frame, against the field's box grown by its bound
  ConvexGeom geom;
  MakeConvexGeom(m, d, g, 0, &geom);
  double rel[3], pos[3];
  Sub3(rel, geom.pos, hpos);
  MulMatTVec3(pos, hmat, rel);
  const double reach = m.geom_rbound[g] + margin;
  for (int i = 0; i < 2; ++i) {
    if (size[i] < pos[i] - reach || -size[i] > pos[i] + reach) return 0;
  }
  if (size[2] < pos[2] - reach || -size[3] > pos[2] + reach) return 0;

  // the geom in the field's frame; its bounding box from six support points
  double mat[9];
  MulMatTMat3(mat, hmat, geom.mat);
  Copy3(geom.pos, pos);
  for (int i = 0; i < 9; ++i) geom.mat[i] = mat[i];
  double lo[3], hi[3];
  for (int axis = 0; axis < 3; ++axis) {
    for (int side : {1, -1}) {
      ccd_vec3_t dir, point;
      ccdVec3Set(&dir, 0, 0, 0);
      dir.v[axis] = side;
      Support(&geom, &dir, &point);
      (side > 0 ? hi : lo)[axis] = point.v[axis];
    }
  }
  if (lo[0] - margin > size[0] || hi[0] + margin < -size[0] || lo[1] - margin > size[1] ||
      hi[1] + margin < -size[1] || lo[2] - margin > size[2] || hi[2] + margin < -size[3]) {
    return 0;
  }

  // the cells under the box
  const int cmin = std::max(0, static_cast<int>(std::floor((lo[0] + size[0]) / (2 * size[0]) *
                                                           (ncol - 1))));
  const int cmax = std::min(ncol - 1, static_cast<int>(std::ceil((hi[0] + size[0]) /
                                                                 (2 * size[0]) * (ncol - 1))));
  const int rmin = std::max(0, static_cast<int>(std::floor((lo[1] + size[1]) / (2 * size[1]) *
                                                           (nrow - 1))));
  const int rmax = std::min(nrow - 1, static_cast<int>(std::ceil((hi[1] + size[1]) /
                                                                 (2 * size[1]) * (nrow - 1))));

  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.first_dir = FirstDirUp;
  ccd.support1 = PrismSupport;
  ccd.center1 = PrismCenter;
  ccd.support2 = Support;
  ccd.center2 = Center;
  ccd.max_iterations = static_cast<unsigned long>(std::max(0, m.opt.ccd_iterations));
  ccd.mpr_tolerance = m.opt.ccd_tolerance;
  geom.half_margin = margin / 2;

  const double dx = (2.0 * size[0]) / (ncol - 1);
  const double dy = (2.0 * size[1]) / (nrow - 1);
  Prism prism;
  for (auto& v : prism.v) Zero3(v);
  prism.v[0][2] = prism.v[1][2] = prism.v[2][2] = -size[3];
  int n = 0;
  for (int r = rmin; r < rmax && n < max_contacts; ++r) {
    int count = 0;
    for (int c = cmin; c <= cmax && n < max_contacts; ++c) {
      for (int upper : {1, 0}) {  // next row first: prisms (r+1,c) (r,c) (r+1,c+1), then
                                  // (r,c) (r+1,c+1) (r,c+1)
        const int row = r + upper;
        PushVertex(&prism, &count, dx * c - size[0], dy * row - size[1],
                   data[row * ncol + c] * size[2] + margin);
        if (count < 3) continue;
        if (prism.v[3][2] < lo[2] && prism.v[4][2] < lo[2] && prism.v[5][2] < lo[2]) continue;
        ccd_real_t depth = 0;
        ccd_vec3_t dir, at;
        if (ccdMPRPenetration(&prism, &geom, &ccd, &depth, &dir, &at) != 0) continue;
        if (ccdVec3Eq(&dir, ccd_vec3_origin)) continue;
        Contact& con = out[n];
        con.dist = -depth;
        MulMatVec3(con.frame, hmat, dir.v);
        MulMatVec3(con.pos, hmat, at.v);
        AddTo3(con.pos, hpos);
        Zero3(con.frame + 3);
        if (++n >= max_contacts) break;
      }
    }
  }

  // smooth geoms give their own normal at the contact, as for any convex pair
  ConvexGeom world;
  MakeConvexGeom(m, d, g, margin, &world);
  for (int k = 0; k < n; ++k) {
    double normal[3];
    if (SmoothNormal(world, out[k].pos, normal)) Scale3(out[k].frame, normal, -1);
  }
  return n;
}

}  // namespace gauss::ccd
