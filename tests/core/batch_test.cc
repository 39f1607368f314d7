// Batch rollouts and forward/inverse batches (gauss/batch.h): outputs bit-identical to the same
// loop run serially on one Data, for every thread count and over repeated calls; no heap
// allocation per step; per-step statistics that describe the step; malformed requests refused.
#include "gauss/batch.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// Contacts (box, ball, capsule on a plane), a joint limit, one motor and contact sensors.
std::shared_ptr<const Model> ContactModel() {
  return LoadModel(test::TestModel("sensors_contact.xml"));
}

// nroll different initial states: the reset state with seeded velocity noise.
std::vector<double> InitialStates(const Engine& engine, int nroll, unsigned bits) {
  const Model& m = engine.model();
  Data d = engine.MakeData();
  std::mt19937_64 gen(7);
  std::normal_distribution<double> normal(0, 0.5);
  std::vector<double> states;
  for (int r = 0; r < nroll; ++r) {
    engine.Reset(d);
    for (double& v : d.qvel) v = normal(gen);
    for (double& c : d.ctrl) c = normal(gen);
    const std::vector<double> s = GetState(m, d, bits);
    states.insert(states.end(), s.begin(), s.end());
  }
  return states;
}

std::vector<double> Controls(const Model& m, int nroll, int nstep) {
  std::mt19937_64 gen(11);
  std::normal_distribution<double> normal(0, 1);
  std::vector<double> ctrl(static_cast<size_t>(nroll) * nstep * m.nu);
  for (double& c : ctrl) c = normal(gen);
  return ctrl;
}

struct Outputs {
  std::vector<double> state, sensordata;
  std::vector<StepStats> stats;
};

Outputs Allocate(const Model& m, int nroll, int nstep, unsigned output_bits) {
  const size_t rows = static_cast<size_t>(nroll) * nstep;
  return {std::vector<double>(rows * StateSize(m, output_bits)),
          std::vector<double>(rows * m.nsensordata), std::vector<StepStats>(rows)};
}

RolloutRequest Request(int nroll, int nstep, const std::vector<double>& initial,
                       const std::vector<double>& ctrl, Outputs& out) {
  RolloutRequest r;
  r.nroll = nroll;
  r.nstep = nstep;
  r.initial_state = initial.data();
  r.control = ctrl.data();
  r.state = out.state.data();
  r.output_bits = kStateIntegration;
  r.sensordata = out.sensordata.data();
  r.stats = out.stats.data();
  return r;
}

// The serial definition of a rollout: Reset, SetState, then (controls, Step) nstep times.
Outputs SerialRollouts(const Engine& engine, int nroll, int nstep,
                       const std::vector<double>& initial, const std::vector<double>& ctrl) {
  const Model& m = engine.model();
  Outputs out = Allocate(m, nroll, nstep, kStateIntegration);
  const int nin = StateSize(m, kStateIntegration);
  Data d = engine.MakeData();
  for (int r = 0; r < nroll; ++r) {
    engine.Reset(d);
    SetState(m, d, kStateIntegration, initial.data() + r * nin);
    for (int t = 0; t < nstep; ++t) {
      const size_t row = static_cast<size_t>(r) * nstep + t;
      std::copy_n(ctrl.data() + row * m.nu, m.nu, d.ctrl.data());
      engine.Step(d);
      GetState(m, d, kStateIntegration, out.state.data() + row * nin);
      std::copy(d.sensordata.begin(), d.sensordata.end(), out.sensordata.data() + row * m.nsensordata);
      out.stats[row].ncon = d.ncon;
      out.stats[row].nefc = d.nefc;
      out.stats[row].solver_iter = d.solver_iter;
    }
  }
  return out;
}

using test::SameBits;

