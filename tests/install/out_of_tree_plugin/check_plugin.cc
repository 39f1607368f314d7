// The install test's program: loads the out-of-tree plugin through a PluginRegistry (found via
// GAUSS_PLUGIN_PATH), checks its descriptor and its effect, and checks that the installed
// kernel's default search directory is the installed plugin directory and that every plugin
// installed there loads. Exits non-zero, saying why, on the first failure.
//
// usage: check_plugin <installed plugin directory>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include <gauss/actuator.h>
#include <gauss/error.h>
#include <gauss/registry.h>

namespace {

int failures = 0;

void Check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "check_plugin: FAILED: %s\n", what.c_str());
    ++failures;
  }
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// (registry) => checks of the out-of-tree plugin's descriptor and of two configured instances.
void CheckOutOfTreePlugin(gauss::PluginRegistry& registry) {
  auto a = registry.Create<gauss::ActuatorDynamics>(gauss::PluginKind::kActuator, "oot_scaled");
  Check(a.info.name == "oot_scaled", "name is '" + a.info.name + "'");
  Check(a.info.kind == gauss::PluginKind::kActuator, "kind is actuator");
  Check(a.info.version == "0.9.2", "version is '" + a.info.version + "'");
  Check(a.info.description == "scaled direct force (out of tree)",
        "description is '" + a.info.description + "'");
  Check(std::filesystem::path(a.info.file).filename() == "libgauss_oot_scaled.so",
        "file is " + a.info.file);

  auto b = registry.Create<gauss::ActuatorDynamics>(gauss::PluginKind::kActuator, "oot_scaled");
  gauss::Params pa, pb;
  pa.Set("scale", "3");
  pb.Set("scale", "0.5");
  pb.Set("tau", "0.25");
  a.Configure(pa);
  b.Configure(pb);

  // Actuator 0 is stateless, actuator 1 has activation act[0] = 2.
  gauss::Model m;
  m.nu = 2;
  m.na = 1;
  m.actuator_actadr = {-1, 0};
  gauss::Data d;
  d.act = {2.0};
  d.act_dot = {0.0};
  d.actuator_force = {0.0, 0.0};
  const double ctrl[2] = {1.5, 1.0};
  const int ids[2] = {0, 1};
  a.instance->Compute(m, d, ctrl, ids, 2);
  Check(d.actuator_force[0] == 4.5 && d.actuator_force[1] == 6.0, "forces of instance a");
  Check(d.act_dot[0] == -1.0, "act_dot of instance a");
  b.instance->Compute(m, d, ctrl, ids, 2);
  Check(d.actuator_force[0] == 0.75 && d.actuator_force[1] == 1.0, "forces of instance b");
  Check(d.act_dot[0] == -4.0, "act_dot of instance b");
}

// (registry, installed plugin dir) => checks that the installed kernel searches the installed
// plugin directory by default and that each plugin installed there is accepted.
void CheckInstalledPlugins(gauss::PluginRegistry& registry, const std::string& plugin_dir) {
  const std::string canonical = std::filesystem::canonical(plugin_dir).string();
  bool searched = false;
  for (const std::string& line : registry.SearchPaths()) {
    searched = searched || StartsWith(line, plugin_dir + " (next to the Gauss library") ||
               StartsWith(line, canonical + " (next to the Gauss library");
  }
  Check(searched, "the default search path is not " + plugin_dir);
  int installed = 0;
  for (const gauss::PluginInfo& p : registry.List()) {
    if (!StartsWith(p.file, canonical + "/")) continue;
    ++installed;
    Check(!StartsWith(p.description, "REFUSED"),
          std::string(gauss::PluginKindName(p.kind)) + " " + p.name + ": " + p.description);
    std::printf("installed plugin: %s %s %s\n", gauss::PluginKindName(p.kind), p.name.c_str(),
                p.version.c_str());
  }
  Check(installed > 0, "no plugin found in " + plugin_dir);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: check_plugin <installed plugin directory>\n");
    return 2;
  }
  try {
    gauss::PluginRegistry registry;
    CheckOutOfTreePlugin(registry);
    CheckInstalledPlugins(registry, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "check_plugin: FAILED: %s\n", e.what());
    return 1;
  }
  if (failures == 0) std::printf("check_plugin: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
