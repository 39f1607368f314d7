// Newton's Hessian factor kept between solves (kept_factor.h).
#include "kept_factor.h"

#include <cstring>

#include "gauss/arena.h"

namespace gauss {
namespace {

constexpr int kHeaderDoubles = 2;  // matrices id, nefc
constexpr int kQuadratic = static_cast<int>(ConstraintState::kQuadratic);
constexpr int kCone = static_cast<int>(ConstraintState::kCone);

}  // namespace

std::size_t KeptFactor::Doubles(int nv, int njmax) {
  return kHeaderDoubles + static_cast<std::size_t>(nv) * nv + ArenaDoubles<int>(nv) +
         ArenaDoubles<int>(njmax);
}

KeptFactor::KeptFactor(const ConstraintProblem& p, bool dense) {
  if (!dense || p.solver_memory == nullptr || p.matrices_id == 0) return;
  header_ = p.solver_memory;
  factor_ = header_ + kHeaderDoubles;
  first_ = reinterpret_cast<int*>(factor_ + static_cast<std::size_t>(p.nv) * p.nv);
  quadratic_ = reinterpret_cast<int*>(factor_ + static_cast<std::size_t>(p.nv) * p.nv +
                                      ArenaDoubles<int>(p.nv));
}

bool KeptFactor::Matches(const ConstraintProblem& p, const int* state) const {
  if (!enabled()) return false;
  std::uint64_t id;
  std::memcpy(&id, header_, sizeof id);
  if (id != p.matrices_id || header_[1] != p.nefc) return false;
  for (int i = 0; i < p.nefc; ++i) {
    if (state[i] == kCone || (state[i] == kQuadratic) != (quadratic_[i] != 0)) return false;
  }
  return true;
}

void KeptFactor::Forget() {
  if (!enabled()) return;
  const std::uint64_t none = 0;
  std::memcpy(header_, &none, sizeof none);
}

void KeptFactor::Remember(const ConstraintProblem& p, const int* state) {
  if (!enabled()) return;
  for (int i = 0; i < p.nefc; ++i) {
    if (state[i] == kCone) return;  // its curvature depends on jar: not kept (Forget did that)
    quadratic_[i] = state[i] == kQuadratic;
  }
  std::memcpy(header_, &p.matrices_id, sizeof p.matrices_id);
  header_[1] = p.nefc;
}

}  // namespace gauss
