// Cost, gradient, starting point, exact line search and iteration scaffolding of the reduced
// primal problem.
#include "gauss/primal.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "elliptic_zone.h"
#include "row_penalty.h"

namespace gauss {

namespace {

// Dof i's term of the quadratic part's change from x to x + a dir:
// a d_i (Mx - qfrc_smooth)_i + a^2/2 d_i (Md)_i.
inline double QuadraticChangeTerm(const ConstraintProblem& p, const PrimalPoint& pt,
                                  const double* dir, const double* Mdir, double a, int i) {
  return a * dir[i] * (pt.Mx[i] - p.qfrc_smooth[i]) + 0.5 * a * a * dir[i] * Mdir[i];
}

// An elliptic contact as the line search reads it: its rows, friction and the two constants
// every evaluation reuses (ConeFrictionRatio, ConeWeight: two divisions per contact once per
// line search instead of at every trial point, the same values, so the same bits). Gathered
// once per line search from p.contact, whose entries span four cache lines each and which the
// line search otherwise walks three times per trial point: 64 bytes, one line. It has the
// members ClassifyEllipticWith, EllipticPenalty and ConeCurvature read, so they evaluate it
// as they do a Contact.
struct ConeContact {
  int efc_address = -1;  // first row (normal)
  int dim = 0;
  double friction[5] = {0};
  double m2 = 0;  // ConeFrictionRatio
  double Dm = 0;  // ConeWeight
};

// A trial point x + a dir along the search direction: what PrimalIterate (or PrimalLineSearch and
// PrimalDecrease when called alone) takes from the arena and releases, for nefc rows. The line
// search leaves its last point in it, which is usually the step it returns: the move then takes
// that point's rows (jar, force, state, penalty) as they are instead of evaluating them again.
// It also holds the elliptic contacts the evaluations and the decrease read (SetConeContacts)
// and each one's T at `at`, which the decrease takes instead of classifying the contact again.
struct TrialPoint {
  double* jar = nullptr;          // (nefc) J (x + a dir) - aref
  double* force = nullptr;        // (nefc)
  int* state = nullptr;           // (nefc)
  ConeContact* cones = nullptr;   // (nefc / 3) the elliptic contacts, in contact order
  double* cone_T = nullptr;       // (nefc / 3) each one's EllipticZone::T at `at`
  int ncone = 0;
  double penalty = 0;         // s(jar)
  double at = -1;             // a; < 0 before the first evaluation

  // an elliptic contact has at least 3 rows (condim 3, 4 or 6)
  static int MaxCones(int nefc) { return nefc / 3; }

