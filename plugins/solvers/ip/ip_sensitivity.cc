// Sensitivity products of the `ip` solver (ip_sensitivity.h).
#include "ip_sensitivity.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "gauss/error.h"

namespace gauss {
namespace ip {

// ---------------------------------------------------------------- IpIteration's tangent

void IpIteration::SolutionTangent(const double* d_dyn, const double* d_row, double* da,
                                  double* df) {
  for (int attempt = 0;; ++attempt) {
    std::copy(d_dyn, d_dyn + nv_, rdyn_);
    std::copy(d_row, d_row + n_, rrow_);
    std::fill(rxi_, rxi_ + std::max(nc_, 1), 0.0);
    // the factorization of the last Newton step preconditions GMRES on K at the solution; a
    // solve that never factored (converged at its start), or whose factor is too far from K
    // for GMRES, factors K at the solution once
    const bool factor = !has_factor_ || (attempt > 0 && !factored_at_solution_);
    if (factor) factored_at_solution_ = true;
    const bool converged = Direction(0, factor, /*complementarity=*/false);
    if (converged || factored_at_solution_) break;
  }
  std::copy(dx_.a, dx_.a + nv_, da);
  std::copy(dx_.f, dx_.f + n_, df);
}

// ---------------------------------------------------------------- the cache

IpSensitivity& IpSensitivity::ForThisThread() {
  thread_local IpSensitivity cache;
  return cache;
}

namespace {

bool SameSettings(const IpSettings& a, const IpSettings& b) {
  return a.r_tol == b.r_tol && a.kappa_tol == b.kappa_tol && a.kappa_init == b.kappa_init &&
         a.kappa_floor == b.kappa_floor && a.max_iterations == b.max_iterations &&
         a.tau_soc_max == b.tau_soc_max && a.tau_min == b.tau_min && a.backtrack == b.backtrack &&
         a.gradient_kappa == b.gradient_kappa;
}

int MaxRowNonzeros(const ConstraintProblem& p) {
  if (p.J) return p.nv;
  int most = 0;
  for (int i = 0; i < p.nefc; ++i) most = std::max(most, p.J_rownnz[i]);
  return most;
}

// v (nefc) = dJ x (dJ dense, nefc x nv)
void MulDense(const double* dJ, int nefc, int nv, const double* x, double* v) {
  for (int i = 0; i < nefc; ++i) {
    double s = 0;
    for (int j = 0; j < nv; ++j) s += dJ[static_cast<std::size_t>(i) * nv + j] * x[j];
    v[i] = s;
  }
}

}  // namespace

bool IpSensitivity::Holds(const void* owner, const ConstraintProblem& p,
                          const IpSettings& settings, const double* qacc,
                          const double* force) const {
  if (!iteration_ || owner != owner_ || !SameSettings(settings, settings_)) return false;
  if (p.nv != problem_.nv || p.nefc != problem_.nefc || p.J != problem_.J ||
      p.J_sparse != problem_.J_sparse || p.qfrc_smooth != problem_.qfrc_smooth ||
      p.pos != problem_.pos || p.vel != problem_.vel || p.M != problem_.M) {
    return false;
  }
  const std::size_t bytes_a = sizeof(double) * p.nv, bytes_f = sizeof(double) * p.nefc;
  return std::memcmp(key_.data(), qacc, bytes_a) == 0 &&
         std::memcmp(key_.data() + p.nv, force, bytes_f) == 0;
}

void IpSensitivity::Prepare(const void* owner, const ConstraintProblem& p,
                            const IpSettings& settings, const double* qacc,
                            const double* force) {
  if (Holds(owner, p, settings, qacc, force)) return;
  GAUSS_DEMAND(p.nefc > 0 && p.timestep > 0, "a constrained problem with its timestep");
  iteration_.reset();
  has_matrix_ = false;
  owner_ = owner;
  settings_ = settings;
  problem_ = p;
  const int nv = p.nv, nefc = p.nefc;
  // buffers first: the iteration releases the arena above its own mark when it refactors
  const std::size_t buffers = 4 * static_cast<std::size_t>(nv + nefc) + 2 * nefc + 64;
  const std::size_t need =
      buffers + IpScratch(nv, nefc, MaxRowNonzeros(p), p.nM, p.J == nullptr);
  if (arena_.capacity() < need) arena_.Reserve(need);
  arena_.Release(0);
  d_dyn_ = arena_.Doubles(nv);
  da_ = arena_.Doubles(nv);
  d_row_ = arena_.Doubles(nefc);  // n <= nefc rows
  df_ = arena_.Doubles(nefc);
  rows_ = arena_.Doubles(nefc);
  kernel_ = arena_.Doubles(nefc);
  key_.assign(qacc, qacc + nv);
  key_.insert(key_.end(), force, force + nefc);
  force_.resize(nefc);
  double* resolved = d_dyn_;  // scratch until the first product
  const std::size_t mark = arena_.Mark();
  iteration_.emplace(problem_, settings_, arena_);
  iteration_->Run(resolved, force_.data(), nullptr);
  // the products linearize at the re-solved point: it must be the solution the caller has
  double worst = 0, scale = 1;
  for (int i = 0; i < nv; ++i) {
    worst = std::max(worst, std::fabs(resolved[i] - qacc[i]));
    scale = std::max(scale, std::fabs(qacc[i]));
  }
  if (!(worst <= 1e-6 * scale)) {
    iteration_.reset();
    throw Error("ip sensitivity: (qacc, force) is not ip's solution of this problem (solving it "
                "again moves qacc by " + std::to_string(worst) +
                "): call it with the problem and warmstart the solver was given");
  }
  if (settings_.gradient_kappa > 0) {
    // the same solve ended on the central path at gradient_kappa: the iterates are the
    // simulation's until the complementarity reaches it (same start, same warmstart)
    gradient_settings_ = GradientSettings(settings_);
    iteration_.reset();
    arena_.Release(mark);
    iteration_.emplace(problem_, gradient_settings_, arena_);
    iteration_->Run(resolved, force_.data(), nullptr);
  }
}

void IpSensitivity::Point(const void* owner, const ConstraintProblem& p,
                          const IpSettings& settings, const double* qacc, const double* force,
                          double* point_qacc, double* point_force) {
  Prepare(owner, p, settings, qacc, force);
  std::copy(iteration_->point().a, iteration_->point().a + p.nv, point_qacc);
  iteration_->rows().ScatterForce(p, iteration_->point().f, point_force);
}

void IpSensitivity::Solve(double* d_qacc, double* d_force) {
  iteration_->SolutionTangent(d_dyn_, d_row_, da_, df_);
  if (d_qacc) std::copy(da_, da_ + problem_.nv, d_qacc);
  if (d_force) iteration_->rows().ScatterForce(problem_, df_, d_force);
}

void IpSensitivity::Forward(const void* owner, const ConstraintProblem& p,
                            const IpSettings& settings, const double* qacc, const double* force,
                            const ProblemTangent& d, SolutionTangent& out) {
  Prepare(owner, p, settings, qacc, force);
  const int nv = p.nv, nefc = p.nefc;
  const IpRows& rows = iteration_->rows();
  const double h = p.timestep;
  const double* a = iteration_->point().a;
  // dR_dyn = -d qfrc_smooth - dJ_rows' f = -d qfrc_smooth - dJ' C' f (the rows' Jacobian is
  // C J: a pyramidal contact's normal reads only its first edge pair)
  for (int j = 0; j < nv; ++j) d_dyn_[j] = d.qfrc_smooth ? -d.qfrc_smooth[j] : 0.0;
  if (d.J) {
    rows.CombineTranspose(p, iteration_->point().f, kernel_);
    for (int i = 0; i < nefc; ++i) {
      const double* row = d.J + static_cast<std::size_t>(i) * nv;
      for (int j = 0; j < nv; ++j) d_dyn_[j] -= row[j] * kernel_[i];
    }
  }
  // du = C (d vel + h dJ a)
  if (d.J) {
    MulDense(d.J, nefc, nv, a, kernel_);
  } else {
    std::fill(kernel_, kernel_ + nefc, 0.0);
  }
  for (int i = 0; i < nefc; ++i) kernel_[i] = h * kernel_[i] + (d.vel ? d.vel[i] : 0.0);
  rows.Combine(p, kernel_, rows_);
  for (int r = 0; r < rows.n; ++r) {
    const double dpos = d.pos ? d.pos[rows.source(r)] / h : 0.0;
    switch (rows.kind[r]) {
      case RowKind::kEquality: d_row_[r] = dpos + rows_[r]; break;
      case RowKind::kOrthant: d_row_[r] = -(dpos + rows_[r]); break;
      default: d_row_[r] = -rows_[r]; break;
    }
  }
  Solve(out.qacc, out.force);
}

void IpSensitivity::BuildMatrix() {
  const int nv = problem_.nv, n = iteration_->rows().n, dim = nv + n;
  matrix_.resize(static_cast<std::size_t>(dim) * dim);
  for (int k = 0; k < dim; ++k) {
    std::fill(d_dyn_, d_dyn_ + nv, 0.0);
    std::fill(d_row_, d_row_ + n, 0.0);
    (k < nv ? d_dyn_[k] : d_row_[k - nv]) = 1;
    iteration_->SolutionTangent(d_dyn_, d_row_, da_, df_);
    double* column = matrix_.data() + static_cast<std::size_t>(k) * dim;
    std::copy(da_, da_ + nv, column);
    std::copy(df_, df_ + n, column + nv);
  }
  has_matrix_ = true;
}

void IpSensitivity::Reverse(const void* owner, const ConstraintProblem& p,
                            const IpSettings& settings, const double* qacc, const double* force,
                            const SolutionTangent& g, ProblemTangent& out) {
  Prepare(owner, p, settings, qacc, force);
  if (!has_matrix_) BuildMatrix();
  const int nv = p.nv, nefc = p.nefc;
  const IpRows& rows = iteration_->rows();
  const int n = rows.n, dim = nv + n;
  const double h = p.timestep;
  const double* a = iteration_->point().a;
  // cotangent of (da, df): g_qacc and the rows' share of g_force
  if (g.force) {
    rows.ForceTranspose(p, g.force, df_);
  } else {
    std::fill(df_, df_ + n, 0.0);
  }
  for (int j = 0; j < nv; ++j) da_[j] = g.qacc ? g.qacc[j] : 0.0;
  // (g_dyn, g_row) = S' (g_a, g_f)
  for (int k = 0; k < dim; ++k) {
    const double* column = matrix_.data() + static_cast<std::size_t>(k) * dim;
    double s = 0;
    for (int j = 0; j < nv; ++j) s += column[j] * da_[j];
    for (int r = 0; r < n; ++r) s += column[nv + r] * df_[r];
    (k < nv ? d_dyn_[k] : d_row_[k - nv]) = s;
  }
  // through dR_row = sign (dpos/h + du): g_du, g_pos
  if (out.pos) std::fill(out.pos, out.pos + nefc, 0.0);
  for (int r = 0; r < n; ++r) {
    const RowKind kind = rows.kind[r];
    const double sign = kind == RowKind::kEquality ? 1.0 : -1.0;
    rows_[r] = sign * d_row_[r];
    if (out.pos && (kind == RowKind::kEquality || kind == RowKind::kOrthant)) {
      out.pos[rows.source(r)] += rows_[r] / h;
    }
  }
  // du = C (d vel + h dJ a): g_vel = C' g_du, g_J += h (C' g_du) a'
  rows.CombineTranspose(p, rows_, kernel_);
  if (out.vel) std::copy(kernel_, kernel_ + nefc, out.vel);
  // dR_dyn = -d qfrc_smooth - dJ' C' f: g_qfrc = -g_dyn, g_J -= (C' f) g_dyn'
  if (out.qfrc_smooth) {
    for (int j = 0; j < nv; ++j) out.qfrc_smooth[j] = -d_dyn_[j];
  }
  if (out.J) {
    double* weight = rows_;  // C' f (nefc), after rows_ has served
    rows.CombineTranspose(p, iteration_->point().f, weight);
    for (int i = 0; i < nefc; ++i) {
      double* row = out.J + static_cast<std::size_t>(i) * nv;
      for (int j = 0; j < nv; ++j) row[j] = h * kernel_[i] * a[j] - weight[i] * d_dyn_[j];
    }
  }
  if (out.aref) std::fill(out.aref, out.aref + nefc, 0.0);
  if (out.R) std::fill(out.R, out.R + nefc, 0.0);
}

}  // namespace ip
}  // namespace gauss
