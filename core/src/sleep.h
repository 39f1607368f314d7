// Sleeping islands (spec 002: 休眠岛 sleeping islands, 休眠策略 sleep policy, 休眠 sleeping,
// 唤醒 waking; docs/islands.md). All of it runs only with the sleep flag on.
//
// A step with sleep on: WakeTrees at the start of the position stage (user inputs: qpos, qvel,
// applied forces; mocap motion; equality and tendon couplings) and MarkAwakeBodies; collision
// skips pairs with no awake side and wakes a sleeping tree that an awake one touches
// (WakeByContact, then collision runs again); rows of sleeping trees are not assembled
// (RowAsleep); islands and the solve cover the awake trees; sleeping dofs get qacc = 0
// (ZeroSleepingAcceleration). Around the integrator: SaveSleepingPositions before it, then
// UpdateSleep counts down at-rest trees and puts islands whose trees are all ready to sleep,
// and FreezeSleepingPositions gives every sleeping tree its qpos from before the step and zero
// qvel (an island falling asleep keeps the qpos its frames were computed at, as MuJoCo 3.12).
// The forward dynamics after a tree fell asleep still evaluates it once, at rest (qvel = 0);
// then MarkFrozenTrees freezes it: from then on every stage skips it (SkipFrozen, TreeFrozen).
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// Steps a tree must stay at rest before it may sleep (MuJoCo 3's mjMINAWAKE).
inline constexpr int kMinAwake = 10;

inline bool SleepEnabled(const Model& m) { return m.opt.Enabled(kEnableSleep); }
inline bool TreeAsleep(const Data& d, int tree) { return tree >= 0 && d.tree_asleep[tree] >= 0; }

// ---------------------------------------------------------------- skipping frozen trees
// A stage evaluates SkipFrozen once (a cheap guard: false whenever sleep is off or every tree
// is awake) and, when true, skips the bodies and dofs of frozen trees: their values stay those
// of the last evaluation, while every other value is computed exactly as without skipping.
inline bool SkipFrozen(const Model& m, const Data& d) {
  return SleepEnabled(m) && d.ntree_awake < m.ntree;
}
inline bool TreeFrozen(const Data& d, int tree) { return tree >= 0 && d.tree_frozen[tree] != 0; }
inline bool BodyFrozen(const Model& m, const Data& d, int b) {
  return TreeFrozen(d, m.body_treeid[b]);
}

// Calls fn(begin, end) for each maximal run [begin, end) of consecutive dofs whose trees are not
// frozen; one call with [0, nv) when skip is false. Every dof is in a tree and the trees' dofs
// follow each other in tree order, so tree-local recursions (the tree-sparse factor and solve)
// done run by run do exactly what they do over [0, nv).
template <class Fn>
void ForEachLiveDofRun(const Model& m, const Data& d, bool skip, Fn&& fn) {
  if (!skip) {
    if (m.nv > 0) fn(0, m.nv);
    return;
  }
  int begin = -1, end = -1;
  for (int t = 0; t < m.ntree; ++t) {
    if (d.tree_frozen[t]) {
      if (begin >= 0) fn(begin, end);
      begin = -1;
      continue;
    }
    if (begin < 0) begin = m.tree_dofadr[t];
    end = m.tree_dofadr[t] + m.tree_dofnum[t];
  }
  if (begin >= 0) fn(begin, end);
}

// End of a forward evaluation: every sleeping tree has now been evaluated at rest, so it is
// frozen (tree_frozen).
void MarkFrozenTrees(const Model& m, Data& d);

// True when every tree sleeps, is frozen, and no mocap body moved (after WakeTrees): nothing
// the forward dynamics computes can change, so the Engine skips it and the step only advances
// time.
bool EverythingAsleep(const Model& m, const Data& d);

// (tree_sleep_policy, qpos) => (tree_asleep, tree_frozen, qpos_sleep, body_awake,
// ntree_awake): every tree awake with a full countdown, except trees with the init policy,
// which start asleep (each its own cycle, not frozen before the first evaluation).
void ResetSleep(const Model& m, Data& d);

// Wakes tree t and every tree of its sleeping cycle (tree_asleep, tree_frozen, body_awake,
// ntree_awake).
void WakeTree(const Model& m, Data& d, int t);

// Start of a step: (qpos against qpos_sleep, with quaternions compared normalized; qvel,
// qfrc_applied, xfrc_applied of sleeping trees (any bit set); mocap_pos/quat against the last
// xpos/xquat; active equalities, limited tendons) => woken trees; then body_awake.
void WakeTrees(const Model& m, Data& d);

// Collision: false when neither geom's body is awake (asleep or static: nothing to detect).
inline bool PairMayCollide(const Model& m, const Data& d, int g1, int g2) {
  return d.body_awake[m.geom_bodyid[g1]] || d.body_awake[m.geom_bodyid[g2]];
}
// A contact between g1 and g2 was found: wakes the sleeping side, if any.
void WakeByContact(const Model& m, Data& d, int g1, int g2);

// Constraint assembly: true when every column of a row belongs to a sleeping tree.
bool RowAsleep(const Model& m, const Data& d, const int* cols, int nnz);

// qacc = 0 on the dofs of sleeping trees.
void ZeroSleepingAcceleration(const Model& m, Data& d);

// Around the integrator: Save copies qpos (from before the step) into `store` (nq doubles);
// after UpdateSleep, Freeze gives every sleeping tree that qpos (also into qpos_sleep) and zero
// qvel, whatever the integrator did: trees that fell asleep in this step keep the qpos their
// frames were computed at.
void SaveSleepingPositions(const Data& d, double* store);
void FreezeSleepingPositions(const Model& m, Data& d, const double* store);

// End of a step: (qvel, dof_length, sleep_tolerance, qfrc_applied, xfrc_applied, islands,
// policies) => tree_asleep, ntree_awake; a tree is at rest while its scaled speed is below the
// tolerance and no force is applied to it; islands whose trees are all ready fall asleep with
// qvel = 0.
void UpdateSleep(const Model& m, Data& d);

}  // namespace gauss
