// Broad phase of collision detection: which geom pairs of the dynamic (body-pair) mechanism
// reach the narrow phase. Sweep-and-prune over world bounding boxes aligned with the principal
// axes of the geom centres (spec "Generation"), then the filters and the bounding-sphere test
// (spec "Filtering"). The result is exactly the set a test of every geom pair would find, in the
// order MuJoCo 2.2.2 visits it (body pair, then geom), so contacts come out in MuJoCo's order.
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "collision.h"
#include "gauss/math.h"

namespace gauss {

using namespace math;

bool UnsupportedTypePair(GeomType t1, GeomType t2) {
  const bool flat1 = t1 == GeomType::kPlane || t1 == GeomType::kHfield;
  const bool flat2 = t2 == GeomType::kPlane || t2 == GeomType::kHfield;
  return flat1 && flat2;
}

// model => whether g1 and g2 may collide as a dynamic pair
bool DynamicPairAllowed(const Model& m, int g1, int g2) {
  const int b1 = m.geom_bodyid[g1], b2 = m.geom_bodyid[g2];

  // bodies without joints between them move as one: never collide with themselves
  const int weld1 = m.body_weldid[b1], weld2 = m.body_weldid[b2];
  if (weld1 == weld2) return false;

  // a joint connects parent and child: their geoms overlap by design (the world excepted)
  if (!m.opt.Disabled(kDisableFilterparent) && weld1 != 0 && weld2 != 0) {
    const int parent1 = m.body_weldid[m.body_parentid[weld1]];
    const int parent2 = m.body_weldid[m.body_parentid[weld2]];
    if (weld1 == parent2 || weld2 == parent1) return false;
  }

  // contype of one must share a bit with conaffinity of the other
  if (!(m.geom_contype[g1] & m.geom_conaffinity[g2]) &&
      !(m.geom_contype[g2] & m.geom_conaffinity[g1])) {
    return false;
  }

  // user-excluded body pairs (stored with body1 < body2)
  const int lo = std::min(b1, b2), hi = std::max(b1, b2);
  for (int k = 0; k < m.nexclude; ++k) {
    if (m.exclude_body1[k] == lo && m.exclude_body2[k] == hi) return false;
  }
  return true;
}

PairMargin PairMargins(const Model& m, int g1, int g2, int ipair) {
  PairMargin p;
  if (ipair >= 0) {
    p.margin = m.pair_margin[ipair];
    p.gap = m.pair_gap[ipair];
  } else if (m.opt.Enabled(kEnableMarginSum)) {
    p.margin = m.geom_margin[g1] + m.geom_margin[g2];
    p.gap = m.geom_gap[g1] + m.geom_gap[g2];
  } else {
    p.margin = std::max(m.geom_margin[g1], m.geom_margin[g2]);
    p.gap = std::max(m.geom_gap[g1], m.geom_gap[g2]);
  }
  if (m.opt.Enabled(kEnableOverride)) p.margin = m.opt.o_margin;
  return p;
}

double DynamicMargin(const Model& m, int g1, int g2) {
  return PairMargins(m, g1, g2, -1).Detection(m);
}

// Signed distance of geom g's centre above plane geom p (along the plane's z axis).
static double HeightAbovePlane(const Data& d, int p, int g) {
  const double* mat = d.geom_xmat.data() + 9 * p;
  const double normal[3] = {mat[2], mat[5], mat[8]};
  double dif[3];
  Sub3(dif, d.geom_xpos.data() + 3 * g, d.geom_xpos.data() + 3 * p);
  return Dot3(dif, normal);
}

// (geom_xpos, geom_xmat) => false when the pair is certainly farther apart than margin
bool BoundingSpheresOverlap(const Model& m, const Data& d, int g1, int g2, double margin) {
  const double r1 = m.geom_rbound[g1], r2 = m.geom_rbound[g2];
  if (r1 > 0 && r2 > 0) {
    double dif[3];
    Sub3(dif, d.geom_xpos.data() + 3 * g1, d.geom_xpos.data() + 3 * g2);
    const double bound = r1 + r2 + margin;
    return Dot3(dif, dif) <= bound * bound;
  }
  // a plane is one-sided: geoms below it always pass
  if (m.geom_type[g1] == GeomType::kPlane && r2 > 0 && HeightAbovePlane(d, g1, g2) > margin + r2) {
    return false;
  }
  if (m.geom_type[g2] == GeomType::kPlane && r1 > 0 && HeightAbovePlane(d, g2, g1) > margin + r1) {
    return false;
  }
  return true;
}

// Per geom: a box (7 doubles with its geom id) and one int of the unbounded list; per body
// two ints (the pair sort's buckets).
std::size_t BroadPhaseScratch(const Model& m) {
  return 8 * static_cast<std::size_t>(std::max(m.ngeom, 0)) +
         ArenaDoubles<int>(2 * static_cast<std::size_t>(std::max(m.nbody, 0)) + 2) + 16;
}

namespace {

// World box of one geom in the principal frame, with the geom's id.
struct SweepBox {
  double lo[3];
  double hi[3];
  int geom;
};
static_assert(sizeof(SweepBox) <= 7 * sizeof(double), "BroadPhaseScratch assumes 7 doubles");

// Appends (g1, g2) ordered by body id; false when the output is full.
bool Push(const Model& m, int g1, int g2, GeomPair* pairs, int max_pairs, int& n) {
  if (n >= max_pairs) return false;
  if (m.geom_bodyid[g1] > m.geom_bodyid[g2]) std::swap(g1, g2);
  pairs[n++] = {g1, g2};
  return true;
}

// The unit axes (rows of `axes`) of the covariance of the centres of the boxes' geoms, largest
// spread first; the world axes when fewer than two geoms.
void PrincipalAxes(const Data& d, const SweepBox* boxes, int n, double axes[9]) {
  Eigen::Matrix3d frame = Eigen::Matrix3d::Identity();
  if (n >= 2) {
    Eigen::Vector3d mean = Eigen::Vector3d::Zero();
    for (int k = 0; k < n; ++k)
      mean += Eigen::Vector3d::Map(d.geom_xpos.data() + 3 * boxes[k].geom);
    mean /= n;
    // the six distinct sums in registers: Eigen's `cov += dif * dif.transpose()` built each
    // outer product in a stack temporary and reloaded it with wider loads than its stores,
    // which the CPU cannot forward (a stall per geom). Each entry is the same sum of the same
    // products in the same order, so cov is the same bits.
    double c00 = 0, c10 = 0, c20 = 0, c11 = 0, c21 = 0, c22 = 0;
    for (int k = 0; k < n; ++k) {
      const double* pos = d.geom_xpos.data() + 3 * boxes[k].geom;
      const double d0 = pos[0] - mean[0], d1 = pos[1] - mean[1], d2 = pos[2] - mean[2];
      c00 += d0 * d0;
      c10 += d1 * d0;
      c20 += d2 * d0;
      c11 += d1 * d1;
      c21 += d2 * d1;
      c22 += d2 * d2;
    }
    Eigen::Matrix3d cov;
    cov << c00, c10, c20, c10, c11, c21, c20, c21, c22;
    // eigenvalues come in increasing order: reverse to put the principal direction first
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver;
    solver.computeDirect(cov);
    if (solver.info() == Eigen::Success && solver.eigenvectors().allFinite()) {
      for (int c = 0; c < 3; ++c) frame.row(c) = solver.eigenvectors().col(2 - c).transpose();
    }
  }
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) axes[3 * r + c] = frame(r, c);
  }
}

