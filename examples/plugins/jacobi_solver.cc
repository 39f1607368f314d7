// `example_jacobi`: a damped (under-relaxed) projected Jacobi solver for the dual constraint
// problem, written against the installed Gauss SDK as an example of a ConstraintSolver plugin
// (docs/plugin-authoring.md walks through it).
//
// The dual problem (spec "Constraint solver"): with A = J M^-1 J' and b = J qacc_smooth - aref,
//   minimize 1/2 f'(A + R) f + b'f   over constraint forces f in the admissible set:
//   equality rows free, friction-loss rows |f| <= frictionloss, limits, frictionless and
//   pyramidal contact rows f >= 0, elliptic contacts f_n >= ||(f_i / mu_i)||;
// then qacc = qacc_smooth + M^-1 J' f.
//
// Jacobi updates every block of rows at once from the same gradient g = (A + R) f + b:
//   y_k <- Project(y_k - omega / L * g_k / d_k)
// in coordinates y where each elliptic cone is a round second-order cone (y = f / mu on the
// friction rows). d_k is the largest diagonal entry of block k and L bounds the largest
// eigenvalue of the diagonally scaled Hessian (Gershgorin), so that any omega in (0, 2) makes
// the iteration a convergent projected gradient method. Plain Jacobi (omega = L) diverges on
// coupled contacts; the damping trades speed for that guarantee, which is why Gauss-Seidel
// (pgs) needs far fewer iterations on the same problem.
//
// Parameters (solver.params): omega in (0, 2), default 1.
#include <algorithm>
#include <cmath>

#include <gauss/constraint.h>
#include <gauss/error.h>
#include <gauss/plugin.h>
#include <gauss/primal.h>
#include <gauss/solver.h>

namespace {

using gauss::ConstraintType;

// Euclidean projection of (t, z[0..n)) onto the second-order cone ||z|| <= t.
void ProjectCone(double* y, int n) {
  double norm = 0;
  for (int i = 1; i < n; ++i) norm += y[i] * y[i];
  norm = std::sqrt(norm);
  const double t = y[0];
  if (norm <= t) return;
  if (norm <= -t) {
    std::fill(y, y + n, 0.0);
    return;
  }
  const double s = 0.5 * (t + norm);
  y[0] = s;
  for (int i = 1; i < n; ++i) y[i] *= s / norm;
}

class DampedJacobi : public gauss::ConstraintSolver {
 public:
  // (params: omega) => omega_
  void Configure(const gauss::Params& params) override {
    omega_ = params.GetDouble("omega");
    if (!(omega_ > 0 && omega_ < 2)) {
      throw gauss::Error(params.context() + ": omega must be in (0, 2), got " +
                         params.GetString("omega"));
    }
  }

  // H (n x n), five vectors of n, two of nv, the block table and the final primal evaluation
  std::size_t ScratchDoubles(const gauss::Model& m) const override {
    const std::size_t n = std::max(m.njmax, 0), nv = m.nv;
    return n * n + 10 * n + 6 * nv + 64;
  }

