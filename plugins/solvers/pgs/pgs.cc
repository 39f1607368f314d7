// `pgs`: projected Gauss-Seidel on the dual problem (spec eq. 9 and "PGS"):
//   minimize 1/2 f'(A + R) f + f'(J a0 - aref) over f in Omega,  A = J M^-1 J'
// sweeping the constraints one at a time: scalar rows take their exact minimizer and are
// projected on their interval (equality: free, friction loss: |f| <= floss, limits, contacts
// without friction and pyramidal edges: f >= 0); an elliptic contact takes the spec's ray and
// friction-QCQP update (elliptic_update.h). That is MuJoCo 2.2.2's algorithm, iterate for
// iterate. With the parameter `exact_blocks: true`, each equality constraint and each
// elliptic contact is instead minimized exactly as one block (elliptic_block.h): sweeps then
// converge to the same unique optimum as the primal solvers, also where the spec's updates
// stall. Stops when a sweep improves the dual cost by less than the tolerance (scaled as the
// primal solvers' tests). AR is built and stored sparse (dual.h): rows on different
// kinematic trees do not interact, so a sweep costs the nonzeros of AR.
// Sweep order: rows in order, as MuJoCo 2.2.2; when the problem is one island of a solve by
// island (MuJoCo 3.x's default), MuJoCo 3.x's schedule instead: blocks in a shuffled order
// with restarted momentum (shuffled_sweeps.h). The parameter `sweeps` picks either.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "dual.h"
#include "elliptic_block.h"
#include "elliptic_update.h"
#include "shuffled_sweeps.h"
#include "gauss/error.h"
#include "gauss/primal.h"
#include "gauss/solver.h"

namespace gauss {
namespace {

constexpr ConstraintType kContactElliptic = ConstraintType::kContactElliptic;

class PgsSolver : public ConstraintSolver {
 public:
  void Configure(const Params& params) override {
    exact_blocks_ = params.GetBool("exact_blocks");
    sweeps_ = static_cast<Sweeps>(params.GetChoice("sweeps", {"auto", "ordered", "shuffled"}));
  }

  // The dual problem, held through the solve; on top of it, in turn, the warmstart's jar
  // (InitialForce) and the primal point of the trace's final gradient.
  std::size_t ScratchDoubles(const Model& m) const override {
    const int nj = std::max(m.njmax, 0);
    ArenaPlan plan = DualProblem::Plan(m.nv, nj), jar, point;
    ShuffleScratch().Blocks(plan, nj);  // held with the dual problem when the sweeps shuffle
    double* unused = nullptr;
    jar(&unused, nj, "warmstart jar");
    plan.Within("initial force", jar);
    PrimalPoint().Blocks(point, m.nv, nj);
    plan.Within("final gradient", point);
    return plan.doubles();
  }

 protected:
  SolverResult DoSolve(const ConstraintProblem& p, Arena& arena, double* qacc, double* force,
                       SolverIteration* trace) const override {
    const int nv = p.nv, n = p.nefc;
    SolverResult result;
    std::copy(p.qacc_smooth, p.qacc_smooth + nv, qacc);
    if (n == 0) {
      result.converged = true;
      return result;
    }
    ArenaScope scope(arena);
    DualProblem dual;
    dual.Build(p, arena);
    double cost = InitialForce(p, dual, force, arena);

    const bool shuffled =
        sweeps_ == Sweeps::kShuffled || (sweeps_ == Sweeps::kAuto && p.by_island);
    result = shuffled ? ShuffledSweeps(p, dual, force, arena, trace)
                      : OrderedSweeps(p, dual, cost, force, trace);
    dual.Acceleration(p, force, qacc);

    if (trace && result.iterations > 0) {
      const double scale = PrimalScale(p);
      // gradient of the primal cost at the final acceleration, for comparison with primal solvers
      PrimalPoint pt;
      pt.Allocate(p, arena);
      std::copy(qacc, qacc + nv, pt.x);
      EvaluatePrimal(p, pt);
      double g = 0;
      for (int k = 0; k < nv; ++k) g += pt.grad[k] * pt.grad[k];
      trace[result.iterations - 1].gradient = scale * std::sqrt(g);
    }
    return result;
  }

