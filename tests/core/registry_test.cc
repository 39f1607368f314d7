// Tests of core/src/registry.cc: plugin discovery (AddSearchPath, GAUSS_PLUGIN_PATH, the default
// build-tree directory), symlinks, refusals (wrong ABI, duplicates, non-plugins) and their
// messages, independent instances, and List(). The test-only plugins are built by
// tests/test_plugins into separate subdirectories of GAUSS_TEST_PLUGIN_DIR.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "gauss/actuator.h"
#include "gauss/error.h"
#include "gauss/integrator.h"
#include "gauss/registry.h"
#include "gauss/sensor.h"
#include "support/test_support.h"

namespace gauss {
namespace {

namespace fs = std::filesystem;

std::string CaseDir(const std::string& name) { return test::TestPluginDir() + "/" + name; }
std::string GoodLibrary() {
  return fs::canonical(CaseDir("good") + "/libgauss_test_good.so").string();
}

bool Contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// The message of the gauss::Error thrown by CreateRaw, or a failure if it did not throw one.
std::string CreateError(PluginRegistry& registry, PluginKind kind, const std::string& name) {
  try {
    registry.CreateRaw(kind, name, nullptr);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "CreateRaw(" << PluginKindName(kind) << ", " << name << ") did not throw";
  return "";
}

// Runs test_gain on two actuators: (ctrl) => actuator_force.
std::vector<double> GainForces(const ActuatorDynamics& plugin, double ctrl0, double ctrl1) {
  Model m;
  m.nu = 2;
  m.actuator_actadr = {-1, -1};
  Data d;
  d.ctrl = {ctrl0, ctrl1};
  d.actuator_force = {0, 0};
  const int ids[2] = {0, 1};
  plugin.Compute(m, d, d.ctrl.data(), ids, 2);
  return d.actuator_force;
}

// Clears GAUSS_PLUGIN_PATH for the test (restoring it after), and gives each test a private
// scratch directory for symlinks and fake files.
class RegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* env = std::getenv("GAUSS_PLUGIN_PATH")) saved_env_ = env;
    unsetenv("GAUSS_PLUGIN_PATH");
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    scratch_ = fs::temp_directory_path() /
               ("gauss_registry_" + std::to_string(getpid()) + "_" + info->name());
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
    ASSERT_TRUE(fs::exists(CaseDir("good") + "/libgauss_test_good.so"))
        << "test plugins not built in " << test::TestPluginDir();
  }
  void TearDown() override {
    if (saved_env_) {
      setenv("GAUSS_PLUGIN_PATH", saved_env_->c_str(), 1);
    } else {
      unsetenv("GAUSS_PLUGIN_PATH");
    }
    std::error_code ec;
    fs::remove_all(scratch_, ec);
  }

  std::optional<std::string> saved_env_;
  fs::path scratch_;
};

TEST_F(RegistryTest, FindsPluginThroughAddSearchPath) {
  PluginRegistry registry;
  EXPECT_FALSE(Contains(registry.Names(PluginKind::kActuator), "test_gain"));
  registry.AddSearchPath(CaseDir("good"));  // invalidates the cached scan
  EXPECT_TRUE(Contains(registry.Names(PluginKind::kActuator), "test_gain"));
  EXPECT_TRUE(Contains(registry.Names(PluginKind::kIntegrator), "test_clock"));
  EXPECT_FALSE(Contains(registry.Names(PluginKind::kIntegrator), "test_gain"));

  PluginInstance<ActuatorDynamics> gain =
      registry.Create<ActuatorDynamics>(PluginKind::kActuator, "test_gain");
  ASSERT_TRUE(gain.instance);
  EXPECT_TRUE(gain.library);
  EXPECT_EQ(gain.info.kind, PluginKind::kActuator);
  EXPECT_EQ(gain.info.name, "test_gain");
  EXPECT_EQ(gain.info.version, "2.5.1");
  EXPECT_EQ(gain.info.description, "force = gain * ctrl (registry test)");
  EXPECT_EQ(gain.info.file, GoodLibrary());
  EXPECT_EQ(GainForces(*gain.instance, 0.5, -2.0), (std::vector<double>{0.5, -2.0}));
}

