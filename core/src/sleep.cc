// Sleeping islands: countdown, falling asleep, waking (sleep.h).
#include "sleep.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "gauss/math.h"
#include "pipeline.h"

namespace gauss {
namespace {

// True when any of n values has a bit set (so -0.0 counts, as the spec asks). The bits are
// or-ed without early exit: every sleeping tree is checked every step, mostly all zero.
bool AnyBitSet(const double* v, int n) {
  std::uint64_t any = 0;
  for (int i = 0; i < n; ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, v + i, sizeof(bits));
    any |= bits;
  }
  return any != 0;
}

// True when a and b (n values) differ in any bit.
bool BitsDiffer(const double* a, const double* b, int n) {
  std::uint64_t any = 0;
  for (int i = 0; i < n; ++i) {
    std::uint64_t x, y;
    std::memcpy(&x, a + i, sizeof(x));
    std::memcpy(&y, b + i, sizeof(y));
    any |= x ^ y;
  }
  return any != 0;
}

// Calls fn(tree) for each tree (>= 0) that the objects of tendon t move with.
template <class Fn>
void ForEachTendonTree(const Model& m, int t, Fn&& fn) {
  for (int w = m.tendon_adr[t]; w < m.tendon_adr[t] + m.tendon_num[t]; ++w) {
    const int obj = m.wrap_objid[w];
    int body = -1;
    if (m.wrap_type[w] == WrapType::kJoint) body = m.jnt_bodyid[obj];
    if (m.wrap_type[w] == WrapType::kSite) body = m.site_bodyid[obj];
    if (m.wrap_type[w] == WrapType::kSphere || m.wrap_type[w] == WrapType::kCylinder) {
      body = m.geom_bodyid[obj];
    }
    if (body >= 0) fn(m.body_treeid[body]);
  }
}

// Calls fn(tree) for the trees (>= 0 or -1 for static) that equality e couples.
template <class Fn>
void ForEachEqualityTree(const Model& m, int e, Fn&& fn) {
  const int ids[2] = {m.eq_obj1id[e], m.eq_obj2id[e]};
  for (int id : ids) {
    switch (m.eq_type[e]) {
      case EqType::kConnect:
      case EqType::kWeld: fn(id >= 0 ? m.body_treeid[id] : -1); break;
      case EqType::kJoint:
        if (id >= 0) fn(m.body_treeid[m.jnt_bodyid[id]]);
        break;
      case EqType::kDistance:
        if (id >= 0) fn(m.body_treeid[m.geom_bodyid[id]]);
        break;
      case EqType::kTendon:
        if (id >= 0) ForEachTendonTree(m, id, fn);
        break;
    }
  }
}

// [begin, end) of tree t's qpos: its joints are contiguous, as its bodies and dofs are, so the
// range runs from the first dof's joint to the last dof's joint.
void TreeQposRange(const Model& m, int t, int* begin, int* end) {
  const int first = m.dof_jntid[m.tree_dofadr[t]];
  const int last = m.dof_jntid[m.tree_dofadr[t] + m.tree_dofnum[t] - 1];
  *begin = m.jnt_qposadr[first];
  *end = m.jnt_qposadr[last] + JointNq(m.jnt_type[last]);
}

// True when the user changed tree t's qpos since it fell asleep (qpos_sleep). Quaternions are
// compared normalized, as the kinematics uses them: rescaling one does not move the tree.
bool QposChanged(const Model& m, const Data& d, int t) {
  int begin, end;
  TreeQposRange(m, t, &begin, &end);
  const double* now = d.qpos.data();
  const double* then = d.qpos_sleep.data();
  if (!BitsDiffer(now + begin, then + begin, end - begin)) return false;
  const int first = m.dof_jntid[m.tree_dofadr[t]];
  const int last = m.dof_jntid[m.tree_dofadr[t] + m.tree_dofnum[t] - 1];
  for (int j = first; j <= last; ++j) {
    const int q = m.jnt_qposadr[j];
    int quat = -1;  // qpos offset of the joint's quaternion
    if (m.jnt_type[j] == JointType::kFree) quat = q + 3;
    if (m.jnt_type[j] == JointType::kBall) quat = q;
    for (int k = q; k < q + JointNq(m.jnt_type[j]); ++k) {
      if (k >= quat && quat >= 0) break;
      if (std::memcmp(now + k, then + k, sizeof(double)) != 0) return true;
    }
    if (quat < 0) continue;
    double a[4], b[4];
    math::Copy4(a, now + quat);
    math::Copy4(b, then + quat);
    math::NormalizeQuat(a);
    math::NormalizeQuat(b);
    if (std::memcmp(a, b, sizeof(a)) != 0) return true;
  }
  return false;
}

// True when a force is applied to tree t (any bit set in its qfrc_applied or xfrc_applied).
bool ForceApplied(const Model& m, const Data& d, int t) {
  return AnyBitSet(d.qfrc_applied.data() + m.tree_dofadr[t], m.tree_dofnum[t]) ||
         AnyBitSet(d.xfrc_applied.data() + 6 * m.tree_bodyadr[t], 6 * m.tree_bodynum[t]);
}

// True when trees a and b (both asleep) are in the same sleeping cycle.
bool SameCycle(const Data& d, int a, int b) {
  for (int t = d.tree_asleep[a];; t = d.tree_asleep[t]) {
    if (t == b) return true;
    if (t == a) return false;
  }
}

// A coupling (equality or limited tendon) over some trees: wakes the sleeping ones when one is
// awake or when two sleeping ones are in different cycles (the coupling was off when they
// fell asleep).
template <class ForEachTree>
void WakeCoupled(const Model& m, Data& d, ForEachTree&& for_each) {
  bool awake = false;
  int asleep = -1;
  bool split = false;
  for_each([&](int t) {
    if (t < 0) return;
    if (!TreeAsleep(d, t)) {
      awake = true;
    } else if (asleep < 0) {
      asleep = t;
    } else if (!split && asleep != t && !SameCycle(d, asleep, t)) {
      split = true;
    }
  });
  if (asleep < 0 || (!awake && !split)) return;
  for_each([&](int t) {
    if (TreeAsleep(d, t)) WakeTree(m, d, t);
  });
}

void MarkAwakeBodies(const Model& m, Data& d) {
  if (m.body_treeid.size() != d.body_awake.size()) return;  // trees not compiled (trees.h)
  for (int b = 0; b < m.nbody; ++b) {
    const int t = m.body_treeid[b];
    d.body_awake[b] = t >= 0 && !TreeAsleep(d, t);
  }
}

// True when mocap body b was moved since the last kinematics (xpos/xquat hold its last pose).
bool MocapMoved(const Model& m, const Data& d, int b) {
  const int id = m.body_mocapid[b];
  for (int k = 0; k < 3; ++k) {
    if (d.mocap_pos[3 * id + k] != d.xpos[3 * b + k]) return true;
  }
  double quat[4];  // kinematics normalizes the mocap quaternion: compare the same value
  math::Copy4(quat, d.mocap_quat.data() + 4 * id);
  math::NormalizeQuat(quat);
  for (int k = 0; k < 4; ++k) {
    if (quat[k] != d.xquat[4 * b + k]) return true;
  }
  return false;
}

}  // namespace

