// TransitionFD (core/src/transition_fd.cc): its Jacobians equal finite differences of plain
// Engine::Step calls (so reusing stages changes nothing) for every integrator and solver; the
// parallel columns are bit-identical to the serial ones; no heap allocation after the first
// call; the input Data is untouched and the recorded nominal step is Step's result.
#include "gauss/transition_fd.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gauss/integrate.h"
#include "gauss/mjcf.h"
#include "gauss/state.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// A state with contacts: 150 steps of the model from its initial pose with random controls
// (contact_pile.xml and sensors_contact.xml settle on their planes), from random velocities.
void ContactState(const Engine& engine, Data& d, int seed) {
  const Model& m = engine.model();
  engine.Reset(d);
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = 0.5 * nd(gen);
  for (int k = 0; k < 150; ++k) {
    for (int a = 0; a < m.nu; ++a) d.ctrl[a] = 0.5 * nd(gen);
    engine.Step(d);
  }
  for (int a = 0; a < m.nu; ++a) d.ctrl[a] = 0.5 * nd(gen);
  engine.Forward(d);  // ncon of this state (its warmstart then is this state's solution)
}

// x' (nq + nv + na) of a plain Step from `d` (copied).
std::vector<double> NextState(const Engine& engine, const Data& d) {
  Data copy = d;
  engine.Step(copy);
  return GetState(engine.model(), copy, kStatePhysics);
}

// A by forward differences of plain Steps (no stage reuse), column by column.
std::vector<double> PlainStepA(const Engine& engine, const Data& d, double eps) {
  const Model& m = engine.model();
  const int nx = 2 * m.nv + m.na;
  std::vector<double> A(nx * nx), dq(m.nv);
  const std::vector<double> next = NextState(engine, d);
  for (int j = 0; j < nx; ++j) {
    Data p = d;
    if (j < m.nv) {
      std::vector<double> unit(m.nv, 0.0);
      unit[j] = 1;
      IntegratePosition(m, p.qpos.data(), unit.data(), eps);
    } else if (j < 2 * m.nv) {
      p.qvel[j - m.nv] += eps;
    } else {
      p.act[j - 2 * m.nv] += eps;
    }
    const std::vector<double> plus = NextState(engine, p);
    DifferentiatePosition(m, dq.data(), eps, next.data(), plus.data());
    for (int i = 0; i < m.nv; ++i) A[i * nx + j] = dq[i];
    for (int i = m.nv; i < nx; ++i) A[i * nx + j] = (plus[m.nq - m.nv + i] - next[m.nq - m.nv + i]) / eps;
  }
  return A;
}

using Combo = std::tuple<std::string, std::string>;  // integrator, solver
class TransitionFDPlugins : public ::testing::TestWithParam<Combo> {};

TEST_P(TransitionFDPlugins, EqualsDifferencesOfPlainSteps) {
  Config config;
  config.integrator = std::get<0>(GetParam());
  config.solver = std::get<1>(GetParam());
  config.iterations = 20;  // pgs would take 100 sweeps per step; both sides run the same steps
  Engine engine(LoadModel(test::TestModel("contact_pile.xml")), config);
  Data d = engine.MakeData();
  ContactState(engine, d, 3);
  ASSERT_GT(d.ncon, 0);
  TransitionFD fd(engine);
  const int nx = fd.nx();
  std::vector<double> A(nx * nx);
  fd.Compute(d, {1e-6, false}, A.data(), nullptr, nullptr, nullptr);
  const std::vector<double> plain = PlainStepA(engine, d, 1e-6);
  double worst = 0, scale = 0;
  for (int i = 0; i < nx * nx; ++i) {
    worst = std::max(worst, std::fabs(A[i] - plain[i]));
    scale = std::max(scale, std::fabs(plain[i]));
  }
  EXPECT_GT(scale, 0.5);
  // the same steps, only their shared stages reused: equal up to the ordering of round-off
  EXPECT_LE(worst, 1e-9 * scale) << std::get<0>(GetParam()) << "+" << std::get<1>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    All, TransitionFDPlugins,
    ::testing::Combine(::testing::Values("euler", "implicit", "implicitfast", "rk4"),
                       ::testing::Values("newton", "cg", "pgs")),
    [](const ::testing::TestParamInfo<Combo>& info) {
      return std::get<0>(info.param) + "_" + std::get<1>(info.param);
    });

