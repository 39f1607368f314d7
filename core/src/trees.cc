// CompileTrees (trees.h).
#include "trees.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "gauss/error.h"
#include "simple_bodies.h"

namespace gauss {
namespace {

// Length scale of a rotational dof of body b: the largest distance from the body's centre of
// mass to the far side of one of its geoms (bounding sphere), so that |angular velocity| times
// it bounds the speed of the body's surface. Bodies without geoms get a tiny length (their
// rotation cannot be seen), as MuJoCo 3 does.
double RotationalLength(const Model& m, int b) {
  double length = 0;
  const int adr = m.body_geomadr[b];
  for (int g = adr; adr >= 0 && g < adr + m.body_geomnum[b]; ++g) {
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double dk = m.geom_pos[3 * g + k] - m.body_ipos[3 * b + k];
      d2 += dk * dk;
    }
    length = std::max(length, std::sqrt(d2) + m.geom_rbound[g]);
  }
  return length > 0 ? length : 1e-5;
}

// Marks (in `actuated`, per tree) the trees that actuator a can drive.
void MarkActuatedTrees(const Model& m, int a, std::vector<char>& actuated) {
  auto mark_body = [&](int b) {
    if (b >= 0 && b < m.nbody && m.body_treeid[b] >= 0) actuated[m.body_treeid[b]] = 1;
  };
  const int id = m.actuator_trnid[2 * a];
  switch (m.actuator_trntype[a]) {
    case TrnType::kJoint:
    case TrnType::kJointInParent: mark_body(m.jnt_bodyid[id]); break;
    case TrnType::kSliderCrank:
    case TrnType::kSite: mark_body(m.site_bodyid[id]); break;
    case TrnType::kBody: mark_body(id); break;
    case TrnType::kTendon:
      for (int w = m.tendon_adr[id]; w < m.tendon_adr[id] + m.tendon_num[id]; ++w) {
        const int obj = m.wrap_objid[w];
        if (m.wrap_type[w] == WrapType::kJoint) mark_body(m.jnt_bodyid[obj]);
        if (m.wrap_type[w] == WrapType::kSite) mark_body(m.site_bodyid[obj]);
      }
      break;
  }
}

}  // namespace

void CompileTrees(Model& m) {
  m.body_treeid.assign(m.nbody, -1);
  m.tree_bodyadr.clear();
  m.tree_bodynum.clear();
  m.tree_dofadr.clear();
  m.tree_dofnum.clear();
  // a root's tree has dofs when any body with the same root has some
  std::vector<int> root_dofs(m.nbody, 0);
  for (int b = 1; b < m.nbody; ++b) root_dofs[m.body_rootid[b]] += m.body_dofnum[b];
  std::vector<int> root_tree(m.nbody, -1);
  for (int b = 1; b < m.nbody; ++b) {
    const int root = m.body_rootid[b];
    if (root_dofs[root] == 0) continue;
    if (root_tree[root] < 0) {
      root_tree[root] = static_cast<int>(m.tree_bodyadr.size());
      m.tree_bodyadr.push_back(b);
      m.tree_bodynum.push_back(0);
      m.tree_dofadr.push_back(-1);
      m.tree_dofnum.push_back(0);
    }
    const int t = root_tree[root];
    if (m.tree_bodyadr[t] + m.tree_bodynum[t] != b) {
      throw Error("model: the bodies of the tree rooted at body " + std::to_string(root) +
                  " are not contiguous");
    }
    m.body_treeid[b] = t;
    ++m.tree_bodynum[t];
  }
  m.ntree = static_cast<int>(m.tree_bodyadr.size());
  m.dof_treeid.assign(m.nv, -1);
  m.dof_length.assign(m.nv, 1);
  for (int i = 0; i < m.nv; ++i) {
    const int b = m.dof_bodyid[i];
    const int t = m.body_treeid[b];
    m.dof_treeid[i] = t;
    if (m.tree_dofadr[t] < 0) m.tree_dofadr[t] = i;
    if (m.tree_dofadr[t] + m.tree_dofnum[t] != i) {
      throw Error("model: the dofs of tree " + std::to_string(t) + " are not contiguous");
    }
    ++m.tree_dofnum[t];
    // free joint: 3 translational then 3 rotational dofs; ball: 3 rotational; hinge rotates
    const int j = m.dof_jntid[i];
    const JointType type = m.jnt_type[j];
    const bool rotational = type == JointType::kHinge || type == JointType::kBall ||
                            (type == JointType::kFree && i - m.jnt_dofadr[j] >= 3);
    if (rotational) m.dof_length[i] = RotationalLength(m, b);
  }
  // sleep policies: the root body's attribute; auto means never for actuated trees
  std::vector<char> actuated(m.ntree, 0);
  for (int a = 0; a < m.nu; ++a) MarkActuatedTrees(m, a, actuated);
  m.tree_sleep_policy.assign(m.ntree, kSleepAllowed);
  if (m.body_sleep.size() != static_cast<std::size_t>(m.nbody)) m.body_sleep.assign(m.nbody, kSleepAuto);
  for (int t = 0; t < m.ntree; ++t) {
    const int policy = m.body_sleep[m.tree_bodyadr[t]];
    m.tree_sleep_policy[t] = policy == kSleepAuto ? (actuated[t] ? kSleepNever : kSleepAllowed)
                                                  : policy;
  }
  MarkSimpleBodies(m);
}

}  // namespace gauss