 private:
  // The force of the warmstart acceleration when it beats zero force, else zero; returns its
  // dual cost.
  static double InitialForce(const ConstraintProblem& p, const DualProblem& dual, double* force,
                             Arena& arena) {
    std::fill(force, force + p.nefc, 0.0);
    if (!p.qacc_warmstart) return 0;
    ArenaScope scope(arena);
    ArenaCarve carve(arena);
    double* jar = nullptr;
    carve(&jar, p.nefc, "warmstart jar");
    MulJ(p, p.qacc_warmstart, jar);
    for (int i = 0; i < p.nefc; ++i) jar[i] -= p.aref[i];
    ConstraintCost(p, jar, force, nullptr);
    const double cost = dual.Cost(force);
    if (cost > 0) {
      std::fill(force, force + p.nefc, 0.0);
      return 0;
    }
    return cost;
  }

  // Sweeps over the rows in order (MuJoCo 2.2.2) until one improves the dual cost by less than
  // the tolerance or the iteration limit; `cost` is the dual cost of the starting forces f.
  // Writes f and trace[0 .. iterations).
  SolverResult OrderedSweeps(const ConstraintProblem& p, const DualProblem& dual, double cost,
                             double* f, SolverIteration* trace) const {
    SolverResult result;
    const double scale = PrimalScale(p);
    for (int iter = 0; iter < p.iterations; ++iter) {
      double change = 0;
      for (int i = 0; i < p.nefc;) i += UpdateBlock(p, dual, f, i, &change);
      const double decrease = -change;
      cost -= decrease;
      const SolverIteration it{cost, 0, scale * decrease};
      if (trace) trace[iter] = it;
      result.iterations = iter + 1;
      if (it.improvement < p.tolerance) {
        result.converged = true;
        break;
      }
    }
    return result;
  }

  // MuJoCo 3.x's schedule (shuffled_sweeps.h): blocks in a shuffled order, each sweep started
  // from the forces extrapolated along the last step. The trace's dual cost is evaluated at the
  // last iteration only (the extrapolation's cost change would take a product with AR per
  // sweep); earlier iterations record NaN. Writes f and trace[0 .. iterations).
  SolverResult ShuffledSweeps(const ConstraintProblem& p, const DualProblem& dual, double* f,
                              Arena& arena, SolverIteration* trace) const {
    SolverResult result;
    const int n = p.nefc;
    ArenaCarve carve(arena);
    ShuffleScratch s;
    s.Blocks(carve, n);
    const int blocks = ListBlocks(p, s.order, [&](int i) { return BlockSize(p, i); });
    Pcg32 rng;
    const double scale = PrimalScale(p);
    int since_restart = 0;
    for (int iter = 0; iter < p.iterations; ++iter) {
      Shuffle(rng, s.order, blocks);
      std::copy(f, f + n, s.start);
      if (since_restart >= 2) {
        Extrapolate(p, (since_restart - 1.0) / (since_restart + 2.0), s.before, f);
      }
      std::copy(f, f + n, s.moved);
      double change = 0;
      for (int k = 0; k < blocks; ++k) UpdateBlock(p, dual, f, s.order[k], &change);
      since_restart = MomentumAgreement(s.start, s.moved, f, n) < 0 ? 0 : since_restart + 1;
      std::swap(s.before, s.start);
      const SolverIteration it{std::nan(""), 0, -scale * change};
      if (trace) trace[iter] = it;
      result.iterations = iter + 1;
      if (it.improvement < p.tolerance) {
        result.converged = true;
        break;
      }
    }
    if (trace && result.iterations > 0) trace[result.iterations - 1].cost = dual.Cost(f);
    return result;
  }

  // Rows in the block starting at row i: an elliptic contact's, with exact_blocks an equality
  // constraint's, else 1.
  int BlockSize(const ConstraintProblem& p, int i) const {
    if (p.type[i] == kContactElliptic) return p.contact[p.id[i]].dim;
    if (exact_blocks_ && p.type[i] == ConstraintType::kEquality) return EqualityBlockSize(p, i);
    return 1;
  }