struct FdOutputs {
  std::vector<double> A, B, C, D;
  explicit FdOutputs(const TransitionFD& fd)
      : A(fd.nx() * fd.nx()), B(fd.nx() * fd.nu()), C(fd.ns() * fd.nx()), D(fd.ns() * fd.nu()) {}
  void Compute(TransitionFD& fd, const Data& d, bool centered) {
    fd.Compute(d, {1e-6, centered}, A.data(), B.data(), C.data(), D.data());
  }
  bool operator==(const FdOutputs& o) const { return A == o.A && B == o.B && C == o.C && D == o.D; }
};

// sensors_contact: contacts and sensors; sensors_all: a filter actuator's activation too (the
// threaded pass writes each column contiguously, then places it at its input's column of A..D).
// Pools of 2 and 3 threads (the nominal step's task takes columns from the front, the others from
// the back, preparing their first column's stages while the nominal step runs), euler (stages
// reused) and rk4 (full steps), all four matrices or only the controls' B (a back task then
// starts with a control column).
TEST(TransitionFD, ParallelColumnsAreBitIdenticalToSerial) {
  for (const char* integrator : {"euler", "rk4"}) {
    for (const char* model : {"sensors_contact.xml", "sensors_all.xml"}) {
      Config config;
      config.integrator = integrator;
      Engine engine(LoadModel(test::TestModel(model)), config);
      Data d = engine.MakeData();
      ContactState(engine, d, 9);
      ThreadPool pool2(2), pool3(3);
      TransitionFD serial(engine), parallel2(engine, &pool2), parallel3(engine, &pool3);
      ASSERT_GT(serial.ns(), 0) << model;
      const std::string what = std::string(model) + " " + integrator;
      for (bool centered : {false, true}) {
        FdOutputs a(serial);
        a.Compute(serial, d, centered);
        for (TransitionFD* parallel : {&parallel2, &parallel3}) {
          // twice: the second call starts from Data left by the first
          for (int call = 0; call < 2; ++call) {
            FdOutputs b(*parallel);
            b.Compute(*parallel, d, centered);
            EXPECT_TRUE(a == b) << what << (centered ? " centered" : " forward");
            EXPECT_EQ(parallel->next_state(), serial.next_state()) << what;
          }
        }
        double norm = 0;
        for (double v : a.C) norm += std::fabs(v);
        EXPECT_GT(norm, 0.0) << what;
        // the controls only: no state columns, sensors skipped
        std::vector<double> b_serial(a.B.size()), b_parallel(a.B.size());
        const TransitionFDOptions options{1e-6, centered};
        serial.Compute(d, options, nullptr, b_serial.data(), nullptr, nullptr);
        parallel2.Compute(d, options, nullptr, b_parallel.data(), nullptr, nullptr);
        EXPECT_EQ(b_serial, b_parallel) << what;
        EXPECT_EQ(b_serial, a.B) << what;
      }
    }
  }
}

// Newton's kept Hessian factor (plugins/solvers/newton/kept_factor.h), which the velocity and
// control columns find again (their positions, hence M, J and D, are the nominal ones), changes
// no bit: all four matrices equal those of an engine whose newton factors anew at every solve,
// serial and over a pool, on the gymnasium hopper (euler, as the speed benchmark runs it) and
// the contact pile (dense Jacobian: the kept factor is the dense one), with eps 1e-6 and with
// an eps large enough that some columns' rows change pieces (the kept factor must not serve
// them).
TEST(TransitionFD, KeptNewtonFactorChangesNoBit) {
  struct Case {
    std::string model;
    bool shared;
  };
  for (const Case& c : {Case{"gymnasium/hopper.xml", true}, Case{"contact_pile.xml", false}}) {
    std::vector<std::unique_ptr<Engine>> engines;
    for (bool keep : {true, false}) {
      Config config;
      config.solver = "newton";
      config.integrator = "euler";
      config.jacobian = JacobianType::kDense;
      config.solver_params.Set("keep_factor", keep ? "true" : "false");
      const std::string path = c.shared ? test::SharedModel(c.model) : test::TestModel(c.model);
      engines.push_back(std::make_unique<Engine>(LoadModel(path), config));
    }
    Data d = engines[0]->MakeData();
    ContactState(*engines[0], d, 4);
    ASSERT_GT(d.nefc, 0) << c.model;
    ThreadPool pool(2);
    for (ThreadPool* threads : {static_cast<ThreadPool*>(nullptr), &pool}) {
      TransitionFD keeping(*engines[0], threads), factoring(*engines[1], threads);
      FdOutputs a(keeping), b(factoring);
      for (int call = 0; call < 2; ++call) {  // the second call finds the first's kept factor
        a.Compute(keeping, d, false);
        b.Compute(factoring, d, false);
        EXPECT_TRUE(a == b) << c.model << (threads ? " pool" : " serial") << " call " << call;
      }
      // a large eps moves rows to other pieces in some columns: those must factor anew
      const TransitionFDOptions coarse{1e-2, false};
      keeping.Compute(d, coarse, a.A.data(), a.B.data(), a.C.data(), a.D.data());
      factoring.Compute(d, coarse, b.A.data(), b.B.data(), b.C.data(), b.D.data());
      EXPECT_TRUE(a == b) << c.model << (threads ? " pool" : " serial") << " eps 1e-2";
      EXPECT_EQ(keeping.next_state(), factoring.next_state()) << c.model;
    }
  }
}

