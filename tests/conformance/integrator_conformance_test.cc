// Conformance of every discovered integrator plugin (one test instance per integrator,
// generated from the registry):
//  - Convergence: on a contact-free model with a damped hinge, a damped ball joint, a velocity
//    servo and a spinning free box, the state after 0.4 s at timesteps h = 4, 2 and 1 ms is
//    compared with rk4 at h = 0.125 ms (converged to ~1e-12 there); the error must fall with h
//    at an observed order log2(e(h) / e(h/2)) >= 0.9 at both halvings (every integrator is at
//    least first order; measured: euler, implicit, implicitfast 1.0, variational 0.90-0.95,
//    rk4 2.0 on this model), and be below 5e-2 at 1 ms. (At h = 8 ms the
//    variational integrator is not yet in its asymptotic range: order 0.78 from 8 to 4 ms.)
//  - No heap allocation in Engine::Step on the contact pile (tens of contacts).
//  - Determinism: two Engines produce bitwise identical states after 300 steps of the pile.
//  - Capabilities: an integrator that needs actuator velocity derivatives
//    (kCapNeedsVelocityDerivative) is refused at construction with an actuator plugin that does
//    not provide them (test_gain of tests/test_plugins/good), naming the integrator, the
//    actuator plugin and the integrators that do not need it; one that does not need them runs
//    the same model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "conformance/conformance.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss::conformance {
namespace {

constexpr const char* kSmoothXml = R"(<mujoco>
  <default><geom contype="0" conaffinity="0" density="1000"/></default>
  <worldbody>
    <body pos="0 0 2">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.3"/>
      <geom type="capsule" fromto="0 0 0 .5 0 0" size=".03"/>
      <body pos=".5 0 0">
        <joint name="elbow" type="ball" damping="0.1"/>
        <geom type="capsule" fromto="0 0 0 .4 0 0" size=".03"/>
      </body>
    </body>
    <body pos="2 0 2"><freejoint/><geom type="box" size=".1 .2 .3"/></body>
  </worldbody>
  <actuator><velocity joint="shoulder" kv="2"/></actuator>
</mujoco>)";

constexpr double kDuration = 0.4;
constexpr double kReferenceStep = 1.25e-4;

// The engine of `integrator` with the first discovered solver it accepts (newton first): an
// integrator may restrict its solvers through capabilities.
std::unique_ptr<Engine> EngineFor(std::shared_ptr<const Model> model, Config config) {
  std::vector<std::string> solvers = DiscoveredNames(PluginKind::kSolver);
  std::stable_partition(solvers.begin(), solvers.end(),
                        [](const std::string& s) { return s == "newton"; });
  std::string refusals;
  for (const std::string& solver : solvers) {
    config.solver = solver;
    try {
      return std::make_unique<Engine>(model, config);
    } catch (const Error& e) {
      refusals += std::string("\n  ") + e.what();
    }
  }
  throw Error("no discovered solver works with integrator '" + config.integrator.value_or("") +
              "':" + refusals);
}

// qpos and qvel after kDuration with timestep h, from a fixed moving state with a fixed control.
std::vector<double> SmoothFinalState(const std::string& integrator, double h) {
  Config config;
  config.integrator = integrator;
  config.timestep = h;
  const auto engine = EngineFor(LoadModelFromString(kSmoothXml, "integrator_smooth.xml"), config);
  Data d = engine->MakeData();
  const double qvel0[] = {1.5, 0.8, -1.2, 2.0, 0.3, 0.5, 1.0, 4.0, -3.0, 2.5};
  std::copy(qvel0, qvel0 + engine->model().nv, d.qvel.begin());
  d.ctrl[0] = 0.5;
  const int steps = static_cast<int>(std::lround(kDuration / h));
  for (int k = 0; k < steps; ++k) engine->Step(d);
  std::vector<double> out = d.qpos;
  out.insert(out.end(), d.qvel.begin(), d.qvel.end());
  return out;
}

double MaxAbsDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

class IntegratorConformance : public ::testing::TestWithParam<std::string> {
 protected:
  const PluginInfo& info() const { return Find(PluginKind::kIntegrator, GetParam()); }
  Config CaseConfig() const {
    Config config;
    config.integrator = GetParam();
    return config;
  }
};

