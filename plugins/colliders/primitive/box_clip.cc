// Box-box contacts by face clipping: what MuJoCo 3.12 computes for a box pair (the `boxclip`
// flag, on for files written for MuJoCo 3.x; docs/mjcf.md, "Box-box contacts"). Measured against
// MuJoCo 3.12.1 on thousands of random poses (tests/reference/box_clip_reference_test.cc), not
// derived from its source.
//
// Separating axes: the 3 face normals of each box and the 9 cross products of their edges. An
// axis along which the boxes are more than `margin` apart ends the test (no contact). Otherwise
// the face axis of least overlap is kept unless an edge axis overlaps less and either by more
// than 5% (of the face overlap's magnitude) or along a direction more than ~8 degrees (cosine
// 0.99) away from that face normal: near-ties go to the face, which gives a patch of contacts
// instead of a single point.
//
// Face axis: the box owning it is the reference, its face towards the other box the contact
// plane. The other box's face most opposed to it (the incident face) is clipped by the four side
// planes of the reference face (Sutherland-Hodgman); each vertex of the clipped polygon at most
// `margin` above the plane is a contact: dist is its height over the plane, the position midway
// between it and the plane. Two boxes resting face on face get the corners of the overlap of
// their faces, all with the same depth.
//
// Edge axis: one contact between the two edges realising the axis (the edge of each box
// farthest along the normal towards the other box), midway between the closest points of their
// lines, with dist = minus the overlap.
//
// The normal points from box 1 to box 2. Order of the contacts: the clipped polygon's, starting
// from the incident face's corner (+,+) in the face's cyclic axis order.
#include <cmath>

#include "gauss/math.h"
#include "primitive.h"

namespace gauss::primitive {

using namespace math;

namespace {

// The edge axis wins a near-tie with the face axis only if its overlap is smaller by more than
// this fraction of the face overlap's magnitude, or if its direction is farther from the face
// normal than the cosine below (both values measured against MuJoCo 3.12.1: docs/mjcf.md).
constexpr double kEdgeMargin = 0.05;
constexpr double kEdgeFaceCosine = 0.99;
// Cross products of edge directions shorter than this are parallel edges: no axis.
constexpr double kParallelEdges = 1e-6;
// A quadrilateral clipped by four planes has at most 8 vertices.
constexpr int kMaxPolygon = 8;

// A box in world coordinates: centre, axes (unit columns of its orientation) and half sizes.
struct Box {
  const double* centre;
  double axis[3][3];
  const double* half;

