#include "gauss/plugin.h"

namespace gauss {

const char* PluginKindName(PluginKind kind) {
  switch (kind) {
    case PluginKind::kCollider: return "collider";
    case PluginKind::kSolver: return "solver";
    case PluginKind::kIntegrator: return "integrator";
    case PluginKind::kActuator: return "actuator";
    case PluginKind::kSensor: return "sensor";
  }
  return "unknown";
}

const char* PluginKindSection(PluginKind kind) {
  switch (kind) {
    case PluginKind::kCollider: return "gcollid";
    case PluginKind::kSolver: return "gsolver";
    case PluginKind::kIntegrator: return "gintegr";
    case PluginKind::kActuator: return "gactuat";
    case PluginKind::kSensor: return "gsensor";
  }
  return "";
}

}  // namespace gauss
