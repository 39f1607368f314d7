// Box-box contacts: separating-axis test over the 15 candidate axes (3 face normals of each box
// and the 9 cross products of their edges), then a contact patch on the axis of least overlap.
//
// Face axis: the face of the reference box on that axis is the contact plane. The other box
// contributes the corner reaching deepest below it and, from there, its edges that lie within 60
// degrees of the plane (none, one, or two: a face). Contacts are the vertices of the overlap
// between that feature and the reference face seen from above (feature edges crossing the face
// boundary, face corners inside the feature, feature corners inside the face; the deepest corner
// always), at most `margin` above the plane.
//
// Edge axis: the contact plane is the face of box 1 next to its colliding edge that faces box 2
// best; the face of box 2 through its colliding edge, spanned by that edge and the box-2 axis best
// aligned with box 1's edge, is projected onto the plane along the contact normal, and the
// vertices of the overlap become contacts, with the depth measured along the normal.
//
// Every contact shares the normal of the chosen axis and lies midway between the two surfaces;
// repeated positions (features meeting exactly at a corner) are kept once. The choice of axes,
// features and contact order is MuJoCo 2.2.2's.
#include <cmath>

#include "gauss/math.h"
#include "primitive.h"

namespace gauss::primitive {

using namespace math;

namespace {

constexpr int kMaxPoints = 32;

// Coordinates on one face of a box: face coordinate c = sign[c] * box coordinate perm[c], so that
// the face's outward normal is +z (face index: axis + 3 if on the negative side).
struct FaceFrame {
  int perm[3];
  double sign[3];

