// Joint springs and dampers (passive.cc): the spring force is minus the gradient of the spring
// energy (energy.cc) and the damper force is -b v.
//
// Fluid forces: the inertia-box drag of a free box against the closed-form formulas (the
// equivalent box of a uniform box is the box itself), opposition to the velocity (negative
// power) at random states of the swimmer, energy dissipation in a free simulation, and the
// wind's push on a body at rest.
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

// ---------------------------------------------------------------- fluid forces

constexpr double kPi = 3.14159265358979323846;

// A free uniform box of half sizes (0.1, 0.2, 0.3), com at the body origin.
std::shared_ptr<const Model> FreeBox(double density, double viscosity, const char* wind) {
  const std::string xml = std::string(R"(<mujoco><option density=")") + std::to_string(density) +
                          R"(" viscosity=")" + std::to_string(viscosity) + R"(" wind=")" + wind +
                          R"(" gravity="0 0 0"/><worldbody><body><freejoint/>
      <geom type="box" size=".1 .2 .3" contype="0" conaffinity="0"/></body></worldbody></mujoco>)";
  return LoadModelFromString(xml, "fluid_box.xml");
}

// (qpos, qvel) => qfrc_passive (and everything before it)
void PassiveStage(const Model& m, Data& d) {
  Kinematics(m, d);
  ComPosition(m, d);
  ComVelocity(m, d);
  PassiveForces(m, d);
}

TEST(Fluid, BoxDragMatchesClosedForm) {
  const double rho = 1.3, mu = 0.07;
  const std::shared_ptr<const Model> model = FreeBox(rho, mu, "0 0 0");
  const Model& m = *model;
  Data d;
  AllocateData(m, d);
  // identity orientation: world, body and inertial frames coincide (up to the principal-axis
  // order the compiler picks, which the formulas below do not depend on per axis pair)
  d.qvel[0] = 1.5;   // linear x
  d.qvel[5] = -2.0;  // angular z
  PassiveStage(m, d);
  const double sides[3] = {0.2, 0.4, 0.6};
  const double diameter = (0.2 + 0.4 + 0.6) / 3;
  // force along x: quadratic drag on the y-z face plus Stokes drag of the mean-side sphere
  const double fx = -0.5 * rho * sides[1] * sides[2] * 1.5 * 1.5 - 3 * kPi * diameter * mu * 1.5;
  // torque about z: rho b_z (b_x^4 + b_y^4) |w| w / 64 and the rotational Stokes term
  const double tz = -rho * sides[2] * (std::pow(sides[0], 4) + std::pow(sides[1], 4)) * 2.0 *
                        -2.0 / 64 -
                    kPi * std::pow(diameter, 3) * mu * -2.0;
  EXPECT_NEAR(d.qfrc_passive[0], fx, 1e-12);
  EXPECT_NEAR(d.qfrc_passive[5], tz, 1e-12);
  for (int i : {1, 2, 3, 4}) EXPECT_NEAR(d.qfrc_passive[i], 0, 1e-12) << i;
}

TEST(Fluid, WindPushesABodyAtRestAlongIt) {
  const std::shared_ptr<const Model> model = FreeBox(1.0, 0.1, "0 2 0");
  const Model& m = *model;
  Data d;
  AllocateData(m, d);
  PassiveStage(m, d);
  // relative velocity -wind: drag along +y, 0.5 rho b_x b_z 2^2 + 3 pi D mu 2
  const double expected = 0.5 * 1.0 * 0.2 * 0.6 * 4 + 3 * kPi * 0.4 * 0.1 * 2;
  EXPECT_NEAR(d.qfrc_passive[1], expected, 1e-12);
  EXPECT_NEAR(d.qfrc_passive[0], 0, 1e-14);
  EXPECT_NEAR(d.qfrc_passive[2], 0, 1e-14);
}

TEST(Fluid, ForceOpposesVelocityAtRandomStates) {
  // the swimmer without joint damping: the passive force is then only the fluid's, and its
  // power must be negative for every velocity (no wind)
  const std::shared_ptr<const Model> loaded = LoadModel(SharedModel("gymnasium/swimmer.xml"));
  Model m = *loaded;
  std::fill(m.dof_damping.begin(), m.dof_damping.end(), 0.0);
  std::fill(m.jnt_stiffness.begin(), m.jnt_stiffness.end(), 0.0);
  ASSERT_GT(m.opt.density + m.opt.viscosity, 0);
  Data d;
  AllocateData(m, d);
  std::mt19937_64 gen(12);
  std::normal_distribution<double> nd(0, 1);
  for (int s = 0; s < 50; ++s) {
    for (int i = 0; i < m.nq; ++i) d.qpos[i] = m.qpos0[i] + 0.5 * nd(gen);
    for (int i = 0; i < m.nv; ++i) d.qvel[i] = nd(gen);
    PassiveStage(m, d);
    double power = 0;
    for (int i = 0; i < m.nv; ++i) power += d.qfrc_passive[i] * d.qvel[i];
    EXPECT_LT(power, 0) << "state " << s;
  }
}

TEST(Fluid, DissipatesKineticEnergy) {
  // a tumbling free box in a still fluid, no gravity: kinetic energy decreases every step
  const std::shared_ptr<const Model> model = FreeBox(1000.0, 0.5, "0 0 0");
  Config config;
  config.flags["energy"] = true;
  Engine engine(model, config);
  Data d = engine.MakeData();
  const double v0[6] = {1, -0.5, 0.3, 2, 1, -3};
  std::copy(v0, v0 + 6, d.qvel.begin());
  engine.Forward(d);
  double previous = d.energy[1];
  const double initial = previous;
  for (int k = 0; k < 500; ++k) {
    engine.Step(d);
    engine.Forward(d);
    EXPECT_LT(d.energy[1], previous) << "step " << k;
    previous = d.energy[1];
  }
  EXPECT_LT(previous, 0.5 * initial);
}

}  // namespace
}  // namespace gauss::test