  // The Gauss-Seidel update of the block starting at row i (a scalar row's exact minimizer,
  // projected; an elliptic contact's update; with exact_blocks an equality's exact minimizer):
  // writes its rows of f, adds the dual cost's exact change to *change (no cancellation between
  // large costs) and returns the block's row count.
  int UpdateBlock(const ConstraintProblem& p, const DualProblem& dual, double* f, int i,
                  double* change) const {
    const ConstraintType type = p.type[i];
    if (type == kContactElliptic) {
      const Contact& c = p.contact[p.id[i]];  // an elliptic row's id is its contact
      *change += exact_blocks_ ? MinimizeEllipticBlock(dual, f, i, c)
                               : UpdateEllipticContact(dual, f, i, c);
      return c.dim;
    }
    if (exact_blocks_ && type == ConstraintType::kEquality) {
      const int size = EqualityBlockSize(p, i);
      *change += MinimizeEqualityBlock(dual, f, i, size);
      return size;
    }
    const double residual = dual.SweepResidual(i, f);
    const double diagonal = dual.Diagonal(i);
    double value = f[i] - residual * dual.InverseDiagonal(i);
    if (IsOneSidedRow(type)) {
      value = std::max(0.0, value);
    } else if (IsFrictionLossRow(type)) {
      value = std::clamp(value, -p.frictionloss[i], p.frictionloss[i]);
    }
    const double step = value - f[i];
    *change += step * (residual + 0.5 * diagonal * step);
    f[i] = value;
    return 1;
  }

  // Rows of the equality constraint starting at row i (3 for connect, 6 for weld, else 1).
  static int EqualityBlockSize(const ConstraintProblem& p, int i) {
    int size = 1;
    while (i + size < p.nefc && size < 6 && p.type[i + size] == p.type[i] &&
           p.id && p.id[i + size] == p.id[i]) {
      ++size;
    }
    return size;
  }

  // Exact minimization over the (unbounded) forces of one equality constraint: its rows are
  // strongly coupled (a weld's 6 rows act on the same two bodies), so solving them together
  // converges far faster than row by row. Returns the dual cost change.
  static double MinimizeEqualityBlock(const DualProblem& dual, double* f, int a, int size) {
    double A[36], r[6], minus_r[6], step[6];
    for (int i = 0; i < size; ++i) {
      r[i] = dual.Residual(a + i, f);
      minus_r[i] = -r[i];
      for (int j = 0; j < size; ++j) A[i * size + j] = dual.At(a + i, a + j);
    }
    SolveSpd(A, size, step, minus_r);  // A step = -r
    // the exact minimizer of a quadratic changes it by -1/2 step'A step = 1/2 step'r
    double change = 0;
    for (int i = 0; i < size; ++i) {
      f[a + i] += step[i];
      change += 0.5 * step[i] * r[i];
    }
    return change;
  }

  enum class Sweeps { kAuto, kOrdered, kShuffled };
  bool exact_blocks_ = false;
  Sweeps sweeps_ = Sweeps::kAuto;
};

}  // namespace
}  // namespace gauss

namespace {
constexpr gauss::ParamSpec kPgsParams[] = {
    {"exact_blocks", gauss::ParamType::kBool, "false",
     "minimize each equality constraint and elliptic contact exactly as one block"},
    {"sweeps", gauss::ParamType::kString, "auto",
     "ordered (rows in order, MuJoCo 2.2.2), shuffled (shuffled blocks with momentum, MuJoCo "
     "3.x) or auto (shuffled when solving by island)"}};
}  // namespace

GAUSS_SOLVER_PLUGIN(gauss::PgsSolver, pgs, "1.0.0",
                    "projected Gauss-Seidel on the dual problem (MuJoCo's row and elliptic-cone "
                    "updates; exact blocks optional)",
                    gauss::kCapAllSolverFeatures, kPgsParams)