// MuJoCo's visiting order: body pair (lower, higher), then geom ids.
bool MujocoOrder(const Model& m, const GeomPair& a, const GeomPair& b) {
  const int a1 = m.geom_bodyid[a.g1], b1 = m.geom_bodyid[b.g1];
  if (a1 != b1) return a1 < b1;
  const int a2 = m.geom_bodyid[a.g2], b2 = m.geom_bodyid[b.g2];
  if (a2 != b2) return a2 < b2;
  if (a.g1 != b.g1) return a.g1 < b.g1;
  return a.g2 < b.g2;
}

// keys[0..n) => increasing, where every key's top 16 bits (its first body) are below nbody;
// `bucket` (2 nbody + 2 ints) is scratch. A counting sort on the first body moves each key
// into its body's range in place (each key moves at most once), then each range, a few keys,
// is sorted on its own: fewer comparisons and mispredicted branches than a comparison sort
// of the whole array. Keys are distinct, so the order is unique: std::sort's.
void SortKeysByFirstBody(std::uint64_t* keys, int n, int nbody, int* bucket) {
  int* next = bucket;             // where the next key of body b goes
  int* end = bucket + nbody + 1;  // end of body b's range
  std::fill(next, next + nbody + 1, 0);
  for (int k = 0; k < n; ++k) ++next[keys[k] >> 48];
  int start = 0;
  for (int b = 0; b < nbody; ++b) {
    const int count = next[b];
    next[b] = start;
    start += count;
    end[b] = start;
  }
  for (int b = 0; b < nbody; ++b) {
    while (next[b] < end[b]) {
      std::uint64_t key = keys[next[b]];
      int home = static_cast<int>(key >> 48);
      // carry the key to its range, taking the key found there, until one belongs here
      while (home != b) {
        std::swap(key, keys[next[home]++]);
        home = static_cast<int>(key >> 48);
      }
      keys[next[b]++] = key;
    }
  }
  for (int b = 0, first = 0; b < nbody; first = end[b], ++b) {
    std::uint64_t* range = keys + first;
    const int count = end[b] - first;
    if (count > 16) {
      std::sort(range, range + count);
      continue;
    }
    for (int i = 1; i < count; ++i) {  // insertion sort
      const std::uint64_t key = range[i];
      int j = i;
      for (; j > 0 && range[j - 1] > key; --j) range[j] = range[j - 1];
      range[j] = key;
    }
  }
}

