// Model constants computed from the dynamics at the reference configuration qpos0.
#include "set_constants.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "camera.h"
#include "data_alloc.h"
#include "gauss/sparse_inertia.h"
#include "pipeline.h"
#include "jacobian.h"

namespace gauss {

namespace {

// (body tree, joints, inertial frames) => whether body b is what MuJoCo 3.12 calls a simple body
// with sliders only: it moves (has dofs) only through slide joints anchored at its origin whose
// axes are coordinate axes of its frame (one nonzero component), its inertial frame is its body
// frame (body_ipos exactly 0, body_iquat exactly the identity), it has no child bodies, and its
// parent is the world or a jointless body attached directly to the world. Such a body's inverse
// inertia is 1/mass on each dof (armature not counted) and it cannot turn.
bool SlidesAlongOwnAxes(const Model& m, int b, const std::vector<char>& has_children) {
  if (m.body_dofnum[b] == 0 || has_children[b]) return false;
  const int parent = m.body_parentid[b];
  if (parent != 0 && !(m.body_parentid[parent] == 0 && m.body_dofnum[parent] == 0)) return false;
  const double* ipos = &m.body_ipos[3 * b];
  const double* iquat = &m.body_iquat[4 * b];
  if (ipos[0] != 0 || ipos[1] != 0 || ipos[2] != 0) return false;
  if (iquat[0] != 1 || iquat[1] != 0 || iquat[2] != 0 || iquat[3] != 0) return false;
  constexpr double kAxisEpsilon = 1e-14;  // a component counts as nonzero above this
  for (int j = m.body_jntadr[b]; j < m.body_jntadr[b] + m.body_jntnum[b]; ++j) {
    if (m.jnt_type[j] != JointType::kSlide) return false;
    const double* pos = &m.jnt_pos[3 * j];
    if (pos[0] != 0 || pos[1] != 0 || pos[2] != 0) return false;
    int nonzero = 0;
    for (int k = 0; k < 3; ++k) nonzero += std::fabs(m.jnt_axis[3 * j + k]) > kAxisEpsilon;
    if (nonzero != 1) return false;
  }
  return true;
}

}  // namespace

// Model (qpos0) => (dof_invweight0, body_invweight0, tendon_length0, tendon_invweight0,
// stat_meaninertia, stat_meanmass)
void SetConstants(Model& m, bool sliding_bodies_by_mass) {
  Data d;
  AllocateData(m, d);
  Kinematics(m, d);
  ComPosition(m, d);
  SetCameraConstants(m, d);
  Tendons(m, d);
  CompositeInertia(m, d);
  FactorInertia(m, d);

  // diagonal of M^-1, one unit solve per dof
  std::vector<double> inv_diag(m.nv), x(m.nv);
  for (int i = 0; i < m.nv; ++i) {
    std::fill(x.begin(), x.end(), 0.0);
    x[i] = 1;
    SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), x.data());
    inv_diag[i] = x[i];
  }

  // dof weights: ball and free rotations (and free translations) share their mean, so that
  // the weight does not depend on the orientation of the joint frame
  m.dof_invweight0.assign(m.nv, 0.0);
  auto mean3 = [&](int adr) { return (inv_diag[adr] + inv_diag[adr + 1] + inv_diag[adr + 2]) / 3; };
  for (int j = 0; j < m.njnt; ++j) {
    const int adr = m.jnt_dofadr[j];
    switch (m.jnt_type[j]) {
      case JointType::kFree: {
        const double trn = mean3(adr), rot = mean3(adr + 3);
        for (int k = 0; k < 3; ++k) m.dof_invweight0[adr + k] = trn;
        for (int k = 3; k < 6; ++k) m.dof_invweight0[adr + k] = rot;
        break;
      }
      case JointType::kBall: {
        const double rot = mean3(adr);
        for (int k = 0; k < 3; ++k) m.dof_invweight0[adr + k] = rot;
        break;
      }
      case JointType::kSlide:
      case JointType::kHinge:
        m.dof_invweight0[adr] = inv_diag[adr];
        break;
    }
  }

  // body weights: mean diagonal of the inverse spatial inertia J M^-1 J' at the body's com,
  // translational and rotational parts separately; zero for bodies welded to the world
  m.body_invweight0.assign(2 * m.nbody, 0.0);
  std::vector<double> jac(6 * m.nv), minv_jt(m.nv);
  for (int b = 1; b < m.nbody; ++b) {
    if (m.body_weldid[b] == 0) continue;
    PointJacobian(m, d, b, d.xipos.data() + 3 * b, jac.data(), jac.data() + 3 * m.nv);
    double diag[6];
    for (int r = 0; r < 6; ++r) {
      const double* row = jac.data() + r * m.nv;
      std::copy(row, row + m.nv, minv_jt.begin());
      SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), minv_jt.data());
      double dot = 0;
      for (int i = 0; i < m.nv; ++i) dot += row[i] * minv_jt[i];
      diag[r] = dot;
    }
    m.body_invweight0[2 * b] = (diag[0] + diag[1] + diag[2]) / 3;
    m.body_invweight0[2 * b + 1] = (diag[3] + diag[4] + diag[5]) / 3;
  }

  // MuJoCo 3.12 gives a body that only slides along its own axes its mass alone: 1/mass for
  // each dof (armature not counted) and in translation (the 2.2.2 mean above divides the
  // weight of the directions it can move in by 3), nothing in rotation
  if (sliding_bodies_by_mass) {
    std::vector<char> has_children(m.nbody, 0);
    for (int b = 1; b < m.nbody; ++b) has_children[m.body_parentid[b]] = 1;
    for (int b = 1; b < m.nbody; ++b) {
      if (!SlidesAlongOwnAxes(m, b, has_children)) continue;
      const double weight = 1 / std::max(kMinVal, m.body_mass[b]);
      m.body_invweight0[2 * b] = weight;
      m.body_invweight0[2 * b + 1] = 0;
      for (int i = m.body_dofadr[b]; i < m.body_dofadr[b] + m.body_dofnum[b]; ++i) {
        m.dof_invweight0[i] = weight;
      }
    }
  }

  // tendons: length and inverse weight J M^-1 J' at qpos0
  m.tendon_length0.assign(d.ten_length.begin(), d.ten_length.end());
  m.tendon_invweight0.assign(m.ntendon, 0.0);
  for (int t = 0; t < m.ntendon; ++t) {
    const double* row = d.ten_J.data() + t * m.nv;
    std::copy(row, row + m.nv, minv_jt.begin());
    SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), minv_jt.data());
    double dot = 0;
    for (int i = 0; i < m.nv; ++i) dot += row[i] * minv_jt[i];
    m.tendon_invweight0[t] = dot;
  }

  // statistics used to scale solver tolerances
  double trace = 0;
  for (int i = 0; i < m.nv; ++i) trace += d.qM[m.dof_Madr[i]];
  m.stat_meaninertia = m.nv > 0 ? trace / m.nv : 1;
  double mass = 0;
  for (int b = 1; b < m.nbody; ++b) mass += m.body_mass[b];
  m.stat_meanmass = m.nbody > 1 ? mass / (m.nbody - 1) : 1;
}

}  // namespace gauss
