// Shared pieces of the plugin conformance suite (tests/conformance): which plugins the registry
// discovers, and how a run is compared. The suite is parameterised over what the registry finds
// on its search path (the build tree's plugins, plus GAUSS_PLUGIN_PATH), so a plugin added later,
// in the tree or out of it, is tested by the same assertions without any edit here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gauss/config.h"
#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/model.h"
#include "gauss/registry.h"

namespace gauss::conformance {

// The usable plugins of `kind` on the default search path, sorted by name (registry.List()).
// Read once per process: the parameterised tests are generated from it.
const std::vector<PluginInfo>& Discovered(PluginKind kind);
// Names of Discovered(kind).
std::vector<std::string> DiscoveredNames(PluginKind kind);
// The entry of a discovered plugin; throws gauss::Error when there is none.
const PluginInfo& Find(PluginKind kind, const std::string& name);

bool Has(const PluginInfo& info, Capability capability);

// Soft-constraint solvers (MuJoCo's family: no kCapHardContact) that declare every bit of
// `needs`: the solvers whose solutions of one problem must agree.
std::vector<std::string> SoftSolversWith(std::uint64_t needs);

// The solver capability a cone or a Jacobian layout needs.
Capability ConeCapability(Cone cone);
Capability JacobianCapability(JacobianType jacobian);
const char* ConeName(Cone cone);
const char* JacobianName(JacobianType jacobian);

// Every number a step writes that a later step reads or a user sees, compared bit for bit
// (qpos, qvel, act, qacc, qacc_warmstart, efc_force, contacts' dist/pos/frame, time). Returns ""
// when equal, otherwise the first field that differs and where.
std::string FirstBitwiseDifference(const Data& a, const Data& b);

// Runs `steps` Engine::Step from the reference state and returns the final Data.
Data Simulate(const Engine& engine, int steps);

}  // namespace gauss::conformance
