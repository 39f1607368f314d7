// Actuation, tendons and fluid forces against MuJoCo 2.2.2, contacts disabled on both sides
// (joint and tendon limits stay on): the muscle arm (spatial tendons wrapping around
// cylinders, computed muscle length ranges), the slider-crank sample, every actuated Gymnasium
// model (the swimmer has fluid forces) and tests/models/actuation_zoo.xml (every transmission
// and wrap type, inside side sites, pulleys, wind).
//  - compile time: actuator_lengthrange, actuator_acc0, actuator_length0, the compiled muscle
//    parameters, tendon_length0 / lengthspring, to 1e-6 relative;
//  - 100 random states with random controls (partly outside ctrlrange) and activations:
//    act_dot, actuator_force, actuator_length, actuator_moment, actuator_velocity, ten_length,
//    ten_J, qfrc_passive, qfrc_actuator and qacc_smooth to 1e-6 relative per entry
//    (max |a-b| / max(1, |b|)); qacc to 1e-6 relative to its largest entry: with limits active
//    it comes from the constraint solver, which stops at a tolerance relative to the whole
//    vector (measured: humanoidstandup 1e-7 of max|qacc| = 2e-6 of a smaller entry, while
//    qacc_smooth agrees to 1e-12);
//  - 500-step trajectories with the same recorded random controls: qpos and act to 1e-5 for
//    the first 100 steps (the whole trajectory's error is recorded as a property).
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kForwardTolerance = 1e-6;
constexpr double kTrajectoryTolerance = 1e-5;

// The same file loaded by MuJoCo and by Gauss, contacts disabled on both sides.
struct Pair : ReferencePair {
  std::shared_ptr<const Model> model;

  explicit Pair(const std::string& path) {
    mj = LoadMujoco(path);
    if (!mj) return;
    mj->opt.disableflags |= mjDSBL_CONTACT;
    mjd = MakeMujocoData(mj.get());
    model = LoadModel(path);
    Config config;
    config.flags["contact"] = false;
    engine = std::make_unique<Engine>(model, config);
    d = engine->MakeData();
  }
};

// Random control: within ctrlrange widened by 20% on each side (so clamping is exercised), or
// normal when unlimited.
double RandomControl(const mjModel* m, int a, std::mt19937_64& gen) {
  std::uniform_real_distribution<double> ud(-0.2, 1.2);
  std::normal_distribution<double> nd(0, 1);
  const double* r = m->actuator_ctrlrange + 2 * a;
  return m->actuator_ctrllimited[a] ? r[0] + (r[1] - r[0]) * ud(gen) : nd(gen);
}

// Random state: joints around qpos0 (random unit quaternions for ball/free) and velocities as
// RandomState's defaults, then activations in [-0.1, 1.1] (around the muscle range [0, 1];
// others may leave it too) and RandomControl.
void RandomActuationState(const mjModel* m, mjData* d, std::mt19937_64& gen) {
  RandomStateOptions joints_and_velocities;
  joints_and_velocities.controls = false;
  RandomState(m, d, gen, joints_and_velocities);
  std::uniform_real_distribution<double> ud(-0.1, 1.1);
  for (int i = 0; i < m->na; ++i) d->act[i] = ud(gen);
  for (int a = 0; a < m->nu; ++a) d->ctrl[a] = RandomControl(m, a, gen);
}

double MaxRel(const std::vector<double>& a, const double* b, int n) {
  return MaxRelError(a.data(), b, n);
}

// A number for RecordProperty, in %g form (std::to_string would print 1e-12 as 0.000000).
std::string Sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g", x);
  return buf;
}