  explicit Box(const Geom& g) : centre(g.pos), half(g.size) {
    for (int k = 0; k < 3; ++k) {
      for (int c = 0; c < 3; ++c) axis[k][c] = g.mat[3 * c + k];
    }
  }
  // half extent of the box along the unit direction n
  double Extent(const double* n) const {
    return half[0] * std::fabs(Dot3(axis[0], n)) + half[1] * std::fabs(Dot3(axis[1], n)) +
           half[2] * std::fabs(Dot3(axis[2], n));
  }
};

// The separating axis of least overlap found so far.
struct Axis {
  double overlap = 0;
  double normal[3] = {0, 0, 0};  // unit, pointing from box 1 to box 2
  int box = -1;                  // face axis: 0 or 1 (the reference box); -1 for an edge axis
  int index = -1;                // face axis: axis of the reference box; edge axis: 3 i + j
  bool found = false;
};

// (boxes, centre offset d = c2 - c1, unit direction n) => overlap along n, and n turned to
// point from box 1 to box 2
double Overlap(const Box& b1, const Box& b2, const double* d, double* n) {
  const double along = Dot3(d, n);
  if (along < 0) Scale3(n, n, -1);
  return b1.Extent(n) + b2.Extent(n) - std::fabs(along);
}

// (boxes, their geoms, d) => the face axis and the edge axis of least overlap; false if an axis
// separates the boxes by more than `margin`. The face overlaps are summed in each box's own
// frame, box 1's axis i before box 2's axis i: the order and round-off that decide exact ties
// (boxes resting face on face) as MuJoCo 3.12 decides them.
bool FindAxes(const Box& b1, const Box& b2, const Geom& g1, const Geom& g2, const double* d,
              double margin, Axis* face, Axis* edge) {
  double pos21[3], pos12[3], minus_d[3], rot[9];
  MulMatTVec3(pos21, g1.mat, d);  // centre of box 2 in box 1's frame
  Scale3(minus_d, d, -1);
  MulMatTVec3(pos12, g2.mat, minus_d);
  MulMatTMat3(rot, g1.mat, g2.mat);
  for (int i = 0; i < 3; ++i) {
    // extents of box 2 along box 1's axis i and of box 1 along box 2's axis i
    const double extent2 = std::fabs(rot[3 * i]) * b2.half[0] +
                           std::fabs(rot[3 * i + 1]) * b2.half[1] +
                           std::fabs(rot[3 * i + 2]) * b2.half[2];
    const double extent1 = std::fabs(rot[i]) * b1.half[0] + std::fabs(rot[3 + i]) * b1.half[1] +
                           std::fabs(rot[6 + i]) * b1.half[2];
    const double overlap[2] = {-std::fabs(pos21[i]) + b1.half[i] + extent2,
                               -std::fabs(pos12[i]) + b2.half[i] + extent1};
    if (overlap[0] < -margin || overlap[1] < -margin) return false;
    for (int b = 0; b < 2; ++b) {
      if (face->found && overlap[b] >= face->overlap) continue;
      const Box& owner = b == 0 ? b1 : b2;
      face->overlap = overlap[b];
      Scale3(face->normal, owner.axis[i], Dot3(d, owner.axis[i]) < 0 ? -1 : 1);
      face->box = b;
      face->index = i;
      face->found = true;
    }
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      double n[3];
      Cross3(n, b1.axis[i], b2.axis[j]);
      const double length = Norm3(n);
      if (length < kParallelEdges) continue;
      Scale3(n, n, 1 / length);
      const double overlap = Overlap(b1, b2, d, n);
      if (overlap < -margin) return false;
      if (!edge->found || overlap < edge->overlap) {
        edge->overlap = overlap;
        Copy3(edge->normal, n);
        edge->index = 3 * i + j;
        edge->found = true;
      }
    }
  }
  return true;
}

// (box, direction n, edge axis k) => centre of the box's edge along axis k farthest along n
void EdgeCentre(const Box& b, const double* n, int k, double* out) {
  Copy3(out, b.centre);
  for (int c = 0; c < 3; ++c) {
    if (c != k) AddScaled3(out, b.axis[c], Dot3(b.axis[c], n) > 0 ? b.half[c] : -b.half[c]);
  }
}

// (boxes, edge axis) => out[0]: the contact between the two edges realising the axis
int EdgeContact(const Box& b1, const Box& b2, const Axis& axis, Contact* out) {
  const int i = axis.index / 3, j = axis.index % 3;
  double c1[3], c2[3], towards1[3], w[3];
  EdgeCentre(b1, axis.normal, i, c1);
  Scale3(towards1, axis.normal, -1);
  EdgeCentre(b2, towards1, j, c2);
  // closest points c1 + t1 e1, c2 + t2 e2 of the two lines (unit directions e1, e2)
  const double* e1 = b1.axis[i];
  const double* e2 = b2.axis[j];
  Sub3(w, c1, c2);
  const double b = Dot3(e1, e2), p = Dot3(e1, w), q = Dot3(e2, w);
  const double det = Dot3(e1, e1) * Dot3(e2, e2) - b * b;  // > 0: the edges are not parallel
  const double t1 = (b * q - Dot3(e2, e2) * p) / det;
  const double t2 = (Dot3(e1, e1) * q - b * p) / det;
  AddScaled3(c1, e1, t1);
  AddScaled3(c2, e2, t2);
  Contact& c = out[0];
  c = Contact{};
  c.dist = -axis.overlap;
  for (int k = 0; k < 3; ++k) c.pos[k] = 0.5 * (c1[k] + c2[k]);
  Copy3(c.frame, axis.normal);
  return 1;
}

// (polygon[0..n) in reference-box coordinates) => the part with sign * p[k] <= bound, in order
int ClipPolygon(const double (*in)[3], int n, int k, double sign, double bound,
                double (*out)[3]) {
  int m = 0;
  for (int a = 0; a < n; ++a) {
    const double* p = in[a];
    const double* q = in[(a + 1) % n];
    const double sp = sign * p[k], sq = sign * q[k];
    const bool p_in = sp <= bound, q_in = sq <= bound;
    if (p_in) Copy3(out[m++], p);
    if (p_in != q_in) {
      const double t = (bound - sp) / (sq - sp);
      for (int c = 0; c < 3; ++c) out[m][c] = p[c] + t * (q[c] - p[c]);
      ++m;
    }
  }
  return m;
}

// (boxes, face axis) => out[0..n): the clipped incident face's vertices below the margin
int FaceContacts(const Box& b1, const Box& b2, const Axis& axis, double margin, Contact* out) {
  const Box& ref = axis.box == 0 ? b1 : b2;
  const Box& inc = axis.box == 0 ? b2 : b1;
  double outward[3];  // normal of the contact face of `ref`, towards `inc`
  Scale3(outward, axis.normal, axis.box == 0 ? 1 : -1);

  // incident face: the face of `inc` whose normal is most opposed to `outward`
  int k = 0;
  double best = -1, along_k = 0;
  for (int c = 0; c < 3; ++c) {
    const double along = Dot3(inc.axis[c], outward);
    if (std::fabs(along) > best) {
      best = std::fabs(along);
      along_k = along;
      k = c;
    }
  }
  double face_centre[3];
  Copy3(face_centre, inc.centre);
  AddScaled3(face_centre, inc.axis[k], along_k > 0 ? -inc.half[k] : inc.half[k]);

  // its corners, in reference-box coordinates, cyclic in the face's axes (k+1, k+2)
  const int u = (k + 1) % 3, v = (k + 2) % 3;
  static const double kCorner[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
  double poly[2][2 * kMaxPolygon][3];
  int n = 4;
  for (int a = 0; a < 4; ++a) {
    double corner[3], rel[3];
    Copy3(corner, face_centre);
    AddScaled3(corner, inc.axis[u], kCorner[a][0] * inc.half[u]);
    AddScaled3(corner, inc.axis[v], kCorner[a][1] * inc.half[v]);
    Sub3(rel, corner, ref.centre);
    for (int c = 0; c < 3; ++c) poly[0][a][c] = Dot3(ref.axis[c], rel);
  }

  // clip by the side planes of the reference face: axes (index+1, index+2), + side then - side
  const int z = axis.index;
  int cur = 0;
  for (int s = 0; s < 4 && n > 0; ++s) {
    const int side = (z + 1 + s / 2) % 3;
    const double sign = s % 2 == 0 ? 1 : -1;
    n = ClipPolygon(poly[cur], n, side, sign, ref.half[side], poly[1 - cur]);
    cur = 1 - cur;
  }

  const double up = Dot3(ref.axis[z], outward) > 0 ? 1 : -1;  // side of the contact face
  int count = 0;
  for (int a = 0; a < n; ++a) {
    const double* p = poly[cur][a];
    const double dist = up * p[z] - ref.half[z];
    if (dist > margin) continue;
    Contact& c = out[count++];
    c = Contact{};
    c.dist = dist;
    Copy3(c.pos, ref.centre);
    for (int r = 0; r < 3; ++r) AddScaled3(c.pos, ref.axis[r], p[r]);
    AddScaled3(c.pos, outward, -0.5 * dist);
    Copy3(c.frame, axis.normal);
  }
  return count;
}

}  // namespace

int BoxBoxClip(const Geom& g1, const Geom& g2, double margin, Contact* out) {
  const Box b1(g1), b2(g2);
  double d[3];
  Sub3(d, b2.centre, b1.centre);
  Axis face, edge;
  if (!FindAxes(b1, b2, g1, g2, d, margin, &face, &edge)) return 0;
  if (edge.found && edge.overlap < face.overlap &&
      (edge.overlap < face.overlap - kEdgeMargin * std::fabs(face.overlap) ||
       std::fabs(Dot3(edge.normal, face.normal)) < kEdgeFaceCosine)) {
    return EdgeContact(b1, b2, edge, out);
  }
  return FaceContacts(b1, b2, face, margin, out);
}

}  // namespace gauss::primitive
