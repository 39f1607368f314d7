// Plugin discovery and run comparison for the conformance suite (conformance.h).
#include "conformance/conformance.h"

#include <algorithm>
#include <cstring>

#include "gauss/error.h"

namespace gauss::conformance {

const std::vector<PluginInfo>& Discovered(PluginKind kind) {
  static const std::vector<std::vector<PluginInfo>> by_kind = [] {
    PluginRegistry registry;
    std::vector<std::vector<PluginInfo>> out(kNumPluginKinds);
    for (const PluginInfo& info : registry.List()) {
      if (info.usable) out[static_cast<int>(info.kind)].push_back(info);
    }
    for (auto& list : out) {
      std::sort(list.begin(), list.end(),
                [](const PluginInfo& a, const PluginInfo& b) { return a.name < b.name; });
    }
    return out;
  }();
  return by_kind[static_cast<int>(kind)];
}

std::vector<std::string> DiscoveredNames(PluginKind kind) {
  std::vector<std::string> names;
  for (const PluginInfo& info : Discovered(kind)) names.push_back(info.name);
  return names;
}

const PluginInfo& Find(PluginKind kind, const std::string& name) {
  for (const PluginInfo& info : Discovered(kind)) {
    if (info.name == name) return info;
  }
  throw Error(std::string("no usable ") + PluginKindName(kind) + " plugin '" + name + "'");
}

bool Has(const PluginInfo& info, Capability capability) {
  return (info.capabilities & capability) != 0;
}

std::vector<std::string> SoftSolversWith(std::uint64_t needs) {
  std::vector<std::string> out;
  for (const PluginInfo& info : Discovered(PluginKind::kSolver)) {
    if (Has(info, kCapHardContact) || (info.capabilities & needs) != needs) continue;
    out.push_back(info.name);
  }
  return out;
}

Capability ConeCapability(Cone cone) {
  return cone == Cone::kElliptic ? kCapEllipticCone : kCapPyramidalCone;
}

Capability JacobianCapability(JacobianType jacobian) {
  return jacobian == JacobianType::kSparse ? kCapSparseJacobian : kCapDenseJacobian;
}

const char* ConeName(Cone cone) { return cone == Cone::kElliptic ? "elliptic" : "pyramidal"; }

const char* JacobianName(JacobianType jacobian) {
  return jacobian == JacobianType::kSparse ? "sparse" : "dense";
}

namespace {

// "" when a and b hold the same bytes, else "<field>[i]".
template <class T>
std::string Differs(const char* field, const T* a, const T* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (std::memcmp(a + i, b + i, sizeof(T)) != 0) {
      return std::string(field) + "[" + std::to_string(i) + "]";
    }
  }
  return "";
}

template <class T>
std::string DiffersVector(const char* field, const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return std::string(field) + " size";
  return Differs(field, a.data(), b.data(), a.size());
}

}  // namespace

std::string FirstBitwiseDifference(const Data& a, const Data& b) {
  std::string out;
  if (std::memcmp(&a.time, &b.time, sizeof(double)) != 0) return "time";
  if (a.ncon != b.ncon) return "ncon";
  if (a.nefc != b.nefc) return "nefc";
  for (const std::string& diff :
       {DiffersVector("qpos", a.qpos, b.qpos), DiffersVector("qvel", a.qvel, b.qvel),
        DiffersVector("act", a.act, b.act), DiffersVector("qacc", a.qacc, b.qacc),
        DiffersVector("qacc_warmstart", a.qacc_warmstart, b.qacc_warmstart),
        Differs("efc_force", a.efc_force.data(), b.efc_force.data(), a.nefc)}) {
    if (!diff.empty()) return diff;
  }
  for (int k = 0; k < a.ncon; ++k) {
    const Contact &ca = a.contact[k], &cb = b.contact[k];
    if (ca.geom1 != cb.geom1 || ca.geom2 != cb.geom2) return "contact geoms " + std::to_string(k);
    for (const std::string& diff : {Differs("contact dist", &ca.dist, &cb.dist, 1),
                                    Differs("contact pos", ca.pos, cb.pos, 3),
                                    Differs("contact frame", ca.frame, cb.frame, 9)}) {
      if (!diff.empty()) return diff + " of contact " + std::to_string(k);
    }
  }
  return "";
}

Data Simulate(const Engine& engine, int steps) {
  Data d = engine.MakeData();
  for (int k = 0; k < steps; ++k) engine.Step(d);
  return d;
}

}  // namespace gauss::conformance
