// The body-by-body RNE velocity derivative (core/src/rne_derivative.cc) on random trees (free,
// ball, hinge and slide joints, several joints per body, welded bodies, several trees): it must
// equal the central differences of -qfrc_bias with respect to qvel, which are exact up to
// round-off because the bias force is quadratic in the velocity, and the differences outside M's
// pattern must vanish (the RNE term couples only dofs on one chain).
#include "rne_derivative.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/tree_sparse.h"

namespace gauss {
namespace {

class RneDerivative : public ::testing::TestWithParam<unsigned> {};

TEST_P(RneDerivative, EqualsCentralDifferencesOfTheBiasForce) {
  const unsigned seed = GetParam();
  Config config;
  config.flags["constraint"] = false;
  Engine engine(LoadModelFromString(test::RandomTreeXml(seed, 1 + static_cast<int>(seed % 14), false)),
                config);
  const Model& m = engine.model();
  Data d = engine.MakeData();
  std::mt19937_64 gen(100 + seed);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < m.nq; ++i) d.qpos[i] += 0.3 * nd(gen);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = 2 * nd(gen);
  engine.Forward(d);

  std::vector<double> lower(m.nM, 0.0), upper(m.nM, 0.0);
  AddRneDerivative(m, d, lower.data(), upper.data());
  const std::vector<double> D = test::DenseFromTreeSparse(m, lower.data(), upper.data());

  const double h = 1e-3;
  double worst = 0, scale = 1, off_pattern = 0;
  for (int k = 0; k < m.nv; ++k) {
    Data plus = d, minus = d;
    plus.qvel[k] += h;
    minus.qvel[k] -= h;
    engine.Forward(plus);
    engine.Forward(minus);
    for (int j = 0; j < m.nv; ++j) {
      const double fd = -(plus.qfrc_bias[j] - minus.qfrc_bias[j]) / (2 * h);
      const double analytic = D[j * m.nv + k];
      scale = std::max(scale, std::fabs(fd));
      if (std::isnan(analytic)) {
        off_pattern = std::max(off_pattern, std::fabs(fd));
      } else {
        worst = std::max(worst, std::fabs(analytic - fd));
      }
    }
  }
  RecordProperty("nv", m.nv);
  RecordProperty("max_abs_error", std::to_string(worst));
  EXPECT_LE(worst / scale, 1e-9) << "seed " << seed << ", nv " << m.nv;
  EXPECT_LE(off_pattern / scale, 1e-9) << "seed " << seed;
}

INSTANTIATE_TEST_SUITE_P(Seeds, RneDerivative, ::testing::Range(1u, 41u));

}  // namespace
}  // namespace gauss
