// Sleeping islands (spec 002: 休眠岛 sleeping islands, 休眠策略 sleep policy, 休眠 sleeping,
// 唤醒 waking; docs/islands.md). All of it runs only with the sleep flag on.
//
// A step with sleep on: WakeTrees at the start of the position stage (user inputs, mocap
// motion, equality and tendon couplings) and MarkAwakeBodies; collision skips pairs with no
// awake side and wakes a sleeping tree that an awake one touches (WakeByContact, then
// collision runs again); rows of sleeping trees are not assembled (RowAsleep); islands and the
// solve cover the awake trees; sleeping dofs get qacc = 0 (ZeroSleepingAcceleration) and keep
// their qpos and zero qvel through the integrator (FreezeSleeping); finally UpdateSleep counts
// down at-rest trees and puts islands whose trees are all ready to sleep.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// Steps a tree must stay at rest before it may sleep (MuJoCo 3's mjMINAWAKE).
inline constexpr int kMinAwake = 10;

inline bool SleepEnabled(const Model& m) { return m.opt.Enabled(kEnableSleep); }
inline bool TreeAsleep(const Data& d, int tree) { return tree >= 0 && d.tree_asleep[tree] >= 0; }
// True when sleep is on and body b's tree sleeps: stages skip it, its values stay as they were.
inline bool BodyAsleep(const Model& m, const Data& d, int b) {
  return SleepEnabled(m) && TreeAsleep(d, m.body_treeid[b]);
}

// True when every tree sleeps and no mocap body moved (after WakeTrees): nothing the forward
// dynamics computes can change, so the Engine skips it and the step only advances time.
bool EverythingAsleep(const Model& m, const Data& d);

// (tree_sleep_policy) => (tree_asleep, body_awake, ntree_awake): every tree awake with a full
// countdown, except trees with the init policy, which start asleep (each its own cycle).
void ResetSleep(const Model& m, Data& d);

// Wakes tree t and every tree of its sleeping cycle (tree_asleep, body_awake, ntree_awake).
void WakeTree(const Model& m, Data& d, int t);

// Start of a step: (qvel, qfrc_applied, xfrc_applied of sleeping trees, mocap_pos/quat against
// the last xpos/xquat, active equalities, limited tendons) => woken trees; then body_awake.
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

// Around the integrator: Save copies the qpos of sleeping trees into `store` (nq doubles),
// Restore puts them back and zeroes their qvel, whatever the integrator did.
void SaveSleepingPositions(const Model& m, const Data& d, double* store);
void RestoreSleepingPositions(const Model& m, Data& d, const double* store);

// End of a step: (qvel, dof_length, sleep_tolerance, islands, policies) => tree_asleep,
// ntree_awake; islands whose trees are all ready fall asleep with qvel = 0.
void UpdateSleep(const Model& m, Data& d);

}  // namespace gauss
