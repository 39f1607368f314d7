// The Engine API (engine.cc, data_alloc.cc, state.cc): determinism, reset, the split step, the
// forward evaluation without the solve,
// state round trips, divergence handling (with and without autoreset), the control callback, refusals of unsupported
// features, the absence of heap allocation inside a step, and the refusal of a Data made for
// another model or configuration.
#include "gauss/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "gauss/state.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss {
namespace {

std::shared_ptr<const Model> Load(const std::string& name) { return LoadModel(test::TestModel(name)); }

void Randomize(const Model& m, Data& d, double scale) {
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = scale * std::sin(1.7 * i + 0.3);
  for (int i = 0; i < m.nu; ++i) d.ctrl[i] = 0.5 * std::cos(i + 0.1);
}

TEST(Engine, SameStateGivesBitIdenticalResults) {
  for (const char* name : {"chain_mixed.xml", "free_asymmetric.xml"}) {
    for (const char* integrator : {"euler", "rk4"}) {
      Config config;
      config.integrator = integrator;
      Engine engine(Load(name), config);
      Data a = engine.MakeData(), b = engine.MakeData();
      Randomize(engine.model(), a, 2.0);
      for (int k = 0; k < 50; ++k) engine.Step(a);
      // b starts from a's saved integration state and must reproduce a's next steps exactly
      const std::vector<double> saved = GetState(engine.model(), a, kStateIntegration);
      SetState(engine.model(), b, kStateIntegration, saved.data());
      for (int k = 0; k < 50; ++k) {
        engine.Step(a);
        engine.Step(b);
      }
      EXPECT_EQ(GetState(engine.model(), a, kStateIntegration),
                GetState(engine.model(), b, kStateIntegration))
          << name << " " << integrator;
    }
  }
}

TEST(Engine, SplitStepEqualsStep) {
  Engine engine(Load("chain_mixed.xml"));
  Data a = engine.MakeData(), b = engine.MakeData();
  Randomize(engine.model(), a, 1.0);
  Randomize(engine.model(), b, 1.0);
  for (int k = 0; k < 20; ++k) {
    engine.Step(a);
    engine.Step1(b);
    engine.Step2(b);
  }
  EXPECT_EQ(a.qpos, b.qpos);
  EXPECT_EQ(a.qvel, b.qvel);
  EXPECT_EQ(a.time, b.time);
}

// The stages up to the constraint problem, without the solve: the same problem and qacc_smooth
// as Forward, and the solution arrays left as they were.
TEST(Engine, ForwardWithoutSolveStopsBeforeTheSolve) {
  Engine engine(LoadModel(test::RepoModel("box_slide.xml")));
  Data a = engine.MakeData(), b = engine.MakeData();
  for (Data* d : {&a, &b}) {
    d->ctrl[0] = 3;
    for (int k = 0; k < 30; ++k) engine.Step(*d);
  }
  engine.Forward(a);
  ASSERT_GT(a.nefc, 0);
  std::fill(b.qacc.begin(), b.qacc.end(), 12345.0);
  engine.ForwardWithoutSolve(b, Stage::kNone);
  EXPECT_EQ(a.nefc, b.nefc);
  EXPECT_EQ(a.efc_pos, b.efc_pos);
  EXPECT_EQ(a.efc_J, b.efc_J);
  EXPECT_EQ(a.qacc_smooth, b.qacc_smooth);
  for (double v : b.qacc) EXPECT_EQ(v, 12345.0);
}

TEST(Engine, ResetRestoresReferenceState) {
  Engine engine(Load("pendulum3.xml"));
  Data d = engine.MakeData();
  Randomize(engine.model(), d, 3.0);
  d.qfrc_applied[0] = 1;
  for (int k = 0; k < 10; ++k) engine.Step(d);
  engine.Reset(d);
  EXPECT_EQ(d.qpos, engine.model().qpos0);
  for (double v : d.qvel) EXPECT_EQ(v, 0.0);
  for (double v : d.qfrc_applied) EXPECT_EQ(v, 0.0);
  EXPECT_EQ(d.time, 0.0);
}

TEST(Engine, StateRoundTripCoversEveryComponent) {
  Engine engine(Load("chain_mixed.xml"));
  const Model& m = engine.model();
  Data d = engine.MakeData();
  const int n = StateSize(m, kStateIntegration);
  EXPECT_EQ(n, 1 + m.nq + 3 * m.nv + m.na + m.nu + 6 * m.nbody + 7 * m.nmocap + m.neq);
  std::vector<double> values(n);
  for (int i = 0; i < n; ++i) values[i] = 0.25 * i + 1;
  SetState(m, d, kStateIntegration, values.data());
  EXPECT_EQ(d.time, 1.0);
  EXPECT_EQ(d.qpos[0], 1.25);
  EXPECT_EQ(GetState(m, d, kStateIntegration), values);
}

TEST(Engine, DivergentStateIsResetAndCounted) {
  Engine engine(Load("pendulum3.xml"));
  Data d = engine.MakeData();
  d.qvel[1] = std::nan("");
  engine.Step(d);
  EXPECT_EQ(d.warning_count[static_cast<int>(Warning::kBadQvel)], 1);
  EXPECT_EQ(d.warning_index[static_cast<int>(Warning::kBadQvel)], 1);
  for (double v : d.qvel) EXPECT_TRUE(std::isfinite(v));
  // the step went on from the reset state
  EXPECT_NEAR(d.time, engine.model().opt.timestep, 1e-15);

  d.qpos[0] = 2 * kMaxVal;
  engine.Step(d);
  EXPECT_EQ(d.warning_count[static_cast<int>(Warning::kBadQpos)], 1);
}

// MuJoCo 3.x <flag autoreset="disable"/> (measured on 3.12.1: the warnings are counted at
// every step, time goes on, and the state keeps its bad values).
TEST(Engine, DivergentStateIsKeptWithAutoresetDisabled) {
  auto model = std::make_shared<Model>(*Load("pendulum3.xml"));
  model->opt.disableflags |= kDisableAutoreset;
  Engine engine(model);
  Data d = engine.MakeData();
  d.qvel[1] = std::nan("");
  engine.Step(d);
  EXPECT_EQ(d.warning_index[static_cast<int>(Warning::kBadQvel)], 1);
  engine.Step(d);  // the NaN has spread to every dof
  EXPECT_EQ(d.warning_count[static_cast<int>(Warning::kBadQvel)], 2);
  EXPECT_GE(d.warning_count[static_cast<int>(Warning::kBadQacc)], 1);
  EXPECT_TRUE(std::isnan(d.qvel[1]));
  EXPECT_NEAR(d.time, 2 * engine.model().opt.timestep, 1e-15);
}

TEST(Engine, ControlCallbackDrivesActuators) {
  // a motor on a free-swinging hinge: the callback's torque changes the acceleration by
  // gear * ctrl / M
  auto model = LoadModelFromString(R"(
    <mujoco>
      <option gravity="0 0 0"/>
      <worldbody><body><joint name="j" axis="0 0 1"/>
        <geom type="sphere" size="0.1" pos="0.5 0 0" contype="0" conaffinity="0"/>
      </body></worldbody>
      <actuator><motor joint="j" gear="3"/></actuator>
    </mujoco>)");
  Engine engine(model);
  Data d = engine.MakeData();
  engine.SetControlCallback([](const Model&, Data& data) { data.ctrl[0] = 2; });
  engine.Forward(d);
  EXPECT_NEAR(d.qacc[0] * d.qM[0], 6.0, 1e-12);
}

TEST(Engine, RefusesGeomPairsNoColliderHandles) {
  // sphere-cylinder contacts need a convex collider; with only `primitive` loaded the engine
  // must refuse the model at creation, naming the pair, instead of missing contacts later
  auto model = LoadModelFromString(R"(
    <mujoco><worldbody>
      <geom type="cylinder" size="0.1 0.2"/>
      <body pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>
    </worldbody></mujoco>)");
  Config config;
  config.colliders = {"primitive"};
  try {
    Engine engine(model, config);
    FAIL() << "an uncovered geom-type pair must be refused";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("sphere"), std::string::npos) << what;
    EXPECT_NE(what.find("cylinder"), std::string::npos) << what;
  }
  config.flags["contact"] = false;
  EXPECT_NO_THROW(Engine(model, config));
}

