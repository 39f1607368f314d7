#include "gauss/arena.h"

#include <algorithm>
#include <string>

#include "gauss/error.h"

namespace gauss {

void Arena::Reserve(std::size_t n_doubles) {
  buffer_.assign(n_doubles, 0.0);
  top_ = 0;
  peak_ = 0;
}

void Arena::ThrowExhausted(std::size_t n) const {
  throw Error("scratch arena exhausted: " + std::to_string(n) + " doubles requested with " +
              std::to_string(buffer_.size() - top_) + " of " + std::to_string(buffer_.size()) +
              " free (an internal sizing error; please report the model)");
}

// (name, doubles) => held, peak
void ArenaPlan::Add(const char* name, std::size_t doubles) {
  entries_.push_back({name, doubles, false});
  held_ += doubles;
  peak_ = std::max(peak_, held_);
}

// (callee's name and plan) => peak
void ArenaPlan::Within(const char* name, const ArenaPlan& callee) {
  entries_.push_back({name, callee.doubles(), true});
  peak_ = std::max(peak_, held_ + callee.doubles());
}

// (other plan) => held, peak
void ArenaPlan::Append(const ArenaPlan& other) {
  entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
  peak_ = std::max(peak_, held_ + other.doubles());
  held_ += other.held();
}

std::string ArenaPlan::Describe() const {
  std::string out;
  for (const Entry& e : entries_) {
    out += e.name + ": " + std::to_string(e.doubles) + (e.scoped ? " (released)" : "") + "\n";
  }
  return out + "peak: " + std::to_string(peak_) + " doubles\n";
}

}  // namespace gauss
