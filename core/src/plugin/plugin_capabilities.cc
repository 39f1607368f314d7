// The Engine's capability check (engine_plugins.h): every plugin's declared capabilities
// (gauss/plugin.h) against the model's options and the other plugins in use. Runs once, when
// the Engine is built, so that a run never stops halfway on something known beforehand.
#include <string>
#include <vector>

#include "engine_plugins.h"
#include "gauss/constraint.h"
#include "gauss/error.h"

namespace gauss {
namespace {

// Names of the usable plugins of `kind` whose capabilities include all of `need` and none of
// `exclude`, as "a, b" ("none found" when there are none).
std::string Alternatives(PluginRegistry& registry, PluginKind kind, std::uint64_t need,
                         std::uint64_t exclude) {
  std::string out;
  for (const PluginInfo& info : registry.List()) {
    if (info.kind != kind || !info.usable) continue;
    if ((info.capabilities & need) != need || (info.capabilities & exclude) != 0) continue;
    out += (out.empty() ? "" : ", ") + info.name;
  }
  return out.empty() ? std::string("none found on the plugin search path") : out;
}

// Throws unless `info` declares `capability`, which option `option` (e.g. "cone = elliptic")
// asks for.
void RequireCapability(const PluginInfo& info, Capability capability, const std::string& option,
                       PluginRegistry& registry) {
  if (info.capabilities & capability) return;
  const std::string kind = PluginKindName(info.kind);
  throw Error(kind + " '" + info.name + "' does not support " + option + " (it does not declare "
              "the capability '" + CapabilityName(capability) + "'); " + kind +
              "s that do: " + Alternatives(registry, info.kind, capability, 0));
}

}  // namespace

void Engine::Plugins::CheckCapabilities(const Model& m, PluginRegistry& registry) const {
  const PluginInfo& solver = this->solver.info;
  const PluginInfo& integrator = this->integrator.info;

  // the solver against the options that shape the problem it is given
  if (m.opt.cone == Cone::kElliptic) {
    RequireCapability(solver, kCapEllipticCone, "option cone = elliptic", registry);
  } else {
    RequireCapability(solver, kCapPyramidalCone, "option cone = pyramidal", registry);
  }
  if (IsSparse(m)) {
    RequireCapability(solver, kCapSparseJacobian,
                      "the sparse Jacobian (option jacobian = sparse, or auto with nv >= 60)",
                      registry);
  } else {
    RequireCapability(solver, kCapDenseJacobian,
                      "the dense Jacobian (option jacobian = dense, or auto with nv < 60)",
                      registry);
  }

  // a velocity-level solver needs the forward dynamics evaluated once per step
  if ((solver.capabilities & kCapNeedsSingleStepIntegrator) &&
      !(integrator.capabilities & kCapSingleStep)) {
    throw Error("solver '" + solver.name + "' works on velocity level and needs a single-step "
                "integrator, but integrator '" + integrator.name + "' evaluates the dynamics "
                "several times per step; integrators that do not: " +
                Alternatives(registry, PluginKind::kIntegrator, kCapSingleStep, 0));
  }

  // sleeping wakes and freezes trees between whole steps; a multi-stage integrator would see
  // trees wake inside a step (the spec does not support RK4 with sleep either)
  if (m.opt.Enabled(kEnableSleep) && !(integrator.capabilities & kCapSingleStep)) {
    throw Error("the sleep flag needs a single-step integrator, but integrator '" +
                integrator.name + "' evaluates the dynamics several times per step; "
                "integrators that do not: " +
                Alternatives(registry, PluginKind::kIntegrator, kCapSingleStep, 0));
  }

  // an integrator that needs actuator velocity derivatives, against the actuator plugins used
  const bool actuated = m.nu > 0 && !m.opt.Disabled(kDisableActuation);
  if ((integrator.capabilities & kCapNeedsVelocityDerivative) && actuated) {
    for (const auto& actuator : actuator_plugins) {
      if (actuator.info.capabilities & kCapVelocityDerivative) continue;
      throw Error("integrator '" + integrator.name + "' needs the velocity derivative of every "
                  "actuator's force, and actuator plugin '" + actuator.info.name +
                  "' does not declare the capability '" +
                  CapabilityName(kCapVelocityDerivative) + "'; integrators that do not need it: " +
                  Alternatives(registry, PluginKind::kIntegrator, 0,
                               kCapNeedsVelocityDerivative));
    }
  }
}

}  // namespace gauss
