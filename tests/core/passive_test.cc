// Joint springs and dampers (passive.cc): the spring force is minus the gradient of the spring
// energy (energy.cc) and the damper force is -b v.
// MuJoCo 3.x body gravcomp cancels that fraction of each body's weight (exactly, in qacc),
// through qfrc_actuator for joints with actuatorgravcomp (clamped by actuatorfrcrange); a
// 3.x tendon spring dead band exerts no force inside and pulls to its nearer end outside.
// 3.x polynomial springs (stiffness "k k2 k3" on hinges, slides and tendons) give the forces
// MuJoCo 3.12.1 gives (measured), are the gradient of their energy, and a class's coefficients
// survive a shorter stiffness written on the element (as in 3.12).
// MuJoCo 3.x's spring and damper flags each remove their half of the forces; gravity
// compensation and fluid forces stop only with both.
// The fluid forces are tested in fluid_test.cc.
#include <cmath>
#include <random>
#include <string>

#include "dynamics_fixture.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

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

// MuJoCo 3.x's spring and damper flags each remove their half: with springs off the forces are
// exactly the dampers' -b v, with dampers off exactly the springs' (the forces at zero
// velocity); both together are 2.2.2's passive flag.
TEST_P(Passive, SpringAndDamperFlagsRemoveTheirHalf) {
  Data springs_only = d_;
  std::fill(springs_only.qvel.begin(), springs_only.qvel.end(), 0.0);
  PassiveForces(m(), springs_only);
  Model no_spring = m(), no_damper = m(), neither = m();
  no_spring.opt.disableflags |= kDisableSpring;
  no_damper.opt.disableflags |= kDisableDamper;
  neither.opt.disableflags |= kDisableSpring | kDisableDamper;
  Data a = d_, b = d_, c = d_;
  PassiveForces(no_spring, a);
  PassiveForces(no_damper, b);
  PassiveForces(neither, c);
  bool any_spring = false, any_damper = false;
  for (int i = 0; i < m().nv; ++i) {
    EXPECT_NEAR(a.qfrc_passive[i], -m().dof_damping[i] * d_.qvel[i], 1e-14);
    EXPECT_EQ(b.qfrc_passive[i], springs_only.qfrc_passive[i]);
    EXPECT_EQ(c.qfrc_passive[i], 0.0);
    any_spring = any_spring || springs_only.qfrc_passive[i] != 0;
    any_damper = any_damper || m().dof_damping[i] * d_.qvel[i] != 0;
  }
  EXPECT_TRUE(any_spring && any_damper);  // both halves are there to remove
  // the spring energy goes with the springs
  Data e = d_, f = d_;
  PotentialEnergy(m(), e);
  PotentialEnergy(no_spring, f);
  Model no_gravity = no_spring;
  no_gravity.opt.disableflags |= kDisableGravity;
  PotentialEnergy(no_gravity, f);
  EXPECT_EQ(f.energy[0], 0.0);
  EXPECT_NE(e.energy[0], f.energy[0]);
}

INSTANTIATE_TEST_SUITE_P(Models, Passive, ::testing::Values("chain_mixed.xml", "pendulum3.xml"));

// Gravity compensation and fluid forces are passive forces that neither half owns: MuJoCo 3.12
// keeps them when only springs or only dampers are off and drops them with both (measured:
// tests/models/mjcf3/no_spring.xml, no_damper.xml agree with it in tests/reference/mjcf3).
TEST(SpringDamperFlags, GravcompAndFluidStopOnlyWithBoth) {
  auto forces = [](const std::string& flag) {
    const Engine engine(LoadModelFromString(R"(<mujoco><option density="1.2" viscosity="0.1">
        <flag )" + flag + R"(/></option><worldbody>
        <body pos="0 0 1" gravcomp="0.5"><joint axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 .4 0 0" size=".05"/></body></worldbody></mujoco>)",
                                            "flags.xml"));
    Data d = engine.MakeData();
    d.qvel[0] = 2;
    engine.Forward(d);
    return d.qfrc_passive[0];
  };
  const double all = forces("gravity=\"enable\"");
  EXPECT_NE(all, 0.0);
  EXPECT_EQ(forces("spring=\"disable\""), all);  // nothing of this model is a spring or a damper
  EXPECT_EQ(forces("damper=\"disable\""), all);
  EXPECT_EQ(forces("spring=\"disable\" damper=\"disable\""), 0.0);
  EXPECT_EQ(forces("passive=\"disable\""), 0.0);
}

