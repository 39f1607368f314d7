// Transmissions (actuation.cc): moment arms against finite differences of actuator_length for
// every transmission with a meaningful length (hinge/slide joints, fixed and spatial tendons,
// slider-crank, site with refsite); virtual power for the zero-length ones (site without
// refsite, free joint, adhesion) and for the frames of jointinparent; control clamping and
// force ranges.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "actuation.h"
#include "data_alloc.h"
#include "gauss/control_derivative.h"
#include "gauss/engine.h"
#include "gauss/integrate.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "pipeline.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

using namespace math;

class Transmissions : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = LoadModel(TestModel("actuation_zoo.xml"));
    AllocateData(m(), d_);
  }
  const Model& m() const { return *model_; }

  // Position stages up to the transmissions.
  void Evaluate(Data& d) const {
    Kinematics(m(), d);
    ComPosition(m(), d);
    Tendons(m(), d);
    Transmission(m(), d);
  }

  void RandomPose(std::mt19937_64& gen, Data& d) const {
    std::normal_distribution<double> nd(0, 1);
    for (int j = 0; j < m().njnt; ++j) {
      double* q = d.qpos.data() + m().jnt_qposadr[j];
      switch (m().jnt_type[j]) {
        case JointType::kFree:
          for (int c = 0; c < 3; ++c) q[c] = m().qpos0[m().jnt_qposadr[j] + c] + 0.3 * nd(gen);
          q += 3;
          [[fallthrough]];
        case JointType::kBall:
          for (int c = 0; c < 4; ++c) q[c] = nd(gen);
          NormalizeQuat(q);
          break;
        default:
          q[0] = 0.4 * nd(gen);
      }
    }
    for (int i = 0; i < m().nv; ++i) d.qvel[i] = nd(gen);
  }

  // A copy of d with positions moved along qvel for time h, re-evaluated.
  Data Moved(const Data& d, double h) const {
    Data out = d;
    IntegratePosition(m(), out.qpos.data(), d.qvel.data(), h);
    Evaluate(out);
    return out;
  }

  // At 20 random poses and velocities (seeded): the moment of each named actuator times qvel
  // equals the centred difference of its length along qvel to 1e-6 (relative to 1 + |power|);
  // records the worst error as the property max_moment_error.
  void ExpectMomentsAreGradients(const std::vector<std::string>& names, unsigned seed) {
    std::mt19937_64 gen(seed);
    const double h = 1e-6;
    double worst = 0;
    for (int s = 0; s < 20; ++s) {
      RandomPose(gen, d_);
      Evaluate(d_);
      const Data plus = Moved(d_, h), minus = Moved(d_, -h);
      for (const std::string& name : names) {
        const int a = m().ActuatorId(name);
        ASSERT_GE(a, 0) << name;
        const double fd = (plus.actuator_length[a] - minus.actuator_length[a]) / (2 * h);
        const double analytic = Power(d_, a);
        const double err = std::fabs(fd - analytic) / (1 + std::fabs(analytic));
        worst = std::max(worst, err);
        EXPECT_LE(err, 1e-6) << name << ", state " << s;
      }
    }
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.3g", worst);
    RecordProperty("max_moment_error", buf);
  }

  // moment row of actuator a times qvel
  double Power(const Data& d, int a) const {
    double p = 0;
    for (int i = 0; i < m().nv; ++i) p += d.actuator_moment[a * m().nv + i] * d.qvel[i];
    return p;
  }

  std::shared_ptr<const Model> model_;
  Data d_;
};

TEST_F(Transmissions, MomentIsTheGradientOfLength) {
  // every actuator whose length is a function of q with gradient = moment (ball joints and
  // rotational site gears use MuJoCo's fixed moment gear, exact only at the identity; refsite
  // translations are checked below)
  ExpectMomentsAreGradients({"crank", "fixed_tendon", "spatial_tendon", "filter", "integrator",
                             "muscle_tendon", "muscle_joint", "muscle_ball"},
                            21);
}

TEST_F(Transmissions, RefsiteTranslationMomentIsTheGradientOfLengthWithTheFrameTurning) {
  // with kEnableRefsiteRot (MuJoCo 3.12's moment) the refsite translation's moment is the true
  // gradient of its length, the reference frame's rotation included
  auto turned = std::make_shared<Model>(m());
  turned->opt.enableflags |= kEnableRefsiteRot;
  model_ = turned;
  AllocateData(m(), d_);
  ExpectMomentsAreGradients({"ref_translation"}, 23);
}