void ResetSleep(const Model& m, Data& d) {
  std::fill(d.tree_asleep.begin(), d.tree_asleep.end(), -(1 + kMinAwake));
  std::fill(d.tree_frozen.begin(), d.tree_frozen.end(), 0);
  d.ntree_awake = m.ntree;
  const bool init = SleepEnabled(m) && std::count(m.tree_sleep_policy.begin(),
                                                  m.tree_sleep_policy.end(), kSleepInit) > 0;
  if (init) {
    // the kinematics skips sleeping trees: give the trees that start asleep their frames at
    // the initial qpos first
    Kinematics(m, d);
    for (int t = 0; t < m.ntree; ++t) {
      if (m.tree_sleep_policy[t] != kSleepInit) continue;
      d.tree_asleep[t] = t;  // a cycle of one
      --d.ntree_awake;
      int begin, end;
      TreeQposRange(m, t, &begin, &end);
      std::copy(d.qpos.begin() + begin, d.qpos.begin() + end, d.qpos_sleep.begin() + begin);
    }
  }
  if (!d.body_awake.empty()) MarkAwakeBodies(m, d);
}

void WakeTree(const Model& m, Data& d, int t) {
  if (!TreeAsleep(d, t)) return;
  int next = t;
  do {
    const int after = d.tree_asleep[next];
    d.tree_asleep[next] = -(1 + kMinAwake);
    d.tree_frozen[next] = 0;
    ++d.ntree_awake;
    for (int b = m.tree_bodyadr[next]; b < m.tree_bodyadr[next] + m.tree_bodynum[next]; ++b) {
      d.body_awake[b] = 1;
    }
    next = after;
  } while (next != t && next >= 0);
}