TEST(Engine, UnknownIntegratorIsAClearError) {
  Config config;
  config.integrator = "no_such_integrator";
  try {
    Engine engine(Load("pendulum3.xml"), config);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_integrator"), std::string::npos) << e.what();
  }
}

TEST(Engine, StepPerformsNoHeapAllocation) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  for (const char* integrator : {"euler", "rk4"}) {
    Config config;
    config.integrator = integrator;
    config.flags["energy"] = true;
    Engine engine(Load("chain_mixed.xml"), config);
    Data d = engine.MakeData();
    Randomize(engine.model(), d, 1.0);
    engine.Step(d);  // warm up
    const long before = test::AllocationCount();
    for (int k = 0; k < 100; ++k) engine.Step(d);
    EXPECT_EQ(test::AllocationCount() - before, 0) << integrator;
    EXPECT_LE(d.arena.peak(), d.arena.capacity());
  }
}

// A Data is sized for one engine's model and configuration: solver_trace for its iterations,
// the arena for its solver's and integrator's scratch, the Jacobian for its jacobian type.
// Copied into (or assigned to) a Data of another engine, it used to be stepped anyway and the
// solver wrote past solver_trace (a heap overflow, seen as "double free"). The engine now
// refuses it with a gauss::Error naming the array, before touching anything.
TEST(Engine, RefusesDataMadeForAnotherConfiguration) {
  auto model = Load("contact_pile.xml");
  auto make = [&](const char* solver, const char* integrator, int iterations, const char* jac) {
    Config config;
    config.solver = solver;
    config.integrator = integrator;
    config.iterations = iterations;
    config.jacobian = std::string(jac) == "sparse" ? JacobianType::kSparse : JacobianType::kDense;
    return std::make_unique<Engine>(model, config);
  };
  std::vector<std::unique_ptr<Engine>> engines;
  engines.push_back(make("pgs", "euler", 5, "dense"));
  engines.push_back(make("newton", "euler", 100, "dense"));
  engines.push_back(make("cg", "rk4", 100, "dense"));
  engines.push_back(make("newton", "implicit", 100, "sparse"));
  engines.push_back(std::make_unique<Engine>(Load("chain_mixed.xml")));
  // what each engine's own Data looks like after a few steps from the pile's initial state
  for (std::size_t i = 0; i < engines.size(); ++i) {
    for (std::size_t j = 0; j < engines.size(); ++j) {
      if (i == j) continue;
      const Engine& maker = *engines[i];
      const Engine& stepper = *engines[j];
      Data made = maker.MakeData();
      for (int k = 0; k < 3; ++k) maker.Step(made);
      Data d = stepper.MakeData();
      d = made;  // assignment copies the maker's sizes along with its values
      const bool fits = d.solver_trace.size() >=
                            static_cast<std::size_t>(stepper.model().opt.iterations) &&
                        d.arena.capacity() >= stepper.MakeData().arena.capacity() &&
                        d.efc_J.size() == stepper.MakeData().efc_J.size() &&
                        d.qpos.size() == static_cast<std::size_t>(stepper.model().nq);
      // pgs's 5 iterations are fewer than every other engine's; chain_mixed is another model
      if (i == 0 || i == 4 || j == 4) {
        EXPECT_FALSE(fits) << i << " -> " << j;
      }
      if (fits) continue;  // e.g. newton's Data in cg's engine: more than enough of everything
      for (int call = 0; call < 3; ++call) {
        try {
          if (call == 0) stepper.Step(d);
          if (call == 1) stepper.Forward(d);
          if (call == 2) stepper.Step1(d);
          ADD_FAILURE() << "engine " << j << " accepted a Data of engine " << i << " call " << call;
        } catch (const Error& e) {
          const std::string what = e.what();
          EXPECT_NE(what.find("MakeData"), std::string::npos) << what;
          EXPECT_NE(what.find("not made for this engine"), std::string::npos) << what;
        }
      }
      EXPECT_EQ(d.qpos, made.qpos) << "a refused Data is left as it was";
      EXPECT_EQ(d.time, made.time);
    }
  }
}