TEST_F(RegistryTest, SearchPathsListAddedThenEnvironmentThenOneDefault) {
  const std::string env_dir = CaseDir("wrong_abi");
  setenv("GAUSS_PLUGIN_PATH", (":" + env_dir + "::" + scratch_.string() + "/absent:").c_str(), 1);
  PluginRegistry registry;
  registry.AddSearchPath(CaseDir("good"));
  registry.AddSearchPath(scratch_.string() + "/missing");
  const std::vector<std::string> paths = registry.SearchPaths();
  ASSERT_EQ(paths.size(), 5u) << ::testing::PrintToString(paths);
  EXPECT_EQ(paths[0].rfind(CaseDir("good") + " (", 0), 0u) << paths[0];
  EXPECT_NE(paths[0].find("plugins.paths"), std::string::npos) << paths[0];
  EXPECT_EQ(paths[0].find("(missing)"), std::string::npos) << paths[0];
  EXPECT_NE(paths[1].find("/missing ("), std::string::npos) << paths[1];
  EXPECT_NE(paths[1].find("(missing)"), std::string::npos) << paths[1];
  EXPECT_EQ(paths[2].rfind(env_dir + " (GAUSS_PLUGIN_PATH)", 0), 0u) << paths[2];
  EXPECT_NE(paths[3].find("/absent (GAUSS_PLUGIN_PATH) (missing)"), std::string::npos) << paths[3];
  // The test executable runs against the build tree's libgauss: its one default directory is the
  // build tree's plugin directory, never the install prefix as well.
  EXPECT_EQ(paths[4].rfind(std::string(GAUSS_BINARY_DIR) + "/plugins (build tree", 0), 0u)
      << paths[4];
}

TEST_F(RegistryTest, FindsPluginThroughEnvironment) {
  setenv("GAUSS_PLUGIN_PATH", (scratch_.string() + "/absent:" + CaseDir("good")).c_str(), 1);
  PluginRegistry registry;
  PluginInfo info;
  std::unique_ptr<Plugin> plugin = registry.CreateRaw(PluginKind::kIntegrator, "test_clock", &info);
  ASSERT_TRUE(plugin);
  EXPECT_NE(dynamic_cast<Integrator*>(plugin.get()), nullptr);
  EXPECT_EQ(info.file, GoodLibrary());
  EXPECT_EQ(info.version, "0.3.0");

  // Without the variable, the same registry setup finds nothing of the kind.
  unsetenv("GAUSS_PLUGIN_PATH");
  PluginRegistry plain;
  EXPECT_FALSE(Contains(plain.Names(PluginKind::kIntegrator), "test_clock"));
}

TEST_F(RegistryTest, SymlinkedFilesAndDirectoriesCountOnce) {
  fs::create_symlink(GoodLibrary(), scratch_ / "libalias_one.so");
  fs::create_symlink(GoodLibrary(), scratch_ / "libalias_two.so.1");
  fs::create_directory_symlink(CaseDir("good"), scratch_ / "linked_dir");
  PluginRegistry registry;
  registry.AddSearchPath(scratch_.string());
  registry.AddSearchPath(CaseDir("good"));
  registry.AddSearchPath((scratch_ / "linked_dir").string());

  PluginInfo info;
  EXPECT_TRUE(registry.CreateRaw(PluginKind::kActuator, "test_gain", &info));
  EXPECT_EQ(info.file, GoodLibrary());  // the canonical file, not the link
  int listed = 0;
  for (const PluginInfo& p : registry.List()) listed += p.name == "test_gain";
  EXPECT_EQ(listed, 1);
}

TEST_F(RegistryTest, SymlinkAloneIsFollowed) {
  fs::create_symlink(GoodLibrary(), scratch_ / "libonly_link.so");
  PluginRegistry registry;
  registry.AddSearchPath(scratch_.string());
  PluginInfo info;
  EXPECT_TRUE(registry.CreateRaw(PluginKind::kActuator, "test_gain", &info));
  EXPECT_EQ(info.file, GoodLibrary());
}

