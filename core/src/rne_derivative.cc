// Velocity derivative of the RNE bias force (rne_derivative.h).
//
// RecursiveNewtonEuler's bias force (qacc = 0) is, per body b with parent p and own dofs i:
//   cvel_b = cvel_p + sum_i cdof_i v_i
//   cacc_b = cacc_p + sum_i cdof_dot_i v_i,   cdof_dot_i = (velocity before i's joint) x cdof_i
//   cfrc_b = I_b cacc_b + cvel_b x* (I_b cvel_b), summed over b's subtree
//   qfrc_bias_i = cdof_i . cfrc(subtree of body(i))
// A body's quantities depend only on the velocities of the dofs that move it, its chain (the
// parent's chain, then its own dofs), so each derivative is a 6 x n_b block, one column per
// chain dof k (column c is the chain's c-th dof, root first: c is also that dof's depth):
//   d cvel_b / d v_k = cdof_k                     (the chain's velocities add in one com frame)
//   d cacc_b / d v_k = d cacc_p / d v_k + cdof_k x delta_b      (k in the parent's chain)
//                    = cdof_dot_k + cdof_k x after_k            (k one of b's own dofs)
// with delta_b the sum of b's own cdof_i v_i whose rate depends on the velocity (all but a free
// joint's translations, whose axes are fixed) and after_k its part from the joints after k's
// (ComVelocity: a ball's or free rotation's three rates use the velocity before all three);
//   d cfrc_b / d v_k = I_b (d cacc_b / d v_k) + cdof_k x* (I_b cvel_b) + cvel_b x* (I_b cdof_k).
// Summing the force blocks over b's subtree, column by column, gives d cfrc(subtree of b)/d v_k
// for b's chain; a dof k below b moves only the subtree of body(k), so for the dofs i of body(k)'s
// ancestors, d cfrc(subtree of body(i)) / d v_k is column k of body(k)'s subtree sum. Projecting
// on cdof_i fills D in M's pattern with O(sum of n_b) = O(nM) columns of 6, instead of one
// tangent run over the whole tree per dof.
#include "rne_derivative.h"

#include "gauss/math.h"
#include "inertia.h"
#include "jacobian.h"

