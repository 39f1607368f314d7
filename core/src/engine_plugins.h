// The plugin instances an Engine uses, created from the model's options and the config.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gauss/actuator.h"
#include "gauss/config.h"
#include "gauss/engine.h"
#include "gauss/integrator.h"
#include "gauss/registry.h"
#include "gauss/solver.h"

namespace gauss {

// The actuators handled by one ActuatorDynamics plugin.
struct ActuatorGroup {
  const ActuatorDynamics* plugin = nullptr;
  std::vector<int> ids;
};

struct Engine::Plugins {
  // Creates the integrator named by m.opt.integrator and the constraint solver named by
  // m.opt.solver (configured with the config's parameters) and one ActuatorDynamics instance
  // per distinct m.actuator_plugin name.
  Plugins(const Model& m, const Config& config, PluginRegistry* registry);

  std::vector<PluginInfo> InUse() const;
  // Scratch doubles all plugins may hold at once (nested calls: integrator around solver).
  std::size_t ScratchDoubles(const Model& m) const;

  std::unique_ptr<PluginRegistry> own_registry;  // used when the caller passes none
  PluginInstance<Integrator> integrator;
  PluginInstance<ConstraintSolver> solver;
  std::vector<PluginInstance<ActuatorDynamics>> actuator_plugins;
  std::vector<ActuatorGroup> actuator_groups;
};

// Throws gauss::Error "not supported yet: ..." for model features the kernel does not
// implement yet, saying how to run the model without them where that is possible.
void CheckSupported(const Model& m);

}  // namespace gauss
