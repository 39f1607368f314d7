#include "gauss/arena.h"

#include <string>

#include "gauss/error.h"

namespace gauss {

void Arena::Reserve(std::size_t n_doubles) {
  buffer_.assign(n_doubles, 0.0);
  top_ = 0;
}

double* Arena::Doubles(std::size_t n) {
  if (top_ + n > buffer_.size()) {
    throw Error("scratch arena exhausted: " + std::to_string(n) + " doubles requested with " +
                std::to_string(buffer_.size() - top_) + " of " + std::to_string(buffer_.size()) +
                " free (an internal sizing error; please report the model)");
  }
  double* out = buffer_.data() + top_;
  top_ += n;
  if (top_ > peak_) peak_ = top_;
  return out;
}

int* Arena::Ints(std::size_t n) {
  // ints are carved from doubles: round up to whole doubles to keep alignment
  const std::size_t doubles = (n * sizeof(int) + sizeof(double) - 1) / sizeof(double);
  return reinterpret_cast<int*>(Doubles(doubles));
}

}  // namespace gauss
