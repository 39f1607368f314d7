// Tests of the run configuration (core/src/config*.cc): every YAML key and --set key, the
// precedence --set > YAML > model options, every class of error with its location and the
// valid choices, the round trip of ResolvedConfigYaml, and config/default.yaml.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gauss/config.h"
#include "gauss/error.h"
#include "support/test_support.h"

namespace gauss {
namespace {

namespace fs = std::filesystem;

// A fresh file under the test temp directory holding `text`.
std::string WriteTemp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(::testing::TempDir()) / "gauss_config_test";
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

// The message of the gauss::Error thrown by `f`, or a failure if none is thrown.
template <class F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no gauss::Error thrown";
  return "";
}

// Options unlike the built-in defaults, standing for a model's MJCF <option>.
Options ModelOptions() {
  Options o;
  o.timestep = 0.005;
  o.iterations = 50;
  o.tolerance = 1e-10;
  o.integrator = "rk4";
  o.solver = "pgs";
  o.cone = Cone::kElliptic;
  o.jacobian = JacobianType::kSparse;
  o.gravity = {0, 0, -1};
  o.disableflags = kDisableContact | kDisableWarmstart;
  o.enableflags = kEnableEnergy;
  return o;
}

// A complete comparison of the fields a configuration can touch.
void ExpectSameOptions(const Options& a, const Options& b) {
  EXPECT_EQ(a.timestep, b.timestep);
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.tolerance, b.tolerance);
  EXPECT_EQ(a.integrator, b.integrator);
  EXPECT_EQ(a.solver, b.solver);
  EXPECT_EQ(a.cone, b.cone);
  EXPECT_EQ(a.jacobian, b.jacobian);
  EXPECT_EQ(a.gravity, b.gravity);
  EXPECT_EQ(a.disableflags, b.disableflags);
  EXPECT_EQ(a.enableflags, b.enableflags);
  EXPECT_EQ(a.sleep_tolerance, b.sleep_tolerance);
}

TEST(Config, EmptyConfigChangesNothing) {
  Options o = ModelOptions();
  ApplyConfig(ParseConfig("", "empty.yaml"), o);
  ExpectSameOptions(o, ModelOptions());
  ApplyConfig(ParseConfig("# only a comment\n", "comment.yaml"), o);
  ExpectSameOptions(o, ModelOptions());
}

TEST(Config, EveryYamlKey) {
  const Config c = ParseConfig(
      "integrator: {name: rk4, params: {substeps: 3}}\n"
      "solver:\n"
      "  name: pgs\n"
      "  iterations: 7\n"
      "  tolerance: 1e-5\n"
      "  params: {sor: 1.2, mode: fast}\n"
      "timestep: 0.004\n"
      "cone: elliptic\n"
      "jacobian: dense\n"
      "gravity: [1, 2, -3.5]\n"
      "flags: {energy: true, contact: false, warmstart: enable, gravity: disable}\n"
      "colliders: [primitive, ccd]\n"
      "plugins:\n"
      "  paths: [/opt/a, /opt/b]\n",
      "all.yaml");
  EXPECT_EQ(c.source, "all.yaml");
  EXPECT_EQ(*c.integrator, "rk4");
  EXPECT_EQ(c.integrator_params.GetInt("substeps", 0), 3);
  EXPECT_EQ(*c.solver, "pgs");
  EXPECT_EQ(*c.iterations, 7);
  EXPECT_EQ(*c.tolerance, 1e-5);
  EXPECT_EQ(c.solver_params.GetDouble("sor", 0), 1.2);
  EXPECT_EQ(c.solver_params.GetString("mode", ""), "fast");
  EXPECT_EQ(*c.timestep, 0.004);
  EXPECT_EQ(*c.cone, Cone::kElliptic);
  EXPECT_EQ(*c.jacobian, JacobianType::kDense);
  EXPECT_EQ((*c.gravity)[2], -3.5);
  EXPECT_EQ(c.colliders, (std::vector<std::string>{"primitive", "ccd"}));
  EXPECT_EQ(c.plugin_paths, (std::vector<std::string>{"/opt/a", "/opt/b"}));

  Options o;  // built-in defaults
  o.disableflags = kDisableWarmstart;
  ApplyConfig(c, o);
  EXPECT_EQ(o.integrator, "rk4");
  EXPECT_EQ(o.solver, "pgs");
  EXPECT_EQ(o.iterations, 7);
  EXPECT_EQ(o.tolerance, 1e-5);
  EXPECT_EQ(o.timestep, 0.004);
  EXPECT_EQ(o.cone, Cone::kElliptic);
  EXPECT_EQ(o.jacobian, JacobianType::kDense);
  EXPECT_EQ(o.gravity, (std::array<double, 3>{1, 2, -3.5}));
  // flags are "feature on": contact/gravity false set disable bits, warmstart true clears one
  EXPECT_EQ(o.disableflags, unsigned(kDisableContact | kDisableGravity));
  EXPECT_EQ(o.enableflags, unsigned(kEnableEnergy));
}