  explicit FaceFrame(int face) {
    static const int kPerm[6][3] = {{2, 1, 0}, {0, 2, 1}, {0, 1, 2},
                                    {2, 1, 0}, {0, 2, 1}, {0, 1, 2}};
    static const double kSign[6][3] = {{-1, 1, 1}, {1, -1, 1}, {1, 1, 1},
                                       {1, 1, -1}, {1, 1, -1}, {-1, 1, -1}};
    for (int c = 0; c < 3; ++c) {
      perm[c] = kPerm[face][c];
      sign[c] = kSign[face][c];
    }
  }
  void ToFace(const double* v, double* out) const {
    for (int c = 0; c < 3; ++c) out[c] = sign[c] * v[perm[c]];
  }
  void ToBox(const double* v, double* out) const {
    for (int c = 0; c < 3; ++c) out[perm[c]] = sign[c] * v[c];
  }
};

// Contact candidates in face coordinates: position and signed depth.
struct Points {
  double pos[kMaxPoints][3];
  double depth[kMaxPoints];
  int n = 0;
  void Add(const double* p, double depth_value) {
    if (n >= kMaxPoints) return;
    Copy3(pos[n], p);
    depth[n++] = depth_value;
  }
};

// For segment o + t d, t in [0, 1]: calls hit(t, q, side, other) at each crossing of the
// rectangle |x| <= half[0], |y| <= half[1] boundary line coordinate q = side * half[q] within
// the rectangle's extent (q = 0, 1; side = -1, +1, in that order).
template <class Hit>
void CrossRectangle(const double* o, const double* d, const double* half, Hit&& hit) {
  for (int q = 0; q < 2; ++q) {
    if (std::fabs(d[q]) <= kMinVal) continue;
    for (double side : {-1.0, 1.0}) {
      const double l = side * half[q];
      const double t = (l - o[q]) * (1 / d[q]);
      if (t < 0 || t > 1) continue;
      const double other = o[1 - q] + d[1 - q] * t;
      if (std::fabs(other) > half[1 - q]) continue;
      hit(t, q, l, other);
    }
  }
}

// Writes the contacts: positions from face coordinates (z measured from the face plane at
// height hz) of the reference box (mat, pos) to world; repeated positions keep the last copy.
int Emit(const Points& pts, const FaceFrame& frame, const double* mat, const double* pos, double hz,
         const double* normal, Contact* out) {
  double world[kMaxPoints][3];
  for (int i = 0; i < pts.n; ++i) {
    double face[3] = {pts.pos[i][0], pts.pos[i][1], pts.pos[i][2] + hz}, local[3];
    frame.ToBox(face, local);
    MulMatVec3(world[i], mat, local);
    AddTo3(world[i], pos);
  }
  int n = 0;
  for (int i = 0; i < pts.n && n < kPrimitiveMax; ++i) {
    bool repeated = false;
    for (int j = i + 1; j < pts.n && !repeated; ++j) {
      repeated =
          world[i][0] == world[j][0] && world[i][1] == world[j][1] && world[i][2] == world[j][2];
    }
    if (repeated) continue;
    out[n].dist = pts.depth[i];
    Copy3(out[n].pos, world[i]);
    Copy3(out[n].frame, normal);
    Zero3(out[n].frame + 3);
    ++n;
  }
  return n;
}

// The axis of least overlap and what the patch construction needs about it.
struct LeastOverlap {
  int code = -1;        // 0-5 face of box 1 (axis, +3 if box 2 lies on its negative side),
                        // 6-11 the same for box 2, 12 + 3 i + j edge i of box 1 x edge j of box 2
  double normal[3];     // edge axes: unit axis in box-1 coordinates
  int edge1_sides = 0;  // edge axes: bit k set when box 1's edge lies on its + side of axis k
  int edge2_sides = 0;  // same for box 2's edge and box 2's axes
  bool below = false;   // edge axes: box 2's centre is on the negative side of `normal`
};

// (pos21, pos12: each centre in the other's frame; rot = mat1' mat2) => the axis of least
// overlap; false when some axis separates the boxes by more than margin
bool FindLeastOverlap(const double* size1, const double* size2, const double* pos21,
                      const double* pos12, const double* rot, double margin, LeastOverlap& best) {
  double rotabs[9];
  for (int i = 0; i < 9; ++i) rotabs[i] = std::fabs(rot[i]);
  double depth = margin;
  for (int i = 0; i < 3; ++i) depth += 3 * (size1[i] + size2[i]);

  for (int i = 0; i < 3; ++i) {
    // extents of box 2 on box 1's axis i and of box 1 on box 2's axis i
    const double ext2 =
        rotabs[3 * i] * size2[0] + rotabs[3 * i + 1] * size2[1] + rotabs[3 * i + 2] * size2[2];
    const double ext1 = rotabs[i] * size1[0] + rotabs[3 + i] * size1[1] + rotabs[6 + i] * size1[2];
    // (summation orders as MuJoCo's, so that exact ties between axes resolve the same way)
    const double overlap1 = -std::fabs(pos21[i]) + size1[i] + ext2;
    const double overlap2 = -std::fabs(pos12[i]) + size2[i] + ext1;
    if (overlap1 < -margin || overlap2 < -margin) return false;
    if (overlap1 < depth) {
      depth = overlap1;
      best.code = i + (pos21[i] < 0 ? 3 : 0);
    }
    if (overlap2 < depth) {
      depth = overlap2;
      best.code = 6 + i + (pos12[i] < 0 ? 3 : 0);
    }
  }

  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      // e_i x b_j in box-1 coordinates, b_j = column j of rot
      const double b[3] = {rot[j], rot[3 + j], rot[6 + j]};
      double axis[3] = {0, 0, 0};
      if (i == 0) {
        axis[1] = -b[2];
        axis[2] = b[1];
      } else if (i == 1) {
        axis[0] = b[2];
        axis[2] = -b[0];
      } else {
        axis[0] = -b[1];
        axis[1] = b[0];
      }
      const double len = Normalize3(axis);
      if (len < kMinVal) continue;  // parallel edges: the face axes cover them
      const double centre = Dot3(pos21, axis);
      // b_k . (e_i x b_j) = +-rot[i][l], l the third box-2 axis
      double overlap = 0;
      for (int k = 0; k < 3; ++k) {
        if (k != i) overlap += size1[k] * std::fabs(axis[k]);
      }
      for (int k = 0; k < 3; ++k) {
        if (k != j) overlap += size2[k] * rotabs[3 * i + 3 - k - j] / len;
      }
      overlap -= std::fabs(centre);
      if (overlap < -margin) return false;
      // a face axis wins ties: edge contacts are the less stable construction
      if (overlap < depth * (1 - 1e-12)) {
        depth = overlap;
        best.code = 12 + 3 * i + j;
        Copy3(best.normal, axis);
        best.below = centre < 0;
        best.edge1_sides = best.edge2_sides = 0;
        for (int k = 0; k < 3; ++k) {
          if (k != i && ((axis[k] > 0) != best.below)) best.edge1_sides |= 1 << k;
          const bool cyclic = (k - j + 3) % 3 == 1;
          if (k != j && (((rot[3 * i + 3 - k - j] > 0) != best.below) != cyclic)) {
            best.edge2_sides |= 1 << k;
          }
        }
      }
    }
  }
  return best.code >= 0;
}

