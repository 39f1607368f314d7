// Plugin creation for an Engine: integrator, solver, colliders, actuator dynamics, sensors.
#include "engine_plugins.h"

#include <algorithm>
#include <map>

#include "gauss/error.h"

namespace gauss {
namespace {

// True when geoms of two different bodies could be asked to collide (contype/conaffinity).
bool HasCollidableGeomPair(const Model& m) {
  // O(32 ngeom) instead of every pair: for each contype/conaffinity bit, the first two distinct
  // bodies with a geom having it set; two geoms on different bodies share the bit unless both
  // lists hold the same single body
  constexpr int kNone = -1;
  int type_body[32][2], affinity_body[32][2];
  for (int k = 0; k < 32; ++k) {
    type_body[k][0] = type_body[k][1] = affinity_body[k][0] = affinity_body[k][1] = kNone;
  }
  auto note = [](int* bodies, int body) {
    if (bodies[0] == kNone) {
      bodies[0] = body;
    } else if (bodies[0] != body && bodies[1] == kNone) {
      bodies[1] = body;
    }
  };
  for (int g = 0; g < m.ngeom; ++g) {
    for (int k = 0; k < 32; ++k) {
      if (m.geom_contype[g] & (1u << k)) note(type_body[k], m.geom_bodyid[g]);
      if (m.geom_conaffinity[g] & (1u << k)) note(affinity_body[k], m.geom_bodyid[g]);
    }
  }
  for (int k = 0; k < 32; ++k) {
    const int* t = type_body[k];
    const int* a = affinity_body[k];
    if (t[0] == kNone || a[0] == kNone) continue;
    if (t[1] != kNone || a[1] != kNone || t[0] != a[0]) return true;
  }
  return m.npair > 0;
}

// One instance per distinct plugin name in `names` (one per actuator / sensor), in order of
// first use, each with its group; place(group, i) files item i in its plugin's group.
template <class Interface, class Group, class Place>
void GroupByPlugin(PluginRegistry& registry, PluginKind kind, const std::vector<std::string>& names,
                   std::vector<PluginInstance<Interface>>& instances, std::vector<Group>& groups,
                   Place&& place) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    auto it = std::find_if(instances.begin(), instances.end(),
                           [&](const auto& p) { return p.info.name == name; });
    const std::size_t index = it - instances.begin();
    if (it == instances.end()) {
      instances.push_back(registry.Create<Interface>(kind, name));
      instances.back().Configure(Params());
      groups.emplace_back();
      groups.back().plugin = instances.back().instance.get();
    }
    place(groups[index], static_cast<int>(i));
  }
}

// "key=value, ..." of a sensor plugin configuration, for messages.
std::string DescribeConfig(const std::map<std::string, std::string>& config) {
  std::string out;
  for (const auto& [key, value] : config) out += (out.empty() ? "" : ", ") + key + "=" + value;
  return out;
}

}  // namespace

// One Sensor instance per distinct (plugin name, configuration) of the sensors, in order of
// first use: the "user" sensors get the kernel's UserSensors, the others a registry plugin
// configured with the sensor's MJCF <config> parameters. Each sensor is filed by the stage it
// needs; needstage "none" sensors are never evaluated (as in MuJoCo).
// (sensor_plugin, sensor_plugin_config, sensor_needstage) => (sensor_plugins, sensor_groups,
// user_sensors)
void Engine::Plugins::CreateSensors(const Model& m, PluginRegistry& registry) {
  std::vector<const std::map<std::string, std::string>*> configs;  // of each instance
  static const std::map<std::string, std::string> kNoConfig;
  for (int s = 0; s < m.nsensor; ++s) {
    const std::string& name = m.sensor_plugin[s];
    const auto& config = s < static_cast<int>(m.sensor_plugin_config.size())
                             ? m.sensor_plugin_config[s]
                             : kNoConfig;
    std::size_t index = 0;
    while (index < sensor_plugins.size() &&
           (sensor_plugins[index].info.name != name || *configs[index] != config)) {
      ++index;
    }
    if (index == sensor_plugins.size()) {
      if (name == kUserSensorPlugin) {
        sensor_plugins.push_back(MakeUserSensors());
        user_sensors = static_cast<UserSensors*>(sensor_plugins.back().instance.get());
      } else if (name == kGeomDistanceSensorPlugin) {
        sensor_plugins.push_back(MakeGeomDistanceSensors(collision_table));
      } else {
        sensor_plugins.push_back(registry.Create<Sensor>(PluginKind::kSensor, name));
        Params params;
        for (const auto& [key, value] : config) params.Set(key, value);
        try {
          sensor_plugins.back().Configure(params);
        } catch (const Error& e) {
          throw Error("sensor '" + m.sensor_name[s] + "' (#" + std::to_string(s) + ", plugin '" +
                      name + "', config: " + (config.empty() ? "none" : DescribeConfig(config)) +
                      "): " + e.what());
        }
      }
      configs.push_back(&config);
      sensor_groups.emplace_back();
      sensor_groups.back().plugin = sensor_plugins.back().instance.get();
    }
    const int stage = static_cast<int>(m.sensor_needstage[s]);
    if (stage == static_cast<int>(Stage::kNone) && name == kUserSensorPlugin) continue;
    sensor_groups[index].ids[std::clamp(stage, 1, 3) - 1].push_back(s);
  }
}