TEST_F(RegistryTest, StrippedLibraryIsFoundThroughDynamicSymbols) {
  PluginRegistry registry;
  registry.AddSearchPath(CaseDir("stripped"));
  // found beside the build tree's own sensor plugins (the builtin one)
  const std::vector<std::string> sensors = registry.Names(PluginKind::kSensor);
  EXPECT_EQ(std::count(sensors.begin(), sensors.end(), "test_constant"), 1);
  auto sensor = registry.Create<Sensor>(PluginKind::kSensor, "test_constant");
  EXPECT_EQ(sensor.info.version, "1.1.0");
  Params params;
  params.Set("value", "7.5");
  sensor.Configure(params);
  Model m;
  m.nsensor = 2;
  m.sensor_dim = {1, 2};
  m.sensor_adr = {0, 1};
  Data d;
  d.sensordata = {0, 0, 0};
  const int ids[1] = {1};
  sensor.instance->Evaluate(m, d, Stage::kPosition, ids, 1);
  EXPECT_EQ(d.sensordata, (std::vector<double>{0, 7.5, 7.5}));
}

TEST_F(RegistryTest, CopiedLibraryIsADuplicate) {
  // A copy is a different file: unlike a symlink, it must be reported as a duplicate.
  fs::copy_file(GoodLibrary(), scratch_ / "libgood_copy.so");
  PluginRegistry registry;
  registry.AddSearchPath(CaseDir("good"));
  registry.AddSearchPath(scratch_.string());
  const std::string message = CreateError(registry, PluginKind::kActuator, "test_gain");
  EXPECT_NE(message.find("duplicate plugin"), std::string::npos) << message;
  EXPECT_NE(message.find(GoodLibrary()), std::string::npos) << message;
  EXPECT_NE(message.find(fs::canonical(scratch_ / "libgood_copy.so").string()), std::string::npos)
      << message;
}

TEST_F(RegistryTest, DuplicateNameRefusedNamingBothFiles) {
  PluginRegistry registry;
  registry.AddSearchPath(CaseDir("duplicate"));
  EXPECT_TRUE(Contains(registry.Names(PluginKind::kIntegrator), "test_twin"));
  const std::string message = CreateError(registry, PluginKind::kIntegrator, "test_twin");
  EXPECT_NE(message.find("duplicate plugin"), std::string::npos) << message;
  EXPECT_NE(message.find("integrator 'test_twin'"), std::string::npos) << message;
  EXPECT_NE(message.find("libgauss_test_twin_a.so"), std::string::npos) << message;
  EXPECT_NE(message.find("libgauss_test_twin_b.so"), std::string::npos) << message;
}

TEST_F(RegistryTest, WrongAbiRefusedWithBothVersions) {
  PluginRegistry registry;
  registry.AddSearchPath(CaseDir("wrong_abi"));
  EXPECT_TRUE(Contains(registry.Names(PluginKind::kActuator), "test_stale"));
  const std::string message = CreateError(registry, PluginKind::kActuator, "test_stale");
  const std::string file =
      fs::canonical(CaseDir("wrong_abi") + "/libgauss_test_wrong_abi.so").string();
  const std::string expected = "plugin 'test_stale' in " + file +
                               " was built for plugin ABI 999, this Gauss has ABI " +
                               std::to_string(kPluginAbiVersion) +
                               ": rebuild the plugin against this Gauss";
  EXPECT_EQ(message, expected);
}