// Where the perturbed solves start: with newton (converges whatever the start) the nominal
// solution gives the input warmstart's Jacobians up to the solver's tolerance; kAuto is kInput
// bit for bit with pgs (a fixed number of sweeps: the start matters) and kNominal with newton.
TEST(TransitionFD, WarmstartChoice) {
  for (const char* solver : {"newton", "pgs"}) {
    Config config;
    config.solver = solver;
    config.integrator = "euler";
    Engine engine(LoadModel(test::TestModel("contact_pile.xml")), config);
    Data d = engine.MakeData();
    ContactState(engine, d, 6);
    engine.Step(d);  // the warmstart is now the previous state's solution, not this one's
    ASSERT_GT(d.ncon, 0);
    TransitionFD fd(engine);
    const int nx = fd.nx(), nu = fd.nu();
    auto jacobians = [&](FDWarmstart warmstart) {
      std::vector<double> AB(nx * nx + nx * nu);
      TransitionFDOptions options{1e-6, false, warmstart};
      fd.Compute(d, options, AB.data(), AB.data() + nx * nx, nullptr, nullptr);
      return AB;
    };
    const std::vector<double> input = jacobians(FDWarmstart::kInput);
    const std::vector<double> nominal = jacobians(FDWarmstart::kNominal);
    const std::vector<double> automatic = jacobians(FDWarmstart::kAuto);
    EXPECT_NE(nominal, input) << solver;  // the two starts give different round-off at least
    EXPECT_EQ(automatic, std::string(solver) == "newton" ? nominal : input) << solver;
    if (std::string(solver) != "newton") continue;
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < input.size(); ++i) {
      worst = std::max(worst, std::fabs(nominal[i] - input[i]));
      scale = std::max(scale, std::fabs(input[i]));
    }
    EXPECT_GT(scale, 0.5);
    EXPECT_LE(worst, 1e-6 * scale);
  }
}

TEST(TransitionFD, InputUntouchedAndNominalIsStep) {
  Engine engine(LoadModel(test::SharedModel("gymnasium/ant.xml")));
  Data d = engine.MakeData();
  ContactState(engine, d, 4);
  const std::vector<double> before = GetState(engine.model(), d, kStateIntegration);
  TransitionFD fd(engine);
  FdOutputs out(fd);
  out.Compute(fd, d, false);
  EXPECT_EQ(GetState(engine.model(), d, kStateIntegration), before);
  EXPECT_EQ(fd.next_state(), NextState(engine, d));
}

TEST(TransitionFD, NoHeapAllocationAfterTheFirstCall) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  Engine engine(LoadModel(test::TestModel("sensors_contact.xml")));
  Data d = engine.MakeData();
  ContactState(engine, d, 5);
  ThreadPool pool(2);
  for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {
    TransitionFD fd(engine, p);
    FdOutputs out(fd);
    out.Compute(fd, d, true);
    const long before = test::AllocationCount();
    out.Compute(fd, d, true);
    out.Compute(fd, d, false);
    EXPECT_EQ(test::AllocationCount() - before, 0) << (p ? "pool" : "serial");
  }
}

}  // namespace
}  // namespace gauss
