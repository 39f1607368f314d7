// Stage timers (gauss/profile.h, profile.cc, profile_timer.h): off by default, every stage and
// plugin counted once per evaluation when on, nested timers within their parents, cleared on
// request, kept across Reset, and no heap allocation while timing.
#include "gauss/profile.h"

#include <gtest/gtest.h>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

std::shared_ptr<const Model> Load(const std::string& name) { return LoadModel(test::TestModel(name)); }

// Sum of the durations of `children`.
double Sum(const Profile& p, std::initializer_list<Timer> children) {
  double total = 0;
  for (Timer t : children) total += p[t].duration;
  return total;
}

TEST(Profile, OffByDefaultRecordsNothing) {
  Engine engine(Load("contact_pile.xml"));
  Data d = engine.MakeData();
  EXPECT_FALSE(d.profile.enabled);
  for (int k = 0; k < 20; ++k) engine.Step(d);
  for (int t = 0; t < kNumTimers; ++t) {
    EXPECT_EQ(d.profile.timer[t].number, 0) << kTimerNames[t];
    EXPECT_EQ(d.profile.timer[t].duration, 0) << kTimerNames[t];
  }
  for (const TimerStat& s : d.profile.plugin) EXPECT_EQ(s.number, 0);
}

TEST(Profile, EveryStageOncePerStepAndNestedWithinParents) {
  Engine engine(Load("contact_pile.xml"));
  Data d = engine.MakeData();
  d.profile.enabled = true;
  const int steps = 150;  // the pile falls, then lands: steps without and with contacts
  int with_constraints = 0;  // the solver plugin is called only when there are rows
  for (int k = 0; k < steps; ++k) {
    engine.Step(d);
    with_constraints += d.nefc > 0;
  }
  ASSERT_GT(with_constraints, 0);
  ASSERT_LT(with_constraints, steps);
  const Profile& p = d.profile;
  for (Timer t : {Timer::kStep, Timer::kForward, Timer::kPosition, Timer::kPosKinematics,
                  Timer::kPosInertia, Timer::kCollision, Timer::kCollisionBroad,
                  Timer::kCollisionNarrow, Timer::kPosConstraint, Timer::kPosTransmission,
                  Timer::kVelocity, Timer::kActuation, Timer::kAcceleration, Timer::kConstraint,
                  Timer::kIntegration}) {
    EXPECT_EQ(p[t].number, steps) << kTimerNames[static_cast<int>(t)];
    EXPECT_GT(p[t].duration, 0) << kTimerNames[static_cast<int>(t)];
  }
  EXPECT_EQ(p[Timer::kSensors].number, 0);  // the model has no sensors
  EXPECT_LE(Sum(p, {Timer::kForward, Timer::kIntegration}), p[Timer::kStep].duration);
  EXPECT_LE(Sum(p, {Timer::kPosition, Timer::kVelocity, Timer::kActuation, Timer::kAcceleration,
                    Timer::kConstraint}),
            p[Timer::kForward].duration);
  EXPECT_LE(Sum(p, {Timer::kPosKinematics, Timer::kPosInertia, Timer::kCollision,
                    Timer::kPosConstraint, Timer::kPosTransmission}),
            p[Timer::kPosition].duration);
  EXPECT_LE(Sum(p, {Timer::kCollisionBroad, Timer::kCollisionNarrow}),
            p[Timer::kCollision].duration);

  // plugins, in PluginsInUse() order: integrator, solver, colliders
  const std::vector<PluginInfo> plugins = engine.PluginsInUse();
  ASSERT_EQ(p.plugin.size(), plugins.size());
  ASSERT_GE(plugins.size(), 3u);
  EXPECT_EQ(plugins[0].kind, PluginKind::kIntegrator);
  EXPECT_EQ(p.plugin[0].number, steps);
  EXPECT_DOUBLE_EQ(p.plugin[0].duration, p[Timer::kIntegration].duration);
  EXPECT_EQ(plugins[1].kind, PluginKind::kSolver);
  EXPECT_EQ(p.plugin[1].number, with_constraints);
  EXPECT_LE(p.plugin[1].duration, p[Timer::kConstraint].duration);
  long collider_calls = 0;
  double collider_time = 0;
  for (std::size_t k = 2; k < plugins.size(); ++k) {
    EXPECT_EQ(plugins[k].kind, PluginKind::kCollider);
    collider_calls += p.plugin[k].number;
    collider_time += p.plugin[k].duration;
  }
  EXPECT_GE(collider_calls, steps);  // at least one pair per step
  EXPECT_LE(collider_time, p[Timer::kCollisionNarrow].duration);

  // Reset keeps the timers, Clear zeroes them and keeps the switch and the plugin slots
  engine.Reset(d);
  EXPECT_EQ(d.profile[Timer::kStep].number, steps);
  d.profile.Clear();
  EXPECT_TRUE(d.profile.enabled);
  EXPECT_EQ(d.profile[Timer::kStep].number, 0);
  EXPECT_EQ(d.profile[Timer::kStep].duration, 0);
  EXPECT_EQ(d.profile.plugin.size(), plugins.size());
  EXPECT_EQ(d.profile.plugin[1].number, 0);
}

