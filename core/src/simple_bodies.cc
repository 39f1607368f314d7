// MarkSimpleBodies (simple_bodies.h).
#include "simple_bodies.h"

#include <cmath>

namespace gauss {
namespace {

bool IsZero3(const double* v) { return v[0] == 0 && v[1] == 0 && v[2] == 0; }
bool IsIdentityQuat(const double* q) { return q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0; }

// One nonzero component (above MuJoCo's 1e-14): the axis is a coordinate axis of the body frame.
bool IsCoordinateAxis(const double* axis) {
  constexpr double kAxisEpsilon = 1e-14;
  int nonzero = 0;
  for (int k = 0; k < 3; ++k) nonzero += std::fabs(axis[k]) > kAxisEpsilon;
  return nonzero == 1;
}

int SimpleLevel(const Model& m, int b, const std::vector<char>& has_children) {
  if (b > 0 && has_children[b]) return 0;  // (the world counts as simple, as in MuJoCo)
  if (!IsZero3(&m.body_ipos[3 * b]) || !IsIdentityQuat(&m.body_iquat[4 * b])) return 0;
  const int parent = m.body_parentid[b];
  if (parent != 0 && !(m.body_parentid[parent] == 0 && m.body_dofnum[parent] == 0)) return 0;
  bool rotation_found = false, slides_only = true;
  for (int j = m.body_jntadr[b]; j < m.body_jntadr[b] + m.body_jntnum[b]; ++j) {
    const JointType type = m.jnt_type[j];
    const bool hinge_or_slide = type == JointType::kHinge || type == JointType::kSlide;
    if (rotation_found || !IsZero3(&m.jnt_pos[3 * j]) ||
        (hinge_or_slide && !IsCoordinateAxis(&m.jnt_axis[3 * j]))) {
      return 0;
    }
    rotation_found = rotation_found || type == JointType::kHinge || type == JointType::kBall;
    slides_only = slides_only && type == JointType::kSlide;
  }
  return m.body_dofnum[b] > 0 && slides_only ? 2 : 1;
}

}  // namespace

void MarkSimpleBodies(Model& m) {
  std::vector<char> has_children(m.nbody, 0);
  for (int b = 1; b < m.nbody; ++b) has_children[m.body_parentid[b]] = 1;
  m.body_simple.assign(m.nbody, 0);
  for (int b = 0; b < m.nbody; ++b) m.body_simple[b] = SimpleLevel(m, b, has_children);
  m.dof_simplenum.assign(m.nv, 0);
  int run = 0;
  for (int i = m.nv - 1; i >= 0; --i) {
    run = m.body_simple[m.dof_bodyid[i]] ? run + 1 : 0;
    m.dof_simplenum[i] = run;
  }
}

}  // namespace gauss