TEST_F(Transmissions, RefsiteMomentHoldsTheReferenceFrameFixed) {
  // length = gear . R_ref' (x_site - x_ref); MuJoCo 2.2.2's moment (J_site - J_ref)' R_ref gear
  // (Gauss's without kEnableRefsiteRot, the default of 2.2.2 files such as the zoo)
  // differentiates the position difference in the reference frame of the current instant,
  // i.e. without the rotation of R_ref itself
  const int a = m().ActuatorId("ref_translation");
  const int site = m().SiteId("hand_tip"), ref = m().SiteId("fore_low");
  const double* gear = m().actuator_gear.data() + 6 * a;
  std::mt19937_64 gen(17);
  const double h = 1e-6;
  for (int s = 0; s < 20; ++s) {
    RandomPose(gen, d_);
    Evaluate(d_);
    const double* rmat = d_.site_xmat.data() + 9 * ref;
    double along[2];
    for (int k = 0; k < 2; ++k) {
      const Data moved = Moved(d_, k == 0 ? h : -h);
      double dif[3], local[3];
      Sub3(dif, moved.site_xpos.data() + 3 * site, moved.site_xpos.data() + 3 * ref);
      MulMatTVec3(local, rmat, dif);
      along[k] = Dot3(local, gear);
    }
    EXPECT_NEAR(Power(d_, a), (along[0] - along[1]) / (2 * h), 1e-7) << "state " << s;
    double dif[3], local[3];
    Sub3(dif, d_.site_xpos.data() + 3 * site, d_.site_xpos.data() + 3 * ref);
    MulMatTVec3(local, rmat, dif);
    EXPECT_NEAR(d_.actuator_length[a], Dot3(local, gear), 1e-15);
  }
}

TEST_F(Transmissions, BallJointLengthIsTheRotationVectorAlongGear) {
  const int a = m().ActuatorId("ball_joint");
  const int j = m().JointId("shoulder");
  const double* gear = m().actuator_gear.data() + 6 * a;
  double* q = d_.qpos.data() + m().jnt_qposadr[j];
  // a rotation by angle 0.8 about a unit axis: length = 0.8 axis . gear
  const double axis[3] = {0.6, 0, 0.8};
  AxisAngleToQuat(q, axis, 0.8);
  Evaluate(d_);
  EXPECT_NEAR(d_.actuator_length[a], 0.8 * Dot3(axis, gear), 1e-14);
  // at the identity the moment (gear on the three dofs) is the gradient of the length
  SetIdentityQuat(q);
  std::fill(d_.qvel.begin(), d_.qvel.end(), 0.0);
  const int dof = m().jnt_dofadr[j];
  d_.qvel[dof] = 0.3;
  d_.qvel[dof + 1] = -0.7;
  d_.qvel[dof + 2] = 0.2;
  Evaluate(d_);
  const double h = 1e-6;
  const double fd = (Moved(d_, h).actuator_length[a] - Moved(d_, -h).actuator_length[a]) / (2 * h);
  EXPECT_NEAR(fd, Power(d_, a), 1e-9);
}

TEST_F(Transmissions, JointInParentGearIsInTheParentFrame) {
  // the power of the parent-frame (ball) / world-frame (free) gear with the joint's angular
  // velocity expressed in that frame equals moment . qvel
  std::mt19937_64 gen(4);
  RandomPose(gen, d_);
  Evaluate(d_);
  const int ball = m().JointId("shoulder"), free = m().JointId("free");
  {
    const int a = m().ActuatorId("ball_parent");
    double w_parent[3];
    RotVecQuat(w_parent, d_.qvel.data() + m().jnt_dofadr[ball],
               d_.qpos.data() + m().jnt_qposadr[ball]);
    EXPECT_NEAR(Power(d_, a), Dot3(m().actuator_gear.data() + 6 * a, w_parent), 1e-12);
  }
  {
    const int a = m().ActuatorId("free_parent");
    const int dof = m().jnt_dofadr[free];
    const double* gear = m().actuator_gear.data() + 6 * a;
    double w_world[3];
    RotVecQuat(w_world, d_.qvel.data() + dof + 3, d_.qpos.data() + m().jnt_qposadr[free] + 3);
    EXPECT_NEAR(Power(d_, a), Dot3(gear, d_.qvel.data() + dof) + Dot3(gear + 3, w_world), 1e-12);
    EXPECT_EQ(d_.actuator_length[a], 0);
  }
}