namespace gauss {

using namespace math;

namespace {

// Body b's columns are [first[b], first[b + 1]); dof[col] is the dof of a column; block holds
// 6 numbers per column: d cacc / d v_k, then d cfrc / d v_k, then its sum over the subtree.
struct RneColumns {
  int* first = nullptr;     // (nbody + 1)
  int* dof = nullptr;       // (columns)
  double* block = nullptr;  // (6 x columns)
  template <class Take>
  void Blocks(Take& take, int nbody, std::size_t columns) {
    take(&first, static_cast<std::size_t>(nbody) + 1, "first column of each body");
    take(&dof, columns, "dof of each column");
    take(&block, 6 * columns, "d cacc, d cfrc / d v per column");
  }
};

// Sum over bodies of their chain length: the number of columns.
std::size_t CountColumns(const Model& m) {
  std::size_t total = 0;
  for (int b = 1; b < m.nbody; ++b) {
    const int last = LastDof(m, b);
    if (last < 0) continue;
    const int end = last + 1 < m.nv ? m.dof_Madr[last + 1] : m.nM;
    total += static_cast<std::size_t>(end - m.dof_Madr[last]);  // its row of M: depth + 1
  }
  return total;
}

double Dot6(const double* a, const double* b) {
  double s = 0;
  for (int c = 0; c < 6; ++c) s += a[c] * b[c];
  return s;
}

// cols (6 x 6, column-major: column c at cols + 6c) = the matrix of the linear map
// apply(out, in) on 6-vectors, from its images of the unit vectors (exact). One map per body is
// then applied to many columns as a matrix product.
template <class Map>
void MatrixOf(double* cols, Map apply) {
  for (int c = 0; c < 6; ++c) {
    double unit[6] = {0, 0, 0, 0, 0, 0};
    unit[c] = 1;
    apply(cols + 6 * c, unit);
  }
}

// out (6) += cols (6 x N, column-major) x (N): column by column into a local sum, so that the
// six rows are independent sums the compiler keeps in vector registers.
template <int N>
void AddMatVec(double* out, const double* cols, const double* x) {
  double sum[6];
  for (int r = 0; r < 6; ++r) sum[r] = out[r];
  for (int c = 0; c < N; ++c) {
    for (int r = 0; r < 6; ++r) sum[r] += cols[6 * c + r] * x[c];
  }
  for (int r = 0; r < 6; ++r) out[r] = sum[r];
}

// (cdof, cdof_dot, qvel) => first, dof, block = d cacc_b / d v for every body, roots first.
void AccelerationColumns(const Model& m, const Data& d, const RneColumns& w) {
  w.first[0] = 0;
  w.first[1] = 0;  // the world has no columns
  for (int b = 1; b < m.nbody; ++b) {
    const int p = m.body_parentid[b];
    const int np = w.first[p + 1] - w.first[p];
    const int dofadr = m.body_dofadr[b];
    const int nown = m.body_dofnum[b];
    w.first[b + 1] = w.first[b] + np + nown;
    int* dof = w.dof + w.first[b];
    double* acc = w.block + 6 * static_cast<std::size_t>(w.first[b]);
    for (int c = 0; c < np; ++c) dof[c] = w.dof[w.first[p] + c];
    for (int t = 0; t < nown; ++t) dof[np + t] = dofadr + t;

    // own dofs, last joint first, `after` accumulating the velocity of the joints already done
    double after[6] = {0, 0, 0, 0, 0, 0};
    auto group = [&](int begin, int count, bool rate_depends_on_velocity) {
      for (int k = begin; k < begin + count; ++k) {
        double* col = acc + 6 * (np + k - dofadr);
        CrossMotion(col, d.cdof.data() + 6 * k, after);
        for (int c = 0; c < 6; ++c) col[c] += d.cdof_dot[6 * k + c];
      }
      if (!rate_depends_on_velocity) return;
      for (int k = begin; k < begin + count; ++k) {
        for (int c = 0; c < 6; ++c) after[c] += d.cdof[6 * k + c] * d.qvel[k];
      }
    };
    for (int j = m.body_jntadr[b] + m.body_jntnum[b] - 1; j >= m.body_jntadr[b]; --j) {
      const int adr = m.jnt_dofadr[j];
      switch (m.jnt_type[j]) {
        case JointType::kFree:
          group(adr + 3, 3, true);
          group(adr, 3, false);  // fixed translation axes: no rate
          break;
        case JointType::kBall:
          group(adr, 3, true);
          break;
        case JointType::kSlide:
        case JointType::kHinge:
          group(adr, 1, true);
          break;
      }
    }
    // the parent's chain: every own rate moves with it, d cacc += cdof_k x delta_b
    if (np == 0) continue;
    double cross[36];
    MatrixOf(cross, [&](double* out, const double* in) { CrossMotion(out, in, after); });
    const double* parent_acc = w.block + 6 * static_cast<std::size_t>(w.first[p]);
    for (int c = 0; c < np; ++c) {
      double* col = acc + 6 * c;
      for (int r = 0; r < 6; ++r) col[r] = parent_acc[6 * c + r];
      AddMatVec<6>(col, cross, d.cdof.data() + 6 * dof[c]);
    }
  }
}

// (block = d cacc / d v, cinert, cvel, cdof) => block = d cfrc_b / d v, each body's own force:
// [I_b | G_b] [d cacc; cdof_k] with G_b c = c x* (I_b cvel_b) + cvel_b x* (I_b c).
void ForceColumns(const Model& m, const Data& d, const RneColumns& w) {
  for (int b = 1; b < m.nbody; ++b) {
    if (w.first[b + 1] == w.first[b]) continue;
    const double* cinert = d.cinert.data() + 10 * b;
    const double* vel = d.cvel.data() + 6 * b;
    double momentum[6];
    MulInertiaVec(momentum, cinert, vel);
    double map[6 * 12];  // column-major 6 x 12: [I_b | G_b]
    MatrixOf(map, [&](double* out, const double* in) { MulInertiaVec(out, cinert, in); });
    MatrixOf(map + 36, [&](double* out, const double* in) {
      double gyro_a[6], axis_momentum[6], gyro_b[6];
      CrossForce(gyro_a, in, momentum);
      MulInertiaVec(axis_momentum, cinert, in);
      CrossForce(gyro_b, vel, axis_momentum);
      for (int r = 0; r < 6; ++r) out[r] = gyro_a[r] + gyro_b[r];
    });
    for (int col = w.first[b]; col < w.first[b + 1]; ++col) {
      double* f = w.block + 6 * static_cast<std::size_t>(col);
      const double* cdof = d.cdof.data() + 6 * w.dof[col];
      double in[12];  // [d cacc; cdof_k]
      for (int c = 0; c < 6; ++c) {
        in[c] = f[c];
        in[6 + c] = cdof[c];
        f[c] = 0;
      }
      AddMatVec<12>(f, map, in);
    }
  }
}

// (block = d cfrc / d v, cdof) => lower, upper -= the projections; block summed over subtrees.
void ProjectColumns(const Model& m, const Data& d, const RneColumns& w, double* lower,
                    double* upper) {
  for (int b = m.nbody - 1; b > 0; --b) {
    const int p = m.body_parentid[b];
    const int np = w.first[p + 1] - w.first[p];
    const int nb = w.first[b + 1] - w.first[b];
    const int dofadr = m.body_dofadr[b];
    const int* dof = w.dof + w.first[b];
    const double* f = w.block + 6 * static_cast<std::size_t>(w.first[b]);  // subtree sum now
    for (int t = 0; t < m.body_dofnum[b]; ++t) {
      const int i = dofadr + t;
      const int depth_i = np + t;
      const double* cdof_i = d.cdof.data() + 6 * i;
      // D(i, k) for the whole chain of b: k an ancestor-or-self of i, or a later own dof
      for (int c = 0; c < nb; ++c) {
        const double value = Dot6(cdof_i, f + 6 * c);
        if (c <= depth_i) {
          lower[m.dof_Madr[i] + depth_i - c] -= value;
        } else {
          upper[m.dof_Madr[dof[c]] + c - depth_i] -= value;
        }
      }
      // D(a, i) for the ancestors a of b: i moves only b's subtree
      for (int c = 0; c < np; ++c) {
        upper[m.dof_Madr[i] + depth_i - c] -= Dot6(d.cdof.data() + 6 * dof[c], f + 6 * depth_i);
      }
    }
    if (p == 0) continue;  // trees do not exchange forces through the world
    double* parent = w.block + 6 * static_cast<std::size_t>(w.first[p]);
    for (int e = 0; e < 6 * np; ++e) parent[e] += f[e];
  }
}

}  // namespace

ArenaPlan RneDerivativePlan(const Model& m) {
  ArenaPlan plan;
  RneColumns().Blocks(plan, m.nbody, CountColumns(m));
  return plan;
}

void AddRneDerivative(const Model& m, Data& d, double* lower, double* upper) {
  ArenaScope scope(d.arena);
  ArenaCarve carve(d.arena);
  RneColumns w;
  w.Blocks(carve, m.nbody, CountColumns(m));
  AccelerationColumns(m, d, w);
  ForceColumns(m, d, w);
  ProjectColumns(m, d, w, lower, upper);
}

}  // namespace gauss