// Face axis: reference box (rmat, rpos, rsize) and its face `face`; the incident box's axes in
// the reference box's frame are the columns of `inc_rot`, its centre `inc_pos`.
int FaceContacts(int face, const double* rmat, const double* rpos, const double* rsize,
                 const double* inc_rot, const double* inc_pos, const double* inc_size,
                 double normal_sign, double margin, Contact* out) {
  const FaceFrame frame(face);
  double half[3], centre[3], axes[3][3];  // axes[b]: incident axis b in face coordinates
  frame.ToFace(rsize, half);
  for (int c = 0; c < 3; ++c) half[c] = std::fabs(half[c]);
  frame.ToFace(inc_pos, centre);
  centre[2] -= half[2];
  for (int b = 0; b < 3; ++b) {
    const double column[3] = {inc_rot[b], inc_rot[3 + b], inc_rot[6 + b]};
    frame.ToFace(column, axes[b]);
  }

  // the incident corner reaching deepest below the face, and its edges lying within 60 degrees
  // of the face plane
  double corner[3], edges[2][3] = {{0, 0, 0}, {0, 0, 0}};
  Copy3(corner, centre);
  int nedges = 0;
  for (int b = 0; b < 3; ++b) {
    const bool plus = axes[b][2] < 0;
    AddScaled3(corner, axes[b], inc_size[b] * (plus ? 1 : -1));
  }
  for (int b = 0; b < 3; ++b) {
    if (std::fabs(axes[b][2]) < 0.5) {
      Scale3(edges[nedges++], axes[b], inc_size[b] * (axes[b][2] < 0 ? -2 : 2));
    }
  }

  Points pts;
  // feature edges across the face boundary
  double c01[3], c02[3], c012[3];
  Add3(c01, corner, edges[0]);
  Add3(c02, corner, edges[1]);
  Add3(c012, c01, edges[1]);
  const double* seg_origin[4] = {corner, corner, c01, c02};
  const double* seg_dir[4] = {edges[0], edges[1], edges[1], edges[0]};
  const int nseg = nedges == 1 ? 1 : nedges == 2 ? 4 : 0;
  for (int k = 0; k < nseg; ++k) {
    CrossRectangle(seg_origin[k], seg_dir[k], half, [&](double t, int, double, double) {
      double p[3];
      Copy3(p, seg_origin[k]);
      AddScaled3(p, seg_dir[k], t);
      pts.Add(p, p[2]);
    });
  }
  // face corners inside the incident face
  if (nedges == 2) {
    const double det = edges[0][0] * edges[1][1] - edges[1][0] * edges[0][1];
    for (int i = 0; i < 4; ++i) {
      const double cx = i / 2 ? half[0] : -half[0], cy = i % 2 ? half[1] : -half[1];
      const double x = cx - corner[0], y = cy - corner[1];
      const double u = (x * edges[1][1] - y * edges[1][0]) * (1 / det);
      const double v = (y * edges[0][0] - x * edges[0][1]) * (1 / det);
      if (u <= 0 || v <= 0 || u >= 1 || v >= 1) continue;
      const double p[3] = {cx, cy, corner[2] + u * edges[0][2] + v * edges[1][2]};
      pts.Add(p, p[2]);
    }
  }
  // feature corners inside the face (the deepest one regardless)
  const double* vertices[4] = {corner, c01, c02, c012};
  const int nvert = 1 << nedges;
  for (int i = 0; i < nvert; ++i) {
    const double* p = vertices[i];
    if (i > 0 && (p[0] <= -half[0] || p[0] >= half[0] || p[1] <= -half[1] || p[1] >= half[1])) {
      continue;
    }
    pts.Add(p, p[2]);
  }

  // within the margin; positions halfway down to the face. The reported distance is half the
  // height too: MuJoCo 2.2.2 does so on face axes (not on edge axes), and contacts must match.
  Points kept;
  for (int i = 0; i < pts.n; ++i) {
    if (pts.pos[i][2] > margin) continue;
    const double p[3] = {pts.pos[i][0], pts.pos[i][1], 0.5 * pts.pos[i][2]};
    kept.Add(p, p[2]);
  }
  double face_normal[3] = {0, 0, 1}, local[3], normal[3];
  frame.ToBox(face_normal, local);
  MulMatVec3(normal, rmat, local);
  Scale3(normal, normal, normal_sign);
  return Emit(kept, frame, rmat, rpos, half[2], normal, out);
}

