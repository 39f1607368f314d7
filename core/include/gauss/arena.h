// Scratch memory for a time step: a preallocated stack of doubles with mark/release, and the
// declared allocation plans that size it.
//
// Stages take temporary arrays from Data::arena instead of the heap, so a step performs no
// heap allocation. Use ArenaScope to release everything taken within a block:
//
//   ArenaScope scope(d.arena);
//   double* tmp = d.arena.Doubles(m.nv);
//
// The arena is sized once, when a Data is made, from every stage's and plugin's declared need.
// A stage or plugin declares that need with the same code that takes its blocks at run time,
// so the two cannot disagree: it lists its named blocks once, in a function templated on the
// "taker", and runs it with an ArenaPlan (sizing, with upper bounds such as njmax) and with an
// ArenaCarve (run time, with the actual sizes such as nefc, never larger):
//
//   struct Work {
//     double* grad;
//     int* state;
//     template <class Take> void Blocks(Take& take, int nv, int nefc) {
//       take(&grad, nv, "grad");
//       take(&state, nefc, "state");
//     }
//   };
//   ArenaPlan plan;  Work().Blocks(plan, m.nv, m.njmax);   // ScratchDoubles: plan.doubles()
//   ArenaCarve carve(arena);  work.Blocks(carve, p.nv, p.nefc);   // in the step
//
// Scratch a callee takes and releases (its own ArenaScope) is declared with plan.Within(its
// name, its plan): it counts once, at the callee's peak, on top of what the caller holds.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gauss {

class Arena {
 public:
  // Sizes the buffer; invalidates earlier allocations. Not for use inside a step.
  void Reserve(std::size_t n_doubles);

  // Take n doubles (uninitialised) / n ints from the top of the stack. Throws gauss::Error
  // naming the request and the capacity when the arena is exhausted. Inline: a step takes
  // dozens of blocks, and on small models the calls showed in the profile (docs/performance.md).
  double* Doubles(std::size_t n) {
    if (top_ + n > buffer_.size()) ThrowExhausted(n);
    double* out = buffer_.data() + top_;
    top_ += n;
    if (top_ > peak_) peak_ = top_;
    return out;
  }
  int* Ints(std::size_t n);

  std::size_t Mark() const { return top_; }
  void Release(std::size_t mark) { top_ = mark; }

  std::size_t capacity() const { return buffer_.size(); }
  // High-water mark: the largest number of doubles in use at once since Reserve (or
  // ResetPeak). It never exceeds capacity(): a request beyond it throws instead.
  std::size_t peak() const { return peak_; }
  void ResetPeak() { peak_ = top_; }

 private:
  [[noreturn]] void ThrowExhausted(std::size_t n) const;

  std::vector<double> buffer_;
  std::size_t top_ = 0;
  std::size_t peak_ = 0;
};

// Releases, at the end of a scope, whatever was taken from the arena inside it.
class ArenaScope {
 public:
  explicit ArenaScope(Arena& arena) : arena_(arena), mark_(arena.Mark()) {}
  ~ArenaScope() { arena_.Release(mark_); }
  ArenaScope(const ArenaScope&) = delete;
  ArenaScope& operator=(const ArenaScope&) = delete;

 private:
  Arena& arena_;
  std::size_t mark_;
};

// Doubles a block of n values of T occupies in the arena: every block starts on a double
// (8-byte) boundary, so a block of ints is rounded up to whole doubles.
template <class T>
constexpr std::size_t ArenaDoubles(std::size_t n) {
  static_assert(alignof(T) <= alignof(double), "arena blocks are aligned to a double");
  return (n * sizeof(T) + sizeof(double) - 1) / sizeof(double);
}

inline int* Arena::Ints(std::size_t n) {
  // ints are carved from doubles: round up to whole doubles to keep alignment
  return reinterpret_cast<int*>(Doubles(ArenaDoubles<int>(n)));
}

// A declared allocation: named blocks taken in order, and the scratch of callees that take and
// release their own. doubles() is the most the owner holds at once. Built when an Engine or
// Data is made (it allocates its list of blocks), never inside a step.
class ArenaPlan {
 public:
  // Declares a block of n values of T (double, int, or a struct of them) named `name`; the
  // pointer is not touched (the same Blocks function carves it at run time).
  template <class T>
  void operator()(T** /*unused*/, std::size_t n, const char* name) {
    Add(name, ArenaDoubles<T>(n));
  }
  // A block of `doubles` doubles (for sizes computed elsewhere, e.g. a callee's own bound).
  void Add(const char* name, std::size_t doubles);
  // Scratch a callee (named `name`) takes on top of what is held now and releases before
  // returning.
  void Within(const char* name, const ArenaPlan& callee);
  // Everything `other` holds, held here too (a part whose blocks stay taken).
  void Append(const ArenaPlan& other);

  std::size_t held() const { return held_; }  // doubles of the blocks declared so far
  std::size_t doubles() const { return peak_; }  // the most held at once, callees included
  // "name: doubles" per block and callee, one per line (for error messages and docs).
  std::string Describe() const;

 private:
  struct Entry {
    std::string name;
    std::size_t doubles;
    bool scoped;  // a callee's peak, released again
  };
  std::vector<Entry> entries_;
  std::size_t held_ = 0;
  std::size_t peak_ = 0;
};

// The run-time side of a Blocks function: takes each block from the arena (the caller's
// ArenaScope releases them).
class ArenaCarve {
 public:
  explicit ArenaCarve(Arena& arena) : arena_(arena) {}
  template <class T>
  void operator()(T** block, std::size_t n, const char* /*name*/) {
    *block = reinterpret_cast<T*>(arena_.Doubles(ArenaDoubles<T>(n)));
  }

 private:
  Arena& arena_;
};

}  // namespace gauss
