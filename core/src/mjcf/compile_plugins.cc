// Compiling plugin references (MuJoCo 3.x syntax, parse_plugins.cc): a <sensor><plugin> names
// its plugin directly (plugin="NAME", its own <config> entries) or through an <extension>
// instance (instance="I", the instance's plugin and <config>). The plugin name is a Gauss
// Sensor plugin's registry name and the config keys its declared parameters; both are checked
// when an Engine creates the plugin (the compiler does not load plugins).
#include <string>

#include "mjcf/compiler.h"

namespace gauss::mjcf {

// (spec.plugin_instances, s) => (plugin, config)
void ResolveSensorPlugin(const CompileContext& c, const SensorSpec& s, std::string* plugin,
                         std::map<std::string, std::string>* config) {
  const std::vector<std::pair<std::string, std::string>>* entries = &s.config;
  if (s.instance.empty()) {
    *plugin = s.plugin;
  } else {
    const PluginInstanceSpec* found = nullptr;
    for (const PluginInstanceSpec& i : c.spec->plugin_instances) {
      if (i.name == s.instance) found = &i;
    }
    if (!found) {
      std::string defined;
      for (const PluginInstanceSpec& i : c.spec->plugin_instances) {
        defined += (defined.empty() ? "" : ", ") + i.name;
      }
      throw Error(s.src.Where("instance"),
                  "unknown plugin instance '" + s.instance + "'; <extension> defines " +
                      (defined.empty() ? std::string("none") : defined));
    }
    *plugin = found->plugin;
    entries = &found->config;
  }
  if (plugin->empty()) throw Error(s.src.Where("plugin"), "the plugin name cannot be empty");
  for (const auto& [key, value] : *entries) (*config)[key] = value;
}

}  // namespace gauss::mjcf
