// Scratch memory for a time step: a preallocated stack of doubles with mark/release.
//
// Stages take temporary arrays from Data::arena instead of the heap, so a step performs no
// heap allocation. Use ArenaScope to release everything taken within a block:
//
//   ArenaScope scope(d.arena);
//   double* tmp = d.arena.Doubles(m.nv);
#pragma once

#include <cstddef>
#include <vector>

namespace gauss {

class Arena {
 public:
  // Sizes the buffer; invalidates earlier allocations. Not for use inside a step.
  void Reserve(std::size_t n_doubles);

  // Take n doubles (uninitialised) / n ints from the top of the stack. Throws gauss::Error
  // naming the request and the capacity when the arena is exhausted.
  double* Doubles(std::size_t n);
  int* Ints(std::size_t n);

  std::size_t Mark() const { return top_; }
  void Release(std::size_t mark) { top_ = mark; }

  std::size_t capacity() const { return buffer_.size(); }
  std::size_t peak() const { return peak_; }  // largest number of doubles in use so far

 private:
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

}  // namespace gauss
