// Joint-space inertia (spec stages 6 and 7): the composite rigid-body algorithm into the
// tree-sparse matrix qM, and its L'DL factorization.
#include "inertia.h"

#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "gauss/sparse_inertia.h"
#include "data_alloc.h"
#include "pipeline.h"
#include "simple_bodies.h"
#include "sleep.h"
#include "tendon.h"

namespace gauss {

using namespace math;

void SetBodyInertia(double* cinert, const double* rot, const double* diag, double mass,
                    const double* offset) {
  // rotational inertia about the center of mass: R diag(d) R'
  auto central = [&](int a, int b) {
    return rot[3 * a] * diag[0] * rot[3 * b] + rot[3 * a + 1] * diag[1] * rot[3 * b + 1] +
           rot[3 * a + 2] * diag[2] * rot[3 * b + 2];
  };
  const double cc = Dot3(offset, offset);
  // shift to the reference point: + m (|c|^2 E - c c')
  cinert[0] = central(0, 0) + mass * (cc - offset[0] * offset[0]);
  cinert[1] = central(1, 1) + mass * (cc - offset[1] * offset[1]);
  cinert[2] = central(2, 2) + mass * (cc - offset[2] * offset[2]);
  cinert[3] = central(0, 1) - mass * offset[0] * offset[1];
  cinert[4] = central(0, 2) - mass * offset[0] * offset[2];
  cinert[5] = central(1, 2) - mass * offset[1] * offset[2];
  cinert[6] = mass * offset[0];
  cinert[7] = mass * offset[1];
  cinert[8] = mass * offset[2];
  cinert[9] = mass;
}

void MulInertiaVec(double* res, const double* cinert, const double* vec) {
  const double* w = vec;
  const double* v = vec + 3;
  const double* mc = cinert + 6;
  const double m = cinert[9];
  double t[3];
  // angular: I w + m c x v
  res[0] = cinert[0] * w[0] + cinert[3] * w[1] + cinert[4] * w[2];
  res[1] = cinert[3] * w[0] + cinert[1] * w[1] + cinert[5] * w[2];
  res[2] = cinert[4] * w[0] + cinert[5] * w[1] + cinert[2] * w[2];
  Cross3(t, mc, v);
  AddTo3(res, t);
  // linear: m v - m c x w
  Cross3(t, mc, w);
  res[3] = m * v[0] - t[0];
  res[4] = m * v[1] - t[1];
  res[5] = m * v[2] - t[2];
}

// (cinert, cdof) => (crb, qM, qLD_damped_current = 0: the euler integrator's factor is stale;
// a new matrices_id: so is what the solver kept)
void CompositeInertia(const Model& m, Data& d) {
  d.qLD_damped_current = 0;
  d.matrices_id = NewMatricesId();
  // 1. composite inertias: each body plus its subtree, accumulated from the leaves. Trees are
  //    never merged into the world body (they use different reference points).
  //    Frozen sleeping trees are skipped (sleep.h): their crb and rows of qM stay as they were.
  const bool skip = SkipFrozen(m, d);
  for (int b = 0; b < m.nbody; ++b) {
    if (skip && BodyFrozen(m, d, b)) continue;
    for (int k = 0; k < 10; ++k) d.crb[10 * b + k] = d.cinert[10 * b + k];
  }
  for (int b = m.nbody - 1; b > 0; --b) {
    const int parent = m.body_parentid[b];
    if (parent == 0 || (skip && BodyFrozen(m, d, b))) continue;
    for (int k = 0; k < 10; ++k) d.crb[10 * parent + k] += d.crb[10 * b + k];
  }

  // 2. M(i, j) = cdof_j' crb(body of i) cdof_i for j = i and every ancestor dof of i: the
  //    force needed to accelerate dof i, projected on the dofs that carry it. The rows of a
  //    simple body (simple_bodies.h) are diagonal by construction: their off-diagonal entries
  //    are set to exact zeros (computed, they would be round-off), as MuJoCo does.
  const int* simple = HasSimpleFlags(m) ? m.dof_simplenum.data() : nullptr;
  ForEachLiveDofRun(m, d, skip, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      double force[6];
      MulInertiaVec(force, d.crb.data() + 10 * m.dof_bodyid[i], d.cdof.data() + 6 * i);
      auto projected = [&](int j) {
        const double* cdof_j = d.cdof.data() + 6 * j;
        double dot = 0;
        for (int c = 0; c < 6; ++c) dot += cdof_j[c] * force[c];
        return dot;
      };
      int adr = m.dof_Madr[i];
      if (simple && simple[i]) {
        const int row_end = i + 1 < m.nv ? m.dof_Madr[i + 1] : m.nM;
        d.qM[adr] = projected(i) + m.dof_armature[i];
        std::fill(d.qM.data() + adr + 1, d.qM.data() + row_end, 0.0);
        continue;
      }
      for (int j = i; j >= 0; j = m.dof_parentid[j]) d.qM[adr++] = projected(j);
      d.qM[m.dof_Madr[i]] += m.dof_armature[i];
    }
  });
  // 3. MuJoCo 3.x tendon armature (tendon.h)
  if (!m.tendon_armature.empty()) AddTendonArmatureInertia(m, d);
}

// qM => (qLD, qLDiagInv, qLDiagSqrtInv)
// Frozen sleeping trees are skipped (sleep.h): each tree's block is factored on its own.
void FactorInertia(const Model& m, Data& d) {
  int bad = -1;  // the highest dof with a bad pivot, as one factorization over all dofs finds
  const TreeSparseLayout layout = InertiaLayoutOf(m);
  ForEachLiveDofRun(m, d, SkipFrozen(m, d), [&](int begin, int end) {
    const int adr_end = end < m.nv ? m.dof_Madr[end] : m.nM;
    for (int i = m.dof_Madr[begin]; i < adr_end; ++i) d.qLD[i] = d.qM[i];
    bad = std::max(bad, FactorLTDL(layout, d.qLD.data(), d.qLDiagInv.data(), begin, end));
    for (int i = begin; i < end; ++i) d.qLDiagSqrtInv[i] = std::sqrt(d.qLDiagInv[i]);
  });
  if (bad >= 0) {
    ++d.warning_count[static_cast<int>(Warning::kInertia)];
    d.warning_index[static_cast<int>(Warning::kInertia)] = bad;
  }
}

}  // namespace gauss