TEST(Batch, RolloutsAreBitIdenticalToSerialForAnyThreadCount) {
  Engine engine(ContactModel());
  const Model& m = engine.model();
  const int nroll = 7, nstep = 40;
  const std::vector<double> initial = InitialStates(engine, nroll, kStateIntegration);
  const std::vector<double> ctrl = Controls(m, nroll, nstep);
  const Outputs serial = SerialRollouts(engine, nroll, nstep, initial, ctrl);
  int contacts = 0;
  for (const StepStats& s : serial.stats) contacts += s.ncon;
  ASSERT_GT(contacts, 0) << "the test model must make contacts";

  for (int threads : {1, 2, 3, 5}) {
    ThreadPool pool(threads);
    Batch batch(engine, pool);
    ASSERT_EQ(batch.workers(), threads);
    for (int call = 0; call < 2; ++call) {  // Data reused across calls
      Outputs out = Allocate(m, nroll, nstep, kStateIntegration);
      batch.Rollout(Request(nroll, nstep, initial, ctrl, out));
      EXPECT_TRUE(SameBits(out.state, serial.state)) << threads << " threads, call " << call;
      EXPECT_TRUE(SameBits(out.sensordata, serial.sensordata)) << threads << " threads";
      for (size_t k = 0; k < out.stats.size(); ++k) {
        ASSERT_EQ(out.stats[k].ncon, serial.stats[k].ncon) << k;
        ASSERT_EQ(out.stats[k].nefc, serial.stats[k].nefc) << k;
        ASSERT_EQ(out.stats[k].solver_iter, serial.stats[k].solver_iter) << k;
      }
    }
  }
}

TEST(Batch, ControlCallbackSeesTheRolloutsOwnState) {
  // A PD controller on the hinge from the worker's Data: the callback form must equal a serial
  // loop calling the same controller.
  Engine engine(ContactModel());
  const Model& m = engine.model();
  const int hinge = m.nq - 1;  // the arm's hinge is the last joint
  const int hinge_dof = m.nv - 1;
  auto pd = [hinge, hinge_dof](int roll, int, const Model&, Data& d) {
    d.ctrl[0] = -(2.0 + roll) * d.qpos[hinge] - 0.3 * d.qvel[hinge_dof];
  };
  const int nroll = 4, nstep = 30;
  const std::vector<double> initial = InitialStates(engine, nroll, kStatePhysics);
  std::vector<double> serial;
  Data d = engine.MakeData();
  for (int r = 0; r < nroll; ++r) {
    engine.Reset(d);
    SetState(m, d, kStatePhysics, initial.data() + r * StateSize(m, kStatePhysics));
    for (int t = 0; t < nstep; ++t) {
      pd(r, t, m, d);
      engine.Step(d);
      const std::vector<double> s = GetState(m, d, kStateFullPhysics);
      serial.insert(serial.end(), s.begin(), s.end());
    }
  }
  ThreadPool pool(3);
  Batch batch(engine, pool);
  std::vector<double> states(serial.size());
  RolloutRequest r;
  r.nroll = nroll;
  r.nstep = nstep;
  r.initial_state = initial.data();
  r.initial_bits = kStatePhysics;
  r.control_fn = pd;
  r.state = states.data();
  batch.Rollout(r);
  EXPECT_TRUE(SameBits(states, serial));
}

TEST(Batch, StatsRecordTheWarningsOfTheStepThatRaisedThem) {
  // A huge velocity makes the state diverge: that step's stats carry the bad-qacc/qvel
  // warning, the steps before it none.
  Engine engine(ContactModel());
  const Model& m = engine.model();
  Data d = engine.MakeData();
  d.qvel[0] = 1e12;
  const std::vector<double> initial = GetState(m, d, kStateIntegration);
  const int nstep = 3;
  std::vector<StepStats> stats(nstep);
  ThreadPool pool(2);
  Batch batch(engine, pool);
  RolloutRequest r;
  r.nroll = 1;
  r.nstep = nstep;
  r.initial_state = initial.data();
  r.stats = stats.data();
  batch.Rollout(r);
  EXPECT_GT(stats[0].warnings, 0);
  EXPECT_NE(stats[0].warning_bits, 0u);
  EXPECT_EQ(stats[1].warnings, 0) << "after the reset the state is sane again";
}

