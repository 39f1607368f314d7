// MuJoCo 3.x's MJCF syntax for plugins, as far as Gauss has them: sensor plugins.
//
//   <extension>
//     <plugin plugin="NAME">                       the plugin (a Gauss Sensor plugin's name)
//       <instance name="I">                        a configured instance of it
//         <config key="K" value="V"/>              one parameter the plugin declares
//   <sensor>
//     <plugin name=".." plugin="NAME" | instance="I" objtype=".." objname=".." dim="D"
//             needstage="pos|vel|acc" datatype=".." cutoff=".." noise="..">
//       <config key="K" value="V"/>                only with plugin="NAME"
//
// MuJoCo asks a plugin for the size and stage of its output; Gauss compiles a model without
// loading plugins, so a plugin sensor states them (`dim`, required; `needstage`, default acc;
// `datatype`, default real), as a user sensor does. Configuration keys are checked against the
// plugin's declared parameters when the Engine creates the plugin (docs/mjcf.md, "Plugins").
#include <algorithm>

#include "mjcf/attributes.h"
#include "mjcf/parser.h"

namespace gauss::mjcf {
namespace {

// <config key value> children of `e`: (element) => (config), in file order; a key given twice
// is an error.
void ReadConfig(const XmlElement& e, std::vector<std::pair<std::string, std::string>>* config) {
  for (const XmlElement& c : e.children) {
    if (c.name != "config") continue;
    const std::string& key = RequireAttribute(c, "key");
    const std::string& value = RequireAttribute(c, "value");
    if (key.empty()) throw Error(c.Where("key"), "the key cannot be empty");
    const bool repeated = std::any_of(config->begin(), config->end(),
                                      [&](const auto& kv) { return kv.first == key; });
    if (repeated) throw Error(c.Where("key"), "config key '" + key + "' is given twice");
    config->emplace_back(key, value);
  }
}

}  // namespace

// (<extension>) => (spec.plugin_instances)
void ReadExtension(const XmlElement& section, ModelSpec* spec) {
  for (const XmlElement& p : section.children) {
    if (p.name != "plugin") continue;
    const std::string& plugin = RequireAttribute(p, "plugin");
    for (const XmlElement& i : p.children) {
      if (i.name != "instance") continue;
      PluginInstanceSpec instance;
      instance.src = SourceOf(i);
      instance.plugin = plugin;
      instance.name = RequireAttribute(i, "name");
      for (const PluginInstanceSpec& other : spec->plugin_instances) {
        if (other.name == instance.name) {
          throw Error(i.Where("name"), "repeated plugin instance name '" + instance.name +
                                           "' (first defined at line " +
                                           std::to_string(other.src.line) + ")");
        }
      }
      ReadConfig(i, &instance.config);
      spec->plugin_instances.push_back(instance);
    }
  }
}

// (element) => (stage, datatype)
void ReadSensorOutput(const XmlElement& e, Stage* stage, SensorDataType* datatype) {
  int k = 0;
  if (ReadKeyword(e, "needstage", {"none", "pos", "vel", "acc"}, &k)) *stage = static_cast<Stage>(k);
  if (ReadKeyword(e, "datatype", {"real", "positive", "axis", "quaternion"}, &k)) {
    *datatype = static_cast<SensorDataType>(k);
  }
}

// (<sensor><plugin>) => (s)
void ReadSensorPlugin(const XmlElement& e, SensorSpec* s) {
  const bool named = ReadString(e, "plugin", &s->plugin);
  const bool instanced = ReadString(e, "instance", &s->instance);
  if (named == instanced) {
    throw Error(e.Where(), "a plugin sensor needs exactly one of 'plugin' (a plugin name) and "
                           "'instance' (an <extension> instance)");
  }
  ReadConfig(e, &s->config);
  if (instanced && !s->config.empty()) {
    throw Error(e.Where("instance"), "<config> cannot be given with instance=\"" + s->instance +
                                         "\": configure the instance in <extension>");
  }
  const bool has_type = ReadString(e, "objtype", &s->objtype);
  const bool has_name = ReadString(e, "objname", &s->objname);
  if (has_type != has_name) RequireAttribute(e, has_type ? "objname" : "objtype");
  const bool has_reftype = ReadString(e, "reftype", &s->reftype);
  const bool has_refname = ReadString(e, "refname", &s->refname);
  if (has_reftype != has_refname) RequireAttribute(e, has_reftype ? "refname" : "reftype");
  if (!e.Find("dim")) {
    throw Error(e.Where("dim"), "required attribute missing: 'dim' (Gauss compiles a model "
                                "without loading its plugins, so a plugin sensor states the size "
                                "of its output)");
  }
  ReadInt(e, "dim", &s->user_dim);
  if (s->user_dim < 1) throw Error(e.Where("dim"), "a plugin sensor needs dim >= 1");
  ReadSensorOutput(e, &s->user_stage, &s->user_datatype);
}

}  // namespace gauss::mjcf
