// Collision detection driver (spec "Collision detection"): walks the candidate geom pairs of
// the dynamic mechanism (collision_broadphase.cc) merged with the explicit <pair> list, calls
// the collider that the dispatch table assigns to each pair of geom types, and completes each
// contact: geoms, mixed parameters (priority, condim, friction, solref, solimp, margin, gap,
// 3.x adhesion), the override flag, and the tangent axes of the contact frame.
//
// Contact order, parameter mixing and frames follow MuJoCo 2.2.2's observable behaviour (see
// docs/collision.md for the measured rules), so that solvers that depend on contact order
// reproduce MuJoCo's results.
#include "collision.h"
#include "sleep.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/crash_report.h"
#include "gauss/math.h"
#include "pipeline.h"
#include "profile_timer.h"

namespace gauss {

using namespace math;

const char* GeomTypeName(GeomType type) {
  static const char* const kNames[kNumGeomTypes] = {"plane",    "hfield",   "sphere", "capsule",
                                                    "ellipsoid", "cylinder", "box",    "mesh"};
  const int t = static_cast<int>(type);
  return t >= 0 && t < kNumGeomTypes ? kNames[t] : "unknown";
}

int NarrowPhase(const Model& m, Data& d, const CollisionTable& table, int g1, int g2,
                double margin, Contact* out) {
  const int t1 = static_cast<int>(m.geom_type[g1]), t2 = static_cast<int>(m.geom_type[g2]);
  const Collider* collider = table.pair[t1][t2];
  if (!collider) return 0;
  const PluginCallScope mark("collider", nullptr, "collision detection (narrow phase)");
  const ScopedTimer timer(PluginStat(d, table.profile_slot[t1][t2]));
  return std::min(collider->Collide(m, d, g1, g2, margin, out, kMaxContactsPerPair),
                  kMaxContactsPerPair);
}

namespace {

// Contact parameters of one geom pair, before the override flag.
struct PairParams {
  int condim;
  double friction[5];
  double solref[kNRef];
  double solimp[kNImp];
  double solreffriction[kNRef];  // 3.x, explicit pairs only; (0, 0): as solref
  double adhesion;               // 3.x
};

// model => parameters of dynamic pair (g1, g2): the higher-priority geom's values; at equal
// priority condim and friction by maximum, solref and solimp mixed with solmix weights (solref
// by element-wise minimum when either uses the direct, non-positive form), adhesion summed;
// margin and gap: PairMargins.
void MixGeomParams(const Model& m, int g1, int g2, PairParams& p) {
  p.solreffriction[0] = p.solreffriction[1] = 0;
  // 3.x adhesion: the higher-priority geom's, at equal priority the sum (measured, 3.12.1)
  const bool adhesive = !m.geom_adhesion.empty();
  p.adhesion = adhesive ? m.geom_adhesion[g1] + m.geom_adhesion[g2] : 0;
  double friction3[3];
  if (m.geom_priority[g1] != m.geom_priority[g2]) {
    const int g = m.geom_priority[g1] > m.geom_priority[g2] ? g1 : g2;
    p.adhesion = adhesive ? m.geom_adhesion[g] : 0;
    p.condim = m.geom_condim[g];
    for (int i = 0; i < 3; ++i) friction3[i] = m.geom_friction[3 * g + i];
    for (int i = 0; i < kNRef; ++i) p.solref[i] = m.geom_solref[kNRef * g + i];
    for (int i = 0; i < kNImp; ++i) p.solimp[i] = m.geom_solimp[kNImp * g + i];
  } else {
    p.condim = std::max(m.geom_condim[g1], m.geom_condim[g2]);
    for (int i = 0; i < 3; ++i) {
      friction3[i] = std::max(m.geom_friction[3 * g1 + i], m.geom_friction[3 * g2 + i]);
    }
    // weight of geom 1; a zero solmix defers to the other geom, two zeros weigh equally
    const double s1 = m.geom_solmix[g1], s2 = m.geom_solmix[g2];
    double mix;
    if (s1 >= kMinVal && s2 >= kMinVal) {
      mix = s1 / (s1 + s2);
    } else if (s1 < kMinVal && s2 < kMinVal) {
      mix = 0.5;
    } else {
      mix = s1 < kMinVal ? 0.0 : 1.0;
    }
    const double* ref1 = m.geom_solref.data() + kNRef * g1;
    const double* ref2 = m.geom_solref.data() + kNRef * g2;
    for (int i = 0; i < kNRef; ++i) {
      // (timeconst, dampratio) mix linearly; the direct (-stiffness, -damping) form does not
      p.solref[i] = ref1[0] > 0 && ref2[0] > 0 ? mix * ref1[i] + (1 - mix) * ref2[i]
                                               : std::min(ref1[i], ref2[i]);
    }
    for (int i = 0; i < kNImp; ++i) {
      p.solimp[i] = mix * m.geom_solimp[kNImp * g1 + i] + (1 - mix) * m.geom_solimp[kNImp * g2 + i];
    }
  }
  // (sliding, torsional, rolling) -> (slide, slide, spin, roll, roll)
  p.friction[0] = p.friction[1] = friction3[0];
  p.friction[2] = friction3[1];
  p.friction[3] = p.friction[4] = friction3[2];
}

// model => parameters of explicit pair ipair, taken as given
void ExplicitPairParams(const Model& m, int ipair, PairParams& p) {
  p.condim = m.pair_condim[ipair];
  for (int i = 0; i < 5; ++i) p.friction[i] = m.pair_friction[5 * ipair + i];
  for (int i = 0; i < kNRef; ++i) p.solref[i] = m.pair_solref[kNRef * ipair + i];
  for (int i = 0; i < kNImp; ++i) p.solimp[i] = m.pair_solimp[kNImp * ipair + i];
  const bool has_friction_ref = !m.pair_solreffriction.empty();  // hand-built models: none
  for (int i = 0; i < kNRef; ++i) {
    p.solreffriction[i] = has_friction_ref ? m.pair_solreffriction[kNRef * ipair + i] : 0;
  }
  p.adhesion = m.pair_adhesion.empty() ? 0 : m.pair_adhesion[ipair];
}

// frame rows 1-2 => orthonormal tangents: the collider's hint for the first tangent (row 1)
// when it gave one, otherwise world y, or world z when the normal is close to y; the first
// tangent is the hint made orthogonal to the normal, the second is normal x first tangent.
// Pyramidal friction cones are built on these axes, so they must be MuJoCo's.
void CompleteFrame(double* frame) {
  Normalize3(frame);
  double* t1 = frame + 3;
  if (Norm3(t1) < 0.5) {
    t1[0] = 0;
    t1[1] = std::fabs(frame[1]) < 0.5 ? 1 : 0;
    t1[2] = std::fabs(frame[1]) < 0.5 ? 0 : 1;
  }
  AddScaled3(t1, frame, -Dot3(frame, t1));
  Normalize3(t1);
  Cross3(frame + 6, frame, t1);
}

// The one warning per geom pair whose contacts did not fit, as MuJoCo counts it.
void RaiseContactFull(Data& d) {
  const int w = static_cast<int>(Warning::kContactFull);
  ++d.warning_count[w];
  d.warning_index[w] = d.ncon;
}

// (geom_xpos, geom_xmat) => contacts of one geom pair appended to d.contact.
// ipair >= 0: explicit pair ipair (g1, g2 ignored); otherwise the dynamic pair (g1, g2), which
// has passed the filters and the bounding-sphere test already.
void CollidePair(const Model& m, Data& d, const CollisionTable& table, int g1, int g2, int ipair) {
  if (ipair >= 0) {
    g1 = m.pair_geom1[ipair];
    g2 = m.pair_geom2[ipair];
  }
  // the collider sees the geom of smaller type first; the normal points from it to the other
  if (m.geom_type[g1] > m.geom_type[g2]) std::swap(g1, g2);
  // sleeping: nothing moves between two geoms that are asleep or static (sleep.h)
  const bool sleep = SleepEnabled(m);
  if (sleep && !PairMayCollide(m, d, g1, g2)) return;
  const int t1 = static_cast<int>(m.geom_type[g1]), t2 = static_cast<int>(m.geom_type[g2]);
  // no collider: only type pairs that MuJoCo never collides (checked at creation)
  if (!table.pair[t1][t2]) return;

  const bool override_params = m.opt.Enabled(kEnableOverride);
  const PairMargin pair_margin = PairMargins(m, g1, g2, ipair);
  const double margin = pair_margin.Detection(m);
  if (ipair >= 0 && !BoundingSpheresOverlap(m, d, g1, g2, margin)) return;

  // narrow phase: straight into the contact buffer when a full batch fits, else through a
  // local buffer (raw storage: default-constructing 50 contacts per call would cost more than
  // the narrow phase of most pairs)
  alignas(Contact) unsigned char raw[sizeof(Contact) * kMaxContactsPerPair];
  const bool direct = m.nconmax - d.ncon >= kMaxContactsPerPair;
  Contact* out = d.contact.data() + d.ncon;
  if (!direct) {
    out = reinterpret_cast<Contact*>(raw);
    std::uninitialized_default_construct_n(out, kMaxContactsPerPair);
  }
  const int num = NarrowPhase(m, d, table, g1, g2, margin, out);
  if (num <= 0) return;
  if (sleep) WakeByContact(m, d, g1, g2);

  PairParams p;
  if (ipair >= 0) {
    ExplicitPairParams(m, ipair, p);
  } else {
    MixGeomParams(m, g1, g2, p);
  }
  for (int i = 0; i < 5; ++i) p.friction[i] = std::max(kMinMu, p.friction[i]);
  const double* solref = override_params ? m.opt.o_solref.data() : p.solref;
  const double* solimp = override_params ? m.opt.o_solimp.data() : p.solimp;
  for (int k = 0; k < num; ++k) {
    if (d.ncon >= m.nconmax) {
      RaiseContactFull(d);
      return;
    }
    Contact& c = d.contact[d.ncon];
    if (!direct) c = out[k];
    c.geom1 = g1;
    c.geom2 = g2;
    c.dim = p.condim;
    c.includemargin = pair_margin.Include(m);
    c.exclude = c.dist < c.includemargin ? 0 : 1;  // in the gap: reported, but exerts no force
    c.adhesion = p.adhesion;
    if (c.exclude && c.adhesion > 0) {
      // 3.x: an adhesive contact pulls across the gap too, with one frictionless row
      c.exclude = 0;
      c.dim = 1;
    }
    for (int i = 0; i < 5; ++i) c.friction[i] = p.friction[i];
    for (int i = 0; i < kNRef; ++i) c.solref[i] = solref[i];
    for (int i = 0; i < kNImp; ++i) c.solimp[i] = solimp[i];
    for (int i = 0; i < kNRef; ++i) c.solreffriction[i] = p.solreffriction[i];
    c.efc_address = -1;
    CompleteFrame(c.frame);
    ++d.ncon;
  }
}

// Body-pair key of a geom pair, ordered like MuJoCo's pair signatures.
long long Signature(const Model& m, int g1, int g2) {
  const long long b1 = m.geom_bodyid[g1], b2 = m.geom_bodyid[g2];
  return std::min(b1, b2) * m.nbody + std::max(b1, b2);
}

// True when an explicit pair in [begin, end) joins g1 and g2 (in either order).
bool InExplicitPairs(const Model& m, int begin, int end, int g1, int g2) {
  for (int k = begin; k < end; ++k) {
    if ((m.pair_geom1[k] == g1 && m.pair_geom2[k] == g2) ||
        (m.pair_geom1[k] == g2 && m.pair_geom2[k] == g1)) {
      return true;
    }
  }
  return false;
}

// Merges the explicit pairs (sorted by body pair) into a stream of dynamic candidates that
// arrive in body-pair order, as MuJoCo does: explicit pairs come before the dynamic pairs of the
// same or later body pairs, and a dynamic pair that repeats an explicit one is skipped.
class PairMerger {
 public:
  PairMerger(const Model& m, Data& d, const CollisionTable& table)
      : m_(m), d_(d), table_(table), merge_(m.opt.collision == CollisionMode::kAll) {}