TEST(Batch, RolloutStepsAllocateNothing) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  Engine engine(ContactModel());
  const Model& m = engine.model();
  ThreadPool pool(2);
  Batch batch(engine, pool);
  const int nroll = 4;
  const std::vector<double> initial = InitialStates(engine, nroll, kStateIntegration);
  long allocations[2] = {0, 0};
  const int steps[2] = {5, 80};
  for (int k = 0; k < 2; ++k) {
    const std::vector<double> ctrl = Controls(m, nroll, steps[k]);
    Outputs out = Allocate(m, nroll, steps[k], kStateIntegration);
    const RolloutRequest request = Request(nroll, steps[k], initial, ctrl, out);
    batch.Rollout(request);  // warm up (arena growth of a first contact, if any)
    const long before = test::AllocationCount();
    batch.Rollout(request);
    allocations[k] = test::AllocationCount() - before;
  }
  // What a call allocates (if anything) does not grow with the number of steps.
  EXPECT_EQ(allocations[1], allocations[0]);
  EXPECT_LE(allocations[0], 4);
}

TEST(Batch, ForwardAndInverseBatchesMatchSerialAndInvertEachOther) {
  Engine engine(ContactModel());
  const Model& m = engine.model();
  const int n = 9;
  const unsigned bits = kStatePhysics | kStateCtrl;
  const std::vector<double> states = InitialStates(engine, n, bits);
  std::vector<double> serial_qacc(n * m.nv), serial_sensors(n * m.nsensordata);
  Data d = engine.MakeData();
  for (int i = 0; i < n; ++i) {
    engine.Reset(d);
    SetState(m, d, bits, states.data() + i * StateSize(m, bits));
    engine.Forward(d);
    std::copy(d.qacc.begin(), d.qacc.end(), serial_qacc.begin() + i * m.nv);
    std::copy(d.sensordata.begin(), d.sensordata.end(), serial_sensors.begin() + i * m.nsensordata);
  }
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    Batch batch(engine, pool);
    std::vector<double> qacc(n * m.nv), sensors(n * m.nsensordata), qfrc(n * m.nv);
    batch.Forward(n, bits, states.data(), qacc.data(), sensors.data());
    EXPECT_TRUE(SameBits(qacc, serial_qacc)) << threads;
    EXPECT_TRUE(SameBits(sensors, serial_sensors)) << threads;
    // Inverse of the forward result gives back the applied force, here the motor's
    // qfrc_actuator (no qfrc_applied), up to the constraint solver's tolerance.
    batch.Inverse(n, bits, states.data(), qacc.data(), qfrc.data());
    for (int i = 0; i < n; ++i) {
      engine.Reset(d);
      SetState(m, d, bits, states.data() + i * StateSize(m, bits));
      engine.Forward(d);
      for (int j = 0; j < m.nv; ++j) {
        EXPECT_NEAR(qfrc[i * m.nv + j], d.qfrc_actuator[j], 1e-6 * (1 + std::fabs(d.qfrc_actuator[j])))
            << "state " << i << " dof " << j;
      }
    }
  }
}

TEST(Batch, RefusesMalformedRequests) {
  Engine engine(ContactModel());
  ThreadPool pool(2);
  Batch batch(engine, pool);
  RolloutRequest r;
  r.nroll = 2;
  r.nstep = 3;
  EXPECT_THROW(batch.Rollout(r), Error);  // no initial state
  r.nroll = -1;
  EXPECT_THROW(batch.Rollout(r), Error);
  EXPECT_THROW(batch.Forward(-2, kStatePhysics, nullptr, nullptr, nullptr), Error);
}

TEST(Batch, RunOnEachWorkerVisitsEveryWorkerOnce) {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    std::vector<std::atomic<int>> visits(threads);
    RunOnEachWorker(pool, [&](int worker) { visits[worker].fetch_add(1); });
    for (int w = 0; w < threads; ++w) EXPECT_EQ(visits[w].load(), 1) << threads << " " << w;
  }
}

}  // namespace
}  // namespace gauss