void WakeTrees(const Model& m, Data& d) {
  // user inputs on sleeping trees
  for (int t = 0; t < m.ntree; ++t) {
    if (!TreeAsleep(d, t)) continue;
    if (AnyBitSet(d.qvel.data() + m.tree_dofadr[t], m.tree_dofnum[t]) ||
        ForceApplied(m, d, t) || QposChanged(m, d, t)) {
      WakeTree(m, d, t);
    }
  }
  MarkAwakeBodies(m, d);
  // a moved mocap body counts as awake: what it touches or is welded to wakes up
  for (int b = 1; b < m.nbody; ++b) {
    if (m.body_mocapid[b] >= 0 && MocapMoved(m, d, b)) d.body_awake[b] = 1;
  }
  // couplings: active equalities and limited tendons
  for (int e = 0; e < m.neq; ++e) {
    if (!d.eq_active[e]) continue;
    // a weld or connect to a moved mocap body wakes its partner
    if (m.eq_type[e] == EqType::kConnect || m.eq_type[e] == EqType::kWeld) {
      for (int id : {m.eq_obj1id[e], m.eq_obj2id[e]}) {
        const int other = id == m.eq_obj1id[e] ? m.eq_obj2id[e] : m.eq_obj1id[e];
        if (id >= 0 && m.body_mocapid[id] >= 0 && d.body_awake[id] && other >= 0) {
          WakeTree(m, d, m.body_treeid[other]);
        }
      }
    }
    WakeCoupled(m, d, [&](auto fn) { ForEachEqualityTree(m, e, fn); });
  }
  for (int t = 0; t < m.ntendon; ++t) {
    if (!m.tendon_limited[t]) continue;
    WakeCoupled(m, d, [&](auto fn) { ForEachTendonTree(m, t, fn); });
  }
}

void WakeByContact(const Model& m, Data& d, int g1, int g2) {
  const int b1 = m.geom_bodyid[g1], b2 = m.geom_bodyid[g2];
  if (d.body_awake[b1] && !d.body_awake[b2]) WakeTree(m, d, m.body_treeid[b2]);
  if (d.body_awake[b2] && !d.body_awake[b1]) WakeTree(m, d, m.body_treeid[b1]);
}

bool RowAsleep(const Model& m, const Data& d, const int* cols, int nnz) {
  if (nnz == 0) return false;
  for (int k = 0; k < nnz; ++k) {
    if (!TreeAsleep(d, m.dof_treeid[cols[k]])) return false;
  }
  return true;
}

void MarkFrozenTrees(const Model& m, Data& d) {
  for (int t = 0; t < m.ntree; ++t) d.tree_frozen[t] = TreeAsleep(d, t);
}

