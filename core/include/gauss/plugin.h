// What every plugin shared object exports, and the macros that export it (plugin ABI 3).
//
// A plugin library defines a class derived from one of the five interfaces (collider.h,
// solver.h, integrator.h, actuator.h, sensor.h) and declares it once, with what it can do and
// the parameters it reads:
//
//   inline constexpr gauss::ParamSpec kMyParams[] = {
//       {"omega", gauss::ParamType::kDouble, "1", "relaxation factor in (0, 2)"}};
//   GAUSS_SOLVER_PLUGIN(MySolver, my_solver, "1.0.0", "what it does",
//                       gauss::kCapPyramidalCone | gauss::kCapDenseJacobian, kMyParams)
//
// (gauss::kNoParams when it reads none). The macro exports a PluginEntry (descriptor, factory,
// capabilities, parameters and the layout fingerprints of the SDK structs it was compiled
// against) under the symbol `gauss_<kind>_<name>` in a per-kind section (gcollid, gsolver,
// gintegr, gactuat, gsensor), so the registry can list a library's plugins with
// boost::dll::library_info before loading it. The plugin name must be a C identifier
// (lowercase letters, digits, '_').
//
// ABI: a library built against a different kPluginAbiVersion, or with a different layout of
// any struct that crosses the boundary (gauss/abi.h), is refused by the registry with a message
// naming the version or the struct that differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <boost/config.hpp>
#include <boost/dll/alias.hpp>

#include "gauss/abi.h"
#include "gauss/abi_fields.h"
#include "gauss/constraint.h"
#include "gauss/data.h"
#include "gauss/export.h"
#include "gauss/model.h"
#include "gauss/params.h"

namespace gauss {

// Bump whenever an interface, or the meaning of a field, changes in a way that breaks compiled
// plugins (layout changes are caught by the fingerprints as well).
inline constexpr int kPluginAbiVersion = 3;

enum class PluginKind : int { kCollider = 0, kSolver = 1, kIntegrator = 2, kActuator = 3, kSensor = 4 };
inline constexpr int kNumPluginKinds = 5;

// User-facing kind names ("collider", "solver", "integrator", "actuator", "sensor").
GAUSS_API const char* PluginKindName(PluginKind kind);
// ELF section holding the entries of one kind ("gcollid", "gsolver", ...).
GAUSS_API const char* PluginKindSection(PluginKind kind);

// What a plugin can do or needs, declared in its entry (a bit set) and checked when an Engine
// is built, never during a run (engine_plugins.cc). A missing "can" bit makes the Engine refuse
// the plugin for a model that needs it; a "needs" bit makes it refuse a combination of plugins.
enum Capability : std::uint64_t {
  kCapNone = 0,
  // ---- constraint solvers
  kCapPyramidalCone = 1ull << 0,   // solves problems with pyramidal contact rows (cone pyramidal)
  kCapEllipticCone = 1ull << 1,    // solves problems with elliptic contact rows (cone elliptic)
  kCapDenseJacobian = 1ull << 2,   // reads the dense Jacobian (jacobian dense / auto, nv < 60)
  kCapSparseJacobian = 1ull << 3,  // reads the CSR Jacobian (jacobian sparse / auto, nv >= 60)
  kCapSolutionSensitivity = 1ull << 4,  // implements ConstraintSolver::SolutionSensitivity
  // velocity-level solver: only with an integrator that has kCapSingleStep
  kCapNeedsSingleStepIntegrator = 1ull << 5,
  kCapHardContact = 1ull << 6,  // solves hard contact (an NCP), not MuJoCo's soft model: other physics
  // ---- integrators
  // one forward evaluation per step, at the step's start state (euler, implicit, implicitfast)
  kCapSingleStep = 1ull << 16,
  // needs d actuator_force / d actuator_velocity from every actuator plugin of the model
  kCapNeedsVelocityDerivative = 1ull << 17,
  // ---- actuator dynamics
  kCapVelocityDerivative = 1ull << 32,  // implements ActuatorDynamics::ForceVelocityDerivative
};
inline constexpr std::uint64_t kCapAllSolverFeatures =
    kCapPyramidalCone | kCapEllipticCone | kCapDenseJacobian | kCapSparseJacobian;

// "pyramidal cone", "sparse Jacobian", ...: how refusals and `gauss plugins` name a capability.
GAUSS_API const char* CapabilityName(Capability capability);
// The names of the set bits, comma-separated ("none" when no bit is set).
GAUSS_API std::string DescribeCapabilities(std::uint64_t capabilities);

// Common base of all plugin interfaces.
class GAUSS_API Plugin {
 public:
  virtual ~Plugin() = default;
  // Reads plugin-specific parameters. `params` holds only keys the entry declares (the engine
  // refuses others first, listing the declared ones); getters without a fallback return the
  // declared default. The default reads nothing.
  virtual void Configure(const Params& params) { (void)params; }

