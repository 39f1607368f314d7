// Integrator plugins on an undamped, conservative double pendulum (models/double_pendulum.xml):
// rk4 must conserve the total energy to 1e-6 relative over 10 s at dt = 1e-3; semi-implicit
// euler must show a first-order energy error (halving dt halves the error) that is orders of
// magnitude larger.
#include <gtest/gtest.h>

#include <cmath>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// Largest |E(t) - E(0)| over `duration`, relative to the energy scale m g L of the pendulum
// (the potential energy difference between hanging and horizontal).
double MaxEnergyError(const std::string& integrator, double dt, double duration) {
  Config config;
  config.integrator = integrator;
  config.timestep = dt;
  config.flags["energy"] = true;
  Engine engine(LoadModel(test::RepoModel("double_pendulum.xml")), config);
  const Model& m = engine.model();
  Data d = engine.MakeData();
  d.qpos[0] = 0.6;   // released from rest at a moderate angle: regular, not chaotic, motion
  d.qpos[1] = -0.4;
  engine.Forward(d);
  const double e0 = d.energy[0] + d.energy[1];
  double scale = 0;
  for (int b = 1; b < m.nbody; ++b) scale += m.body_mass[b] * 9.81 * 0.9;
  double worst = 0;
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int k = 0; k < steps; ++k) {
    engine.Step(d);
    engine.ComputeEnergy(d);  // energy of the state reached, not of the previous one
    worst = std::max(worst, std::fabs(d.energy[0] + d.energy[1] - e0));
  }
  return worst / scale;
}

TEST(IntegratorEnergy, Rk4ConservesEnergy) {
  const double error = MaxEnergyError("rk4", 1e-3, 10.0);
  RecordProperty("rk4_relative_energy_error", std::to_string(error));
  EXPECT_LT(error, 1e-6);
}

TEST(IntegratorEnergy, EulerErrorIsFirstOrder) {
  const double coarse = MaxEnergyError("euler", 2e-3, 5.0);
  const double fine = MaxEnergyError("euler", 1e-3, 5.0);
  RecordProperty("euler_relative_energy_error_dt2e-3", std::to_string(coarse));
  RecordProperty("euler_relative_energy_error_dt1e-3", std::to_string(fine));
  EXPECT_GT(fine, 1e-5);            // a visible error ...
  EXPECT_GT(coarse / fine, 1.6);    // ... that halves with the timestep (first order)
  EXPECT_LT(coarse / fine, 2.5);
  EXPECT_GT(fine, 100 * MaxEnergyError("rk4", 1e-3, 5.0));
}

}  // namespace
}  // namespace gauss