bool EverythingAsleep(const Model& m, const Data& d) {
  if (m.ntree == 0 || d.ntree_awake > 0) return false;
  for (int t = 0; t < m.ntree; ++t) {
    if (!d.tree_frozen[t]) return false;  // fell asleep in the last step: evaluate it at rest
  }
  for (int b = 1; b < m.nbody; ++b) {
    if (d.body_awake[b]) return false;  // a moved mocap body
  }
  return true;
}

void ZeroSleepingAcceleration(const Model& m, Data& d) {
  for (int t = 0; t < m.ntree; ++t) {
    if (!TreeAsleep(d, t)) continue;
    std::fill_n(d.qacc.begin() + m.tree_dofadr[t], m.tree_dofnum[t], 0.0);
  }
}

void SaveSleepingPositions(const Data& d, double* store) {
  std::copy(d.qpos.begin(), d.qpos.end(), store);
}

void FreezeSleepingPositions(const Model& m, Data& d, const double* store) {
  for (int t = 0; t < m.ntree; ++t) {
    if (!TreeAsleep(d, t)) continue;
    int begin, end;
    TreeQposRange(m, t, &begin, &end);
    std::copy(store + begin, store + end, d.qpos.begin() + begin);
    std::copy(store + begin, store + end, d.qpos_sleep.begin() + begin);
    std::fill_n(d.qvel.begin() + m.tree_dofadr[t], m.tree_dofnum[t], 0.0);
  }
}

void UpdateSleep(const Model& m, Data& d) {
  const double tol = m.opt.sleep_tolerance;
  ArenaScope scope(d.arena);
  // a tree may fall asleep once it was ready (-1) before this step and still is after it
  int* was_ready = d.arena.Ints(m.ntree + 1);
  // countdown of each awake tree: one step closer to -1 while at rest, reset otherwise
  for (int t = 0; t < m.ntree; ++t) {
    was_ready[t] = d.tree_asleep[t] == -1;
    if (TreeAsleep(d, t)) continue;
    double speed = 0;
    for (int i = m.tree_dofadr[t]; i < m.tree_dofadr[t] + m.tree_dofnum[t]; ++i) {
      speed = std::max(speed, std::fabs(d.qvel[i] * m.dof_length[i]));
    }
    const bool rest =
        speed < tol && m.tree_sleep_policy[t] != kSleepNever && !ForceApplied(m, d, t);
    d.tree_asleep[t] = rest ? std::min(d.tree_asleep[t] + 1, -1) : -(1 + kMinAwake);
  }
  // islands (of this step's constraints) fall asleep when all their trees are ready; a tree
  // without constraints is an island of its own
  auto fall_asleep = [&](const int* trees, int n) {
    for (int i = 0; i < n; ++i) {
      if (d.tree_asleep[trees[i]] != -1 || !was_ready[trees[i]]) return;
    }
    for (int i = 0; i < n; ++i) {
      const int t = trees[i];
      d.tree_asleep[t] = trees[(i + 1) % n];
      std::fill_n(d.qvel.begin() + m.tree_dofadr[t], m.tree_dofnum[t], 0.0);
      --d.ntree_awake;
    }
  };
  int* trees = d.arena.Ints(m.ntree + 1);      // trees grouped by island
  int* start = d.arena.Ints(d.nisland + 1);    // first of each island in `trees`
  int* count = d.arena.Ints(d.nisland + 1);
  for (int k = 0, n = 0; k < d.nisland; ++k) {
    start[k] = n;
    count[k] = 0;
    n += d.island_ntree[k];
  }
  for (int t = 0; t < m.ntree; ++t) {
    const int k = d.tree_island[t];
    if (k >= 0) trees[start[k] + count[k]++] = t;
  }
  for (int k = 0; k < d.nisland; ++k) fall_asleep(trees + start[k], count[k]);
  for (int t = 0; t < m.ntree; ++t) {
    if (d.tree_island[t] < 0 && d.tree_asleep[t] == -1) fall_asleep(&t, 1);
  }
  MarkAwakeBodies(m, d);
}

}  // namespace gauss
