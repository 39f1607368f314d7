// The interior-point iteration (ip_solve.h): Algorithm 2 of the Dojo paper on the rows of
// ip_rows.h, with Newton's matrix reduced to the nv unknowns a (= qacc).
//
// Unknowns: a (nv); per row r a force f_r (equality lambda, orthant gamma, friction xi~ in
// units of the normal force, friction loss force) and a slack s_r (orthant: s = pos/h + J v+;
// friction rows: eta~ = T v+); per cone xi1 and eta1. Residuals:
//   R_dyn = M (a - a0) - J' f                      (N)
//   R_r   = pos/h + u_r            (equality)      u_r = vel0_r + h (J a)_r: the row velocity
//         = s_r - pos/h - u_r      (orthant)
//         = s_r - u_r              (friction: eta~ - T v+)
//   R_xi  = xi1 - gamma_normal  or  xi1 - frictionloss
//   complementarity gamma s - kappa,  xi o eta - kappa e.
// Linearizing and eliminating every row's unknowns in terms of z = J da leaves
//   H da = -R_dyn + J' k,   H = M + J' Y J,
// with Y diagonal on equality (h/eps) and orthant rows (h gamma/s) and, per cone, the block
// h Ginv Q on its friction rows plus the coupling Ginv cxi (h gamma/s) from its normal row
// (cone.h). H is not symmetric. Dense Jacobian (nv < 60): H is formed and LU-factored with
// row pivoting (dense_lu.h), one refinement step. Sparse Jacobian: GMRES, preconditioned by
// M + J' W J with W the symmetric diagonal part of Y, factored as Newton's Hessian
// (newton/hessian.h).
#include "ip_solve.h"

#include <algorithm>
#include <cmath>

#include "block_lu.h"
#include "cone.h"
#include "dense_lu.h"
#include "gmres.h"
#include "hessian.h"
#include "ip_iteration.h"
#include "ip_rows.h"

#include "gauss/error.h"

