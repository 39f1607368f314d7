// Fluid forces (fluid.cc).
//
// Inertia-box model: the drag of a free box against the closed-form formulas (the equivalent
// box of a uniform box is the box itself), opposition to the velocity (negative power) at random
// states of the swimmer, energy dissipation in a free simulation, and the wind's push on a body
// at rest.
//
// Ellipsoid model: the virtual mass and inertia against closed forms (sphere: half the displaced
// mass and no added inertia; prolate spheroid: Lamb's closed-form kappa), the power of the wrench
// equals the drag's (added mass, Magnus and Kutta forces do no work), no Kutta lift on a sphere,
// the exact Jacobian against finite differences, and a sphere falling to the terminal speed at
// which weight balances the drag.
#include <cmath>
#include <random>
#include <string>

#include "dynamics_fixture.h"
#include "fluid.h"
#include "gauss/engine.h"

namespace gauss::test {
namespace {

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


// ---------------------------------------------------------------- ellipsoid model

// fluidcoef = (blunt drag, slender drag, angular drag, Kutta lift, Magnus lift)
const double kDefaultCoef[5] = {0.5, 0.25, 1.5, 1.0, 1.0};

TEST(EllipsoidFluid, SphereMovesHalfItsDisplacedMassAndNoAddedInertia) {
  const double size[3] = {0.3, 0, 0};
  double fluid[kNFluid];
  EllipsoidFluidCoefficients(GeomType::kSphere, size, kDefaultCoef, fluid);
  const double volume = 4.0 / 3.0 * kPi * 0.027;
  EXPECT_EQ(fluid[0], 1.0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(fluid[1 + i], kDefaultCoef[i]);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(fluid[6 + i], 0.5 * volume, 1e-15) << i;
    EXPECT_NEAR(fluid[9 + i], 0.0, 1e-18) << i;
  }
}

TEST(EllipsoidFluid, ProlateSpheroidMatchesLambsClosedForm) {
  // semi-axes (1, 1, 2): along the axis of symmetry, with eccentricity e,
  // kappa = 2 (1 - e^2) / e^3 (atanh(e) - e)  (Lamb, Hydrodynamics, section 115)
  const double size[3] = {1, 1, 2};  // an ellipsoid geom's radii
  double fluid[kNFluid];
  EllipsoidFluidCoefficients(GeomType::kEllipsoid, size, kDefaultCoef, fluid);
  const double e = std::sqrt(1 - 0.25);
  const double kappa = 2 * (1 - e * e) / (e * e * e) * (std::atanh(e) - e);
  const double volume = 4.0 / 3.0 * kPi * 2;
  EXPECT_NEAR(fluid[8], volume * kappa / (2 - kappa), 1e-13);
  EXPECT_NEAR(fluid[6], fluid[7], 1e-13);  // the two equal axes
  EXPECT_NEAR(fluid[11], 0, 1e-15);        // no added inertia about the axis of symmetry
  EXPECT_GT(fluid[9], 0);
}

// random local velocity (angular, linear)
void RandomVelocity(std::mt19937_64& gen, double* vel) {
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < 6; ++i) vel[i] = 2 * nd(gen);
}

TEST(EllipsoidFluid, OnlyTheDragDoesWork) {
  // added mass, Magnus and Kutta forces are perpendicular to the motion in the power sense, so
  // the wrench's power equals the power of the drag alone (all lift coefficients zero), < 0
  const double semiaxes[3] = {0.2, 0.05, 0.01};
  double fluid[kNFluid], drag_only[kNFluid];
  const double coef[5] = {0.6, 0.3, 1.2, 1.7, 0.9};
  EllipsoidFluidCoefficients(GeomType::kEllipsoid, semiaxes, coef, fluid);
  std::copy(fluid, fluid + kNFluid, drag_only);
  drag_only[4] = drag_only[5] = 0;                               // no Kutta, no Magnus
  for (int i = 6; i < 12; ++i) drag_only[i] = 0;                 // no added mass
  std::mt19937_64 gen(4);
  for (int s = 0; s < 50; ++s) {
    double vel[6], wrench[6] = {0}, drag[6] = {0};
    RandomVelocity(gen, vel);
    EllipsoidFluidWrench(semiaxes, fluid, 1.2, 1e-3, vel, wrench);
    EllipsoidFluidWrench(semiaxes, drag_only, 1.2, 1e-3, vel, drag);
    double power = 0, drag_power = 0;
    for (int i = 0; i < 6; ++i) {
      power += wrench[i] * vel[i];
      drag_power += drag[i] * vel[i];
    }
    EXPECT_LT(drag_power, 0);
    EXPECT_NEAR(power, drag_power, 1e-12 * std::fabs(drag_power)) << "state " << s;
  }
}

TEST(EllipsoidFluid, SphereFeelsNoKuttaLift) {
  const double r[3] = {0.1, 0.1, 0.1};
  double fluid[kNFluid];
  EllipsoidFluidCoefficients(GeomType::kEllipsoid, r, kDefaultCoef, fluid);
  double with_kutta[6] = {0}, without[6] = {0};
  double no_kutta[kNFluid];
  std::copy(fluid, fluid + kNFluid, no_kutta);
  no_kutta[4] = 0;
  const double vel[6] = {0.3, -1, 2, 1.5, -0.7, 0.4};
  EllipsoidFluidWrench(r, fluid, 1000, 1e-3, vel, with_kutta);
  EllipsoidFluidWrench(r, no_kutta, 1000, 1e-3, vel, without);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(with_kutta[i], without[i], 1e-12) << i;
}

TEST(EllipsoidFluid, JacobianMatchesFiniteDifferences) {
  const double semiaxes[3] = {0.3, 0.1, 0.02};
  double fluid[kNFluid];
  const double coef[5] = {0.6, 0.3, 1.2, 1.7, 0.9};
  EllipsoidFluidCoefficients(GeomType::kBox, semiaxes, coef, fluid);
  std::mt19937_64 gen(9);
  for (int s = 0; s < 20; ++s) {
    double vel[6], jacobian[36];
    RandomVelocity(gen, vel);
    EllipsoidFluidWrenchJacobian(semiaxes, fluid, 1.2, 1e-3, vel, jacobian);
    for (int b = 0; b < 6; ++b) {
      const double h = 1e-6;
      double plus[6] = {0}, minus[6] = {0}, vp[6], vm[6];
      std::copy(vel, vel + 6, vp);
      std::copy(vel, vel + 6, vm);
      vp[b] += h;
      vm[b] -= h;
      EllipsoidFluidWrench(semiaxes, fluid, 1.2, 1e-3, vp, plus);
      EllipsoidFluidWrench(semiaxes, fluid, 1.2, 1e-3, vm, minus);
      for (int a = 0; a < 6; ++a) {
        const double fd = (plus[a] - minus[a]) / (2 * h);
        EXPECT_NEAR(jacobian[6 * a + b], fd, 1e-7 * (1 + std::fabs(fd))) << a << "," << b;
      }
    }
  }
}

TEST(EllipsoidFluid, FallingSphereReachesTerminalSpeed) {
  // weight m g = (3 pi D mu + rho v C_blunt pi r^2) v at the terminal speed v (a sphere's
  // projected area is pi r^2 whatever the direction; added mass and lift vanish without spin)
  const double r = 0.05, mass = 0.2, rho = 1.2, mu = 2e-5, g = 9.81;
  const std::string xml =
      "<mujoco><option density=\"1.2\" viscosity=\"0.00002\" timestep=\"0.001\"/>"
      "<worldbody><body pos=\"0 0 100\"><freejoint/><geom type=\"sphere\" size=\"0.05\" "
      "mass=\"0.2\" fluidshape=\"ellipsoid\" contype=\"0\" conaffinity=\"0\"/></body>"
      "</worldbody></mujoco>";
  Config config;
  config.integrator = "implicit";
  Engine engine(LoadModelFromString(xml, "falling_sphere.xml"), config);
  Data d = engine.MakeData();
  for (int k = 0; k < 20000; ++k) engine.Step(d);
  const double linear = 3 * kPi * (2 * r) * mu;  // Stokes, D = 2/3 (3 r) = 2 r
  const double quadratic = rho * 0.5 * kPi * r * r;
  // quadratic v^2 + linear v - m g = 0
  const double v = (-linear + std::sqrt(linear * linear + 4 * quadratic * mass * g)) /
                   (2 * quadratic);
  EXPECT_NEAR(-d.qvel[2], v, 1e-6 * v);
  EXPECT_NEAR(d.qvel[0], 0, 1e-12);
  EXPECT_NEAR(d.qvel[1], 0, 1e-12);
}

}  // namespace
}  // namespace gauss::test