// A free box and a hinged arm, with gravcomp `fraction` on both.
std::shared_ptr<const Model> GravcompModel(const std::string& fraction, const std::string& flag) {
  return LoadModelFromString(R"(<mujoco><option gravity="1 0 -9.81"><flag gravity=")" + flag +
                                 R"("/></option><worldbody>
      <body pos="0 0 1" gravcomp=")" + fraction + R"("><freejoint/>
        <geom type="box" size="0.1 0.2 0.05" pos="0.03 0 0" euler="10 20 30"/></body>
      <body pos="1 0 1" gravcomp=")" + fraction + R"("><joint axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.4 0 0.2" size="0.03"/></body>
      </worldbody></mujoco>)",
                             "gravcomp.xml");
}

TEST(Gravcomp, CancelsThatFractionOfTheWeight) {
  // at rest, gravity and gravcomp are the only forces: the free body accelerates at
  // (1 - fraction) g and does not rotate; the arm's acceleration scales by (1 - fraction)
  const Engine reference(GravcompModel("0", "enable"));
  Data free_fall = reference.MakeData();
  reference.Forward(free_fall);
  for (const double fraction : {1.0, 0.5, -0.3}) {
    const Engine engine(GravcompModel(std::to_string(fraction), "enable"));
    Data d = engine.MakeData();
    engine.Forward(d);
    const double g[3] = {1, 0, -9.81};
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(d.qacc[i], (1 - fraction) * g[i], 1e-12) << fraction;
    for (int i = 3; i < 6; ++i) EXPECT_NEAR(d.qacc[i], 0, 1e-12) << fraction;
    EXPECT_NEAR(d.qacc[6], (1 - fraction) * free_fall.qacc[6], 1e-12) << fraction;
    EXPECT_NE(free_fall.qacc[6], 0);
  }
  // without gravity there is nothing to compensate
  const Engine off(GravcompModel("1", "disable"));
  Data d = off.MakeData();
  off.Forward(d);
  for (int i = 0; i < off.model().nv; ++i) EXPECT_EQ(d.qacc[i], 0);
}

// Two hinged arms with gravcomp 1; the first routes it through its actuators
// (actuatorgravcomp) with an actuatorfrcrange, and `flags` may disable actuation.
std::shared_ptr<const Model> ActGravcompModel(const std::string& range, const std::string& flags,
                                              bool with_motor) {
  return LoadModelFromString(R"(<mujoco><option gravity="0 0 -9.81">)" + flags + R"(</option>
      <worldbody>
      <body pos="0 0 1" gravcomp="1"><joint name="routed" axis="0 -1 0" actuatorgravcomp="true"
          actuatorfrcrange=")" + range + R"("/>
        <geom type="capsule" fromto="0 0 0 0.4 0 0.2" size="0.03"/></body>
      <body pos="1 0 1" gravcomp="1"><joint name="passive" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.4 0 0.2" size="0.03"/></body>
      </worldbody>)" + (with_motor ? "<actuator><motor joint=\"passive\"/></actuator>" : "") +
                             "</mujoco>", "actgravcomp.xml");
}