TEST_F(RegistryTest, NonPluginFilesAreSkippedAndReported) {
  { std::ofstream(scratch_ / "libtext.so") << "not a shared object\n"; }
  { std::ofstream(scratch_ / "libempty.so"); }
  { std::ofstream(scratch_ / "README.txt") << "ignored: no .so in the name\n"; }
  {
    // An ELF header whose section table lies beyond the end of the file.
    std::ifstream in(GoodLibrary(), std::ios::binary);
    std::string head(256, '\0');
    in.read(&head[0], static_cast<std::streamsize>(head.size()));
    std::ofstream(scratch_ / "libtruncated.so", std::ios::binary) << head;
  }
  fs::create_directory(scratch_ / "libdir.so");  // a directory, not a file
  fs::create_symlink(scratch_ / "nowhere.so", scratch_ / "libdangling.so");
  PluginRegistry registry;
  registry.AddSearchPath(CaseDir("not_a_plugin"));
  registry.AddSearchPath(scratch_.string());
  registry.AddSearchPath(CaseDir("good"));
  EXPECT_TRUE(Contains(registry.Names(PluginKind::kActuator), "test_gain"));

  const std::string message = CreateError(registry, PluginKind::kSensor, "anything");
  EXPECT_NE(message.find("libgauss_test_not_a_plugin.so: not a Gauss plugin"), std::string::npos)
      << message;
  EXPECT_NE(message.find("libtext.so: not a shared object"), std::string::npos) << message;
  EXPECT_NE(message.find("libempty.so: not a shared object"), std::string::npos) << message;
  EXPECT_NE(message.find("libtruncated.so: not a shared object"), std::string::npos) << message;
  EXPECT_EQ(message.find("README.txt"), std::string::npos) << message;
  EXPECT_EQ(message.find("libdir.so"), std::string::npos) << message;
  EXPECT_EQ(message.find("libdangling.so"), std::string::npos) << message;
}

TEST_F(RegistryTest, UnknownPluginMessageListsPathsAndNames) {
  PluginRegistry registry;
  registry.AddSearchPath(CaseDir("good"));
  registry.AddSearchPath(scratch_.string() + "/missing");
  const std::string message = CreateError(registry, PluginKind::kActuator, "nope");
  EXPECT_EQ(message.rfind("no actuator plugin named 'nope'", 0), 0u) << message;
  for (const std::string& path : registry.SearchPaths()) {
    EXPECT_NE(message.find(path), std::string::npos) << path << "\n" << message;
  }
  EXPECT_NE(message.find(scratch_.string() + "/missing (added by plugins.paths / AddSearchPath) "
                                             "(missing)"),
            std::string::npos)
      << message;
  // The built-in actuator plugin may be listed too; test_gain must be among the names.
  const std::size_t found = message.find("actuator plugins found: ");
  ASSERT_NE(found, std::string::npos) << message;
  const std::string names = message.substr(found, message.find('\n', found) - found);
  EXPECT_NE(names.find(" test_gain"), std::string::npos) << names;
  EXPECT_NE(message.find("GAUSS_PLUGIN_PATH"), std::string::npos) << message;

  // The right name under the wrong kind points at the kind it has.
  const std::string wrong_kind = CreateError(registry, PluginKind::kSolver, "test_gain");
  EXPECT_NE(wrong_kind.find("no solver plugin named 'test_gain'"), std::string::npos);
  EXPECT_NE(wrong_kind.find(GoodLibrary() + ": exports 'test_gain' as actuator, not as solver"),
            std::string::npos)
      << wrong_kind;
}

TEST_F(RegistryTest, InstancesAreIndependent) {
  PluginRegistry registry;
  registry.AddSearchPath(CaseDir("good"));
  auto a = registry.Create<ActuatorDynamics>(PluginKind::kActuator, "test_gain");
  auto b = registry.Create<ActuatorDynamics>(PluginKind::kActuator, "test_gain");
  ASSERT_NE(a.instance.get(), b.instance.get());
  Params pa("actuator 'test_gain' parameters");
  pa.Set("gain", "2");
  Params pb;
  pb.Set("gain", "-3");
  a.Configure(pa);
  b.Configure(pb);
  EXPECT_EQ(GainForces(*a.instance, 1.5, -1.0), (std::vector<double>{3.0, -2.0}));
  EXPECT_EQ(GainForces(*b.instance, 1.5, -1.0), (std::vector<double>{-4.5, 3.0}));
  // Configuring b did not touch a.
  EXPECT_EQ(GainForces(*a.instance, 1.0, 0.0), (std::vector<double>{2.0, 0.0}));

  Params unknown("actuator 'test_gain' parameters");
  unknown.Set("gian", "2");
  EXPECT_THROW(a.Configure(unknown), Error);
}

