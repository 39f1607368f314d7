// The soft-constraint penalty s(jar) of the reduced primal problem, its gradient (the
// constraint force) and its Hessian, shared by every solver plugin and the inverse dynamics.
//
// Elliptic contacts: with the regularizer coupled as the kernel builds it (R of the first
// friction row = R_normal / impratio, and R_j mu_j^2 equal over the friction rows), the
// R^-1-metric distance to the dual cone reduces to three zones of
//   N = jar_normal,  T = |(mu_1 jar_1, ..., mu_k jar_k)|,  m2 = mu_1^2 / impratio:
//   N >= T            : inside the dual cone, no force;
//   m2 N + T <= 0     : every row quadratic (the projection is the cone's tip);
//   otherwise         : s = 1/2 D_normal / (1 + m2) (N - T)^2, force on the cone surface.
#include <cmath>

#include "gauss/constraint.h"

namespace gauss {

namespace {

// Zone of an elliptic contact: its T, and whether it is in the middle (cone) zone, the
// bottom (all quadratic) zone or the top (free) zone.
struct EllipticZone {
  double T = 0;
  double m2 = 0;
  ConstraintState state = ConstraintState::kSatisfied;
};

EllipticZone ClassifyElliptic(const ConstraintProblem& p, const Contact& c, const double* jar) {
  EllipticZone z;
  double t2 = 0;
  for (int j = 1; j < c.dim; ++j) {
    const double u = c.friction[j - 1] * jar[j];
    t2 += u * u;
  }
  z.T = std::sqrt(t2);
  z.m2 = c.friction[0] * c.friction[0] / p.impratio;
  const double N = jar[0];
  if (N >= z.T) {
    z.state = ConstraintState::kSatisfied;
  } else if (z.m2 * N + z.T <= 0) {
    z.state = ConstraintState::kQuadratic;
  } else {
    z.state = ConstraintState::kCone;
  }
  return z;
}

// Calls fn(row_begin, row_count, nonzero columns) for a row's nonzeros: fn(col, value).
template <class Fn>
void ForEachNonzero(const ConstraintProblem& p, int row, Fn&& fn) {
  if (p.J) {
    const double* r = p.J + static_cast<long>(row) * p.nv;
    for (int c = 0; c < p.nv; ++c) {
      if (r[c] != 0) fn(c, r[c]);
    }
  } else {
    const int adr = p.J_rowadr[row];
    for (int k = 0; k < p.J_rownnz[row]; ++k) fn(p.J_colind[adr + k], p.J_sparse[adr + k]);
  }
}

}  // namespace

void MulJ(const ConstraintProblem& p, const double* x, double* y) {
  for (int i = 0; i < p.nefc; ++i) {
    double sum = 0;
    ForEachNonzero(p, i, [&](int c, double v) { sum += v * x[c]; });
    y[i] = sum;
  }
}

void MulJT(const ConstraintProblem& p, const double* f, double* y) {
  for (int c = 0; c < p.nv; ++c) y[c] = 0;
  for (int i = 0; i < p.nefc; ++i) {
    if (f[i] == 0) continue;
    const double fi = f[i];
    ForEachNonzero(p, i, [&](int c, double v) { y[c] += v * fi; });
  }
}

double ConstraintCost(const ConstraintProblem& p, const double* jar, double* force, int* state) {
  double cost = 0;
  auto set = [&](int i, double f, ConstraintState s) {
    if (force) force[i] = f;
    if (state) state[i] = static_cast<int>(s);
  };
  for (int i = 0; i < p.nefc; ++i) {
    const int type = p.type[i];
    const double D = p.D[i];
    if (type == static_cast<int>(ConstraintType::kEquality)) {
      cost += 0.5 * D * jar[i] * jar[i];
      set(i, -D * jar[i], ConstraintState::kQuadratic);
    } else if (IsFrictionLossRow(type)) {
      // Huber: quadratic within |jar| <= R floss, linear outside
      const double floss = p.frictionloss[i];
      const double bound = p.R[i] * floss;
      if (jar[i] >= bound) {
        cost += floss * jar[i] - 0.5 * p.R[i] * floss * floss;
        set(i, -floss, ConstraintState::kLinearPos);
      } else if (jar[i] <= -bound) {
        cost += -floss * jar[i] - 0.5 * p.R[i] * floss * floss;
        set(i, floss, ConstraintState::kLinearNeg);
      } else {
        cost += 0.5 * D * jar[i] * jar[i];
        set(i, -D * jar[i], ConstraintState::kQuadratic);
      }
    } else if (IsOneSidedRow(type)) {
      if (jar[i] < 0) {
        cost += 0.5 * D * jar[i] * jar[i];
        set(i, -D * jar[i], ConstraintState::kQuadratic);
      } else {
        set(i, 0, ConstraintState::kSatisfied);
      }
    }
    // elliptic rows are handled per contact below
  }

  for (int k = 0; k < p.ncon; ++k) {
    const Contact& c = p.contact[k];
    const int adr = c.efc_address;
    if (adr < 0 || p.type[adr] != static_cast<int>(ConstraintType::kContactElliptic)) continue;
    const double* j = jar + adr;
    const EllipticZone z = ClassifyElliptic(p, c, j);
    if (z.state == ConstraintState::kSatisfied) {
      for (int r = 0; r < c.dim; ++r) set(adr + r, 0, ConstraintState::kSatisfied);
    } else if (z.state == ConstraintState::kQuadratic) {
      for (int r = 0; r < c.dim; ++r) {
        cost += 0.5 * p.D[adr + r] * j[r] * j[r];
        set(adr + r, -p.D[adr + r] * j[r], ConstraintState::kQuadratic);
      }
    } else {
      const double Dm = p.D[adr] / (1 + z.m2);
      const double g = j[0] - z.T;  // < 0 in this zone
      cost += 0.5 * Dm * g * g;
      set(adr, -Dm * g, ConstraintState::kCone);
      for (int r = 1; r < c.dim; ++r) {
        const double mu = c.friction[r - 1];
        set(adr + r, Dm * g * mu * mu * j[r] / z.T, ConstraintState::kCone);
      }
    }
  }
  return cost;
}

void AddConstraintHessian(const ConstraintProblem& p, const double* jar, const int* state,
                          double* H) {
  const int nv = p.nv;
  // rows with a quadratic penalty: D J_i' J_i (elliptic bottom zone included)
  for (int i = 0; i < p.nefc; ++i) {
    if (state[i] != static_cast<int>(ConstraintState::kQuadratic)) continue;
    const double D = p.D[i];
    ForEachNonzero(p, i, [&](int a, double va) {
      ForEachNonzero(p, i, [&](int b, double vb) {
        if (b <= a) H[a * nv + b] += D * va * vb;
      });
    });
  }

  // elliptic contacts on the cone surface: Hc = Dm (grad g grad g' + g hess g) in contact
  // coordinates, then J_c' Hc J_c
  for (int k = 0; k < p.ncon; ++k) {
    const Contact& c = p.contact[k];
    const int adr = c.efc_address;
    if (adr < 0 || state[adr] != static_cast<int>(ConstraintState::kCone)) continue;
    const double* j = jar + adr;
    const EllipticZone z = ClassifyElliptic(p, c, j);
    const double Dm = p.D[adr] / (1 + z.m2);
    const double g = j[0] - z.T;
    double grad[6], hc[36];
    grad[0] = 1;
    for (int r = 1; r < c.dim; ++r) {
      const double mu = c.friction[r - 1];
      grad[r] = -mu * mu * j[r] / z.T;
    }
    for (int a = 0; a < c.dim; ++a) {
      for (int b = 0; b < c.dim; ++b) {
        double hess_g = 0;
        if (a > 0 && b > 0) {
          const double mua2 = c.friction[a - 1] * c.friction[a - 1];
          const double mub2 = c.friction[b - 1] * c.friction[b - 1];
          hess_g = -(a == b ? mua2 / z.T : 0) + mua2 * j[a] * mub2 * j[b] / (z.T * z.T * z.T);
        }
        hc[a * c.dim + b] = Dm * (grad[a] * grad[b] + g * hess_g);
      }
    }
    for (int a = 0; a < c.dim; ++a) {
      for (int b = 0; b < c.dim; ++b) {
        const double w = hc[a * c.dim + b];
        if (w == 0) continue;
        ForEachNonzero(p, adr + a, [&](int col_a, double va) {
          ForEachNonzero(p, adr + b, [&](int col_b, double vb) {
            if (col_b <= col_a) H[col_a * nv + col_b] += w * va * vb;
          });
        });
      }
    }
  }
}

}  // namespace gauss
