// Plugin creation for an Engine, and the check of model features the kernel does not
// implement yet.
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

std::string Refusal(const Model& m, const std::string& what, const std::string& how) {
  std::string where = m.source_file.empty() ? m.name : m.source_file;
  return where + ": not supported yet: " + what + (how.empty() ? "" : " (" + how + ")");
}

}  // namespace

void CheckSupported(const Model& m) {
  const Options& o = m.opt;
  const bool constraints = !o.Disabled(kDisableConstraint);
  if (constraints && !o.Disabled(kDisableContact) && HasCollidableGeomPair(m)) {
    throw Error(Refusal(m, "contacts: collision detection and constraint solver",
                        "run with --set flags.contact=false to simulate without them"));
  }
  for (int w = 0; w < m.nwrap; ++w) {
    if (m.wrap_type[w] != WrapType::kJoint) throw Error(Refusal(m, "spatial tendons", ""));
  }
  if (m.nsensor > 0 && !o.Disabled(kDisableSensor)) {
    throw Error(Refusal(m, "sensors", "run with --set flags.sensor=false"));
  }
  if (o.density > 0 || o.viscosity > 0) {
    throw Error(Refusal(m, "fluid forces (option density/viscosity)", ""));
  }
  for (int a = 0; a < m.nu; ++a) {
    const TrnType t = m.actuator_trntype[a];
    const bool scalar_joint =
        (t == TrnType::kJoint || t == TrnType::kJointInParent) &&
        (m.jnt_type[m.actuator_trnid[2 * a]] == JointType::kHinge ||
         m.jnt_type[m.actuator_trnid[2 * a]] == JointType::kSlide);
    if (!scalar_joint) {
      throw Error(Refusal(m, "actuator '" + m.actuator_name[a] +
                                 "': only hinge/slide joint transmissions are implemented", ""));
    }
  }
}

Engine::Plugins::Plugins(const Model& m, const Config& config, PluginRegistry* registry) {
  if (!registry) {
    own_registry = std::make_unique<PluginRegistry>();
    for (const std::string& path : config.plugin_paths) own_registry->AddSearchPath(path);
    registry = own_registry.get();
  }

  integrator = registry->Create<Integrator>(PluginKind::kIntegrator, m.opt.integrator);
  Params integrator_params = config.integrator_params;
  integrator_params.set_context("integrator '" + m.opt.integrator + "' parameters");
  integrator.instance->Configure(integrator_params);

  solver = registry->Create<ConstraintSolver>(PluginKind::kSolver, m.opt.solver);
  Params solver_params = config.solver_params;
  solver_params.set_context("solver '" + m.opt.solver + "' parameters");
  solver.instance->Configure(solver_params);

  // one instance per distinct actuator plugin name, in order of first use
  for (int a = 0; a < m.nu; ++a) {
    const std::string& name = m.actuator_plugin[a];
    auto it = std::find_if(actuator_plugins.begin(), actuator_plugins.end(),
                           [&](const auto& p) { return p.info.name == name; });
    std::size_t index = it - actuator_plugins.begin();
    if (it == actuator_plugins.end()) {
      actuator_plugins.push_back(registry->Create<ActuatorDynamics>(PluginKind::kActuator, name));
      actuator_plugins.back().instance->Configure(Params("actuator '" + name + "' parameters"));
      actuator_groups.push_back({actuator_plugins.back().instance.get(), {}});
    }
    actuator_groups[index].ids.push_back(a);
  }
  for (const auto& group : actuator_groups) {
    group.plugin->Check(m, group.ids.data(), static_cast<int>(group.ids.size()));
  }
}

std::size_t Engine::Plugins::ScratchDoubles(const Model& m) const {
  std::size_t total = integrator.instance->ScratchDoubles(m) + solver.instance->ScratchDoubles(m);
  for (const auto& p : actuator_plugins) total += p.instance->ScratchDoubles(m);
  return total;
}

std::vector<PluginInfo> Engine::Plugins::InUse() const {
  std::vector<PluginInfo> out{integrator.info, solver.info};
  for (const auto& p : actuator_plugins) out.push_back(p.info);
  return out;
}

}  // namespace gauss