TEST(Config, ShortFormsAndPartialMaps) {
  Config c = ParseConfig("integrator: euler\nsolver: cg\n", "short.yaml");
  EXPECT_EQ(*c.integrator, "euler");
  EXPECT_EQ(*c.solver, "cg");
  // a map without name changes only what it names
  c = ParseConfig("solver: {iterations: 3}\n", "partial.yaml");
  EXPECT_FALSE(c.solver.has_value());
  Options o = ModelOptions();
  ApplyConfig(c, o);
  EXPECT_EQ(o.iterations, 3);
  EXPECT_EQ(o.solver, "pgs");
  EXPECT_EQ(o.tolerance, 1e-10);
  // a single collider may be written as a word
  EXPECT_EQ(ParseConfig("colliders: ccd\n", "c.yaml").colliders,
            (std::vector<std::string>{"ccd"}));
}

TEST(Config, EveryFlagName) {
  const char* names[] = {"constraint", "equality", "frictionloss", "limit",    "contact",
                         "passive",    "gravity",  "clampctrl",    "warmstart", "filterparent",
                         "actuation",  "refsafe",  "sensor",   "eulerdamp",    "autoreset",
                         "spring",     "damper"};
  for (int i = 0; i < kNumDisableBits; ++i) {
    Options o;
    ApplyConfig(ParseConfig(std::string("flags: {") + names[i] + ": false}", "f.yaml"), o);
    EXPECT_EQ(o.disableflags, 1u << i) << names[i];
    ApplyConfig(ParseConfig(std::string("flags: {") + names[i] + ": true}", "f.yaml"), o);
    EXPECT_EQ(o.disableflags, 0u) << names[i];
  }
  const char* enable[] = {"override", "energy", "fwdinv", "sensornoise", "multiccd", "island",
                          "sleep",    "eqjdotv",  "refsiterot", "boxclip",
                          "marginsum", "invdiscrete", "nativeccd"};
  for (int i = 0; i < kNumEnableBits; ++i) {
    Options o;
    Config c;
    ApplySetting(c, std::string("flags.") + enable[i] + "=true");
    ApplyConfig(c, o);
    EXPECT_EQ(o.enableflags, 1u << i) << enable[i];
  }
}

TEST(Config, EverySetKey) {
  Config c;
  ApplySetting(c, "integrator=rk4");
  ApplySetting(c, "integrator.params.order=4");
  ApplySetting(c, "solver=pgs");
  ApplySetting(c, "solver.iterations=12");
  ApplySetting(c, "solver.tolerance=1e-3");
  ApplySetting(c, "solver.params.sor=1.5");
  ApplySetting(c, "timestep=0.01");
  ApplySetting(c, "cone=elliptic");
  ApplySetting(c, "jacobian=sparse");
  ApplySetting(c, "gravity=0, 0.5,-2");
  ApplySetting(c, "flags.contact=false");
  ApplySetting(c, "flags.energy=enable");
  ApplySetting(c, "colliders=ccd,primitive");
  ApplySetting(c, "plugins.paths=/x/y,/z");
  EXPECT_EQ(*c.integrator, "rk4");
  EXPECT_EQ(c.integrator_params.GetInt("order", 0), 4);
  EXPECT_EQ(*c.solver, "pgs");
  EXPECT_EQ(*c.iterations, 12);
  EXPECT_EQ(*c.tolerance, 1e-3);
  EXPECT_EQ(c.solver_params.GetDouble("sor", 0), 1.5);
  EXPECT_EQ(*c.timestep, 0.01);
  EXPECT_EQ(*c.cone, Cone::kElliptic);
  EXPECT_EQ(*c.jacobian, JacobianType::kSparse);
  EXPECT_EQ(*c.gravity, (std::array<double, 3>{0, 0.5, -2}));
  EXPECT_FALSE(c.flags.at("contact"));
  EXPECT_TRUE(c.flags.at("energy"));
  EXPECT_EQ(c.colliders, (std::vector<std::string>{"ccd", "primitive"}));
  EXPECT_EQ(c.plugin_paths, (std::vector<std::string>{"/x/y", "/z"}));
  // name aliases and other spellings of a vector
  ApplySetting(c, "solver.name=newton");
  ApplySetting(c, "integrator.name=euler");
  ApplySetting(c, "gravity=[1, 2, 3]");
  EXPECT_EQ(*c.solver, "newton");
  EXPECT_EQ(*c.integrator, "euler");
  EXPECT_EQ(*c.gravity, (std::array<double, 3>{1, 2, 3}));
  ApplySetting(c, "gravity=4 5 6");
  EXPECT_EQ(*c.gravity, (std::array<double, 3>{4, 5, 6}));
  // relative plugin directories become absolute (from the current directory)
  ApplySetting(c, "plugins.paths=rel/dir");
  ASSERT_EQ(c.plugin_paths.size(), 1u);
  EXPECT_TRUE(fs::path(c.plugin_paths[0]).is_absolute());
  EXPECT_EQ(fs::path(c.plugin_paths[0]).filename(), "dir");
}