// pairs[0..n) => the same pairs in MujocoOrder. When body and geom ids fit in 16 bits, each
// pair becomes one integer (body1, body2, geom1, geom2 from the high bits down) in its own
// slot, so the sort compares integers instead of chasing geom_bodyid four times per
// comparison; the integer order is MujocoOrder's, so the result is the same. `bucket`: 2 nbody
// + 2 ints of scratch.
void SortMujocoOrder(const Model& m, GeomPair* pairs, int n, int* bucket) {
  static_assert(sizeof(GeomPair) == sizeof(std::uint64_t), "a key fills a pair's slot");
  if (m.nbody > 0xffff || m.ngeom > 0xffff) {
    std::sort(pairs, pairs + n,
              [&m](const GeomPair& a, const GeomPair& b) { return MujocoOrder(m, a, b); });
    return;
  }
  // the slots are rewritten through memcpy, which ends their life as GeomPair for the
  // compiler's aliasing rules, and read back the same way after the sort
  for (int k = 0; k < n; ++k) {
    const std::uint64_t key = static_cast<std::uint64_t>(m.geom_bodyid[pairs[k].g1]) << 48 |
                              static_cast<std::uint64_t>(m.geom_bodyid[pairs[k].g2]) << 32 |
                              static_cast<std::uint64_t>(pairs[k].g1) << 16 |
                              static_cast<std::uint64_t>(pairs[k].g2);
    std::memcpy(pairs + k, &key, sizeof key);
  }
  std::uint64_t* keys = reinterpret_cast<std::uint64_t*>(pairs);
  SortKeysByFirstBody(keys, n, m.nbody, bucket);
  for (int k = 0; k < n; ++k) {
    std::uint64_t key;
    std::memcpy(&key, pairs + k, sizeof key);
    const GeomPair pair{static_cast<int>(key >> 16 & 0xffff), static_cast<int>(key & 0xffff)};
    std::memcpy(pairs + k, &pair, sizeof pair);
  }
}

}  // namespace