TEST_F(Transmissions, SiteWrenchActsInTheSiteFrame) {
  // jet: power = gear . (site velocity, body angular velocity), both in the site frame
  std::mt19937_64 gen(6);
  RandomPose(gen, d_);
  Evaluate(d_);
  const int a = m().ActuatorId("jet");
  const int site = m().SiteId("thruster");
  const double h = 1e-6;
  const Data plus = Moved(d_, h), minus = Moved(d_, -h);
  double v[3], w[3], vloc[3], wloc[3];
  for (int c = 0; c < 3; ++c) {
    v[c] = (plus.site_xpos[3 * site + c] - minus.site_xpos[3 * site + c]) / (2 * h);
  }
  // angular velocity from the rotation derivative: skew(w) = dR/dt R'
  const double* r = d_.site_xmat.data() + 9 * site;
  double dr[9];
  for (int k = 0; k < 9; ++k) {
    dr[k] = (plus.site_xmat[9 * site + k] - minus.site_xmat[9 * site + k]) / (2 * h);
  }
  double skew[9];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      skew[3 * i + j] = dr[3 * i] * r[3 * j] + dr[3 * i + 1] * r[3 * j + 1] + dr[3 * i + 2] * r[3 * j + 2];
    }
  }
  w[0] = skew[7];
  w[1] = skew[2];
  w[2] = skew[3];
  MulMatTVec3(vloc, r, v);
  MulMatTVec3(wloc, r, w);
  const double* gear = m().actuator_gear.data() + 6 * a;
  EXPECT_NEAR(Power(d_, a), Dot3(gear, vloc) + Dot3(gear + 3, wloc), 1e-7);
  EXPECT_EQ(d_.actuator_length[a], 0);
}

TEST_F(Transmissions, AdhesionPullsTheContactSurfacesTogether) {
  // a body transmission on "hand" with two contacts against "free": the moment is minus the
  // mean rate at which the contacts' material points separate along their normals
  const std::string xml = R"(<mujoco><worldbody>
      <body name="hand"><joint type="ball"/><geom name="g1" type="box" size=".1 .1 .1"/></body>
      <body name="box" pos=".3 .1 0"><freejoint/><geom name="g2" type="box" size=".1 .1 .1"/></body>
    </worldbody>
    <actuator><adhesion body="hand" ctrlrange="0 1"/></actuator></mujoco>)";
  const std::shared_ptr<const Model> model = LoadModelFromString(xml, "adhesion.xml");
  const Model& m = *model;
  Data d;
  AllocateData(m, d);
  std::mt19937_64 gen(9);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = nd(gen);
  Kinematics(m, d);
  ComPosition(m, d);
  const double pos[2][3] = {{0.1, 0.05, 0.02}, {0.1, -0.03, -0.05}};
  const double normal[2][3] = {{1, 0, 0}, {0.8, 0.6, 0}};
  d.ncon = 2;
  for (int c = 0; c < 2; ++c) {
    Contact& con = d.contact[c];
    con = Contact();
    con.geom1 = m.GeomId("g1");
    con.geom2 = m.GeomId("g2");
    con.exclude = c;  // one active contact, one in the margin-gap layer: both count
    Copy3(con.pos, pos[c]);
    Copy3(con.frame, normal[c]);
  }
  Transmission(m, d);
  // separation rate of each contact: n . (velocity of the point on body 2 - on body 1)
  const double h = 1e-6;
  double rate = 0;
  for (int c = 0; c < 2; ++c) {
    double local[2][3];
    const int bodies[2] = {m.BodyId("hand"), m.BodyId("box")};
    for (int k = 0; k < 2; ++k) {
      double dif[3];
      Sub3(dif, pos[c], d.xpos.data() + 3 * bodies[k]);
      MulMatTVec3(local[k], d.xmat.data() + 9 * bodies[k], dif);
    }
    double sep[2];
    for (int sgn = 0; sgn < 2; ++sgn) {
      Data moved = d;
      IntegratePosition(m, moved.qpos.data(), d.qvel.data(), sgn == 0 ? h : -h);
      Kinematics(m, moved);
      double p[2][3];
      for (int k = 0; k < 2; ++k) {
        MulMatVec3(p[k], moved.xmat.data() + 9 * bodies[k], local[k]);
        AddTo3(p[k], moved.xpos.data() + 3 * bodies[k]);
      }
      double dif[3];
      Sub3(dif, p[1], p[0]);
      sep[sgn] = Dot3(normal[c], dif);
    }
    rate += (sep[0] - sep[1]) / (2 * h);
  }
  double power = 0;
  for (int i = 0; i < m.nv; ++i) power += d.actuator_moment[i] * d.qvel[i];
  EXPECT_NEAR(power, -rate / 2, 1e-7);
  EXPECT_EQ(d.actuator_length[0], 0);
  // no contacts: no moment
  d.ncon = 0;
  Transmission(m, d);
  for (int i = 0; i < m.nv; ++i) EXPECT_EQ(d.actuator_moment[i], 0);
}