TEST_F(RegistryTest, InstanceOutlivesRegistry) {
  PluginInstance<ActuatorDynamics> gain;
  {
    PluginRegistry registry;
    registry.AddSearchPath(CaseDir("good"));
    gain = registry.Create<ActuatorDynamics>(PluginKind::kActuator, "test_gain");
  }
  // The library stays loaded: the plugin's code still runs after the registry is gone.
  EXPECT_EQ(GainForces(*gain.instance, 4.0, 5.0), (std::vector<double>{4.0, 5.0}));
}

TEST_F(RegistryTest, ListReportsEveryPluginAndRefusals) {
  PluginRegistry registry;
  for (const char* dir : {"good", "wrong_abi", "duplicate", "not_a_plugin"}) {
    registry.AddSearchPath(CaseDir(dir));
  }
  std::vector<PluginInfo> listed;
  const std::string root = fs::canonical(test::TestPluginDir()).string() + "/";
  for (const PluginInfo& p : registry.List()) {
    if (p.file.rfind(root, 0) == 0) listed.push_back(p);  // leave out the built-in plugins
  }
  ASSERT_EQ(listed.size(), 6u);
  // Sorted by kind (solver, integrator, actuator, as in PluginKind), then name, then file.
  EXPECT_EQ(listed[0].kind, PluginKind::kSolver);
  EXPECT_EQ(listed[0].name, "test_pyramidal");
  EXPECT_EQ(listed[0].capabilities, kCapPyramidalCone | kCapDenseJacobian);
  EXPECT_EQ(listed[1].kind, PluginKind::kIntegrator);
  EXPECT_EQ(listed[1].name, "test_clock");
  EXPECT_EQ(listed[1].version, "0.3.0");
  EXPECT_EQ(listed[1].description, "advances time only (registry test)");
  ASSERT_EQ(listed[1].params.count, 1);
  EXPECT_EQ(DescribeParam(listed[1].params.specs[0]),
            "scale (double, default 1): timesteps added to time per step");
  for (int i : {2, 3}) {
    EXPECT_EQ(listed[i].name, "test_twin");
    EXPECT_EQ(listed[i].description.rfind("REFUSED: duplicate", 0), 0u) << listed[i].description;
  }
  EXPECT_NE(listed[2].file.find("libgauss_test_twin_a.so"), std::string::npos);
  EXPECT_NE(listed[3].file.find("libgauss_test_twin_b.so"), std::string::npos);
  EXPECT_NE(listed[2].description.find("libgauss_test_twin_b.so"), std::string::npos);
  EXPECT_EQ(listed[4].kind, PluginKind::kActuator);
  EXPECT_EQ(listed[4].name, "test_gain");
  EXPECT_EQ(listed[4].version, "2.5.1");
  EXPECT_EQ(listed[4].file, GoodLibrary());
  EXPECT_EQ(listed[5].name, "test_stale");
  EXPECT_EQ(listed[5].version, "");
  EXPECT_FALSE(listed[5].usable);
  EXPECT_EQ(listed[5].description,
            "REFUSED: ABI 999 != " + std::to_string(kPluginAbiVersion));
}

TEST_F(RegistryTest, EmptySearchPathIsAnError) {
  PluginRegistry registry;
  EXPECT_THROW(registry.AddSearchPath(""), Error);
}

TEST_F(RegistryTest, DefaultSearchPathFindsBuiltinIntegrators) {
  PluginRegistry registry;
  const std::vector<std::string> names = registry.Names(PluginKind::kIntegrator);
  EXPECT_TRUE(Contains(names, "euler")) << ::testing::PrintToString(names);
  EXPECT_TRUE(Contains(names, "rk4")) << ::testing::PrintToString(names);
  PluginInfo info;
  EXPECT_TRUE(registry.CreateRaw(PluginKind::kIntegrator, "euler", &info));
  EXPECT_EQ(fs::path(info.file).parent_path(),
            fs::canonical(std::string(GAUSS_BINARY_DIR) + "/plugins"));
}

}  // namespace
}  // namespace gauss