// (geom_xpos, geom_xmat) => pairs[0..n): see collision.h
int BroadPhase(const Model& m, Data& d, GeomPair* pairs, int max_pairs) {
  ArenaScope scope(d.arena);
  const int ngeom = m.ngeom;
  int n = 0;
  if (ngeom < 2) return 0;

  // 1. split the geoms that can take part in dynamic pairs: bounded ones go through the sweep,
  //    unbounded ones (planes; anything without a bounding radius) are tested against all
  SweepBox* boxes =
      reinterpret_cast<SweepBox*>(d.arena.Doubles(7 * static_cast<std::size_t>(ngeom)));
  int* unbounded = d.arena.Ints(ngeom);
  int* bucket = d.arena.Ints(2 * static_cast<std::size_t>(m.nbody) + 2);
  int nbounded = 0, nunbounded = 0;
  for (int g = 0; g < ngeom; ++g) {
    if (!m.geom_contype[g] && !m.geom_conaffinity[g]) continue;  // fails every contype test
    if (m.geom_rbound[g] > 0) {
      boxes[nbounded++].geom = g;
    } else {
      unbounded[nunbounded++] = g;
    }
  }

  // 2. boxes in the principal frame: centre projections +- (bounding radius + margin). The
  //    margin used by the sphere test is at most the larger geom margin (or o_margin), so boxes
  //    grown by each geom's own margin never separate a pair that the sphere test would keep;
  //    the tiny relative slack keeps round-off from doing so either.
  double axes[9];
  PrincipalAxes(d, boxes, nbounded, axes);
  const bool override_margin = m.opt.Enabled(kEnableOverride);
  for (int k = 0; k < nbounded; ++k) {
    SweepBox& box = boxes[k];
    const int g = box.geom;
    // under kEnableMarginSum a pair detects up to the sum of both geoms' margin + gap
    const double own = m.opt.Enabled(kEnableMarginSum) ? m.geom_margin[g] + m.geom_gap[g]
                                                       : m.geom_margin[g];
    const double margin = std::max(0.0, override_margin ? m.opt.o_margin : own);
    const double radius = (m.geom_rbound[g] + margin) * (1 + 1e-12) + 1e-12;
    for (int a = 0; a < 3; ++a) {
      const double centre = Dot3(axes + 3 * a, d.geom_xpos.data() + 3 * g);
      box.lo[a] = centre - radius;
      box.hi[a] = centre + radius;
    }
  }

  // 3. sort along the principal axis and sweep: only boxes whose intervals overlap there are
  //    compared, then pruned by the two other axes, the filters and the bounding spheres
  std::sort(boxes, boxes + nbounded, [](const SweepBox& a, const SweepBox& b) {
    return a.lo[0] < b.lo[0] || (a.lo[0] == b.lo[0] && a.geom < b.geom);
  });
  for (int i = 0; i < nbounded; ++i) {
    const SweepBox& b1 = boxes[i];
    for (int j = i + 1; j < nbounded; ++j) {
      const SweepBox& b2 = boxes[j];
      if (b2.lo[0] > b1.hi[0]) break;  // sorted by lower bound: no later box overlaps b1 either
      // one branch for the four comparisons: most pairs fail here, unpredictably
      if ((b2.lo[1] > b1.hi[1]) | (b1.lo[1] > b2.hi[1]) | (b2.lo[2] > b1.hi[2]) |
          (b1.lo[2] > b2.hi[2])) {
        continue;
      }
      const int g1 = b1.geom, g2 = b2.geom;
      if (!DynamicPairAllowed(m, g1, g2)) continue;
      if (!BoundingSpheresOverlap(m, d, g1, g2, DynamicMargin(m, g1, g2))) continue;
      if (!Push(m, g1, g2, pairs, max_pairs, n)) return -1;
    }
  }

  // 4. unbounded geoms against every participating geom (each unbounded pair once)
  for (int i = 0; i < nunbounded; ++i) {
    const int g1 = unbounded[i];
    for (int j = 0; j < nbounded + nunbounded; ++j) {
      const int g2 = j < nbounded ? boxes[j].geom : unbounded[j - nbounded];
      if (j >= nbounded && j - nbounded <= i) continue;
      if (!DynamicPairAllowed(m, g1, g2)) continue;
      if (!BoundingSpheresOverlap(m, d, g1, g2, DynamicMargin(m, g1, g2))) continue;
      if (!Push(m, g1, g2, pairs, max_pairs, n)) return -1;
    }
  }

  // 5. MuJoCo's visiting order
  SortMujocoOrder(m, pairs, n, bucket);
  return n;
}

}  // namespace gauss