// Moving a state between engines of different configurations goes through GetState/SetState
// into the target engine's own Data; that Data steps, and so does a copy made by the same
// configuration (equal sizes): a second engine built from the same model and config.
TEST(Engine, StateMovesBetweenEnginesOfDifferentConfigurations) {
  auto model = Load("contact_pile.xml");
  Config small, large;
  small.solver = "pgs";
  small.iterations = 5;
  large.solver = "newton";
  large.integrator = "rk4";
  large.iterations = 100;
  Engine a(model, small), b(model, large), b_twin(model, large);
  Data da = a.MakeData();
  for (int k = 0; k < 100; ++k) a.Step(da);  // the boxes have landed
  Data db = b.MakeData();
  const std::vector<double> state = GetState(a.model(), da, kStateIntegration);
  SetState(b.model(), db, kStateIntegration, state.data());
  Data db_copy = b_twin.MakeData();
  db_copy = db;
  for (int k = 0; k < 10; ++k) {
    b.Step(db);
    b_twin.Step(db_copy);
  }
  EXPECT_EQ(db.qpos, db_copy.qpos);
  EXPECT_GT(db.solver_iter, 0);
  for (double v : db.qpos) EXPECT_TRUE(std::isfinite(v));
}

}  // namespace
}  // namespace gauss