namespace gauss {
namespace ip {

namespace {

// A singular M + J'YJ (M is positive definite, so Y has lost its meaning): reachable by input,
// e.g. hard equalities that cannot all hold, so a user-facing error rather than an invariant.
[[noreturn]] void ThrowSingularNewtonMatrix() {
  throw Error("ip: the interior-point Newton matrix M + J'YJ is singular: the hard constraints "
              "cannot all hold (e.g. redundant or conflicting equalities); use a soft-constraint "
              "solver (newton, cg, pgs) for this model");
}

constexpr int kGmresRestart = 20;
constexpr int kGmresMaxProducts = 200;
constexpr int kGmresMaxProductsExact = 20;  // with H's own LU as preconditioner
constexpr double kGmresTolerance = 1e-13;
constexpr int kMaxBacktracks = 30;
constexpr double kCentrality = 1e-3;
constexpr int kMaxBlock = 160;  // largest block factored exactly on sparse models

// rc = xi o eta - kappa e (cone of n entries), or 0 when the complementarity is left out (the
// residual's change with the problem data, which does not enter it).
void ComplementarityResidual(const double* xi, const double* eta, int n, double kappa,
                             bool complementarity, double* rc) {
  if (!complementarity) {
    std::fill(rc, rc + n, 0.0);
    return;
  }
  JordanProduct(xi, eta, n, rc);
  rc[0] -= kappa;
}

}  // namespace

IpIteration::IpIteration(const ConstraintProblem& p, const IpSettings& settings, Arena& arena)
    : p_(p), set_(settings), arena_(arena), h_(p.timestep), nv_(p.nv) {
  rows_.Build(p, arena);
  n_ = rows_.n;
  nc_ = rows_.ncone;
  x_.Allocate(nv_, n_, nc_, arena);
  trial_.Allocate(nv_, n_, nc_, arena);
  dx_.Allocate(nv_, n_, nc_, arena);
  rdyn_ = arena.Doubles(nv_);
  rrow_ = arena.Doubles(std::max(n_, 1));
  rxi_ = arena.Doubles(std::max(nc_, 1));
  k_ = arena.Doubles(std::max(n_, 1));
  coef_ = arena.Doubles(std::max(n_, 1));
  z_ = arena.Doubles(std::max(n_, 1));
  y_ = arena.Doubles(std::max(n_, 1));
  rhs_ = arena.Doubles(nv_);
  tmp_ = arena.Doubles(nv_);
  elim_ = reinterpret_cast<ConeElimination*>(arena.Doubles(
      (sizeof(ConeElimination) * std::max(nc_, 1) + sizeof(double) - 1) / sizeof(double)));
  velocity_scale_ = h_ / std::max(p.meaninertia, 1e-300);
  if (!rows_.view.J) use_blocks_ = blocks_.Setup(rows_.view, kMaxBlock, arena);
}

void IpIteration::Start() {
  const double* a0 = p_.qacc_warmstart ? p_.qacc_warmstart : p_.qacc_smooth;
  std::copy(a0, a0 + nv_, x_.a);
  MulJ(rows_.view, x_.a, z_);
  const double root = std::sqrt(set_.kappa_init);
  for (int r = 0; r < n_; ++r) {
    const double u = rows_.vel0[r] + h_ * z_[r];
    x_.f[r] = 0;
    x_.s[r] = 0;
    if (rows_.kind[r] == RowKind::kOrthant) {
      x_.s[r] = std::max(rows_.pos_h[r] + u, root);
      x_.f[r] = set_.kappa_init / x_.s[r];
    } else if (rows_.kind[r] != RowKind::kEquality) {
      x_.s[r] = u;  // eta~ = the friction row's velocity
    }
  }
  for (int j = 0; j < nc_; ++j) {
    const Cone& c = rows_.cones[j];
    double norm = 0;
    for (int k = 0; k < c.d; ++k) norm += x_.s[c.first + k] * x_.s[c.first + k];
    x_.xi1[j] = c.normal >= 0 ? x_.f[c.normal] : c.radius;
    x_.eta1[j] = std::sqrt(norm) + set_.kappa_init / x_.xi1[j];
  }
}

double IpIteration::Complementarity(const Point& x) const {
  double sum = 0;
  for (int r = 0; r < n_; ++r) {
    if (rows_.kind[r] == RowKind::kOrthant) sum += x.f[r] * x.s[r];
  }
  for (int j = 0; j < nc_; ++j) {
    const Cone& c = rows_.cones[j];
    sum += x.xi1[j] * x.eta1[j];
    for (int k = 0; k < c.d; ++k) sum += x.f[c.first + k] * x.s[c.first + k];
  }
  return sum;
}

bool IpIteration::Centered(const Point& x, double kappa) const {
  const double floor = kCentrality * std::min(kappa, Complementarity(x) / degree_);
  for (int r = 0; r < n_; ++r) {
    if (rows_.kind[r] == RowKind::kOrthant && x.f[r] * x.s[r] < floor) return false;
  }
  for (int j = 0; j < nc_; ++j) {
    const Cone& c = rows_.cones[j];
    double xi[kMaxConeDim], eta[kMaxConeDim];
    GatherCone(x, c, j, xi, eta);
    double dxi = xi[0] * xi[0], deta = eta[0] * eta[0];
    for (int k = 1; k <= c.d; ++k) {
      dxi -= xi[k] * xi[k];
      deta -= eta[k] * eta[k];
    }
    if (!(dxi > 0 && deta > 0 && std::sqrt(dxi * deta) >= floor)) return false;
  }
  return true;
}

void IpIteration::Evaluate(const Point& x, double* r_vio, double* kappa_vio) {
  // R_dyn = M (a - a0) - J' f
  for (int i = 0; i < nv_; ++i) tmp_[i] = x.a[i] - p_.qacc_smooth[i];
  p_.M->MulM(tmp_, rdyn_);
  MulJT(rows_.view, x.f, rhs_);
  double r = 0;
  for (int i = 0; i < nv_; ++i) {
    rdyn_[i] -= rhs_[i];
    r = std::max(r, velocity_scale_ * std::fabs(rdyn_[i]));
  }
  MulJ(rows_.view, x.a, z_);
  double kv = 0;
  for (int i = 0; i < n_; ++i) {
    const double u = rows_.vel0[i] + h_ * z_[i];
    switch (rows_.kind[i]) {
      case RowKind::kEquality: rrow_[i] = rows_.pos_h[i] + u; break;
      case RowKind::kOrthant:
        rrow_[i] = x.s[i] - rows_.pos_h[i] - u;
        kv = std::max(kv, std::fabs(x.f[i] * x.s[i]));
        break;
      default: rrow_[i] = x.s[i] - u; break;
    }
    r = std::max(r, std::fabs(rrow_[i]));
  }
  for (int j = 0; j < nc_; ++j) {
    const Cone& c = rows_.cones[j];
    rxi_[j] = x.xi1[j] - (c.normal >= 0 ? x.f[c.normal] : c.radius);
    r = std::max(r, velocity_scale_ * std::fabs(rxi_[j]));
    double xi[kMaxConeDim], eta[kMaxConeDim], prod[kMaxConeDim];
    GatherCone(x, c, j, xi, eta);
    JordanProduct(xi, eta, c.d + 1, prod);
    for (int k = 0; k <= c.d; ++k) kv = std::max(kv, std::fabs(prod[k]));
  }
  *r_vio = r;
  *kappa_vio = kv;
}

// out = H v = M v + J' Y J v
void IpIteration::ApplyH(const double* v, double* out) {
  MulJ(rows_.view, v, z_);
  for (int r = 0; r < n_; ++r) {
    if (rows_.kind[r] == RowKind::kEquality || rows_.kind[r] == RowKind::kOrthant) {
      y_[r] = coef_[r] * z_[r];
    }
  }
  for (int j = 0; j < nc_; ++j) {
    const Cone& c = rows_.cones[j];
    const ConeElimination& e = elim_[j];
    const double zn = c.normal >= 0 ? coef_[c.normal] * z_[c.normal] : 0;
    for (int i = 0; i < c.d; ++i) {
      double v_i = e.Ginv_cxi[i] * zn;
      for (int k = 0; k < c.d; ++k) v_i += h_ * e.GinvQ[i * c.d + k] * z_[c.first + k];
      y_[c.first + i] = v_i;
    }
  }
  p_.M->MulM(v, out);
  MulJT(rows_.view, y_, tmp_);
  for (int i = 0; i < nv_; ++i) out[i] += tmp_[i];
}

bool IpIteration::Direction(double kappa, bool factor, bool complementarity) {
  const Point& x = x_;
  // rows: weights (linear part) and constants k of each force's step df = -Y z + k
  for (int r = 0; r < n_; ++r) {
    if (rows_.kind[r] == RowKind::kEquality) {
      coef_[r] = h_ / rows_.eps[r];
      rows_.weight[r] = coef_[r];
      k_[r] = -rrow_[r] / rows_.eps[r];
    } else if (rows_.kind[r] == RowKind::kOrthant) {
      const double g = x.f[r], s = x.s[r];
      coef_[r] = h_ * g / s;
      rows_.weight[r] = coef_[r];
      k_[r] = ((complementarity ? -(g * s - kappa) : 0.0) + g * rrow_[r]) / s;
    }
  }
  for (int j = 0; j < nc_; ++j) {
    const Cone& c = rows_.cones[j];
    double xi[kMaxConeDim], eta[kMaxConeDim], rc[kMaxConeDim] = {};
    GatherCone(x, c, j, xi, eta);
    ComplementarityResidual(xi, eta, c.d + 1, kappa, complementarity, rc);
    ConeElimination& e = elim_[j];
    e.Build(xi, eta, rc, c.d + 1);
    // dxi1 = dgamma - R_xi = -(h gamma/s) z_n + k_n - R_xi ; deta~ = h z_t - R_eta
    const double kn = (c.normal >= 0 ? k_[c.normal] : 0) - rxi_[j];
    for (int i = 0; i < c.d; ++i) {
      double v = e.Ginv_c0[i] + e.Ginv_cxi[i] * kn;
      for (int k = 0; k < c.d; ++k) v += e.GinvQ[i * c.d + k] * rrow_[c.first + k];
      k_[c.first + i] = v;
      // the preconditioner keeps the symmetric diagonal of the block
      rows_.weight[c.first + i] = std::max(h_ * e.GinvQ[i * c.d + i], 0.0);
    }
  }
  if (factor) {
    has_factor_ = true;
    if (rows_.view.J) {
      FactorDense();
    } else if (use_blocks_) {
      FactorBlocks();
    } else {
      FactorPreconditioner();
    }
  }
  // rhs = -R_dyn + J' k
  MulJT(rows_.view, k_, rhs_);
  for (int i = 0; i < nv_; ++i) rhs_[i] -= rdyn_[i];
  // GMRES on H, preconditioned by the LU of H itself (dense models, or sparse models whose
  // blocks are small) or by the symmetric approximation: with the LU it converges in a few
  // products, and it recovers the accuracy the LU loses to H's conditioning near convergence
  std::fill(dx_.a, dx_.a + nv_, 0.0);
  const bool exact = rows_.view.J || use_blocks_;
  const int products = Gmres(
      nv_, rhs_, dx_.a, kGmresTolerance, kGmresRestart,
      exact ? kGmresMaxProductsExact : kGmresMaxProducts,
      [this](const double* v, double* out) { ApplyH(v, out); },
      [this, exact](double* v) {
        if (exact) {
          SolveExact(v);
        } else {
          precond_.Solve(v);
        }
      },
      arena_);
  // back-substitution of every row's unknowns
  MulJ(rows_.view, dx_.a, z_);
  for (int r = 0; r < n_; ++r) {
    if (rows_.kind[r] == RowKind::kEquality) {
      dx_.f[r] = -coef_[r] * z_[r] + k_[r];
      dx_.s[r] = 0;
    } else if (rows_.kind[r] == RowKind::kOrthant) {
      dx_.f[r] = -coef_[r] * z_[r] + k_[r];
      dx_.s[r] = h_ * z_[r] - rrow_[r];
    } else {
      dx_.s[r] = h_ * z_[r] - rrow_[r];  // deta~
    }
  }
  for (int j = 0; j < nc_; ++j) {
    const Cone& c = rows_.cones[j];
    const ConeElimination& e = elim_[j];
    const double dgamma = c.normal >= 0 ? dx_.f[c.normal] : 0;
    const double dxi1 = dgamma - rxi_[j];
    double xi[kMaxConeDim], eta[kMaxConeDim], rc[kMaxConeDim] = {};
    GatherCone(x, c, j, xi, eta);
    ComplementarityResidual(xi, eta, c.d + 1, kappa, complementarity, rc);
    double dot = 0;
    for (int i = 0; i < c.d; ++i) {
      double v = e.Ginv_c0[i] + e.Ginv_cxi[i] * dxi1;
      for (int k = 0; k < c.d; ++k) v -= e.GinvQ[i * c.d + k] * dx_.s[c.first + k];
      dx_.f[c.first + i] = v;
      dot += eta[1 + i] * v + xi[1 + i] * dx_.s[c.first + i];
    }
    dx_.xi1[j] = dxi1;
    dx_.eta1[j] = (-rc[0] - eta[0] * dxi1 - dot) / xi[0];
  }
  return products < (exact ? kGmresMaxProductsExact : kGmresMaxProducts);
}

// Sparse models: the preconditioner M + J' W J with W = the row weights (friction rows: their
// diagonal), factored as Newton's Hessian. Near convergence the weights h gamma/s of active
// rows span many orders of magnitude; when the factor loses a pivot to round-off, the weights
// are capped (relative to the inertia) and factored again: the preconditioner only has to be
// close to H, GMRES does the rest.
void IpIteration::FactorPreconditioner() {
  double cap = 1e12 * p_.meaninertia;
  for (int attempt = 0;; ++attempt) {
    arena_.Release(factor_mark_);
    if (precond_.Factor(rows_.view, nullptr, rows_.state, arena_)) return;
    GAUSS_DEMAND(attempt < 6, "the interior-point preconditioner M + J'WJ is positive definite");
    for (int r = 0; r < n_; ++r) rows_.weight[r] = std::min(rows_.weight[r], cap);
    cap *= 1e-2;
  }
}

template <class Add>
void IpIteration::ForEachRowPair(const Add& add) const {
  for (int r = 0; r < n_; ++r) {
    if (rows_.kind[r] == RowKind::kEquality || rows_.kind[r] == RowKind::kOrthant) {
      add(r, r, coef_[r]);
    }
  }
  for (int j = 0; j < nc_; ++j) {
    const Cone& c = rows_.cones[j];
    const ConeElimination& e = elim_[j];
    for (int i = 0; i < c.d; ++i) {
      for (int k = 0; k < c.d; ++k) add(c.first + i, c.first + k, h_ * e.GinvQ[i * c.d + k]);
      if (c.normal >= 0) add(c.first + i, c.normal, e.Ginv_cxi[i] * coef_[c.normal]);
    }
  }
}

// Sparse models with small blocks: H itself, block by block (block_lu.h).
void IpIteration::FactorBlocks() {
  blocks_.SetToM(rows_.view);
  ForEachRowPair([this](int a, int b, double c) { blocks_.AddRowPair(rows_.view, a, b, c); });
  if (!blocks_.Factor()) {
    ThrowSingularNewtonMatrix();
  }
}

void IpIteration::SolveExact(double* x) const {
  if (rows_.view.J) {
    LuSolve(lu_, nv_, piv_, x);
  } else {
    blocks_.Solve(x);
  }
}

// Dense models: H = M + J' Y J itself (nv x nv), LU-factored with row pivoting.
void IpIteration::FactorDense() {
  const int nv = nv_;
  const double* J = rows_.view.J;
  if (!nonzero_count_) {
    // the columns where each row is nonzero (rows touch a few bodies' dof chains)
    nonzero_count_ = arena_.Ints(std::max(n_, 1));
    nonzero_cols_ = arena_.Ints(static_cast<std::size_t>(std::max(n_, 1)) * nv);
    for (int r = 0; r < n_; ++r) {
      const double* jr = J + static_cast<std::size_t>(r) * nv;
      int* cols = nonzero_cols_ + static_cast<std::size_t>(r) * nv;
      int count = 0;
      for (int i = 0; i < nv; ++i) {
        if (jr[i] != 0) cols[count++] = i;
      }
      nonzero_count_[r] = count;
    }
    factor_mark_ = arena_.Mark();
    lu_ = arena_.Doubles(static_cast<std::size_t>(nv) * nv);
    piv_ = arena_.Ints(nv);
  }
  std::fill(lu_, lu_ + static_cast<std::size_t>(nv) * nv, 0.0);
  p_.M->AddToDense(lu_);  // lower triangle
  for (int i = 0; i < nv; ++i) {
    for (int j = i + 1; j < nv; ++j) lu_[i * nv + j] = lu_[j * nv + i];
  }
  // += c J_a' J_b over the two rows' nonzero columns
  auto add = [&](int a, int b, double c) {
    if (c == 0) return;
    const double* ja = J + static_cast<std::size_t>(a) * nv;
    const double* jb = J + static_cast<std::size_t>(b) * nv;
    const int* ca = nonzero_cols_ + static_cast<std::size_t>(a) * nv;
    const int* cb = nonzero_cols_ + static_cast<std::size_t>(b) * nv;
    for (int p = 0; p < nonzero_count_[a]; ++p) {
      const int i = ca[p];
      const double ci = c * ja[i];
      double* row = lu_ + static_cast<std::size_t>(i) * nv;
      for (int q = 0; q < nonzero_count_[b]; ++q) row[cb[q]] += ci * jb[cb[q]];
    }
  };
  ForEachRowPair(add);
  if (!LuFactor(lu_, nv, piv_)) {
    ThrowSingularNewtonMatrix();
  }
}

double IpIteration::MaxStep(const Point& x, const Point& dx, double tau_ort,
                            double tau_soc) const {
  double alpha = 1;
  for (int r = 0; r < n_; ++r) {
    if (rows_.kind[r] != RowKind::kOrthant) continue;
    alpha = std::min(alpha, tau_ort * OrthantMaxStep(x.f[r], dx.f[r]));
    alpha = std::min(alpha, tau_ort * OrthantMaxStep(x.s[r], dx.s[r]));
  }
  for (int j = 0; j < nc_; ++j) {
    const Cone& c = rows_.cones[j];
    double xi[kMaxConeDim], eta[kMaxConeDim], dxi[kMaxConeDim], deta[kMaxConeDim];
    GatherCone(x, c, j, xi, eta);
    GatherCone(dx, c, j, dxi, deta);
    alpha = std::min(alpha, tau_soc * SocMaxStep(xi, dxi, c.d + 1));
    alpha = std::min(alpha, tau_soc * SocMaxStep(eta, deta, c.d + 1));
  }
  return alpha;
}

// max / min of diag(M + J' W J): the spread the complementarity weights give the Newton matrix
double IpIteration::ConditionEstimate() const {
  for (int i = 0; i < nv_; ++i) tmp_[i] = p_.qM[p_.dof_Madr[i]];
  const ConstraintProblem& v = rows_.view;
  for (int r = 0; r < n_; ++r) {
    const double w = rows_.weight[r];
    if (v.J) {
      const double* row = v.J + static_cast<std::size_t>(r) * nv_;
      for (int i = 0; i < nv_; ++i) tmp_[i] += w * row[i] * row[i];
    } else {
      for (int q = 0; q < v.J_rownnz[r]; ++q) {
        const double jv = v.J_sparse[v.J_rowadr[r] + q];
        tmp_[v.J_colind[v.J_rowadr[r] + q]] += w * jv * jv;
      }
    }
  }
  double lo = tmp_[0], hi = tmp_[0];
  for (int i = 1; i < nv_; ++i) {
    lo = std::min(lo, tmp_[i]);
    hi = std::max(hi, tmp_[i]);
  }
  return lo > 0 ? hi / lo : 0;
}

SolverResult IpIteration::Run(double* qacc, double* force, SolverIteration* trace) {
  SolverResult result;
  Start();
  double r_vio, kappa_vio;
  Evaluate(x_, &r_vio, &kappa_vio);
  int orthants = 0;
  for (int r = 0; r < n_; ++r) orthants += rows_.kind[r] == RowKind::kOrthant;
  degree_ = std::max(1, orthants + nc_);
  const int degree = degree_;
  factor_mark_ = arena_.Mark();
  const int limit = std::min(set_.max_iterations, p_.iterations);
  for (int iter = 0; iter < limit; ++iter) {
    if (r_vio < set_.r_tol && kappa_vio < set_.kappa_tol) {
      result.converged = true;
      break;
    }
    // predictor (kappa = 0) and Mehrotra's centering (eq. 51-54)
    Direction(0, true);
    const double alpha_aff = MaxStep(x_, dx_, 1, 1);
    trial_.Step(x_, dx_, alpha_aff, nv_, n_, nc_);
    const double mu = Complementarity(x_) / degree;
    const double mu_aff = Complementarity(trial_) / degree;
    const double ratio = mu > 0 ? std::clamp(mu_aff / mu, 0.0, 1.0) : 0.0;
    const double floor = set_.kappa_floor > 0 ? set_.kappa_floor : set_.kappa_tol / 5;
    const double kappa = std::max(ratio * ratio * ratio * mu, floor);
    // corrector toward kappa, fraction to the boundary
    Direction(kappa, false);
    const double viol = std::max(r_vio, kappa_vio);
    const double tau_ort = std::max(set_.tau_min, 1 - viol * viol);
    const double tau_soc = std::min(set_.tau_soc_max, tau_ort);
    double alpha = MaxStep(x_, dx_, tau_ort, tau_soc);
    // backtracking until either violation does not grow
    const double r_best = r_vio, kappa_best = kappa_vio;
    for (int back = 0;; ++back) {
      trial_.Step(x_, dx_, alpha, nv_, n_, nc_);
      Evaluate(trial_, &r_vio, &kappa_vio);
      const bool progress = r_vio <= r_best || kappa_vio <= kappa_best;
      if ((progress && Centered(trial_, kappa)) || back == kMaxBacktracks) break;
      alpha *= set_.backtrack;
    }
    x_.CopyFrom(trial_, nv_, n_, nc_);
    result.iterations = iter + 1;
    if (trace) {
      SolverIteration& it = trace[iter];
      it = SolverIteration();
      it.cost = mu;
      it.gradient = r_vio;
      it.residual = r_vio;
      it.complementarity = kappa_vio;
      it.step = alpha;
      it.condition = ConditionEstimate();
    }
  }
  if (!result.converged && r_vio < set_.r_tol && kappa_vio < set_.kappa_tol) {
    result.converged = true;
  }
  std::copy(x_.a, x_.a + nv_, qacc);
  rows_.ScatterForce(p_, x_.f, force);
  return result;
}


std::size_t IpScratch(const Model& m) {
  return IpScratch(m.nv, m.njmax, MaxRowNonzeros(m), m.nM, IsSparse(m));
}

std::size_t IpScratch(int nv, int nefc, int row_nnz, int nM, bool sparse) {
  const int nj = std::max(nefc, 1);
  const std::size_t nnz = static_cast<std::size_t>(nj) * row_nnz;
  const std::size_t cones =
      (sizeof(ConeElimination) * static_cast<std::size_t>(nj) + sizeof(double)) / sizeof(double);
  const std::size_t gmres = static_cast<std::size_t>(kGmresRestart + 1) * (nv + kGmresRestart) +
                            4 * static_cast<std::size_t>(nv) + 4 * kGmresRestart + 64;
  return IpRows::Scratch(nv, nj, nnz, sparse) + NewtonHessian::Plan(nv, nM, nj, row_nnz, sparse).doubles() +
         cones + gmres + 3 * (2 * static_cast<std::size_t>(nv) + 3 * nj) + 8 * nv + 8 * nj + 256 +
         // dense: the LU of H and each row's nonzero columns; sparse: the block LU
         (sparse ? BlockLu::Scratch(nv, kMaxBlock)
                 : static_cast<std::size_t>(nv) * nv + static_cast<std::size_t>(nj) * nv / 2 +
                       4 * static_cast<std::size_t>(nv));
}

IpSettings GradientSettings(const IpSettings& settings) {
  IpSettings g = settings;
  g.kappa_floor = settings.gradient_kappa;
  g.kappa_tol = settings.gradient_kappa * (1 + 1e-9);
  g.gradient_kappa = 0;
  return g;
}

SolverResult SolveInteriorPoint(const ConstraintProblem& p, const IpSettings& settings,
                                Arena& arena, double* qacc, double* force,
                                SolverIteration* trace) {
  ArenaScope scope(arena);
  IpIteration iteration(p, settings, arena);
  return iteration.Run(qacc, force, trace);
}

}  // namespace ip
}  // namespace gauss
