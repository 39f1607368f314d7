// gauss.Engine: the simulation calls. Calls that may take long (stepping several steps,
// forward and inverse dynamics) release the GIL so that Python threads can run several engines
// at once; each Data may be used by one thread at a time.
#include <cstdint>
#include <optional>
#include <string>

#include "bindings.h"
#include "gauss/config.h"
#include "gauss/error.h"
#include "gauss/params.h"
#include "gauss/plugin.h"

namespace gauss::python {

DataLease::DataLease(const PyEngine& e, PyData& p) : p_(p) {
  if (p.engine.get() != e.engine.get()) {
    throw py::value_error(
        "this Data was made by another Engine; make one with engine.make_data() (a Data's "
        "scratch memory is sized for the plugins of the engine that made it)");
  }
  if (p.busy.exchange(true)) {
    throw std::runtime_error("this Data is in use by another thread; give each thread its own Data");
  }
}

DataLease::~DataLease() { p_.busy.store(false); }

namespace {

// (engine, data, n) => d advanced by n steps. The GIL is released while stepping.
void StepN(const PyEngine& e, PyData& p, long n) {
  if (n < 0) throw py::value_error("n must be >= 0, got " + std::to_string(n));
  DataLease lease(e, p);
  const Engine& engine = *e.engine;
  py::gil_scoped_release release;
  for (long i = 0; i < n; ++i) engine.Step(*p.data);
}

// Runs `call(engine, data)` with the Data leased and the GIL released.
template <class Call>
void WithoutGil(const PyEngine& e, PyData& p, Call call) {
  DataLease lease(e, p);
  py::gil_scoped_release release;
  call(*e.engine, *p.data);
}

}  // namespace

// (info) => dict with kind, name, version, file, description, usable, capabilities (list of
// names) and params (list of dicts: name, type, default, description). The declared parameters
// point into the plugin's library: call this while the registry or engine holding it lives.
py::dict PluginDict(const PluginInfo& info) {
  py::dict d;
  d["kind"] = PluginKindName(info.kind);
  d["name"] = info.name;
  d["version"] = info.version;
  d["file"] = info.file;
  d["description"] = info.description;
  d["usable"] = info.usable;
  py::list capabilities;
  for (int bit = 0; bit < 64; ++bit) {
    const std::uint64_t flag = std::uint64_t{1} << bit;
    if (info.capabilities & flag) {
      capabilities.append(CapabilityName(static_cast<Capability>(flag)));
    }
  }
  d["capabilities"] = capabilities;
  py::list params;
  for (int i = 0; i < info.params.count; ++i) {
    const ParamSpec& spec = info.params.specs[i];
    py::dict param;
    param["name"] = spec.name;
    param["type"] = ParamTypeName(spec.type);
    param["default"] = spec.default_value;
    param["description"] = spec.description;
    params.append(param);
  }
  d["params"] = params;
  return d;
}

namespace {

// (model, name or index) => keyframe index; a name must exist, an index must be in range.
int KeyIndex(const Model& m, const py::object& key) {
  if (py::isinstance<py::str>(key)) {
    const std::string name = key.cast<std::string>();
    for (int k = 0; k < m.nkey; ++k) {
      if (m.key_name[k] == name) return k;
    }
    std::string valid;
    for (const auto& n : m.key_name) valid += (valid.empty() ? "" : ", ") + n;
    throw py::key_error("no keyframe named '" + name + "' in model '" + m.name +
                        "'; named keyframes: " + (valid.empty() ? "none" : valid));
  }
  const int k = key.cast<int>();
  if (k < 0 || k >= m.nkey) {
    throw py::index_error("keyframe " + std::to_string(k) + " out of range: model '" + m.name +
                          "' has " + std::to_string(m.nkey) + " keyframes");
  }
  return k;
}

}  // namespace

void BindEngine(py::module_& mod) {
  py::class_<PyEngine>(mod, "_Engine",
      "A compiled model bound to its options and plugins (use gauss.Engine).")
      .def(py::init([](const PyModel& model, const Config& config) {
             return PyEngine{std::make_shared<Engine>(model.model, config)};
           }), py::arg("model"), py::arg("config"))
      .def_property_readonly("model", [](const PyEngine& e) {
        // aliasing shared_ptr: the model lives inside (and as long as) the engine
        return std::make_shared<PyModel>(
            PyModel{std::shared_ptr<const Model>(e.engine, &e.engine->model())});
      }, "the engine's model (with the configuration applied to its options)")
      .def_property_readonly("resolved_config", [](const PyEngine& e) {
        return ResolvedConfigYaml(e.engine->config(), e.engine->options());
      }, "YAML text of the resolved configuration (as written next to CLI outputs)")
      .def("make_data", [](const PyEngine& e) {
        return std::make_unique<PyData>(e.engine->MakeData(), e.engine);
      }, "A Data for this engine, at the reference configuration.")
      .def("_step_checked", &StepN, py::arg("data"), py::arg("n") = 1,
           "step() with full argument conversion (fast_step.cc calls it for uncommon calls).")
      .def("step1", [](const PyEngine& e, PyData& p) {
        WithoutGil(e, p, [](const Engine& en, Data& d) { en.Step1(d); });
      }, py::arg("data"), "First half of a step: checks, position and velocity stages.")
      .def("step2", [](const PyEngine& e, PyData& p) {
        WithoutGil(e, p, [](const Engine& en, Data& d) { en.Step2(d); });
      }, py::arg("data"), "Second half: actuation, acceleration, constraints, integration.")
      .def("forward", [](const PyEngine& e, PyData& p) {
        WithoutGil(e, p, [](const Engine& en, Data& d) { en.Forward(d); });
      }, py::arg("data"), "Forward dynamics at the current state: fills qacc and everything derived.")
      .def("inverse", [](const PyEngine& e, PyData& p) {
        WithoutGil(e, p, [](const Engine& en, Data& d) { en.Inverse(d); });
      }, py::arg("data"), "Inverse dynamics from (qpos, qvel, qacc): fills qfrc_inverse.")
      .def("reset", [](const PyEngine& e, PyData& p) {
        WithoutGil(e, p, [](const Engine& en, Data& d) { en.Reset(d); });
      }, py::arg("data"), "qpos0, zero velocity/activation/inputs, time 0.")
      .def("reset_to_keyframe", [](const PyEngine& e, PyData& p, const py::object& key) {
        const int k = KeyIndex(e.engine->model(), key);
        WithoutGil(e, p, [k](const Engine& en, Data& d) { en.ResetToKeyframe(d, k); });
      }, py::arg("data"), py::arg("key"), "Reset, then load keyframe `key` (index or name).")
      .def("plugins_in_use", [](const PyEngine& e) {
        py::list out;
        for (const auto& info : e.engine->PluginsInUse()) out.append(PluginDict(info));
        return out;
      }, "The plugins this engine uses: list of dicts as gauss.plugins() returns.");

  py::class_<Config>(mod, "_Config", "A run configuration (YAML keys and --set settings).")
      .def(py::init<>())
      .def("apply_setting", &ApplySetting, py::arg("key_equals_value"),
           "Applies one KEY=VALUE setting (the --set syntax).");
  mod.def("_load_config_file", &LoadConfigFile, py::arg("path"));
  mod.def("_parse_config", &ParseConfig, py::arg("yaml_text"), py::arg("source"));
  mod.def("config_keys", &ConfigKeys, "Keys accepted by --set (and Engine(**set_keys)).");

  mod.def("_plugins", [](const std::vector<std::string>& paths) {
    PluginRegistry registry;
    for (const auto& p : paths) registry.AddSearchPath(p);
    py::list out;
    {
      std::vector<PluginInfo> infos;
      {
        py::gil_scoped_release release;
        infos = registry.List();
      }
      for (const auto& info : infos) out.append(PluginDict(info));
    }
    return py::make_tuple(out, registry.SearchPaths());
  }, py::arg("paths"));
}

}  // namespace gauss::python
