// Joint springs and dampers (passive.cc): the spring force is minus the gradient of the spring
// energy (energy.cc) and the damper force is -b v.
// The fluid forces are tested in fluid_test.cc.
#include <cmath>
#include <random>
#include <string>

#include "dynamics_fixture.h"
#include "gauss/engine.h"

namespace gauss::test {
namespace {

using Passive = DynamicsFixture;

TEST_P(Passive, SpringForceIsEnergyGradient) {
  // with zero velocity only springs act; their power along a direction v equals -dE/dt
  Data d = d_;
  std::mt19937_64 gen(5);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < m().nv; ++i) d.qvel[i] = nd(gen);
  const std::vector<double> direction = d.qvel;
  std::fill(d.qvel.begin(), d.qvel.end(), 0.0);
  PassiveForces(m(), d);
  double power = 0;
  for (int i = 0; i < m().nv; ++i) power += d.qfrc_passive[i] * direction[i];

  auto spring_energy = [&](double h) {
    Data e = d;
    IntegratePosition(m(), e.qpos.data(), direction.data(), h);
    Model no_gravity = m();
    no_gravity.opt.disableflags |= kDisableGravity;
    PotentialEnergy(no_gravity, e);
    return e.energy[0];
  };
  const double h = 1e-6;
  const double dE = (spring_energy(h) - spring_energy(-h)) / (2 * h);
  EXPECT_NEAR(power, -dE, 1e-6 * (1 + std::fabs(dE)));
}

TEST_P(Passive, DamperOpposesVelocity) {
  Data springs_only = d_;
  std::fill(springs_only.qvel.begin(), springs_only.qvel.end(), 0.0);
  PassiveForces(m(), springs_only);
  for (int i = 0; i < m().nv; ++i) {
    EXPECT_NEAR(d_.qfrc_passive[i] - springs_only.qfrc_passive[i], -m().dof_damping[i] * d_.qvel[i], 1e-14);
  }
}

TEST_P(Passive, DisabledFlagRemovesAllPassiveForces) {
  Model off = m();
  off.opt.disableflags |= kDisablePassive;
  PassiveForces(off, d_);
  for (int i = 0; i < m().nv; ++i) EXPECT_EQ(d_.qfrc_passive[i], 0.0);
}

INSTANTIATE_TEST_SUITE_P(Models, Passive, ::testing::Values("chain_mixed.xml", "pendulum3.xml"));

}  // namespace
}  // namespace gauss::test