 protected:
  // problem => (qacc, force); trace[it] = (dual cost, projected-gradient norm, decrease)
  gauss::SolverResult DoSolve(const gauss::ConstraintProblem& p, gauss::Arena& arena, double* qacc,
                              double* force, gauss::SolverIteration* trace) const override {
    gauss::SolverResult result;
    const int n = p.nefc, nv = p.nv;
    std::copy(p.qacc_smooth, p.qacc_smooth + nv, qacc);
    if (n == 0) return result;
    gauss::ArenaScope scope(arena);
    double* H = arena.Doubles(static_cast<std::size_t>(n) * n);
    double* b = arena.Doubles(n);
    double* mu = arena.Doubles(n);     // f = mu y (1 except on elliptic friction rows)
    double* diag = arena.Doubles(n);   // d_k of the block of each row
    double* y = arena.Doubles(n);
    double* g = arena.Doubles(n);
    int* block = arena.Ints(n);        // rows in a block: > 0 at its first row, 0 after
    double* x = arena.Doubles(std::max(nv, 6));  // also a block of up to 6 rows

    // 1. the dual Hessian A + R and b, column by column: J (M^-1 (J' e_r))
    std::fill(g, g + n, 0.0);
    for (int r = 0; r < n; ++r) {
      g[r] = 1;
      gauss::MulJT(p, g, x);
      g[r] = 0;
      p.M->SolveM(x);
      gauss::MulJ(p, x, y);
      for (int s = 0; s < n; ++s) H[static_cast<std::size_t>(s) * n + r] = y[s];
      H[static_cast<std::size_t>(r) * n + r] += p.R[r];
    }
    gauss::MulJ(p, p.qacc_smooth, b);
    for (int r = 0; r < n; ++r) b[r] -= p.aref[r];

    // 2. blocks and cone coordinates: y = f / mu, so H_y = S H S and b_y = S b (S = diag(mu))
    for (int r = 0; r < n; ++r) {
      mu[r] = 1;
      block[r] = 1;
      if (p.type[r] != ConstraintType::kContactElliptic) continue;
      const gauss::Contact& c = p.contact[p.id[r]];
      const int k = r - c.efc_address;  // 0: normal row, 1..dim-1: friction rows
      block[r] = k == 0 ? c.dim : 0;
      if (k > 0) mu[r] = std::max(c.friction[k - 1], 1e-10);
    }
    for (int r = 0; r < n; ++r) {
      b[r] *= mu[r];
      for (int s = 0; s < n; ++s) H[static_cast<std::size_t>(r) * n + s] *= mu[r] * mu[s];
    }
    for (int r = 0; r < n; ++r) {
      if (block[r] == 0) continue;
      double dmax = 0;
      for (int k = r; k < r + block[r]; ++k) dmax = std::max(dmax, H[static_cast<std::size_t>(k) * n + k]);
      for (int k = r; k < r + block[r]; ++k) diag[k] = std::max(dmax, 1e-15);
    }
    double L = 0;  // Gershgorin bound of diag^-1/2 H diag^-1/2
    for (int r = 0; r < n; ++r) {
      double sum = 0;
      for (int s = 0; s < n; ++s) {
        sum += std::fabs(H[static_cast<std::size_t>(r) * n + s]) / std::sqrt(diag[r] * diag[s]);
      }
      L = std::max(L, sum);
    }
    const double step = omega_ / L;

    // 3. damped Jacobi sweeps from f = 0, stopping when the scaled decrease of the dual cost
    // falls below the tolerance (the test MuJoCo's PGS uses)
    const double scale = gauss::PrimalScale(p);
    std::fill(y, y + n, 0.0);
    double cost = 0;
    for (int it = 0; it < p.iterations; ++it) {
      for (int r = 0; r < n; ++r) {
        const double* row = H + static_cast<std::size_t>(r) * n;
        double sum = b[r];
        for (int s = 0; s < n; ++s) sum += row[s] * y[s];
        g[r] = sum;
      }
      double moved = 0;
      for (int r = 0; r < n; ++r) {
        if (block[r] == 0) continue;
        for (int k = r; k < r + block[r]; ++k) x[k - r] = y[k] - step * g[k] / diag[k];
        Project(p, r, block[r], x);
        for (int k = r; k < r + block[r]; ++k) {
          moved += (x[k - r] - y[k]) * (x[k - r] - y[k]) * diag[k] * diag[k];
          y[k] = x[k - r];
        }
      }
      double next = 0;  // dual cost 1/2 y'Hy + b'y at the new point
      for (int r = 0; r < n; ++r) {
        const double* row = H + static_cast<std::size_t>(r) * n;
        double hy = 0;
        for (int s = 0; s < n; ++s) hy += row[s] * y[s];
        next += y[r] * (0.5 * hy + b[r]);
      }
      const gauss::SolverIteration stats{next, scale * std::sqrt(moved) / step,
                                         scale * (cost - next)};
      if (trace) trace[it] = stats;
      cost = next;
      result.iterations = it + 1;
      if (stats.improvement < p.tolerance) {
        result.converged = true;
        break;
      }
    }

    // 4. forces and accelerations: f = mu y, qacc = qacc_smooth + M^-1 J' f
    for (int r = 0; r < n; ++r) force[r] = mu[r] * y[r];
    gauss::MulJT(p, force, x);
    p.M->SolveM(x);
    for (int i = 0; i < nv; ++i) qacc[i] += x[i];
    return result;
  }

 private:
  // Projects the block of rows r..r+size (values v, in cone coordinates) onto its admissible set.
  static void Project(const gauss::ConstraintProblem& p, int r, int size, double* v) {
    switch (p.type[r]) {
      case ConstraintType::kEquality:
        return;
      case ConstraintType::kFrictionDof:
      case ConstraintType::kFrictionTendon:
        v[0] = std::clamp(v[0], -p.frictionloss[r], p.frictionloss[r]);
        return;
      case ConstraintType::kContactElliptic:
        if (size > 1) {
          ProjectCone(v, size);
          return;
        }
        [[fallthrough]];
      default:  // limits, frictionless and pyramidal contact rows
        v[0] = std::max(v[0], 0.0);
    }
  }

  double omega_ = 1.0;
};

}  // namespace

namespace {
constexpr gauss::ParamSpec kJacobiParams[] = {
    {"omega", gauss::ParamType::kDouble, "1", "damping of the Jacobi step, in (0, 2)"}};
}  // namespace

GAUSS_SOLVER_PLUGIN(DampedJacobi, example_jacobi, "1.0.0",
                    "example: damped projected Jacobi on the dual problem (examples/plugins)",
                    gauss::kCapAllSolverFeatures, kJacobiParams)