// max |a-b| / max(1, max |b|): error relative to the vector's scale.
double MaxNormRel(const std::vector<double>& a, const double* b, int n) {
  double err = 0, scale = 1;
  for (int i = 0; i < n; ++i) {
    err = std::max(err, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  return err / scale;
}

std::vector<std::string> Models() {
  std::vector<std::string> out = {MujocoSampleModel("tendon_arm/arm26.xml"),
                                  MujocoSampleModel("slider_crank/slider_crank.xml"),
                                  TestModel("actuation_zoo.xml")};
  for (const char* name : {"ant", "half_cheetah", "hopper", "walker2d", "humanoid",
                           "humanoidstandup", "inverted_pendulum", "inverted_double_pendulum",
                           "pusher", "reacher", "swimmer"}) {
    out.push_back(SharedModel(std::string("gymnasium/") + name + ".xml"));
  }
  return out;
}

class Actuation : public ::testing::TestWithParam<std::string> {};

TEST_P(Actuation, CompiledActuatorConstantsMatchMujoco) {
  Pair p(GetParam());
  ASSERT_TRUE(p.mj);
  const Model& m = *p.model;
  const mjModel* mj = p.mj.get();
  ASSERT_EQ(m.nu, mj->nu);
  ASSERT_EQ(m.na, mj->na);
  ASSERT_EQ(m.ntendon, mj->ntendon);
  const int nu = mj->nu;
  EXPECT_LE(MaxRel(m.actuator_lengthrange, mj->actuator_lengthrange, 2 * nu), 1e-6);
  EXPECT_LE(MaxRel(m.actuator_acc0, mj->actuator_acc0, nu), 1e-10);
  EXPECT_LE(MaxRel(m.actuator_length0, mj->actuator_length0, nu), 1e-12);
  EXPECT_LE(MaxRel(m.actuator_dynprm, mj->actuator_dynprm, kNDyn * nu), 0);
  EXPECT_LE(MaxRel(m.actuator_gainprm, mj->actuator_gainprm, kNGain * nu), 0);
  EXPECT_LE(MaxRel(m.actuator_biasprm, mj->actuator_biasprm, kNBias * nu), 0);
  EXPECT_LE(MaxRel(m.tendon_length0, mj->tendon_length0, mj->ntendon), 1e-12);
  EXPECT_LE(MaxRel(m.tendon_lengthspring, mj->tendon_lengthspring, mj->ntendon), 1e-12);
  EXPECT_LE(MaxRel(m.tendon_invweight0, mj->tendon_invweight0, mj->ntendon), 1e-10);
  for (int a = 0; a < nu; ++a) {
    // MuJoCo 2.2.2 numbers dynamics none, integrator, filter, muscle, user
    const int mj_dyn[] = {0, 1, 2, 2, 3, 4};
    EXPECT_EQ(mj_dyn[static_cast<int>(m.actuator_dyntype[a])], mj->actuator_dyntype[a]) << a;
    EXPECT_EQ(static_cast<int>(m.actuator_gaintype[a]), mj->actuator_gaintype[a]) << a;
    EXPECT_EQ(static_cast<int>(m.actuator_biastype[a]), mj->actuator_biastype[a]) << a;
    EXPECT_EQ(static_cast<int>(m.actuator_trntype[a]), mj->actuator_trntype[a]) << a;
    EXPECT_EQ(m.actuator_trnid[2 * a], mj->actuator_trnid[2 * a]) << a;
    EXPECT_EQ(m.actuator_trnid[2 * a + 1], mj->actuator_trnid[2 * a + 1]) << a;
    EXPECT_EQ(m.actuator_ctrllimited[a], mj->actuator_ctrllimited[a]) << a;
  }
}

TEST_P(Actuation, ForwardMatchesMujocoAt100RandomStates) {
  Pair p(GetParam());
  ASSERT_TRUE(p.mj);
  const mjModel* mj = p.mj.get();
  const int nv = mj->nv, nu = mj->nu, na = mj->na, nt = mj->ntendon;
  std::mt19937_64 gen(2026);
  struct Field {
    const char* name;
    double worst;
  };
  constexpr int kFields = 11;
  Field f[kFields] = {{"qacc", 0},           {"act_dot", 0},         {"actuator_force", 0},
                      {"actuator_length", 0}, {"actuator_moment", 0}, {"actuator_velocity", 0},
                      {"ten_length", 0},      {"ten_J", 0},           {"qfrc_passive", 0},
                      {"qfrc_actuator", 0},   {"qacc_smooth", 0}};
  for (int s = 0; s < 100; ++s) {
    RandomActuationState(mj, p.mjd.get(), gen);
    mj_forward(mj, p.mjd.get());
    p.CopyInputs(/*warmstart=*/false);
    p.engine->Forward(p.d);
    const mjData* md = p.mjd.get();
    const Data& d = p.d;
    const double errors[kFields] = {MaxNormRel(d.qacc, md->qacc, nv),
                                    MaxRel(d.act_dot, md->act_dot, na),
                                    MaxRel(d.actuator_force, md->actuator_force, nu),
                                    MaxRel(d.actuator_length, md->actuator_length, nu),
                                    MaxRel(d.actuator_moment, md->actuator_moment, nu * nv),
                                    MaxRel(d.actuator_velocity, md->actuator_velocity, nu),
                                    MaxRel(d.ten_length, md->ten_length, nt),
                                    MaxRel(d.ten_J, md->ten_J, nt * nv),
                                    MaxRel(d.qfrc_passive, md->qfrc_passive, nv),
                                    MaxRel(d.qfrc_actuator, md->qfrc_actuator, nv),
                                    MaxRel(d.qacc_smooth, md->qacc_smooth, nv)};
    for (int k = 0; k < kFields; ++k) {
      f[k].worst = std::max(f[k].worst, errors[k]);
      ASSERT_LE(errors[k], kForwardTolerance) << f[k].name << ", state " << s;
    }
    // MuJoCo 2.2.2 clamps a copy of the controls: d.ctrl is what the user wrote
    for (int a = 0; a < nu; ++a) ASSERT_EQ(d.ctrl[a], md->ctrl[a]);
  }
  for (const Field& field : f) {
    RecordProperty(std::string("max_rel_") + field.name, Sci(field.worst));
  }
}

TEST_P(Actuation, TrajectoryWithRecordedControlsMatchesMujoco) {
  Pair p(GetParam());
  ASSERT_TRUE(p.mj);
  const mjModel* mj = p.mj.get();
  std::mt19937_64 gen(77);
  std::normal_distribution<double> nd(0, 1);
  mj_resetData(mj, p.mjd.get());
  for (int i = 0; i < mj->nv; ++i) p.mjd->qvel[i] = 0.3 * nd(gen);
  p.CopyInputs(/*warmstart=*/false);

  // controls held for 10 steps at a time, recorded before the run
  const int steps = 500;
  std::vector<double> controls(static_cast<std::size_t>(steps) * mj->nu);
  for (int k = 0; k < steps; k += 10) {
    for (int a = 0; a < mj->nu; ++a) {
      const double u = RandomControl(mj, a, gen);
      for (int j = k; j < std::min(steps, k + 10); ++j) controls[j * mj->nu + a] = u;
    }
  }

  double first100 = 0, all = 0;
  for (int k = 0; k < steps; ++k) {
    std::copy_n(controls.begin() + k * mj->nu, mj->nu, p.mjd->ctrl);
    std::copy_n(controls.begin() + k * mj->nu, mj->nu, p.d.ctrl.begin());
    mj_step(mj, p.mjd.get());
    p.engine->Step(p.d);
    double err = 0;
    for (int i = 0; i < mj->nq; ++i) err = std::max(err, std::fabs(p.d.qpos[i] - p.mjd->qpos[i]));
    for (int i = 0; i < mj->na; ++i) err = std::max(err, std::fabs(p.d.act[i] - p.mjd->act[i]));
    if (k < 100) first100 = std::max(first100, err);
    all = std::max(all, err);
  }
  RecordProperty("max_error_100", Sci(first100));
  RecordProperty("max_error_500", Sci(all));
  EXPECT_LE(first100, kTrajectoryTolerance) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Models, Actuation, ::testing::ValuesIn(Models()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(info.param.rfind('/') + 1);
                           name = name.substr(0, name.size() - 4);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace gauss::test