  void Dynamic(int g1, int g2) {
    const long long sig = Signature(m_, g1, g2);
    if (sig != last_sig_) {
      last_sig_ = sig;
      start_ = next_;
      while (merge_ && next_ < m_.npair &&
             Signature(m_, m_.pair_geom1[next_], m_.pair_geom2[next_]) <= sig) {
        CollidePair(m_, d_, table_, -1, -1, next_++);
      }
    }
    if (merge_ && InExplicitPairs(m_, start_, next_, g1, g2)) return;
    CollidePair(m_, d_, table_, g1, g2, -1);
  }

  void Finish() {
    while (merge_ && next_ < m_.npair) CollidePair(m_, d_, table_, -1, -1, next_++);
  }

 private:
  const Model& m_;
  Data& d_;
  const CollisionTable& table_;
  const bool merge_;
  long long last_sig_ = -1;
  int start_ = 0;  // first explicit pair merged at the current body pair
  int next_ = 0;   // next explicit pair not yet collided
};

// Collision without the sleeping rerun.
void CollideAll(const Model& m, Data& d, const CollisionTable& table) {
  d.ncon = 0;
  if (m.opt.Disabled(kDisableConstraint) || m.opt.Disabled(kDisableContact) || m.nconmax <= 0 ||
      m.nbody < 2) {
    return;
  }

  // explicit pairs only, in model order; exclusions and filters do not apply
  if (m.opt.collision == CollisionMode::kPair) {
    const ScopedTimer narrow(StageStat(d, Timer::kCollisionNarrow));
    for (int k = 0; k < m.npair; ++k) CollidePair(m, d, table, -1, -1, k);
    return;
  }

  // dynamic candidates, into whatever scratch remains after the broad phase's own needs
  ArenaScope scope(d.arena);
  PairMerger merger(m, d, table);
  const std::size_t free = d.arena.capacity() - d.arena.Mark();
  const std::size_t need = BroadPhaseScratch(m) + 8;
  int npairs = -1;
  GeomPair* pairs = nullptr;
  // at most every pair of geoms: more storage would never be used, and the arena's high-water
  // mark then shows what a step really needs
  const std::size_t ngeom = static_cast<std::size_t>(std::max(m.ngeom, 0));
  const std::size_t all_pairs = ngeom * (ngeom > 0 ? ngeom - 1 : 0) / 2 + 1;
  if (!table.dynamic_pairs) {
    npairs = 0;  // the contype/conaffinity filter would reject every candidate
  } else if (free > need) {
    const std::size_t cap = std::min<std::size_t>({free - need, all_pairs, 1u << 30});  // 1 double per pair
    pairs = reinterpret_cast<GeomPair*>(d.arena.Ints(2 * cap));
    const ScopedTimer broad(StageStat(d, Timer::kCollisionBroad));
    npairs = BroadPhase(m, d, pairs, static_cast<int>(cap));
  }
  // (the fallback tests the pairs as it goes: its time counts as narrow phase)
  const ScopedTimer narrow(StageStat(d, Timer::kCollisionNarrow));
  if (npairs >= 0) {
    for (int k = 0; k < npairs; ++k) merger.Dynamic(pairs[k].g1, pairs[k].g2);
  } else {
    // more candidates than scratch: the same pairs in the same order, without storage
    ForEachCandidateBruteForce(m, d, [&merger](int g1, int g2) {
      merger.Dynamic(g1, g2);
      return true;
    });
  }
  merger.Finish();
}

}  // namespace

// (geom_xpos, geom_xmat) => (contact[0..ncon), ncon, warning_count[kContactFull])
void Collision(const Model& m, Data& d, const CollisionTable& table) {
  const ScopedTimer timer(StageStat(d, Timer::kCollision));
  const int awake_before = d.ntree_awake;
  CollideAll(m, d, table);
  // an awake tree touched a sleeping one and woke it: again, for the contacts of the woken
  // trees among themselves and with static geoms, skipped the first time (spec: 唤醒)
  if (SleepEnabled(m) && d.ntree_awake != awake_before) CollideAll(m, d, table);
}

bool DynamicPairsPossible(const Model& m) {
  int contype = 0, conaffinity = 0;
  for (int g = 0; g < m.ngeom; ++g) {
    contype |= m.geom_contype[g];
    conaffinity |= m.geom_conaffinity[g];
  }
  return (contype & conaffinity) != 0;
}

void BuildCollisionTable(const std::vector<const Collider*>& colliders, CollisionTable& table,
                         int first_profile_slot) {
  table = CollisionTable();
  for (std::size_t k = 0; k < colliders.size(); ++k) {
    const Collider* collider = colliders[k];
    if (!collider) continue;
    for (auto [t1, t2] : collider->Pairs()) {
      int a = static_cast<int>(t1), b = static_cast<int>(t2);
      if (a < 0 || b < 0 || a >= kNumGeomTypes || b >= kNumGeomTypes) continue;
      if (a > b) std::swap(a, b);
      if (table.pair[a][b]) continue;
      table.pair[a][b] = collider;
      table.profile_slot[a][b] = first_profile_slot < 0 ? -1 : first_profile_slot + static_cast<int>(k);
    }
  }
}

// model => throws when a geom pair that can collide has no collider in `table`
void CheckCollisionCoverage(const Model& m, const CollisionTable& table,
                            const std::vector<std::string>& collider_names) {
  if (m.opt.Disabled(kDisableConstraint) || m.opt.Disabled(kDisableContact)) return;

  // first example geom pair of every uncovered type pair
  int example[kNumGeomTypes][kNumGeomTypes][2];
  bool missing[kNumGeomTypes][kNumGeomTypes] = {};
  // records (g1, g2) when its type pair is uncovered; the filters run only for such pairs,
  // which keeps the every-pair loop cheap on large models
  auto check = [&](int g1, int g2, bool dynamic) {
    int a = static_cast<int>(m.geom_type[g1]), b = static_cast<int>(m.geom_type[g2]);
    if (a > b) {
      std::swap(a, b);
      std::swap(g1, g2);
    }
    if (table.pair[a][b] || missing[a][b]) return;
    if (UnsupportedTypePair(m.geom_type[g1], m.geom_type[g2])) return;
    if (dynamic && !DynamicPairAllowed(m, g1, g2)) return;
    missing[a][b] = true;
    example[a][b][0] = g1;
    example[a][b][1] = g2;
  };
  if (m.opt.collision != CollisionMode::kPair) {
    // geoms by type, so that only the type pairs no collider covers are searched (every pair of
    // a large model would make loading quadratic); the search stops at the first example
    std::vector<std::vector<int>> of_type(kNumGeomTypes);
    for (int g = 0; g < m.ngeom; ++g) of_type[static_cast<int>(m.geom_type[g])].push_back(g);
    for (int a = 0; a < kNumGeomTypes; ++a) {
      for (int b = a; b < kNumGeomTypes; ++b) {
        if (table.pair[a][b] || of_type[a].empty() || of_type[b].empty()) continue;
        if (UnsupportedTypePair(static_cast<GeomType>(a), static_cast<GeomType>(b))) continue;
        for (std::size_t i = 0; i < of_type[a].size() && !missing[a][b]; ++i) {
          for (std::size_t j = a == b ? i + 1 : 0; j < of_type[b].size() && !missing[a][b]; ++j) {
            check(of_type[a][i], of_type[b][j], true);
          }
        }
      }
    }
  }
  if (m.opt.collision != CollisionMode::kDynamic) {
    for (int k = 0; k < m.npair; ++k) check(m.pair_geom1[k], m.pair_geom2[k], false);
  }

  std::string list;
  for (int a = 0; a < kNumGeomTypes; ++a) {
    for (int b = a; b < kNumGeomTypes; ++b) {
      if (!missing[a][b]) continue;
      auto name = [&m](int g) {
        return m.geom_name[g].empty() ? "#" + std::to_string(g) : "'" + m.geom_name[g] + "'";
      };
      list += std::string(list.empty() ? "" : ", ") + GeomTypeName(GeomType(a)) + "-" +
              GeomTypeName(GeomType(b)) +
              " (e.g. geoms " + name(example[a][b][0]) + " and " + name(example[a][b][1]) + ")";
    }
  }
  if (list.empty()) return;
  std::string loaded;
  for (const std::string& n : collider_names) loaded += (loaded.empty() ? "" : ", ") + n;
  throw Error("no collider handles the geom type pairs " + list + " of model '" + m.name +
              "'; colliders loaded: " + (loaded.empty() ? "none" : loaded) +
              " (add one that handles them to `colliders`, e.g. ccd)");
}

}  // namespace gauss
