// The sweep schedule of MuJoCo 3.x's PGS, which Gauss's `pgs` follows when it solves island by
// island (ConstraintProblem::by_island, i.e. flags.island, the default of a MuJoCo 3.x file):
//
//  1. Shuffled order. Each sweep visits the constraint blocks (a scalar row, or the rows of one
//     elliptic contact) in a new random order: the previous sweep's order shuffled again by a
//     Fisher-Yates pass from the last position down, position k swapping with the one a 32-bit
//     PCG generator (O'Neill's PCG32, "XSH RR" output; state 0, stream 1, one output discarded)
//     draws modulo k + 1. The generator starts afresh in every solve (every island), so a
//     solve's result does not depend on what was solved before it.
//  2. Momentum with restart. Before sweep s (counted from the last restart, 0-based) the forces
//     move on along their last step, f <- f + (s - 1)/(s + 2) (f - f_previous) for s >= 2
//     (Nesterov's factor), projected back onto the feasible set (contacts' normal forces and
//     pyramidal edges >= 0, friction loss within its bound); the sweep then starts from there.
//     When a sweep's own correction points against that extrapolation, (f_after - f_start) .
//     (f_start - f_before) < 0 with f_start the extrapolated point, the count restarts at 0.
//  3. The stopping test is unchanged: the dual cost decrease of the sweep itself (from its
//     extrapolated start), scaled by 1 / (meaninertia max(1, nv)), below the tolerance. (nv is
//     the island's, as for Gauss's other solvers by island; MuJoCo 3.12's pgs takes the whole
//     model's nv, which stops islands of a many-island model earlier.)
//
// Measured against MuJoCo 3.12 (docs/performance.md, "pgs: MuJoCo 3.12's sweeps"): on MuJoCo's
// humanoid (one island) the same sweep count as 3.12 in each of 40 states per cone, and qacc
// equal to 8e-12; 2.4 times fewer sweeps than the ordered schedule at a tight tolerance.
#pragma once

#include <cstdint>

#include "dual.h"
#include "gauss/constraint.h"

namespace gauss {

// O'Neill's PCG32 (64-bit LCG state, XSH RR output). Default: MuJoCo 3.x's start, state 0 with
// increment 1, its first output dropped.
class Pcg32 {
 public:
  Pcg32() { Next(); }
  // The generator at `state` with the (odd) LCG increment `increment`, nothing dropped.
  Pcg32(std::uint64_t state, std::uint64_t increment) : state_(state), increment_(increment) {}
  std::uint32_t Next() {
    const std::uint64_t old = state_;
    state_ = old * 6364136223846793005ULL + increment_;
    const auto xorshifted = static_cast<std::uint32_t>(((old >> 18) ^ old) >> 27);
    const auto rotation = static_cast<std::uint32_t>(old >> 59);
    return (xorshifted >> rotation) | (xorshifted << ((32 - rotation) & 31));
  }

 private:
  std::uint64_t state_ = 0;
  std::uint64_t increment_ = 1;
};

// Reorders order[0..n) by one Fisher-Yates pass driven by `rng` (see above).
void Shuffle(Pcg32& rng, int* order, int n);

// Arena blocks of the schedule for up to njmax rows: the block order, the iterate before the
// last sweep, the sweep's start before and after extrapolation.
struct ShuffleScratch {
  int* order = nullptr;    // (n) first row of each block, in the current visiting order
  double* before = nullptr;  // (n) the forces before the last sweep's extrapolation
  double* start = nullptr;   // (n) the forces at this sweep's start, before extrapolation
  double* moved = nullptr;   // (n) the extrapolated start the sweep runs from
  template <class Carve>
  void Blocks(Carve& carve, int n) {
    carve(&order, n, "pgs block order");
    carve(&before, n, "pgs previous forces");
    carve(&start, n, "pgs sweep start");
    carve(&moved, n, "pgs extrapolated start");
  }
};

// Writes the first row of each block into order (rows increasing); returns the block count.
// A block is one row, or the rows of an elliptic contact; with exact_blocks also the rows of
// one equality constraint (block_size gives them).
template <class BlockSize>
int ListBlocks(const ConstraintProblem& p, int* order, BlockSize block_size) {
  int count = 0;
  for (int i = 0; i < p.nefc; i += block_size(i)) order[count++] = i;
  return count;
}

// f <- f + beta (f - before), each block projected back onto its feasible set (one-sided rows
// >= 0, friction loss within +-frictionloss, an elliptic contact onto its cone). Reads p.type,
// p.frictionloss, p.contact; writes f (n).
void Extrapolate(const ConstraintProblem& p, double beta, const double* before, double* f);

// (after - moved) . (moved - start) over n rows: < 0 when the sweep undid the extrapolation.
double MomentumAgreement(const double* start, const double* moved, const double* after, int n);

}  // namespace gauss