// Edge axis: contact plane on the face of box 1 next to its colliding edge; box 2's face through
// its colliding edge is projected onto that plane along the contact normal.
int EdgeContacts(const Geom& b1, const Geom& b2, const double* pos21, const double* rot,
                 const LeastOverlap& axis, double margin, Contact* out) {
  const int e1 = (axis.code - 12) / 3, e2 = (axis.code - 12) % 3;
  // the two other axes of each box, the first one best aligned with the other box's edge
  auto others = [](int e, int& a, int& b) {
    a = e == 1 ? 0 : 1;
    b = e == 2 ? 0 : 2;
  };
  int ax1, ax2, pax1, pax2;
  others(e2, ax1, ax2);
  others(e1, pax1, pax2);
  if (std::fabs(rot[3 * e1 + ax1]) < std::fabs(rot[3 * e1 + ax2])) {
    ax1 = ax2;
    ax2 = 3 - e2 - ax1;
  }
  if (std::fabs(rot[3 * pax1 + e2]) < std::fabs(rot[3 * pax2 + e2])) {
    pax1 = pax2;
    pax2 = 3 - e1 - pax1;
  }
  // reference face: box 1's face on axis pax2, on the side of its colliding edge
  const FaceFrame frame((axis.edge1_sides & (1 << pax2)) ? pax2 : pax2 + 3);
  double half[3], centre[3], normal[3], axes[3][3];
  frame.ToFace(b1.size, half);
  for (int c = 0; c < 3; ++c) half[c] = std::fabs(half[c]);
  frame.ToFace(pos21, centre);
  centre[2] -= half[2];
  frame.ToFace(axis.normal, normal);
  for (int b = 0; b < 3; ++b) {
    const double column[3] = {rot[b], rot[3 + b], rot[6 + b]};
    frame.ToFace(column, axes[b]);
  }
  if (std::fabs(normal[2]) < kMinVal) return 0;

  // box 2's face: its colliding edge (p0, p1) and the parallel edge across the face (p2, p3)
  const double* size2 = b2.size;
  auto side = [&axis](int k) { return (axis.edge2_sides & (1 << k)) ? 1.0 : -1.0; };
  double corners[4][3];
  for (int e = 0; e < 2; ++e) {
    double base[3];
    Copy3(base, centre);
    AddScaled3(base, axes[ax1], size2[ax1] * side(ax1) * (e == 0 ? 1 : -1));
    AddScaled3(base, axes[ax2], size2[ax2] * side(ax2));
    for (int k = 0; k < 2; ++k) {
      Copy3(corners[2 * e + k], base);
      AddScaled3(corners[2 * e + k], axes[e2], k == 0 ? size2[e2] : -size2[e2]);
    }
  }
  // heights above the plane become depths along the normal (sign: normal from box 1 to box 2)
  const double to_depth = (1 / normal[2]) * (axis.below ? -1 : 1);
  double proj[4][3];
  for (int i = 0; i < 4; ++i) {
    Copy3(proj[i], corners[i]);
    AddScaled3(proj[i], normal, -corners[i][2] * (1 / normal[2]));
  }
  double pd1[3], pd2[3], ud1[3], ud2[3], po12[3], po21[3], uo12[3], uo21[3];
  Sub3(pd1, proj[1], proj[0]);
  Sub3(pd2, proj[2], proj[0]);
  Sub3(ud1, corners[1], corners[0]);
  Sub3(ud2, corners[2], corners[0]);
  Add3(po12, proj[0], pd1);
  Add3(po21, proj[0], pd2);
  Add3(uo12, corners[0], ud1);
  Add3(uo21, corners[0], ud2);

  Points pts;
  const double margin2 = margin * margin;
  // projected edges across the face boundary
  const double* seg_origin[4] = {proj[0], proj[0], po12, po21};
  const double* seg_dir[4] = {pd1, pd2, pd2, pd1};
  const double* raw_origin[4] = {corners[0], corners[0], uo12, uo21};
  const double* raw_dir[4] = {ud1, ud2, ud2, ud1};
  for (int k = 0; k < 4; ++k) {
    CrossRectangle(seg_origin[k], seg_dir[k], half, [&](double t, int q, double l, double other) {
      double p[3];
      Copy3(p, raw_origin[k]);
      AddScaled3(p, raw_dir[k], t);
      if (p[2] * to_depth > margin) return;
      Scale3(p, p, 0.5);
      p[q] += 0.5 * l;
      p[1 - q] += 0.5 * other;
      pts.Add(p, p[2] * to_depth * 2);
    });
  }
  const int crossings = pts.n;

  // face corners over the projected face (nearest point of it when no edge crosses). MuJoCo
  // 2.2.2 divides by the parallelogram's determinant only until a corner passes the test below,
  // and by that corner's squared distance afterwards; contacts must match, so we do the same.
  double det = pd1[0] * pd2[1] - pd2[0] * pd1[1];
  for (int i = 0; i < 4; ++i) {
    const double cx = i / 2 ? half[0] : -half[0], cy = i % 2 ? half[1] : -half[1];
    const double x = cx - proj[0][0], y = cy - proj[0][1];
    double u = (x * pd2[1] - y * pd2[0]) * (1 / det);
    double v = (y * pd1[0] - x * pd1[1]) * (1 / det);
    const bool u_out = u < 0 || u > 1, v_out = v < 0 || v > 1;
    if (crossings == 0 ? (u_out && v_out) : (u_out || v_out)) continue;
    u = std::fmin(std::fmax(u, 0.0), 1.0);
    v = std::fmin(std::fmax(v, 0.0), 1.0);
    double on_face[3], dif[3];
    Scale3(on_face, corners[0], 1 - u - v);
    AddScaled3(on_face, corners[1], u);
    AddScaled3(on_face, corners[2], v);
    const double corner[3] = {cx, cy, 0};
    Sub3(dif, corner, on_face);
    const double d2 = Dot3(dif, dif);
    det = d2;
    if (on_face[2] > 0 && d2 > margin2) continue;
    double p[3];
    Add3(p, corner, on_face);
    Scale3(p, p, 0.5);
    pts.Add(p, std::sqrt(d2) * (on_face[2] < 0 ? -1 : 1));
  }
  const int with_corners = pts.n;

  // box 2's face corners whose projection falls on the face
  for (int i = 0; i < 4; ++i) {
    const double x = proj[i][0], y = proj[i][1];
    const bool x_out = x < -half[0] || x > half[0], y_out = y < -half[1] || y > half[1];
    if (crossings > 0 ? (x_out || y_out) : (with_corners > 0 && x_out && y_out)) continue;
    double d2 = 0, p[3] = {0, 0, 0};
    for (int c = 0; c < 2; ++c) {
      const double clamped = std::fmin(std::fmax(proj[i][c], -half[c]), half[c]);
      d2 += (proj[i][c] - clamped) * (proj[i][c] - clamped);
      p[c] = 0.5 * clamped;
    }
    d2 += corners[i][2] * to_depth * corners[i][2] * to_depth;
    if (corners[i][2] > 0 && d2 > margin2) continue;
    AddScaled3(p, corners[i], 0.5);
    pts.Add(p, std::sqrt(d2) * (corners[i][2] < 0 ? -1 : 1));
  }

  double world_normal[3], local[3];
  frame.ToBox(normal, local);
  MulMatVec3(world_normal, b1.mat, local);
  Scale3(world_normal, world_normal, axis.below ? -1 : 1);
  return Emit(pts, frame, b1.mat, b1.pos, half[2], world_normal, out);
}

}  // namespace

int BoxBox(const Geom& b1, const Geom& b2, double margin, Contact* out) {
  double dif[3], pos21[3], pos12[3], rot[9];
  Sub3(dif, b2.pos, b1.pos);
  MulMatTVec3(pos21, b1.mat, dif);
  Scale3(dif, dif, -1);
  MulMatTVec3(pos12, b2.mat, dif);
  MulMatTMat3(rot, b1.mat, b2.mat);

  LeastOverlap axis;
  if (!FindLeastOverlap(b1.size, b2.size, pos21, pos12, rot, margin, axis)) return 0;

  if (axis.code < 12) {
    if (axis.code < 6) {
      return FaceContacts(axis.code, b1.mat, b1.pos, b1.size, rot, pos21, b2.size, 1, margin, out);
    }
    double rot_t[9];
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) rot_t[3 * r + c] = rot[3 * c + r];
    }
    return FaceContacts(axis.code - 6, b2.mat, b2.pos, b2.size, rot_t, pos12, b1.size, -1, margin,
                        out);
  }
  return EdgeContacts(b1, b2, pos21, rot, axis, margin, out);
}

}  // namespace gauss::primitive
