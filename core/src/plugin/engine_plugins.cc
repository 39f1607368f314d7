// Plugin creation for an Engine: integrator, solver, colliders, actuator dynamics, sensors.
#include "engine_plugins.h"

#include <algorithm>

#include "gauss/error.h"

namespace gauss {
namespace {

// True when geoms of two different bodies could be asked to collide (contype/conaffinity).
bool HasCollidableGeomPair(const Model& m) {
  for (int g1 = 0; g1 < m.ngeom; ++g1) {
    for (int g2 = g1 + 1; g2 < m.ngeom; ++g2) {
      if (m.geom_bodyid[g1] == m.geom_bodyid[g2]) continue;
      if ((m.geom_contype[g1] & m.geom_conaffinity[g2]) ||
          (m.geom_contype[g2] & m.geom_conaffinity[g1])) {
        return true;
      }
    }
  }
  return m.npair > 0;
}

}  // namespace

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

  // one instance per distinct actuator plugin name, in order of first use
  for (int a = 0; a < m.nu; ++a) {
    const std::string& name = m.actuator_plugin[a];
    auto it = std::find_if(actuator_plugins.begin(), actuator_plugins.end(),
                           [&](const auto& p) { return p.info.name == name; });
    std::size_t index = it - actuator_plugins.begin();
    if (it == actuator_plugins.end()) {
      actuator_plugins.push_back(registry->Create<ActuatorDynamics>(PluginKind::kActuator, name));
      actuator_plugins.back().Configure(Params());
      actuator_groups.push_back({actuator_plugins.back().instance.get(), {}});
    }
    actuator_groups[index].ids.push_back(a);
  }
  for (const auto& group : actuator_groups) {
    group.plugin->Check(m, group.ids.data(), static_cast<int>(group.ids.size()));
  }

  // one instance per distinct sensor plugin name; its sensors grouped by the stage they need
  for (int s = 0; s < m.nsensor; ++s) {
    const std::string& name = m.sensor_plugin[s];
    auto it = std::find_if(sensor_plugins.begin(), sensor_plugins.end(),
                           [&](const auto& p) { return p.info.name == name; });
    std::size_t index = it - sensor_plugins.begin();
    if (it == sensor_plugins.end()) {
      sensor_plugins.push_back(registry->Create<Sensor>(PluginKind::kSensor, name));
      sensor_plugins.back().Configure(Params());
      sensor_groups.push_back({sensor_plugins.back().instance.get(), {}});
    }
    const int slot = std::clamp(static_cast<int>(m.sensor_needstage[s]), 1, 3) - 1;
    sensor_groups[index].ids[slot].push_back(s);
  }
  for (const auto& group : sensor_groups) {
    for (const std::vector<int>& ids : group.ids) {
      group.plugin->Check(m, ids.data(), static_cast<int>(ids.size()));
    }
  }
  single_step_integrator = (integrator.info.capabilities & kCapSingleStep) != 0;
  CheckCapabilities(m, *registry);
}

void Engine::Plugins::CreateColliders(const Model& m, const Config& config,
                                      PluginRegistry& registry) {
  const Options& o = m.opt;
  if (o.Disabled(kDisableConstraint) || o.Disabled(kDisableContact) || !HasCollidableGeomPair(m)) {
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
  BuildCollisionTable(ordered, collision_table);
  CheckCollisionCoverage(m, collision_table, names);
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
