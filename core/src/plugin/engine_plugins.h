// The plugin instances an Engine uses, created from the model's options and the config.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "actuation.h"
#include "gauss/actuator.h"
#include "gauss/config.h"
#include "gauss/engine.h"
#include "gauss/integrator.h"
#include "gauss/registry.h"
#include "collision.h"
#include "geom_distance.h"
#include "gauss/collider.h"
#include "gauss/solver.h"
#include "sensors.h"
#include "internal.h"

namespace gauss {

struct GAUSS_INTERNAL Engine::Plugins {
  // Creates the integrator named by m.opt.integrator and the constraint solver named by
  // m.opt.solver (configured with the config's parameters), the colliders (config.colliders in
  // priority order, or the built-in primitive and ccd) when the model can have contacts, and
  // one ActuatorDynamics instance per distinct plugin name of the actuators and one Sensor
  // instance per distinct plugin name and configuration of the sensors (CreateSensors).
  Plugins(const Model& m, const Config& config, PluginRegistry* registry);

  std::vector<PluginInfo> InUse() const;
  void CreateColliders(const Model& m, const Config& config, PluginRegistry& registry);
  // Scratch doubles all plugins may hold at once (nested calls: integrator around solver).
  std::size_t ScratchDoubles(const Model& m) const;

  std::unique_ptr<PluginRegistry> own_registry;  // used when the caller passes none
  PluginInstance<Integrator> integrator;
  PluginInstance<ConstraintSolver> solver;
  std::vector<PluginInstance<ActuatorDynamics>> actuator_plugins;
  std::vector<ActuatorGroup> actuator_groups;
  std::vector<PluginInstance<Collider>> colliders;  // in priority order
  CollisionTable collision_table;
  std::vector<PluginInstance<Sensor>> sensor_plugins;
  std::vector<SensorGroup> sensor_groups;
  UserSensors* user_sensors = nullptr;  // in sensor_plugins, when the model has user sensors
  void CreateSensors(const Model& m, PluginRegistry& registry);
  bool single_step_integrator = true;  // the integrator declares kCapSingleStep

  // plugin_capabilities.cc: (model options, the plugins' declared capabilities) => nothing, or
  // gauss::Error naming the plugin, the option or plugin it cannot work with, and the plugins
  // of the same kind that can (found through `registry`). Called once, by the constructor.
  void CheckCapabilities(const Model& m, PluginRegistry& registry) const;
};

}  // namespace gauss
