// Tests of the plugin entry's declarations as the Engine checks them when it is built
// (core/src/plugin/plugin_capabilities.cc, engine_plugins.cc, params.cc, registry.cc): refusals
// name the plugin, the option and the alternatives; undeclared parameters list the declared
// ones; declared defaults are what plugins read; a plugin built with another struct layout is
// refused naming the struct; solvers without sensitivities say so.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "gauss/solver.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// A free box on a plane, with one motor: contacts and an actuator.
constexpr const char* kBoxXml = R"(<mujoco><option cone="CONE"/>
  <worldbody><geom type="plane" size="1 1 .1"/>
    <body pos="0 0 .2"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="1 0 .2"><joint name="hinge" axis="0 1 0"/><geom type="capsule" size=".05 .1"/></body>
  </worldbody>
  <actuator><general joint="hinge" dyntype="DYN"/></actuator></mujoco>)";

std::shared_ptr<const Model> BoxModel(const std::string& cone, const std::string& dyntype) {
  std::string xml = kBoxXml;
  xml.replace(xml.find("CONE"), 4, cone);
  xml.replace(xml.find("DYN"), 3, dyntype);
  return LoadModelFromString(xml, "capabilities_box.xml");
}

// The message of the gauss::Error thrown when building an Engine, or a failure.
std::string EngineError(std::shared_ptr<const Model> model, const Config& config) {
  try {
    Engine engine(model, config);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "the Engine was built";
  return "";
}

Config WithTestPlugins() {
  Config config;
  config.plugin_paths.push_back(test::TestPluginDir() + "/good");
  return config;
}

TEST(PluginCapabilities, SolverWithoutEllipticConesIsRefusedNamingAlternatives) {
  Config config = WithTestPlugins();
  config.solver = "test_pyramidal";
  const std::string message = EngineError(BoxModel("elliptic", "none"), config);
  EXPECT_NE(message.find("solver 'test_pyramidal' does not support option cone = elliptic"),
            std::string::npos) << message;
  EXPECT_NE(message.find("solvers that do: cg, ip, newton, pgs"), std::string::npos) << message;
  // the same solver is accepted where its capabilities suffice
  EXPECT_NO_THROW(Engine(BoxModel("pyramidal", "none"), config));
}

TEST(PluginCapabilities, SolverWithoutSparseJacobianIsRefused) {
  Config config = WithTestPlugins();
  config.solver = "test_pyramidal";
  config.jacobian = JacobianType::kSparse;
  const std::string message = EngineError(BoxModel("pyramidal", "none"), config);
  EXPECT_NE(message.find("does not support the sparse Jacobian"), std::string::npos) << message;
}

TEST(PluginCapabilities, ImplicitIntegratorRefusesActuatorsWithoutVelocityDerivative) {
  // test_gain (tests/test_plugins/good) does not declare the velocity derivative
  Config config = WithTestPlugins();
  config.integrator = "implicitfast";
  const std::string message = EngineError(BoxModel("pyramidal", "test_gain"), config);
  EXPECT_NE(message.find("integrator 'implicitfast' needs the velocity derivative"),
            std::string::npos) << message;
  EXPECT_NE(message.find("actuator plugin 'test_gain'"), std::string::npos) << message;
  EXPECT_NE(message.find("integrators that do not need it: euler, rk4"), std::string::npos)
      << message;
  config.integrator = "euler";
  EXPECT_NO_THROW(Engine(BoxModel("pyramidal", "test_gain"), config));
}

TEST(PluginParams, UnknownParameterListsTheDeclaredOnes) {
  Config config;
  config.solver = "pgs";
  config.solver_params.Set("exact_block", "true");  // misspelt
  const std::string message = EngineError(BoxModel("pyramidal", "none"), config);
  EXPECT_NE(message.find("solver 'pgs' parameters 'exact_block': unknown parameter"),
            std::string::npos) << message;
  EXPECT_NE(message.find("exact_blocks (bool, default false): "), std::string::npos) << message;
}

TEST(PluginParams, DeclaredDefaultsAreReadAndParsed) {
  const ParamSpec specs[] = {{"gain", ParamType::kDouble, "2.5", "a gain"},
                             {"on", ParamType::kBool, "true", "a switch"},
                             {"count", ParamType::kInt, "7", "a count"}};
  Params params("test parameters");
  params.Declare(ParamList(specs));
  params.Set("count", "3");
  EXPECT_EQ(params.GetDouble("gain"), 2.5);
  EXPECT_TRUE(params.GetBool("on"));
  EXPECT_EQ(params.GetInt("count"), 3);
  EXPECT_THROW(params.GetDouble("undeclared"), Error);
}

// A keyword parameter (pgs `sweeps`, rk4 `warmstart`): its index among the choices, or an error
// naming the parameter and every choice.
TEST(PluginParams, KeywordIsOneOfTheChoices) {
  const ParamSpec specs[] = {{"mode", ParamType::kString, "auto", "a keyword"}};
  Params params("solver 'test' parameters");
  params.Declare(ParamList(specs));
  EXPECT_EQ(params.GetChoice("mode", {"auto", "fast", "slow"}), 0);
  params.Set("mode", "slow");
  EXPECT_EQ(params.GetChoice("mode", {"auto", "fast", "slow"}), 2);
  params.Set("mode", "quick");
  try {
    params.GetChoice("mode", {"auto", "fast", "slow"});
    FAIL() << "'quick' is not a choice";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "solver 'test' parameters 'mode': 'quick' is not one of auto, fast, slow"),
              std::string::npos)
        << e.what();
  }
}

