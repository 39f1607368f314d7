// The seeded noise of `gauss run --seed --qvel-noise --ctrl-noise` and of experiments' initial
// qvel noise and noise controls (one definition, so that both draw the same numbers).
#pragma once

#include <cstdint>
#include <random>

#include "gauss/data.h"

namespace gauss::cli {

// Sample noise shared by `gauss run` and `gauss experiment`, so that a run of an experiment is
// reproduced by `gauss run --seed S --qvel-noise Q --ctrl-noise SIGMA`: one std::mt19937_64
// seeded with S and one standard normal distribution; the initial qvel gets Q * N(0,1) per
// entry (entry 0 first), then before each step every ctrl entry is set to SIGMA * N(0,1), in
// actuator order (the engine clamps it to ctrlrange when ctrllimited).
class NoiseSource {
 public:
  explicit NoiseSource(std::uint64_t seed) : gen_(seed), normal_(0.0, 1.0) {}
  // (d.qvel) => d.qvel + sigma * N(0,1) per entry; nothing when sigma is 0.
  void PerturbQvel(double sigma, Data& d) {
    if (sigma <= 0) return;
    for (double& v : d.qvel) v += sigma * normal_(gen_);
  }
  // => d.ctrl = sigma * N(0,1) per entry.
  void DrawControls(double sigma, Data& d) {
    for (double& c : d.ctrl) c = sigma * normal_(gen_);
  }

 private:
  std::mt19937_64 gen_;
  std::normal_distribution<double> normal_;
};

}  // namespace gauss::cli