TEST(Profile, Rk4CountsFourForwardEvaluationsPerStep) {
  Config config;
  config.integrator = "rk4";
  Engine engine(Load("actuation_zoo.xml"), config);
  Data d = engine.MakeData();
  d.profile.enabled = true;
  const int steps = 10;
  for (int k = 0; k < steps; ++k) engine.Step(d);
  EXPECT_EQ(d.profile[Timer::kStep].number, steps);
  EXPECT_EQ(d.profile[Timer::kForward].number, 4 * steps);
  EXPECT_EQ(d.profile[Timer::kActuation].number, 4 * steps);
  EXPECT_EQ(d.profile[Timer::kIntegration].number, steps);
  // the integrator's own time excludes the forward evaluations it calls
  EXPECT_LE(d.profile[Timer::kForward].duration + d.profile[Timer::kIntegration].duration,
            d.profile[Timer::kStep].duration);
  // each actuator plugin is called once per forward evaluation
  const std::vector<PluginInfo> plugins = engine.PluginsInUse();
  bool found = false;
  for (std::size_t k = 0; k < plugins.size(); ++k) {
    if (plugins[k].kind != PluginKind::kActuator) continue;
    found = true;
    EXPECT_EQ(d.profile.plugin[k].number, 4 * steps) << plugins[k].name;
  }
  EXPECT_TRUE(found);
}

TEST(Profile, SensorsTimedAtEachStageTheyNeed) {
  Engine engine(Load("sensors_all.xml"));
  Data d = engine.MakeData();
  d.profile.enabled = true;
  for (int k = 0; k < 4; ++k) engine.Step(d);
  // the model has sensors of all three stages: three sensor evaluations per forward
  EXPECT_EQ(d.profile[Timer::kSensors].number, 3 * 4);
  EXPECT_GT(d.profile[Timer::kSensors].duration, 0);
  const std::vector<PluginInfo> plugins = engine.PluginsInUse();
  for (std::size_t k = 0; k < plugins.size(); ++k) {
    if (plugins[k].kind == PluginKind::kSensor) {
      EXPECT_EQ(d.profile.plugin[k].number, 3 * 4);
    }
  }
}

TEST(Profile, SplitStepCountsOneStep) {
  Engine engine(Load("contact_pile.xml"));
  Data d = engine.MakeData();
  d.profile.enabled = true;
  for (int k = 0; k < 5; ++k) {
    engine.Step1(d);
    engine.Step2(d);
  }
  EXPECT_EQ(d.profile[Timer::kStep].number, 5);
  EXPECT_EQ(d.profile[Timer::kPosition].number, 5);
  EXPECT_EQ(d.profile[Timer::kConstraint].number, 5);
}

TEST(Profile, TimingPerformsNoHeapAllocation) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  Engine engine(Load("contact_pile.xml"));
  Data d = engine.MakeData();
  d.profile.enabled = true;
  engine.Step(d);  // warm up
  const long before = test::AllocationCount();
  for (int k = 0; k < 50; ++k) engine.Step(d);
  EXPECT_EQ(test::AllocationCount() - before, 0);
}

}  // namespace
}  // namespace gauss