TEST(Config, PrecedenceSetOverYamlOverModel) {
  Config c = ParseConfig("timestep: 0.001\nsolver: {name: cg, iterations: 20}\n", "p.yaml");
  ApplySetting(c, "solver.iterations=30");
  ApplySetting(c, "solver.iterations=40");  // later --set wins
  Options o = ModelOptions();
  ApplyConfig(c, o);
  EXPECT_EQ(o.timestep, 0.001);   // YAML over model
  EXPECT_EQ(o.solver, "cg");      // YAML over model
  EXPECT_EQ(o.iterations, 40);    // --set over YAML
  EXPECT_EQ(o.tolerance, 1e-10);  // untouched: model value
  EXPECT_EQ(o.integrator, "rk4");
  EXPECT_EQ(o.cone, Cone::kElliptic);
}

TEST(Config, UnknownKeysNameFileLineKeyAndValidKeys) {
  std::string msg = ErrorOf([] { ParseConfig("timestep: 0.01\nsolvr: pgs\n", "typo.yaml"); });
  EXPECT_NE(msg.find("typo.yaml:2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("solvr"), std::string::npos) << msg;
  EXPECT_NE(msg.find("integrator, solver, timestep"), std::string::npos) << msg;

  msg = ErrorOf([] { ParseConfig("solver:\n  name: pgs\n  iters: 5\n", "nested.yaml"); });
  EXPECT_NE(msg.find("nested.yaml:3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("solver.iters"), std::string::npos) << msg;
  EXPECT_NE(msg.find("name, iterations, tolerance, params"), std::string::npos) << msg;

  msg = ErrorOf([] { ParseConfig("\nflags:\n  contacts: false\n", "flags.yaml"); });
  EXPECT_NE(msg.find("flags.yaml:3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("flags.contacts"), std::string::npos) << msg;
  EXPECT_NE(msg.find("contact"), std::string::npos) << msg;
  EXPECT_NE(msg.find("multiccd"), std::string::npos) << msg;

  msg = ErrorOf([] { ParseConfig("plugins: {path: [/a]}\n", "pl.yaml"); });
  EXPECT_NE(msg.find("pl.yaml:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("plugins.path"), std::string::npos) << msg;
  EXPECT_NE(msg.find("paths"), std::string::npos) << msg;

  msg = ErrorOf([] { ParseConfig("integrator: {name: rk4, parms: {}}\n", "i.yaml"); });
  EXPECT_NE(msg.find("integrator.parms"), std::string::npos) << msg;
  EXPECT_NE(msg.find("name, params"), std::string::npos) << msg;
}

TEST(Config, WrongTypesNameFileLineKeyAndExpectedType) {
  struct Case {
    const char* yaml;
    int line;
    const char* key;
    const char* expected;
  };
  const Case cases[] = {
      {"timestep: fast\n", 1, "timestep", "number"},
      {"timestep: -1\n", 1, "timestep", "> 0"},
      {"cone: pyramidal\ntimestep: [1]\n", 2, "timestep", "number"},
      {"solver: {iterations: 1.5}\n", 1, "solver.iterations", "integer"},
      {"solver: {iterations: -3}\n", 1, "solver.iterations", "integer >= 0"},
      {"solver: {tolerance: small}\n", 1, "solver.tolerance", "number"},
      {"gravity: [0, 0]\n", 1, "gravity", "3 numbers"},
      {"gravity: 9.81\n", 1, "gravity", "3 numbers"},
      {"gravity: [0, 0, down]\n", 1, "gravity", "number"},
      {"flags:\n  energy: maybe\n", 2, "flags.energy", "true, false"},
      {"flags: [energy]\n", 1, "flags", "map"},
      {"solver: [pgs]\n", 1, "solver", "map"},
      {"solver: {params: {a: [1, 2]}}\n", 1, "solver.params.a", "single value"},
      {"colliders: {a: 1}\n", 1, "colliders", "list"},
      {"integrator: RK4\n", 1, "integrator", "did you mean 'rk4'"},
      {"timestep:\ncone: elliptic\n", 1, "timestep", "a number"},
      {"solver:\n  params:\n    sor:\n", 3, "solver.params.sor", "without a value"},
  };
  for (const Case& c : cases) {
    const std::string msg = ErrorOf([&] { ParseConfig(c.yaml, "types.yaml"); });
    EXPECT_NE(msg.find("types.yaml:" + std::to_string(c.line)), std::string::npos)
        << c.yaml << " -> " << msg;
    EXPECT_NE(msg.find(c.key), std::string::npos) << c.yaml << " -> " << msg;
    EXPECT_NE(msg.find(c.expected), std::string::npos) << c.yaml << " -> " << msg;
  }
}

TEST(Config, UnknownEnumValuesListValidValues) {
  std::string msg = ErrorOf([] { ParseConfig("cone: round\n", "e.yaml"); });
  EXPECT_NE(msg.find("e.yaml:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'round'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("pyramidal, elliptic"), std::string::npos) << msg;
  msg = ErrorOf([] { ParseConfig("\n\njacobian: banded\n", "e.yaml"); });
  EXPECT_NE(msg.find("e.yaml:3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("jacobian"), std::string::npos) << msg;
  EXPECT_NE(msg.find("dense, sparse, auto"), std::string::npos) << msg;
}

TEST(Config, SyntaxErrorsAndStructure) {
  std::string msg = ErrorOf([] { ParseConfig("timestep: 0.01\nsolver: [pgs\n", "bad.yaml"); });
  EXPECT_NE(msg.find("bad.yaml:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("syntax"), std::string::npos) << msg;
  msg = ErrorOf([] { ParseConfig("a: b: c\n", "bad2.yaml"); });
  EXPECT_NE(msg.find("bad2.yaml:1"), std::string::npos) << msg;
  // a duplicate key would silently hide one of the two values
  msg = ErrorOf([] { ParseConfig("timestep: 0.01\ntimestep: 0.02\n", "dup.yaml"); });
  EXPECT_NE(msg.find("dup.yaml:2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("twice"), std::string::npos) << msg;
  // the document must be a map
  msg = ErrorOf([] { ParseConfig("- timestep\n", "list.yaml"); });
  EXPECT_NE(msg.find("list.yaml:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("map"), std::string::npos) << msg;
}

TEST(Config, FilesNameThemselvesAndAnchorPluginPaths) {
  const std::string path = WriteTemp("located.yaml", "timestep: 0.01\n\ncone: conical\n");
  const std::string msg = ErrorOf([&] { LoadConfigFile(path); });
  EXPECT_NE(msg.find(path + ":3"), std::string::npos) << msg;

  const std::string missing = ErrorOf([] { LoadConfigFile("/nonexistent/dir/cfg.yaml"); });
  EXPECT_NE(missing.find("/nonexistent/dir/cfg.yaml"), std::string::npos) << missing;

  const std::string rel = WriteTemp("rel.yaml", "plugins:\n  paths: [sub/plugins, /abs]\n");
  const Config c = LoadConfigFile(rel);
  EXPECT_EQ(c.source, rel);
  ASSERT_EQ(c.plugin_paths.size(), 2u);
  EXPECT_EQ(c.plugin_paths[0], (fs::path(rel).parent_path() / "sub/plugins").string());
  EXPECT_EQ(c.plugin_paths[1], "/abs");
}

TEST(Config, SetErrors) {
  Config c;
  std::string msg = ErrorOf([&] { ApplySetting(c, "solvr=pgs"); });
  EXPECT_NE(msg.find("solvr"), std::string::npos) << msg;
  for (const auto& key : ConfigKeys()) EXPECT_NE(msg.find(key), std::string::npos) << key;

  msg = ErrorOf([&] { ApplySetting(c, "timestep"); });
  EXPECT_NE(msg.find("KEY=VALUE"), std::string::npos) << msg;

  struct Case {
    const char* setting;
    const char* expected;
  };
  const Case cases[] = {
      {"timestep=abc", "a number"},
      {"timestep=0", "> 0"},
      {"solver.iterations=ten", "integer"},
      {"solver.tolerance=1e-3x", "a number"},
      {"cone=round", "pyramidal, elliptic"},
      {"jacobian=x", "dense, sparse, auto"},
      {"gravity=0,0", "3 numbers"},
      {"gravity=0,0,a", "3 numbers"},
      {"flags.energy=perhaps", "true, false"},
      {"flags.energie=true", "valid flags"},
      {"solver=New ton", "not a plugin name"},
      {"colliders=primitive,CCD", "did you mean 'ccd'"},
  };
  for (const Case& k : cases) {
    msg = ErrorOf([&] { ApplySetting(c, k.setting); });
    const std::string key = std::string(k.setting).substr(0, std::string(k.setting).find('='));
    EXPECT_NE(msg.find(key), std::string::npos) << k.setting << " -> " << msg;
    EXPECT_NE(msg.find(k.expected), std::string::npos) << k.setting << " -> " << msg;
  }
  // a failed setting leaves the configuration as it was
  EXPECT_FALSE(c.timestep.has_value());
  EXPECT_FALSE(c.cone.has_value());
}

TEST(Config, ApplyConfigRejectsInvalidProgrammaticConfig) {
  Config c;
  c.flags["nonsense"] = true;
  Options o;
  EXPECT_NE(ErrorOf([&] { ApplyConfig(c, o); }).find("nonsense"), std::string::npos);
  Config t;
  t.timestep = -1;
  EXPECT_NE(ErrorOf([&] { ApplyConfig(t, o); }).find("timestep"), std::string::npos);
}

TEST(Config, ResolvedYamlRoundTrip) {
  Config c = ParseConfig(
      "integrator: {name: rk4, params: {weird: 'a: \"b\", c\\\\d'}}\n"
      "solver: {params: {sor: 1.25}}\n"
      "colliders: [primitive]\n"
      "plugins: {paths: ['/dir with space', /other]}\n",
      "rt.yaml");
  ApplySetting(c, "flags.energy=true");
  ApplySetting(c, "gravity=0.1,-0.2,-9.80665");
  Options resolved = ModelOptions();
  ApplyConfig(c, resolved);
  const std::string yaml = ResolvedConfigYaml(c, resolved);

  // Loading the resolved text over *different* options reproduces the resolved options:
  // every key is present.
  const std::string path = WriteTemp("resolved.yaml", yaml);
  const Config back = LoadConfigFile(path);
  Options again;  // built-in defaults, not the model's
  ApplyConfig(back, again);
  ExpectSameOptions(again, resolved);
  EXPECT_EQ(back.integrator_params.values(), c.integrator_params.values());
  EXPECT_EQ(back.solver_params.values(), c.solver_params.values());
  EXPECT_EQ(back.colliders, c.colliders);
  EXPECT_EQ(back.plugin_paths, c.plugin_paths);
  // identical apart from the comment naming the source file
  const std::string again_yaml = ResolvedConfigYaml(back, again);
  EXPECT_EQ(again_yaml.substr(again_yaml.find("\nintegrator:")), yaml.substr(yaml.find("\nintegrator:")));
  // numbers are written shortest-exact, not as 17-digit noise
  EXPECT_NE(yaml.find("timestep: 0.005\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("-9.80665]"), std::string::npos) << yaml;
}

TEST(Config, DefaultYamlLoadsAndChangesNothing) {
  const std::string path = std::string(GAUSS_SOURCE_DIR) + "/config/default.yaml";
  const Config c = LoadConfigFile(path);
  Options o = ModelOptions();
  ApplyConfig(c, o);
  ExpectSameOptions(o, ModelOptions());
  EXPECT_TRUE(c.colliders.empty());
  EXPECT_TRUE(c.plugin_paths.empty());
}

// The commented-out settings in default.yaml ("# key: value" lines) document the built-in
// defaults: uncommented, they must load and reproduce Options{} from any starting options.
TEST(Config, DefaultYamlDocumentsEveryKeyWithItsDefault) {
  std::ifstream in(std::string(GAUSS_SOURCE_DIR) + "/config/default.yaml");
  ASSERT_TRUE(in);
  std::string line, text;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) text += line.substr(2) + "\n";
  }
  const Config c = ParseConfig(text, "default.yaml (uncommented)");
  for (const char* key : {"integrator", "solver", "timestep", "cone", "jacobian", "gravity"}) {
    EXPECT_NE(text.find(std::string(key) + ":"), std::string::npos) << key;
  }
  EXPECT_EQ(c.flags.size(), size_t(kNumDisableBits + kNumEnableBits));
  Options o = ModelOptions();
  ApplyConfig(c, o);
  ExpectSameOptions(o, Options());
}

}  // namespace
}  // namespace gauss