TEST(Gravcomp, ActuatorGravcompIsAnActuatorForceWithinTheJointRange) {
  // unclamped, the routed arm holds still like the passive one, but through qfrc_actuator
  const Engine engine(ActGravcompModel("-100 100", "", true));
  Data d = engine.MakeData();
  engine.Forward(d);
  const double weight_torque = d.qfrc_gravcomp[0];  // the axis makes it positive
  EXPECT_GT(weight_torque, 0.1);
  EXPECT_EQ(d.qfrc_passive[0], 0);
  EXPECT_EQ(d.qfrc_actuator[0], weight_torque);
  EXPECT_EQ(d.qfrc_passive[1], d.qfrc_gravcomp[1]);
  EXPECT_EQ(d.qfrc_actuator[1], 0);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(d.qacc[i], 0, 1e-12);

  // a range below the weight's torque clamps it: the arm falls with the rest
  const double limit = 0.05;
  const Engine clamped(ActGravcompModel("-0.05 0.05", "", true));
  Data c = clamped.MakeData();
  clamped.Forward(c);
  EXPECT_NEAR(c.qfrc_actuator[0], limit, 1e-15);
  EXPECT_NEAR(c.qacc[0] * c.qM[clamped.model().dof_Madr[0]], limit - weight_torque, 1e-12);

  // MuJoCo 3.12.1 (measured): without actuators, or with actuation disabled, the routed force
  // is lost (not moved back to qfrc_passive)
  for (const bool motor : {false, true}) {
    const Engine lost(ActGravcompModel("-100 100", motor ? "<flag actuation=\"disable\"/>" : "",
                                       motor));
    Data l = lost.MakeData();
    lost.Forward(l);
    EXPECT_EQ(l.qfrc_actuator[0], 0) << motor;
    EXPECT_EQ(l.qfrc_passive[0], 0) << motor;
    EXPECT_NEAR(l.qacc[0] * l.qM[lost.model().dof_Madr[0]], -weight_torque, 1e-12) << motor;
    EXPECT_NEAR(l.qacc[1], 0, 1e-12) << motor;
  }
}

TEST(TendonSpring, DeadBandExertsNoForceInsideAndPullsToTheNearerEnd) {
  // a fixed tendon of coefficient 2 on a slide: length 2 q; band [0.4, 0.6], k = 10
  const Engine engine(LoadModelFromString(R"(<mujoco><option gravity="0 0 0"/><worldbody>
      <body><joint name="q" type="slide"/><geom size="0.1"/></body></worldbody>
      <tendon><fixed stiffness="10" springlength="0.4 0.6"><joint joint="q" coef="2"/></fixed>
      </tendon></mujoco>)",
                                          "deadband.xml"));
  Data d = engine.MakeData();
  const struct {
    double q, force;  // qfrc_passive = J' (-k stretch), J = 2
  } cases[] = {{0.25, 0}, {0.2, 0}, {0.3, 0}, {0.1, -2 * 10 * (0.2 - 0.4)},
               {0.45, -2 * 10 * (0.9 - 0.6)}};
  for (const auto& c : cases) {
    d.qpos[0] = c.q;
    engine.Forward(d);
    EXPECT_NEAR(d.qfrc_passive[0], c.force, 1e-12) << c.q;
  }
  try {
    LoadModelFromString(R"(<mujoco><worldbody><body><joint name="q"/><geom size="1"/></body>
        </worldbody><tendon><fixed springlength="0.6 0.4"><joint joint="q" coef="1"/></fixed>
        </tendon></mujoco>)", "bad.xml");
    ADD_FAILURE() << "a decreasing dead band was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("attribute 'springlength': the dead band"),
              std::string::npos) << e.what();
  }
}

// qfrc_passive of the single dof of `inside` (a model with one slide or hinge at qpos0)
double PassiveForceAtStart(const std::string& inside) {
  const Engine engine(LoadModelFromString("<mujoco><option gravity=\"0 0 0\"/>" + inside +
                                              "</mujoco>", "poly.xml"));
  Data d = engine.MakeData();
  engine.Forward(d);
  return d.qfrc_passive[0];
}

