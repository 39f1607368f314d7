// What every plugin shared object exports, and the macros that export it.
//
// A plugin library defines a class derived from one of the five interfaces (collider.h,
// solver.h, integrator.h, actuator.h, sensor.h) and declares it once:
//
//   GAUSS_INTEGRATOR_PLUGIN(MyIntegrator, my_integrator, "1.0.0", "what it does")
//
// The macro exports a PluginEntry (descriptor + factory) under the symbol
// `gauss_<kind>_<name>` in a per-kind section (gcollid, gsolver, gintegr, gactuat, gsensor), so
// the registry can list a library's plugins with boost::dll::library_info before loading it.
// The plugin name must be a C identifier (lowercase letters, digits, '_').
//
// ABI: a library built against a different kPluginAbiVersion, or whose sizeof(Model) /
// sizeof(Data) differ from the kernel's, is refused by the registry with a message naming both.
#pragma once

#include <cstddef>
#include <memory>

#include <boost/config.hpp>
#include <boost/dll/alias.hpp>

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/params.h"

namespace gauss {

// Bump whenever an interface, Model or Data changes in a way that breaks compiled plugins.
inline constexpr int kPluginAbiVersion = 3;

enum class PluginKind : int { kCollider = 0, kSolver = 1, kIntegrator = 2, kActuator = 3, kSensor = 4 };
inline constexpr int kNumPluginKinds = 5;

// User-facing kind names ("collider", "solver", "integrator", "actuator", "sensor").
const char* PluginKindName(PluginKind kind);
// ELF section holding the entries of one kind ("gcollid", "gsolver", ...).
const char* PluginKindSection(PluginKind kind);

// Common base of all plugin interfaces.
class Plugin {
 public:
  virtual ~Plugin() = default;
  // Reads plugin-specific parameters. The default accepts none and rejects any key.
  virtual void Configure(const Params& params) { params.Require({}); }

  // Doubles of Data::arena this plugin may take at once while simulating model m (the engine
  // reserves the kernel's needs plus every plugin's when it makes a Data).
  virtual std::size_t ScratchDoubles(const Model& m) const {
    (void)m;
    return 0;
  }
};

// The exported descriptor + factory of one plugin.
struct PluginEntry {
  int abi_version;
  PluginKind kind;
  const char* name;
  const char* version;
  const char* description;
  std::size_t sizeof_model;
  std::size_t sizeof_data;
  Plugin* (*create)();  // new instance owned by the caller
};

}  // namespace gauss

// The ABI version a plugin is compiled with (overridable only to test the registry's refusal).
#ifndef GAUSS_PLUGIN_ABI_VERSION
#define GAUSS_PLUGIN_ABI_VERSION ::gauss::kPluginAbiVersion
#endif

#define GAUSS_DETAIL_PLUGIN(Class, kindword, KindEnum, section, name, version, description) \
  namespace {                                                                                \
  ::gauss::Plugin* gauss_create_##kindword##_##name() { return new Class(); }               \
  const ::gauss::PluginEntry gauss_entry_##kindword##_##name = {                            \
      GAUSS_PLUGIN_ABI_VERSION, ::gauss::PluginKind::KindEnum, #name, version, description, \
      sizeof(::gauss::Model), sizeof(::gauss::Data), &gauss_create_##kindword##_##name};     \
  }                                                                                          \
  BOOST_DLL_ALIAS_SECTIONED(gauss_entry_##kindword##_##name, gauss_##kindword##_##name, section)

#define GAUSS_COLLIDER_PLUGIN(Class, name, version, description) \
  GAUSS_DETAIL_PLUGIN(Class, collider, kCollider, gcollid, name, version, description)
#define GAUSS_SOLVER_PLUGIN(Class, name, version, description) \
  GAUSS_DETAIL_PLUGIN(Class, solver, kSolver, gsolver, name, version, description)
#define GAUSS_INTEGRATOR_PLUGIN(Class, name, version, description) \
  GAUSS_DETAIL_PLUGIN(Class, integrator, kIntegrator, gintegr, name, version, description)
#define GAUSS_ACTUATOR_PLUGIN(Class, name, version, description) \
  GAUSS_DETAIL_PLUGIN(Class, actuator, kActuator, gactuat, name, version, description)
#define GAUSS_SENSOR_PLUGIN(Class, name, version, description) \
  GAUSS_DETAIL_PLUGIN(Class, sensor, kSensor, gsensor, name, version, description)