  // Doubles of Data::arena this plugin may take at once while simulating model m (the engine
  // reserves the kernel's needs plus every plugin's when it makes a Data).
  virtual std::size_t ScratchDoubles(const Model& m) const {
    (void)m;
    return 0;
  }
};

// Layout fingerprint of one struct that crosses the plugin boundary (gauss/abi.h).
struct StructFingerprint {
  const char* name;
  std::uint64_t hash;
};

// The exported descriptor + factory of one plugin. abi_version stays the first field in every
// ABI, so that the registry can refuse any other version before reading further.
struct PluginEntry {
  int abi_version;
  PluginKind kind;
  const char* name;
  const char* version;
  const char* description;
  std::uint64_t capabilities;           // Capability bits
  const ParamSpec* params;              // (num_params) declared parameters
  int num_params;
  const StructFingerprint* fingerprints;  // (num_fingerprints) as compiled into the plugin
  int num_fingerprints;
  Plugin* (*create)();  // new instance owned by the caller
};

// ---------------------------------------------------------------- layout fingerprints
// The fingerprints of the structs that cross the boundary, as this translation unit sees them
// (gauss/abi.h). Compiled into every plugin's entry and into the kernel, which compares them.
namespace abi {
#define GAUSS_DETAIL_ABI_STRUCT(Struct)                                                      \
  inline constexpr FieldLayout kFields##Struct[] = {GAUSS_ABI_FIELDS_##Struct(GAUSS_ABI_FIELD)}; \
  static_assert(FieldsTile(sizeof(::gauss::Struct), alignof(::gauss::Struct), kFields##Struct), \
                "gauss/abi_fields.h does not list every field of " #Struct                     \
                ": run /usr/bin/python3 scripts/gen_abi_fields.py");
GAUSS_DETAIL_ABI_STRUCT(Options)
GAUSS_DETAIL_ABI_STRUCT(Model)
GAUSS_DETAIL_ABI_STRUCT(Contact)
GAUSS_DETAIL_ABI_STRUCT(SolverIteration)
GAUSS_DETAIL_ABI_STRUCT(SolverResult)
GAUSS_DETAIL_ABI_STRUCT(ConstraintProblem)
GAUSS_DETAIL_ABI_STRUCT(Data)
GAUSS_DETAIL_ABI_STRUCT(ParamSpec)
GAUSS_DETAIL_ABI_STRUCT(PluginEntry)
#undef GAUSS_DETAIL_ABI_STRUCT

#define GAUSS_DETAIL_ABI_FINGERPRINT(Struct) \
  {#Struct, Fingerprint(#Struct, sizeof(::gauss::Struct), alignof(::gauss::Struct), kFields##Struct)}
inline constexpr StructFingerprint kFingerprints[] = {
    GAUSS_DETAIL_ABI_FINGERPRINT(Options),
    GAUSS_DETAIL_ABI_FINGERPRINT(Model),
    GAUSS_DETAIL_ABI_FINGERPRINT(Contact),
    GAUSS_DETAIL_ABI_FINGERPRINT(SolverIteration),
    GAUSS_DETAIL_ABI_FINGERPRINT(SolverResult),
    GAUSS_DETAIL_ABI_FINGERPRINT(ConstraintProblem),
    GAUSS_DETAIL_ABI_FINGERPRINT(Data),
    GAUSS_DETAIL_ABI_FINGERPRINT(ParamSpec),
    GAUSS_DETAIL_ABI_FINGERPRINT(PluginEntry),
    // classes whose members are private: size and alignment only
    {"Arena", MixNumber(MixNumber(kOffsetBasis, sizeof(Arena)), alignof(Arena))},
    {"Params", MixNumber(MixNumber(kOffsetBasis, sizeof(Params)), alignof(Params))},
};
#undef GAUSS_DETAIL_ABI_FINGERPRINT
}  // namespace abi

}  // namespace gauss

// The ABI version a plugin is compiled with (overridable only to test the registry's refusal).
#ifndef GAUSS_PLUGIN_ABI_VERSION
#define GAUSS_PLUGIN_ABI_VERSION ::gauss::kPluginAbiVersion
#endif
// The layout fingerprints a plugin is compiled with (overridable only to test the refusal).
#ifndef GAUSS_PLUGIN_ABI_FINGERPRINTS
#define GAUSS_PLUGIN_ABI_FINGERPRINTS ::gauss::abi::kFingerprints
#endif

#define GAUSS_DETAIL_PLUGIN(Class, kindword, KindEnum, section, name, version, description,    \
                            capabilities, params)                                              \
  namespace {                                                                                  \
  ::gauss::Plugin* gauss_create_##kindword##_##name() { return new Class(); }                 \
  const ::gauss::PluginEntry gauss_entry_##kindword##_##name = {                              \
      GAUSS_PLUGIN_ABI_VERSION,                                                                \
      ::gauss::PluginKind::KindEnum,                                                           \
      #name,                                                                                   \
      version,                                                                                 \
      description,                                                                             \
      static_cast<std::uint64_t>(capabilities),                                                \
      ::gauss::ParamList(params).specs,                                                        \
      ::gauss::ParamList(params).count,                                                        \
      GAUSS_PLUGIN_ABI_FINGERPRINTS,                                                           \
      static_cast<int>(sizeof(GAUSS_PLUGIN_ABI_FINGERPRINTS) /                                 \
                       sizeof(::gauss::StructFingerprint)),                                    \
      &gauss_create_##kindword##_##name};                                                      \
  }                                                                                            \
  BOOST_DLL_ALIAS_SECTIONED(gauss_entry_##kindword##_##name, gauss_##kindword##_##name, section)

// GAUSS_<KIND>_PLUGIN(Class, name, version, description, capabilities, params): see above.
#define GAUSS_COLLIDER_PLUGIN(Class, name, version, description, capabilities, params) \
  GAUSS_DETAIL_PLUGIN(Class, collider, kCollider, gcollid, name, version, description,   \
                      capabilities, params)
#define GAUSS_SOLVER_PLUGIN(Class, name, version, description, capabilities, params) \
  GAUSS_DETAIL_PLUGIN(Class, solver, kSolver, gsolver, name, version, description,     \
                      capabilities, params)
#define GAUSS_INTEGRATOR_PLUGIN(Class, name, version, description, capabilities, params) \
  GAUSS_DETAIL_PLUGIN(Class, integrator, kIntegrator, gintegr, name, version, description, \
                      capabilities, params)
#define GAUSS_ACTUATOR_PLUGIN(Class, name, version, description, capabilities, params) \
  GAUSS_DETAIL_PLUGIN(Class, actuator, kActuator, gactuat, name, version, description,   \
                      capabilities, params)
#define GAUSS_SENSOR_PLUGIN(Class, name, version, description, capabilities, params) \
  GAUSS_DETAIL_PLUGIN(Class, sensor, kSensor, gsensor, name, version, description,     \
                      capabilities, params)