TEST_F(Transmissions, ControlsAreClampedIntoACopyAndForcesToTheirRange) {
  const int crank = m().ActuatorId("crank"), tendon = m().ActuatorId("fixed_tendon");
  d_.ctrl[crank] = 5;
  std::vector<double> clamped(m().nu);
  ClampControls(m(), d_, clamped.data());
  EXPECT_EQ(clamped[crank], 0.2);
  EXPECT_EQ(d_.ctrl[crank], 5);
  Model no_clamp = m();
  no_clamp.opt.disableflags |= kDisableClampctrl;
  ClampControls(no_clamp, d_, clamped.data());
  EXPECT_EQ(clamped[crank], 5);

  Evaluate(d_);
  std::fill(d_.actuator_force.begin(), d_.actuator_force.end(), 0.0);
  d_.actuator_force[tendon] = 3;
  ActuatorToJointForces(m(), d_);
  EXPECT_EQ(d_.actuator_force[tendon], 0.4);
  for (int i = 0; i < m().nv; ++i) {
    EXPECT_NEAR(d_.qfrc_actuator[i], 0.4 * d_.actuator_moment[tendon * m().nv + i], 1e-15);
  }
}

// ---------------------------------------------------------------- MuJoCo 3.x force limits
// Each expected number below is what MuJoCo 3.12.1 computes for the same model (measured with
// mjref3 forward / run / inverse --with-actuator; tests/reference/mjcf3_test.cc checks whole
// trajectories).

// A free body and a ball pendulum whose joints have an actuatorfrcrange, with a general
// actuator per dof plus one spanning several: the range has no effect on ball and free joints.
TEST(ActuatorForceRange3, FreeAndBallJointsAreNotClamped) {
  const Engine engine(LoadModelFromString(R"(<mujoco><option gravity="0 0 0"/><worldbody>
      <body pos="0 0 1"><joint name="f" type="free" actuatorfrcrange="-1 1"/><geom size="0.1"/>
      </body>
      <body pos="1 0 1"><joint name="ball" type="ball" actuatorfrcrange="-0.5 2"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/></body></worldbody>
      <actuator><general joint="f" gear="1 0 0 0 0 0"/>
        <general joint="f" gear="0 0 0 0 0 1"/><general joint="f" gear="1 2 0 0 0 3"/>
        <general joint="ball" gear="1 0 0"/></actuator></mujoco>)", "free.xml"));
  Data d = engine.MakeData();
  d.ctrl = {-1.718, 1.828, -1.254, -3.489};
  engine.Forward(d);
  const double expected[] = {-1.718 - 1.254, -2 * 1.254, 0, 0, 0, 1.828 - 3 * 1.254,
                             -3.489, 0, 0};
  for (int i = 0; i < 9; ++i) EXPECT_DOUBLE_EQ(d.qfrc_actuator[i], expected[i]) << i;
}

// Four unit masses on slides, one step of h = 0.01 from rest with velocity servos (kv = 10)
// whose forces are clamped to 1 in magnitude by: a joint's actuatorfrcrange (a), a tendon's (b),
// the actuator's own forcerange (c), a joint's range over two servos (e). The implicit
// integrators' velocity derivative keeps kv for the first, second and fourth (qvel = h f /
// (1 + h kv)) and drops it only for the forcerange (qvel = h f), as MuJoCo 3.12.1 does.
TEST(ActuatorForceRange3, ImplicitDerivativeIgnoresJointAndTendonClamps) {
  const std::string bodies = R"(<worldbody>
      <body><joint name="a" type="slide" axis="1 0 0" actuatorfrcrange="-1 1"/>
        <geom size="0.1" mass="1"/></body>
      <body pos="0 1 0"><joint name="b" type="slide" axis="1 0 0"/><geom size="0.1" mass="1"/>
      </body>
      <body pos="0 2 0"><joint name="c" type="slide" axis="1 0 0"/><geom size="0.1" mass="1"/>
      </body>
      <body pos="0 3 0"><joint name="e" type="slide" axis="1 0 0" actuatorfrcrange="-1 1"/>
        <geom size="0.1" mass="1"/></body></worldbody>
    <tendon><fixed name="t" actuatorfrclimited="true" actuatorfrcrange="-1 1">
      <joint joint="b" coef="1"/></fixed></tendon>
    <actuator><velocity joint="a" kv="10"/><velocity tendon="t" kv="10"/>
      <velocity joint="c" kv="10" forcerange="-1 1"/><velocity joint="e" kv="10"/>
      <velocity joint="e" kv="10"/></actuator></mujoco>)";
  for (const char* integrator : {"implicit", "implicitfast"}) {
    const Engine engine(LoadModelFromString(
        std::string(R"(<mujoco><option gravity="0 0 0" timestep="0.01" integrator=")") +
            integrator + "\"/>" + bodies, "clamps.xml"));
    Data d = engine.MakeData();
    d.ctrl = {-1.934, -0.197, 3.434, -1.245, -3.976};
    engine.Step(d);
    EXPECT_NEAR(d.qvel[0], -0.01 / 1.1, 1e-16) << integrator;
    EXPECT_NEAR(d.qvel[1], -0.01 / 1.1, 1e-16) << integrator;
    EXPECT_NEAR(d.qvel[2], 0.01, 1e-16) << integrator;
    EXPECT_NEAR(d.qvel[3], -0.01 / 1.2, 1e-16) << integrator;
  }
}

