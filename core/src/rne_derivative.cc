// Velocity derivative of the RNE bias force (rne_derivative.h).
//
// RecursiveNewtonEuler's bias force (qacc = 0) is, per body d with parent p and own dofs i:
//   cvel_d = cvel_p + sum_i cdof_i v_i
//   cacc_d = cacc_p + sum_i cdof_dot_i v_i,   cdof_dot_i = (velocity before i's joint) x cdof_i
//   f_d = I_d cacc_d + cvel_d x* (I_d cvel_d),  qfrc_bias_i = cdof_i . sum of f over body(i)'s subtree
// The velocities of a chain add up in one com frame, so d cvel_d / d v_k = cdof_k for every dof
// k that moves d, and the rates that depend on v_k are those of the joints after k's (for a ball
// or a free rotation, the three rates use the velocity before all three; a free joint's
// translation axes have no rate). Hence, for every body d that k moves,
//   d cacc_d / d v_k = cdof_dot_k + cdof_k x (cvel_d - w_k) = a_k + cdof_k x cvel_d
// with w_k the velocity accumulated through k's joint (group) and a_k = cdof_dot_k + w_k x cdof_k,
// one 6-vector per dof. Then d f_d / d v_k = I_d a_k + Q_d cdof_k with the 6 x 6 map
//   Q_d c = I_d (c x cvel_d) + c x* (I_d cvel_d) + cvel_d x* (I_d c),
// and the sum over the subtree of a body b that k moves is crb_b a_k + S_b cdof_k, with crb the
// composite inertia (CompositeInertia) and S_b the sum of Q over b's subtree. So
//   D(i, k) = -cdof_i . (crb_b a_k + S_b cdof_k),  b = the lower of body(i), body(k),
// = -(crb_b cdof_i) . a_k - (S_b' cdof_i) . cdof_k when b = body(i): two dot products of six per
// entry of M's pattern after O(1) work per dof and per body, O(nM) in all.
#include "rne_derivative.h"

#include "gauss/math.h"
#include "inertia.h"