Engine::Plugins::Plugins(const Model& m, const Config& config, PluginRegistry* registry) {
  if (!registry) {
    own_registry = std::make_unique<PluginRegistry>();
    for (const std::string& path : config.plugin_paths) own_registry->AddSearchPath(path);
    registry = own_registry.get();
  }

  integrator = registry->Create<Integrator>(PluginKind::kIntegrator, m.opt.integrator);
  integrator.Configure(config.integrator_params);

  CreateColliders(m, config, *registry);

  solver = registry->Create<ConstraintSolver>(PluginKind::kSolver, m.opt.solver);
  solver.Configure(config.solver_params);

  // one instance per distinct actuator plugin name (sensors: per name and configuration)
  GroupByPlugin(*registry, PluginKind::kActuator, m.actuator_plugin, actuator_plugins,
                actuator_groups, [](ActuatorGroup& g, int a) { g.ids.push_back(a); });
  CreateSensors(m, *registry);
  for (const auto& group : actuator_groups) {
    group.plugin->Check(m, group.ids.data(), static_cast<int>(group.ids.size()));
  }
  for (const auto& group : sensor_groups) {
    for (const std::vector<int>& ids : group.ids) {
      group.plugin->Check(m, ids.data(), static_cast<int>(ids.size()));
    }
  }

  // profiling slots in InUse() order: integrator, solver, colliders, actuators, sensors
  int slot = 2 + static_cast<int>(colliders.size());
  for (auto& group : actuator_groups) group.profile_slot = slot++;
  for (auto& group : sensor_groups) group.profile_slot = slot++;

  single_step_integrator = (integrator.info.capabilities & kCapSingleStep) != 0;
  CheckCapabilities(m, *registry);
}

void Engine::Plugins::CreateColliders(const Model& m, const Config& config,
                                      PluginRegistry& registry) {
  const Options& o = m.opt;
  const bool contacts =
      !o.Disabled(kDisableConstraint) && !o.Disabled(kDisableContact) && HasCollidableGeomPair(m);
  // collision sensors measure with the colliders whether or not contacts are computed
  const bool sensors = std::find(m.sensor_plugin.begin(), m.sensor_plugin.end(),
                                 kGeomDistanceSensorPlugin) != m.sensor_plugin.end();
  // no geom pair can pass the contype/conaffinity filter (or contacts are off): no broad phase.
  // Set on both paths below: Collision runs (and would run the broad phase) even when no
  // collider is loaded, and BuildCollisionTable starts the table afresh
  const bool dynamic_pairs = contacts && DynamicPairsPossible(m);
  collision_table.dynamic_pairs = dynamic_pairs;
  if (!contacts && !sensors) {
    // no collision stage: none is loaded, but a named collider must still exist (a misspelt
    // name is an error on every model, not only on those with contacts)
    const std::vector<std::string> found = registry.Names(PluginKind::kCollider);
    for (const std::string& name : config.colliders) {
      if (std::find(found.begin(), found.end(), name) == found.end()) {
        registry.Create<Collider>(PluginKind::kCollider, name);  // throws the not-found message
      }
    }
    return;
  }
  // the user's list is binding; the default list uses the built-in colliders that are present
  std::vector<std::string> names = config.colliders;
  if (names.empty()) {
    const std::vector<std::string> found = registry.Names(PluginKind::kCollider);
    for (const char* name : {"primitive", "ccd"}) {
      if (std::find(found.begin(), found.end(), name) != found.end()) names.push_back(name);
    }
  }
  std::vector<const Collider*> ordered;
  for (const std::string& name : names) {
    colliders.push_back(registry.Create<Collider>(PluginKind::kCollider, name));
    colliders.back().Configure(Params());
    ordered.push_back(colliders.back().instance.get());
  }
  BuildCollisionTable(ordered, collision_table, 2);  // slots after integrator and solver
  collision_table.dynamic_pairs = dynamic_pairs;
  if (contacts) CheckCollisionCoverage(m, collision_table, names);
}

std::size_t Engine::Plugins::ScratchDoubles(const Model& m) const {
  std::size_t total = integrator.instance->ScratchDoubles(m) + solver.instance->ScratchDoubles(m);
  for (const auto& p : actuator_plugins) total += p.instance->ScratchDoubles(m);
  for (const auto& p : sensor_plugins) total += p.instance->ScratchDoubles(m);
  for (const auto& p : colliders) total += p.instance->ScratchDoubles(m);
  return total;
}

std::vector<PluginInfo> Engine::Plugins::InUse() const {
  std::vector<PluginInfo> out{integrator.info, solver.info};
  for (const auto& p : colliders) out.push_back(p.info);
  for (const auto& p : actuator_plugins) out.push_back(p.info);
  for (const auto& p : sensor_plugins) out.push_back(p.info);
  return out;
}

}  // namespace gauss