// option actuatorgroupdisable="1 30": the actuators of groups 1 and 30 produce no force (nor
// d force / d ctrl), their activation holds (kept in actrange: the disabled filter's 0 becomes
// its lower bound 0.5), and the implicit derivative leaves their kv out (qvel' = qvel + h qacc
// exactly); groups 31 and -2 cannot be disabled.
TEST(ActuatorGroupDisable, DisabledActuatorsHaveNoForceAndHoldTheirActivation) {
  const Engine engine(LoadModelFromString(R"(<mujoco>
      <option gravity="0 0 0" timestep="0.01" integrator="implicitfast"
              actuatorgroupdisable="1 30"/>
      <worldbody>
        <body><joint name="a" type="slide" axis="1 0 0"/><geom size="0.1" mass="1"/></body>
        <body pos="0 1 0"><joint name="b" type="slide" axis="1 0 0"/><geom size="0.1" mass="1"/>
        </body></worldbody>
      <actuator><position joint="a" kp="10" kv="10" group="1"/><motor joint="b" group="31"/>
        <motor joint="b" group="-2"/>
        <general joint="a" dyntype="filter" dynprm="0.1" group="0"/>
        <general joint="b" dyntype="filter" dynprm="0.1" group="30" actlimited="true"
                 actrange="0.5 1"/></actuator></mujoco>)", "groups.xml"));
  const Model& m = engine.model();
  EXPECT_TRUE(ActuatorDisabled(m, 0) && ActuatorDisabled(m, 4));
  EXPECT_FALSE(ActuatorDisabled(m, 1) || ActuatorDisabled(m, 2) || ActuatorDisabled(m, 3));
  Data d = engine.MakeData();
  d.qpos[0] = 0.5;
  d.qvel[0] = 1;
  d.act = {0.3, 0};
  d.ctrl = {1, 2, 3, 1, 2};
  engine.Forward(d);
  EXPECT_EQ(d.actuator_force[0], 0);
  EXPECT_EQ(d.actuator_force[4], 0);
  EXPECT_EQ(d.act_dot[1], 0);
  EXPECT_DOUBLE_EQ(d.qacc[0], 0.3);  // the enabled filter's force only
  EXPECT_DOUBLE_EQ(d.qacc[1], 5);
  std::vector<double> dqacc_dctrl(m.nv * m.nu);
  ASSERT_TRUE(ControlAccelerationDerivative(m, d, dqacc_dctrl.data()));
  EXPECT_EQ(dqacc_dctrl[0], 0);               // dof a, the disabled position servo
  EXPECT_DOUBLE_EQ(dqacc_dctrl[m.nu + 1], 1);  // dof b, the group-31 motor
  engine.Step(d);
  EXPECT_DOUBLE_EQ(d.qvel[0], 1 + 0.01 * 0.3);
  EXPECT_DOUBLE_EQ(d.act[0], 0.3 + 0.01 * (1 - 0.3) / 0.1);
  EXPECT_EQ(d.act[1], 0.5);
  engine.Step(d);
  EXPECT_EQ(d.act[1], 0.5);
}

}  // namespace
}  // namespace gauss::test