TEST_P(IntegratorConformance, ConvergesToTheRk4ReferenceAtLeastAtFirstOrder) {
  const std::vector<double> reference = SmoothFinalState("rk4", kReferenceStep);
  std::vector<double> errors;
  for (double h : {4e-3, 2e-3, 1e-3}) {
    errors.push_back(MaxAbsDifference(SmoothFinalState(GetParam(), h), reference));
  }
  const double order1 = std::log2(errors[0] / errors[1]);
  const double order2 = std::log2(errors[1] / errors[2]);
  std::printf("[ measured ] %s: error vs rk4 %.2e %.2e %.2e at h = 4, 2, 1 ms; observed order "
              "%.2f, %.2f\n", GetParam().c_str(), errors[0], errors[1], errors[2], order1, order2);
  EXPECT_GE(order1, 0.9);
  EXPECT_GE(order2, 0.9);
  EXPECT_LE(errors[2], 5e-2);
}

TEST_P(IntegratorConformance, StepAllocatesNothing) {
  if (!test::AllocationCountAvailable()) GTEST_SKIP() << test::AllocationCountUnavailable();
  const auto engine = EngineFor(LoadModel(test::TestModel("contact_pile.xml")), CaseConfig());
  Data d = engine->MakeData();
  for (int k = 0; k < 200; ++k) engine->Step(d);
  const long before = test::AllocationCount();
  for (int k = 0; k < 50; ++k) engine->Step(d);
  EXPECT_EQ(test::AllocationCount() - before, 0) << d.ncon << " contacts";
  EXPECT_GT(d.ncon, 0);
}

TEST_P(IntegratorConformance, TwoRunsAreBitwiseEqual) {
  const std::shared_ptr<const Model> model = LoadModel(test::TestModel("contact_pile.xml"));
  const auto first = EngineFor(model, CaseConfig()), second = EngineFor(model, CaseConfig());
  const Data a = Simulate(*first, 300), b = Simulate(*second, 300);
  EXPECT_GT(a.ncon, 0);
  EXPECT_EQ(FirstBitwiseDifference(a, b), "");
  EXPECT_EQ(FirstBitwiseDifference(a, Simulate(*first, 300)), "");
}

TEST_P(IntegratorConformance, ActuatorVelocityDerivativeNeedIsCheckedAtConstruction) {
  // a hinge driven by test_gain, an actuator plugin without the velocity derivative
  const auto model = LoadModelFromString(R"(<mujoco><worldbody><body>
      <joint name="hinge" axis="0 1 0"/><geom type="capsule" size=".05 .1"/></body></worldbody>
      <actuator><general joint="hinge" dyntype="test_gain"/></actuator></mujoco>)",
                                         "integrator_needs.xml");
  Config config = CaseConfig();
  config.plugin_paths.push_back(test::TestPluginDir() + "/good");
  if (!Has(info(), kCapNeedsVelocityDerivative)) {
    EXPECT_NO_THROW(EngineFor(model, config));
    return;
  }
  try {
    EngineFor(model, config);
    ADD_FAILURE() << "the Engine was built";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("integrator '" + GetParam() + "' needs the velocity derivative"),
              std::string::npos) << message;
    EXPECT_NE(message.find("actuator plugin 'test_gain'"), std::string::npos) << message;
    for (const PluginInfo& other : Discovered(PluginKind::kIntegrator)) {
      if (Has(other, kCapNeedsVelocityDerivative)) continue;
      EXPECT_NE(message.find(other.name), std::string::npos) << other.name << ": " << message;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Discovered, IntegratorConformance,
                         ::testing::ValuesIn(DiscoveredNames(PluginKind::kIntegrator)),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST(IntegratorConformance, TheBuiltInIntegratorsAreDiscovered) {
  const std::vector<std::string> names = DiscoveredNames(PluginKind::kIntegrator);
  for (const char* name : {"euler", "implicit", "implicitfast", "rk4"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

}  // namespace
}  // namespace gauss::conformance
