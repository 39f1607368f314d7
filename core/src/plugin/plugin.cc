// Names of plugin kinds and capabilities, and the interfaces' default refusals.
#include "gauss/plugin.h"

#include <algorithm>

#include "gauss/error.h"
#include "gauss/solver.h"

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

const char* CapabilityName(Capability capability) {
  switch (capability) {
    case kCapNone: return "none";
    case kCapPyramidalCone: return "pyramidal cone";
    case kCapEllipticCone: return "elliptic cone";
    case kCapDenseJacobian: return "dense Jacobian";
    case kCapSparseJacobian: return "sparse Jacobian";
    case kCapSolutionSensitivity: return "solution sensitivity";
    case kCapNeedsSingleStepIntegrator: return "needs a single-step integrator";
    case kCapHardContact: return "hard contact";
    case kCapSingleStep: return "single step";
    case kCapNeedsVelocityDerivative: return "needs actuator velocity derivatives";
    case kCapVelocityDerivative: return "actuator velocity derivative";
  }
  return "unknown";
}

std::string DescribeCapabilities(std::uint64_t capabilities) {
  std::string out;
  for (int bit = 0; bit < 64; ++bit) {
    const std::uint64_t flag = std::uint64_t{1} << bit;
    if (!(capabilities & flag)) continue;
    out += (out.empty() ? "" : ", ") + std::string(CapabilityName(static_cast<Capability>(flag)));
  }
  return out.empty() ? "none" : out;
}

namespace {

[[noreturn]] void NoSensitivity() {
  throw Error("this constraint solver does not provide solution sensitivities (its plugin "
              "entry does not declare the capability 'solution sensitivity'); `gauss plugins` "
              "lists the capabilities of every solver");
}

}  // namespace

void ConstraintSolver::DoSensitivityForward(const ConstraintProblem&, const double*,
                                            const double*, const ProblemTangent&,
                                            SolutionTangent&, Arena&) const {
  NoSensitivity();
}

void ConstraintSolver::DoSensitivityPoint(const ConstraintProblem& problem, const double* qacc,
                                          const double* force, double* point_qacc,
                                          double* point_force, Arena&) const {
  std::copy(qacc, qacc + problem.nv, point_qacc);
  std::copy(force, force + problem.nefc, point_force);
}

void ConstraintSolver::DoSensitivityReverse(const ConstraintProblem&, const double*,
                                            const double*, const SolutionTangent&,
                                            ProblemTangent&, Arena&) const {
  NoSensitivity();
}

}  // namespace gauss