namespace gauss {

using namespace math;

namespace {

// Per body the subtree sum S_b of the maps Q_d (6 x 6, column-major), per dof a_k.
struct RneWork {
  double* subtree_map = nullptr;  // (nbody x 36)
  double* rate = nullptr;         // (nv x 6) a_k
  template <class Take>
  void Blocks(Take& take, const Model& m) {
    take(&subtree_map, 36 * static_cast<std::size_t>(m.nbody), "S_b, sum of Q over the subtree");
    take(&rate, 6 * static_cast<std::size_t>(m.nv), "a_k");
  }
};

double Dot6(const double* a, const double* b) {
  double s = 0;
  for (int c = 0; c < 6; ++c) s += a[c] * b[c];
  return s;
}

// (cvel, cdof, cdof_dot, qvel) => rate: a_k = cdof_dot_k + w_k x cdof_k, following ComVelocity's
// accumulation of the velocity joint by joint.
void DofRates(const Model& m, const Data& d, double* rate) {
  for (int b = 1; b < m.nbody; ++b) {
    double vel[6];
    for (int c = 0; c < 6; ++c) vel[c] = d.cvel[6 * m.body_parentid[b] + c];
    // adds the group's velocity to vel, then sets the group's a_k with w_k = vel
    auto group = [&](int begin, int count) {
      for (int k = begin; k < begin + count; ++k) {
        for (int c = 0; c < 6; ++c) vel[c] += d.cdof[6 * k + c] * d.qvel[k];
      }
      for (int k = begin; k < begin + count; ++k) {
        double* a = rate + 6 * k;
        CrossMotion(a, vel, d.cdof.data() + 6 * k);
        for (int c = 0; c < 6; ++c) a[c] += d.cdof_dot[6 * k + c];
      }
    };
    for (int j = m.body_jntadr[b]; j < m.body_jntadr[b] + m.body_jntnum[b]; ++j) {
      const int adr = m.jnt_dofadr[j];
      switch (m.jnt_type[j]) {
        case JointType::kFree:
          group(adr, 3);      // the rotation rates use the velocity after the translations
          group(adr + 3, 3);
          break;
        case JointType::kBall:
          group(adr, 3);
          break;
        case JointType::kSlide:
        case JointType::kHinge:
          group(adr, 1);
          break;
      }
    }
  }
}

// (cinert, cvel) => subtree_map: Q_d per body from its images of the unit vectors (exact), then
// summed from the leaves (never across trees).
void SubtreeMaps(const Model& m, const Data& d, double* subtree_map) {
  for (int b = 1; b < m.nbody; ++b) {
    const double* cinert = d.cinert.data() + 10 * b;
    const double* vel = d.cvel.data() + 6 * b;
    double momentum[6];
    MulInertiaVec(momentum, cinert, vel);
    for (int col = 0; col < 6; ++col) {
      double unit[6] = {0, 0, 0, 0, 0, 0};
      unit[col] = 1;
      double turn[6], inertial[6], gyro_a[6], axis_momentum[6], gyro_b[6];
      CrossMotion(turn, unit, vel);
      MulInertiaVec(inertial, cinert, turn);
      CrossForce(gyro_a, unit, momentum);
      MulInertiaVec(axis_momentum, cinert, unit);
      CrossForce(gyro_b, vel, axis_momentum);
      double* q = subtree_map + 36 * b + 6 * col;
      for (int r = 0; r < 6; ++r) q[r] = inertial[r] + gyro_a[r] + gyro_b[r];
    }
  }
  for (int b = m.nbody - 1; b > 0; --b) {
    const int p = m.body_parentid[b];
    if (p == 0) continue;
    for (int e = 0; e < 36; ++e) subtree_map[36 * p + e] += subtree_map[36 * b + e];
  }
}

// (crb, cdof, rate, subtree_map) => lower, upper -= D's entries, body by body.
void ProjectEntries(const Model& m, const Data& d, const RneWork& w, double* lower,
                    double* upper) {
  for (int b = 1; b < m.nbody; ++b) {
    const int nown = m.body_dofnum[b];
    if (nown == 0) continue;
    const int first = m.body_dofadr[b];
    const int top = m.dof_parentid[first];  // the nearest ancestor dof, -1 at a root
    const double* crb = d.crb.data() + 10 * b;
    const double* map = w.subtree_map + 36 * b;
    for (int t = 0; t < nown; ++t) {
      const int i = first + t;
      const double* cdof_i = d.cdof.data() + 6 * i;
      double weighted[6], mapped[6];  // crb_b cdof_i and S_b' cdof_i
      MulInertiaVec(weighted, crb, cdof_i);
      for (int c = 0; c < 6; ++c) mapped[c] = Dot6(map + 6 * c, cdof_i);
      auto entry = [&](int k) {
        return Dot6(weighted, w.rate + 6 * k) + Dot6(mapped, d.cdof.data() + 6 * k);
      };
      // own dofs k: D(i, k), lower when k is i or before it, upper after it
      for (int s = 0; s < nown; ++s) {
        const int k = first + s;
        if (s <= t) {
          lower[m.dof_Madr[i] + t - s] -= entry(k);
        } else {
          upper[m.dof_Madr[k] + s - t] -= entry(k);
        }
      }
      // ancestors k of b: D(i, k)
      int a = t + 1;
      for (int k = top; k >= 0; k = m.dof_parentid[k], ++a) lower[m.dof_Madr[i] + a] -= entry(k);
      // D(k, i) for the ancestors k: i moves only b's subtree, the sum is crb_b a_i + S_b cdof_i
      double force[6];
      MulInertiaVec(force, crb, w.rate + 6 * i);
      for (int c = 0; c < 6; ++c) {
        for (int r = 0; r < 6; ++r) force[r] += map[6 * c + r] * cdof_i[c];
      }
      a = t + 1;
      for (int k = top; k >= 0; k = m.dof_parentid[k], ++a) {
        upper[m.dof_Madr[i] + a] -= Dot6(d.cdof.data() + 6 * k, force);
      }
    }
  }
}

}  // namespace

ArenaPlan RneDerivativePlan(const Model& m) {
  ArenaPlan plan;
  RneWork().Blocks(plan, m);
  return plan;
}

void AddRneDerivative(const Model& m, Data& d, double* lower, double* upper) {
  ArenaScope scope(d.arena);
  ArenaCarve carve(d.arena);
  RneWork w;
  w.Blocks(carve, m);
  DofRates(m, d, w.rate);
  SubtreeMaps(m, d, w.subtree_map);
  ProjectEntries(m, d, w, lower, upper);
}

}  // namespace gauss