  template <class Take>
  void Blocks(Take& take, int nefc) {
    take(&jar, nefc, "trial jar");
    take(&force, nefc, "trial force");
    take(&state, nefc, "trial state");
    take(&cones, MaxCones(nefc), "trial cones");
    take(&cone_T, MaxCones(nefc), "trial cone T");
  }
};

// Calls f(c, adr) for every elliptic contact c with rows from adr, in contact order (the order
// in which ConstraintCost and ConstraintCurvature sum them).
template <class F>
void ForEachEllipticContact(const ConstraintProblem& p, F&& f) {
  for (int k = 0; k < p.ncon; ++k) {
    const Contact& c = p.contact[k];
    const int adr = c.efc_address;
    if (adr < 0 || p.type[adr] != ConstraintType::kContactElliptic) continue;
    f(c, adr);
  }
}

// (p's elliptic contacts) => trial.cones (in contact order), trial.ncone
void SetConeContacts(const ConstraintProblem& p, TrialPoint& trial) {
  int k = 0;
  if (p.cone == Cone::kElliptic) {
    ForEachEllipticContact(p, [&](const Contact& c, int adr) {
      ConeContact& cc = trial.cones[k++];
      cc.efc_address = adr;
      cc.dim = c.dim;
      // a loop: std::copy of the five became a call to memcpy per contact
      for (int r = 0; r < 5; ++r) cc.friction[r] = c.friction[r];
      cc.m2 = ConeFrictionRatio(c, p.impratio);
      cc.Dm = ConeWeight(p, c, cc.m2);
    });
  }
  trial.ncone = k;
}

// (arena) => trial's arrays for nefc rows, released by the caller's ArenaScope
void CarveTrial(Arena& arena, int nefc, TrialPoint& trial) {
  ArenaCarve carve(arena);
  trial.Blocks(carve, nefc);
}

// (pt.x, pt.Mx, pt.force and the penalty s(pt.jar)) => pt.cost, pt.qfrc_constraint, pt.grad;
// returns |pt.grad|^2.
double FinishPrimalPoint(const ConstraintProblem& p, double penalty, PrimalPoint& pt) {
  // cost = 1/2 (x - a0)' M (x - a0) + s(jar) = 1/2 x'Mx - x'qfrc_smooth + 1/2 a0'qfrc_smooth + s
  // gradient = M (x - a0) + J' ds/djar = M x - qfrc_smooth - J' force
  // J' force is kept (pt.qfrc_constraint): a solver may hand it back with its solution
  MulJT(p, pt.force, pt.qfrc_constraint);
  double quad = 0, gnorm = 0;
  for (int i = 0; i < p.nv; ++i) {
    const double Mdx = pt.Mx[i] - p.qfrc_smooth[i];
    quad += (pt.x[i] - p.qacc_smooth[i]) * Mdx;
    pt.grad[i] = Mdx - pt.qfrc_constraint[i];
    gnorm += pt.grad[i] * pt.grad[i];
  }
  pt.cost = 0.5 * quad + penalty;
  return gnorm;
}

// Penalty of one elliptic contact in zone z at jar (its rows from j[0]).
double EllipticCost(const ConstraintProblem& p, const ConeContact& c, const EllipticZone& z,
                    const double* j) {
  if (z.state == ConstraintState::kSatisfied) return 0;
  if (z.state == ConstraintState::kQuadratic) {
    double s = 0;
    for (int r = 0; r < c.dim; ++r) s += 0.5 * p.D[c.efc_address + r] * j[r] * j[r];
    return s;
  }
  const double g = j[0] - z.T;
  return 0.5 * c.Dm * g * g;  // 0.5 Dm is exactly (0.5 D) / (1 + m2): a power of two
}

// Penalty change of one elliptic contact from j0 to j1 = j0 + du, where it is in zone z1 (as
// the trial point's evaluation found it). Within one zone in closed form from du (no difference
// of two large costs, so improvements far below the cost's round-off stay meaningful); across
// zones as the difference.
double EllipticCostChange(const ConstraintProblem& p, const ConeContact& c, const EllipticZone& z1,
                          const double* j0, const double* j1, const double* du) {
  const EllipticZone z0 = ClassifyEllipticWith(c, c.m2, j0);
  if (z0.state != z1.state) return EllipticCost(p, c, z1, j1) - EllipticCost(p, c, z0, j0);
  if (z0.state == ConstraintState::kSatisfied) return 0;
  const int a = c.efc_address;
  if (z0.state == ConstraintState::kQuadratic) {
    double change = 0;
    for (int r = 0; r < c.dim; ++r) change += 0.5 * p.D[a + r] * du[r] * (2 * j0[r] + du[r]);
    return change;
  }
  // 1/2 Dm (g1^2 - g0^2) = 1/2 Dm (g1 - g0)(g1 + g0), g1 - g0 = du_n - (T1 - T0),
  // T1 - T0 = (T1^2 - T0^2) / (T1 + T0) = sum mu^2 du (j0 + j1) / (T1 + T0)
  double dT2 = 0;
  for (int r = 1; r < c.dim; ++r) {
    dT2 += c.friction[r - 1] * c.friction[r - 1] * du[r] * (j0[r] + j1[r]);
  }
  const double T0 = z0.T, T1 = z1.T;
  const double dT = T0 + T1 > 0 ? dT2 / (T0 + T1) : T1 - T0;
  const double dg = du[0] - dT;
  return 0.5 * c.Dm * dg * ((j0[0] - T0) + (j1[0] - T1));
}

// cost(pt.x) - cost(pt.x + a dir) for the trial point at a (its jar, state, cone contacts and
// their T), computed row by row from the differences (see PrimalDecrease); `change` = the
// quadratic part's change (QuadraticChangeTerm summed over the dofs in order), to which the
// penalty's is added.
double DecreaseTo(const ConstraintProblem& p, const PrimalPoint& pt, const double* Jdir,
                  const TrialPoint& trial, double change) {
  const double step = trial.at;
  // penalty: in closed form where a row stays on the same piece, directly otherwise
  for (int i = 0; i < p.nefc; ++i) {
    if (p.type[i] == ConstraintType::kContactElliptic) continue;
    const double j0 = pt.jar[i], j1 = trial.jar[i], du = step * Jdir[i];
    const int s0 = pt.state[i], s1 = trial.state[i];
    const double D = p.D[i];
    auto cost = [&](int st, double j) {
      if (st == static_cast<int>(ConstraintState::kQuadratic)) return 0.5 * D * j * j;
      const double fl = p.frictionloss[i];
      if (st == static_cast<int>(ConstraintState::kLinearPos)) return fl * j - 0.5 * p.R[i] * fl * fl;
      if (st == static_cast<int>(ConstraintState::kLinearNeg)) return -fl * j - 0.5 * p.R[i] * fl * fl;
      return 0.0;
    };
    if (s0 != s1) {
      change += cost(s1, j1) - cost(s0, j0);
    } else if (s0 == static_cast<int>(ConstraintState::kQuadratic)) {
      change += 0.5 * D * du * (2 * j0 + du);
    } else if (s0 == static_cast<int>(ConstraintState::kLinearPos)) {
      change += p.frictionloss[i] * du;
    } else if (s0 == static_cast<int>(ConstraintState::kLinearNeg)) {
      change -= p.frictionloss[i] * du;
    }
  }
  for (int k = 0; k < trial.ncone; ++k) {
    const ConeContact& c = trial.cones[k];
    const int a = c.efc_address;
    EllipticZone z1;  // what ClassifyEllipticWith gave the trial point's evaluation
    z1.T = trial.cone_T[k];
    z1.m2 = c.m2;
    z1.state = static_cast<ConstraintState>(trial.state[a]);
    double du[6];
    for (int r = 0; r < c.dim; ++r) du[r] = step * Jdir[a + r];
    change += EllipticCostChange(p, c, z1, pt.jar + a, trial.jar + a, du);
  }
  return -change;
}

constexpr double kSlopeRoundoff = 4 * std::numeric_limits<double>::epsilon();

// Derivative and curvature of the cost along dir at step a; `size` is the sum of the magnitudes
// of the terms that make up d1, which bounds its round-off.
struct Slope {
  double d1 = 0;
  double d2 = 0;
  double size = 0;
};

// Row i's terms of the Slope: its force along Jdir in d1 (and its magnitude in the size) and,
// when quadratic, D Jdir^2 in the curvature. The other rows add D Jdir^2 times 0, an exact +0
// (the curvature starts at +0 and its terms are >= +0, so its bits are those of adding
// nothing), in place of a branch on the row's state, which the rows' mixed states mispredict.
inline void AddRowSlope(double force, double Jdir, int state, double D, Slope& s,
                        double& curvature) {
  // 1 for kQuadratic, else 0, by ConstraintState's value: a load, where the compiler turns a
  // comparison (and a multiplication by it) back into a branch
  static constexpr double kQuadraticFactor[] = {0, 1, 0, 0, 0};
  static_assert(static_cast<int>(ConstraintState::kQuadratic) == 1 &&
                    static_cast<int>(ConstraintState::kCone) == 4,
                "kQuadraticFactor follows ConstraintState's values");
  s.d1 -= force * Jdir;
  s.size += std::fabs(force * Jdir);
  curvature += D * Jdir * Jdir * kQuadraticFactor[state];
}

// The Slope at step a from the rows at x + a dir (jar, force, state; pt's own at a = 0), with
// the elliptic contacts of `cones` (SetConeContacts). The slope's terms and the rows' curvature
// are summed in one pass (separate sums, each in row order), then the cone contacts'
// curvatures in contact order, as ConstraintCurvature adds them.
Slope SlopeFrom(const ConstraintProblem& p, const double* jar, const double* force,
                const int* state, const double* Jdir, const TrialPoint& cones, double dMd,
                double dgrad_quad, double a) {
  Slope s;
  // quadratic part: d/da 1/2 (x + a d - a0)'M(...) = d'M(x - a0) + a d'Md
  s.d1 = dgrad_quad + a * dMd;
  s.size = std::fabs(dgrad_quad) + std::fabs(a * dMd);
  double curvature = 0;
  const double* D = p.D;
  for (int i = 0; i < p.nefc; ++i) AddRowSlope(force[i], Jdir[i], state[i], D[i], s, curvature);
  for (int k = 0; k < cones.ncone; ++k) {
    const ConeContact& c = cones.cones[k];
    const int adr = c.efc_address;
    if (state[adr] != static_cast<int>(ConstraintState::kCone)) continue;
    curvature += ConeCurvature(c, c.Dm, jar + adr, Jdir + adr);
  }
  s.d2 = dMd + curvature;
  return s;
}

// The trial point at step a (jar, force, state, penalty, at = a; the elliptic contacts' T) and
// the Slope there: ConstraintCost's numbers followed by SlopeFrom's. With elliptic contacts:
// the rows' jar and the other rows' penalties in one pass, then each elliptic contact's zone
// and penalty (EllipticPenalty, as in ConstraintCost) from the line search's ConeContacts; the
// penalty is summed in ConstraintCost's order. Without them (pyramidal cones) in one pass over the rows:
// each row's penalty (RowPenalty, as in ConstraintCost), its slope term and its curvature are
// summed in row order, which is the order the separate passes use. Either way the numbers are
// those of ConstraintCost and SlopeFrom bit for bit, with fewer passes and divisions.
Slope EvaluateTrialSlope(const ConstraintProblem& p, const PrimalPoint& pt, const double* Jdir,
                         double dMd, double dgrad_quad, double a, TrialPoint& trial) {
  if (p.cone == Cone::kElliptic) {
    double penalty = 0;
    for (int i = 0; i < p.nefc; ++i) {
      const double jar = pt.jar[i] + a * Jdir[i];
      trial.jar[i] = jar;
      if (p.type[i] == ConstraintType::kContactElliptic) continue;  // per contact below
      double force = 0;
      ConstraintState state = ConstraintState::kSatisfied;
      RowPenalty(p, i, jar, penalty, force, state);
      trial.force[i] = force;
      trial.state[i] = static_cast<int>(state);
    }
    for (int k = 0; k < trial.ncone; ++k) {
      const ConeContact& c = trial.cones[k];
      const int adr = c.efc_address;
      const EllipticZone z = ClassifyEllipticWith(c, c.m2, trial.jar + adr);
      EllipticPenalty(p, c, z, c.Dm, trial.jar + adr, penalty, trial.force + adr,
                      trial.state + adr);
      trial.cone_T[k] = z.T;
    }
    trial.penalty = penalty;
    trial.at = a;
    return SlopeFrom(p, trial.jar, trial.force, trial.state, Jdir, trial, dMd, dgrad_quad, a);
  }
  Slope s;
  s.d1 = dgrad_quad + a * dMd;
  s.size = std::fabs(dgrad_quad) + std::fabs(a * dMd);
  double penalty = 0, curvature = 0;
  const double* D = p.D;
  for (int i = 0; i < p.nefc; ++i) {
    const double jar = pt.jar[i] + a * Jdir[i];
    double force = 0;
    ConstraintState state = ConstraintState::kSatisfied;
    RowPenalty(p, i, jar, penalty, force, state);
    trial.jar[i] = jar;
    trial.force[i] = force;
    trial.state[i] = static_cast<int>(state);
    AddRowSlope(force, Jdir[i], static_cast<int>(state), D[i], s, curvature);
  }
  trial.penalty = penalty;
  trial.at = a;
  s.d2 = dMd + curvature;
  return s;
}

// PrimalLineSearch with the caller's trial point, left at the last step evaluated.
double LineSearch(const ConstraintProblem& p, const PrimalPoint& pt, const double* dir,
                  const double* Mdir, const double* Jdir, TrialPoint& trial) {
  double dMd = 0, dgrad_quad = 0, dir_norm = 0;
  for (int i = 0; i < p.nv; ++i) {
    dMd += dir[i] * Mdir[i];
    dgrad_quad += dir[i] * (pt.Mx[i] - p.qfrc_smooth[i]);
    dir_norm += dir[i] * dir[i];
  }
  SetConeContacts(p, trial);
  // at a = 0 the rows are the current point's
  const Slope s0 = SlopeFrom(p, pt.jar, pt.force, pt.state, Jdir, trial, dMd, dgrad_quad, 0);
  if (!(s0.d1 < 0) || !(dMd > 0)) return 0;
  // no direction to speak of (MuJoCo's rule: |dir| < 1e-15)
  if (std::sqrt(dir_norm) < kMinVal) return 0;

  // bracket [lo, hi] with slope(lo) < 0 < slope(hi); Newton steps from the current point,
  // bisection whenever a step leaves the bracket
  const double tol = 1e-14 * std::fabs(s0.d1);
  double lo = 0, hi = -1;  // hi < 0: no upper end known yet
  double a = -s0.d1 / s0.d2;
  for (int iter = 0; iter < 60; ++iter) {
    const Slope s = EvaluateTrialSlope(p, pt, Jdir, dMd, dgrad_quad, a, trial);
    // converged, or the slope is round-off: its terms cancel to a few ulps of their size, and
    // bisecting on the sign of noise would only shrink the bracket to 1e-15 (tens of steps)
    if (std::fabs(s.d1) <= tol || std::fabs(s.d1) <= kSlopeRoundoff * s.size) return a;
    if (s.d1 < 0) {
      lo = a;
    } else {
      hi = a;
    }
    double next = a - s.d1 / s.d2;
    const bool inside = next > lo && (hi < 0 || next < hi);
    if (!inside) next = hi < 0 ? 2 * a : 0.5 * (lo + hi);
    if (hi >= 0 && hi - lo <= 1e-15 * hi) return lo;
    a = next;
  }
  return a;
}

}  // namespace

void PrimalPoint::Allocate(const ConstraintProblem& p, Arena& arena) {
  ArenaCarve carve(arena);
  Blocks(carve, p.nv, p.nefc);
}

double PrimalScale(const ConstraintProblem& p) {
  return 1 / (p.meaninertia * std::max(1, p.nv));
}

SolverResult SolveWithoutConstraints(const ConstraintProblem& p, double* qacc) {
  std::copy(p.qacc_smooth, p.qacc_smooth + p.nv, qacc);
  SolverResult result;
  result.converged = true;
  return result;
}

void PrimalWork::Allocate(const ConstraintProblem& p, Arena& arena) {
  ArenaCarve carve(arena);
  Blocks(carve, p.nv, p.nefc);
}

// (njmax) => one trial point
ArenaPlan PrimalWork::IterationPlan(int njmax) {
  ArenaPlan trial;
  TrialPoint().Blocks(trial, njmax);
  return trial;
}

bool PrimalIterate(const ConstraintProblem& p, PrimalWork& w, int iter, SolverIteration* trace,
                   SolverResult& result, Arena& arena) {
  PrimalPoint& pt = w.pt;
  p.M->MulM(w.dir, w.Mdir);
  MulJ(p, w.dir, w.Jdir);
  ArenaScope scope(arena);
  TrialPoint trial;
  CarveTrial(arena, p.nefc, trial);
  const double step = LineSearch(p, pt, w.dir, w.Mdir, w.Jdir, trial);
  if (step == 0) {
    result.converged = true;
    return true;
  }
  // (the slope there is not needed: 0 for d'Md and the quadratic part's slope)
  if (trial.at != step) EvaluateTrialSlope(p, pt, w.Jdir, 0, 0, step, trial);
  // move along dir, with the quadratic part of the cost's change on the way; M x and J x - aref
  // follow from the products already at hand (as MuJoCo does), which saves one product with M
  // and one with J per iteration; the rows there are the trial point's
  double quad_change = 0;
  for (int i = 0; i < p.nv; ++i) {
    quad_change += QuadraticChangeTerm(p, pt, w.dir, w.Mdir, step, i);
    pt.x[i] += step * w.dir[i];
    pt.Mx[i] += step * w.Mdir[i];
  }
  const double decrease = DecreaseTo(p, pt, w.Jdir, trial, quad_change);
  std::copy(trial.jar, trial.jar + p.nefc, pt.jar);
  std::copy(trial.force, trial.force + p.nefc, pt.force);
  std::copy(trial.state, trial.state + p.nefc, pt.state);
  const double gnorm = FinishPrimalPoint(p, trial.penalty, pt);

  const double scale = PrimalScale(p);
  const SolverIteration it{pt.cost, scale * std::sqrt(gnorm), scale * decrease};
  if (trace) trace[iter] = it;
  result.iterations = iter + 1;
  result.converged = it.improvement < p.tolerance || it.gradient < p.tolerance;
  return result.converged;
}

void CopyPrimalSolution(const ConstraintProblem& p, const PrimalPoint& pt, double* qacc,
                        double* force) {
  std::copy(pt.x, pt.x + p.nv, qacc);
  std::copy(pt.force, pt.force + p.nefc, force);
}

void EvaluatePrimal(const ConstraintProblem& p, PrimalPoint& pt) {
  p.M->MulM(pt.x, pt.Mx);
  MulJ(p, pt.x, pt.jar);
  for (int i = 0; i < p.nefc; ++i) pt.jar[i] -= p.aref[i];
  EvaluatePrimalFromProducts(p, pt);
}

void EvaluatePrimalFromProducts(const ConstraintProblem& p, PrimalPoint& pt) {
  FinishPrimalPoint(p, ConstraintCost(p, pt.jar, pt.force, pt.state), pt);
}

void StartPrimal(const ConstraintProblem& p, PrimalPoint& pt) {
  std::copy(p.qacc_smooth, p.qacc_smooth + p.nv, pt.x);
  if (!p.qacc_warmstart) {
    EvaluatePrimal(p, pt);
    return;
  }
  // the cost at qacc_smooth is the penalty alone (its quadratic part is exactly 0): one J x
  // product, no M x, force, state or gradient (the warmstart is the usual winner)
  MulJ(p, pt.x, pt.jar);
  for (int i = 0; i < p.nefc; ++i) pt.jar[i] -= p.aref[i];
  const double smooth_cost = ConstraintCost(p, pt.jar, nullptr, nullptr);
  std::copy(p.qacc_warmstart, p.qacc_warmstart + p.nv, pt.x);
  EvaluatePrimal(p, pt);
  if (pt.cost > smooth_cost) {
    std::copy(p.qacc_smooth, p.qacc_smooth + p.nv, pt.x);
    EvaluatePrimal(p, pt);
  }
}

double ConstraintCurvature(const ConstraintProblem& p, const double* jar, const int* state,
                           const double* v) {
  double curvature = 0;
  for (int i = 0; i < p.nefc; ++i) {
    if (state[i] == static_cast<int>(ConstraintState::kQuadratic)) curvature += p.D[i] * v[i] * v[i];
  }
  ForEachEllipticContact(p, [&](const Contact& c, int adr) {
    if (state[adr] != static_cast<int>(ConstraintState::kCone)) return;
    curvature += ConeCurvature(c, ConeWeight(p, c, ConeFrictionRatio(c, p.impratio)), jar + adr,
                               v + adr);
  });
  return curvature;
}

double PrimalLineSearch(const ConstraintProblem& p, const PrimalPoint& pt, const double* dir,
                        const double* Mdir, const double* Jdir, Arena& arena) {
  ArenaScope scope(arena);
  TrialPoint trial;
  CarveTrial(arena, p.nefc, trial);
  return LineSearch(p, pt, dir, Mdir, Jdir, trial);
}

double PrimalDecrease(const ConstraintProblem& p, const PrimalPoint& pt, const double* dir,
                      const double* Mdir, const double* Jdir, double step, Arena& arena) {
  ArenaScope scope(arena);
  TrialPoint trial;
  CarveTrial(arena, p.nefc, trial);
  SetConeContacts(p, trial);
  EvaluateTrialSlope(p, pt, Jdir, 0, 0, step, trial);
  double quad_change = 0;
  for (int i = 0; i < p.nv; ++i) quad_change += QuadraticChangeTerm(p, pt, dir, Mdir, step, i);
  return DecreaseTo(p, pt, Jdir, trial, quad_change);
}

}  // namespace gauss