TEST(PluginParams, EveryShippedDefaultParsesAsItsType) {
  PluginRegistry registry;
  int checked = 0;
  for (const PluginInfo& info : registry.List()) {
    ASSERT_TRUE(info.usable) << info.name << ": " << info.description;
    Params params(info.name);
    params.Declare(info.params);
    for (int k = 0; k < info.params.count; ++k) {
      const ParamSpec& spec = info.params.specs[k];
      switch (spec.type) {
        case ParamType::kBool: EXPECT_NO_THROW(params.GetBool(spec.name)); break;
        case ParamType::kInt: EXPECT_NO_THROW(params.GetInt(spec.name)); break;
        case ParamType::kDouble: EXPECT_NO_THROW(params.GetDouble(spec.name)); break;
        case ParamType::kString: EXPECT_NO_THROW(params.GetString(spec.name)); break;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 2);  // euler's implicit_damping, pgs's exact_blocks
}

TEST(PluginAbi, PluginWithAnotherStructLayoutIsRefusedNamingTheStruct) {
  PluginRegistry registry;
  registry.AddSearchPath(test::TestPluginDir() + "/wrong_layout");
  try {
    registry.CreateRaw(PluginKind::kActuator, "test_relayout", nullptr);
    ADD_FAILURE() << "the plugin was accepted";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("was built with a different layout of struct gauss::Contact"),
              std::string::npos) << message;
  }
}

TEST(SolverSensitivity, SolversWithoutTheCapabilityThrowSayingSo) {
  PluginRegistry registry;
  for (const char* name : {"newton", "cg", "pgs"}) {
    auto solver = registry.Create<ConstraintSolver>(PluginKind::kSolver, name);
    ASSERT_FALSE(solver.info.capabilities & kCapSolutionSensitivity) << name;
    ConstraintProblem problem;
    Arena arena;
    SolutionTangent out;
    ProblemTangent in;
    try {
      solver.instance->SensitivityForward(problem, nullptr, nullptr, in, out, arena);
      ADD_FAILURE() << name << " did not throw";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("does not provide solution sensitivities"),
                std::string::npos) << e.what();
    }
    EXPECT_THROW(solver.instance->SensitivityReverse(problem, nullptr, nullptr, out, in, arena),
                 Error);
  }
}

TEST(AbiFields, HeaderIsCurrent) {
  const std::string command = "/usr/bin/python3 " + std::string(GAUSS_SOURCE_DIR) +
                              "/scripts/gen_abi_fields.py --check";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

}  // namespace
}  // namespace gauss
