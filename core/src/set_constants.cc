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
  // (a simple body that only slides, simple_bodies.h)
  if (sliding_bodies_by_mass && m.body_simple.size() == static_cast<std::size_t>(m.nbody)) {
    for (int b = 1; b < m.nbody; ++b) {
      if (m.body_simple[b] != 2) continue;
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
