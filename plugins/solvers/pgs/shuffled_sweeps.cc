// MuJoCo 3.x's PGS sweep schedule: shuffled block order, restarted momentum (shuffled_sweeps.h).
#include "shuffled_sweeps.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace gauss {

void Shuffle(Pcg32& rng, int* order, int n) {
  for (int k = n - 1; k > 0; --k) {
    const std::uint32_t other = rng.Next() % static_cast<std::uint32_t>(k + 1);
    std::swap(order[k], order[other]);
  }
}

namespace {

// Elliptic contact rows f[0 .. dim) back onto the cone {f_n >= 0, sum_j (f_j / mu_j)^2 <= f_n^2}:
// no normal force, no friction; else friction outside the ellipse scaled onto it (as MuJoCo
// 3.12, measured iterate for iterate).
void ProjectOnCone(const Contact& c, double* f) {
  if (f[0] <= 0) {
    std::fill(f, f + c.dim, 0.0);
    return;
  }
  double s = 0;
  for (int j = 1; j < c.dim; ++j) s += f[j] * f[j] / (c.friction[j - 1] * c.friction[j - 1]);
  if (s > f[0] * f[0]) {
    const double scale = f[0] / std::sqrt(s);
    for (int j = 1; j < c.dim; ++j) f[j] *= scale;
  }
}

}  // namespace

void Extrapolate(const ConstraintProblem& p, double beta, const double* before, double* f) {
  for (int i = 0; i < p.nefc;) {
    const ConstraintType type = p.type[i];
    if (type == ConstraintType::kContactElliptic) {
      const Contact& c = p.contact[p.id[i]];
      for (int j = i; j < i + c.dim; ++j) f[j] += beta * (f[j] - before[j]);
      ProjectOnCone(c, f + i);
      i += c.dim;
      continue;
    }
    f[i] += beta * (f[i] - before[i]);
    if (IsOneSidedRow(type)) {
      f[i] = std::max(0.0, f[i]);
    } else if (IsFrictionLossRow(type)) {
      f[i] = std::clamp(f[i], -p.frictionloss[i], p.frictionloss[i]);
    }
    ++i;
  }
}

double MomentumAgreement(const double* start, const double* moved, const double* after, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += (after[i] - moved[i]) * (moved[i] - start[i]);
  return s;
}

}  // namespace gauss