TEST(PolynomialSpring, ForcesAreThoseOfMujoco312) {
  // a spatial tendon from the origin to a slide body at x = 3 (J = 1), springlength 1: stretch
  // 2; and 0.5: stretch -0.5. MuJoCo 3.12.1 (measured, one unit step of a unit mass): -48,
  // 0.75 for "2 3 4"; -4, -0.25 for "0 1 0" (the square keeps its sign: not x |x|)
  auto tendon = [](const std::string& k, double x) {
    return PassiveForceAtStart("<worldbody><site name=\"a\"/><body pos=\"" +
                               std::to_string(x) + " 0 0\"><joint type=\"slide\" " +
                               "axis=\"1 0 0\"/><geom size=\".1\" mass=\"1\"/><site " +
                               "name=\"b\"/></body></worldbody><tendon><spatial stiffness=\"" +
                               k + "\" springlength=\"1\"><site site=\"a\"/><site " +
                               "site=\"b\"/></spatial></tendon>");
  };
  EXPECT_NEAR(tendon("2 3 4", 3), -48, 1e-12);
  EXPECT_NEAR(tendon("2 3 4", 0.5), 0.75, 1e-12);
  EXPECT_NEAR(tendon("0 1 0", 3), -4, 1e-12);
  EXPECT_NEAR(tendon("0 1 0", 0.5), -0.25, 1e-12);
  EXPECT_NEAR(tendon("0 0 1", 0.5), 0.125, 1e-12);
  // joints: a slide at ref 3 with springref 1 ("0 1 0": -4), a hinge at -60 degrees ("1 2 3")
  EXPECT_NEAR(PassiveForceAtStart(R"(<worldbody><body><joint type="slide" axis="1 0 0"
      stiffness="0 1 0" ref="3" springref="1"/><geom size=".1"/></body></worldbody>)"), -4,
              1e-12);
  const double x = -M_PI / 3;
  EXPECT_NEAR(PassiveForceAtStart(R"(<worldbody><body><joint axis="0 0 1" stiffness="1 2 3"
      ref="-60"/><geom size=".1"/></body></worldbody>)"), -(x + 2 * x * x + 3 * x * x * x),
              1e-12);
  // a default class's "0 2 0" and the element's "1": (1, 2, 0), -2 - 8 at stretch 2 (3.12: -10)
  EXPECT_NEAR(PassiveForceAtStart(R"(<default><tendon stiffness="0 2 0"/></default>
      <worldbody><site name="a"/><body pos="3 0 0"><joint type="slide" axis="1 0 0"/>
      <geom size=".1"/><site name="b"/></body></worldbody><tendon><spatial springlength="1"
      stiffness="1"><site site="a"/><site site="b"/></spatial></tendon>)"), -10, 1e-12);
}

TEST(PolynomialSpring, ForceIsTheGradientOfItsEnergy) {
  const auto m = LoadModelFromString(R"(<mujoco><option gravity="0 0 0"/><worldbody>
      <site name="a" pos="0 0 1"/>
      <body><joint name="h" axis="0 1 0" stiffness="2 -3 5" springref="10"/>
        <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
        <body pos="0.5 0 0"><joint type="slide" axis="1 0 0" stiffness="0 4 -1"/>
          <geom size="0.1"/><site name="b"/></body></body></worldbody>
      <tendon><spatial stiffness="1 2 3" springlength="0.9 1"><site site="a"/><site site="b"/>
      </spatial><fixed stiffness="0 0 7" springlength="0.1"><joint joint="h" coef="1"/>
      </fixed></tendon></mujoco>)", "poly_energy.xml");
  ASSERT_EQ(m->jnt_stiffnesspoly.size(), 4u);
  EXPECT_EQ(m->tendon_stiffnesspoly[3], 7);
  const Engine engine(m);
  for (const double q0 : {0.4, -0.3}) {
    Data d = engine.MakeData();
    d.qpos = {q0, -0.2};
    engine.Forward(d);
    const std::vector<double> force = d.qfrc_passive;
    // -dE/dq by central differences of the spring energy (no gravity)
    for (int i = 0; i < 2; ++i) {
      auto energy = [&](double h) {
        Data e = engine.MakeData();
        e.qpos = {q0, -0.2};
        e.qpos[i] += h;
        engine.Forward(e);
        PotentialEnergy(*m, e);
        return e.energy[0];
      };
      const double h = 1e-6;
      const double gradient = (energy(h) - energy(-h)) / (2 * h);
      EXPECT_NEAR(force[i], -gradient, 1e-6 * (1 + std::fabs(gradient))) << q0 << " " << i;
      EXPECT_GT(std::fabs(force[i]), 0.1);
    }
  }
  EXPECT_NE(test::ErrorMessage([] {
              LoadModelFromString(R"(<mujoco><worldbody><body><joint type="ball"
                  stiffness="1 2"/><geom size="1"/></body></worldbody></mujoco>)", "b.xml");
            }).find("not supported yet: polynomial stiffness"),
            std::string::npos);
}

}  // namespace
}  // namespace gauss::test
