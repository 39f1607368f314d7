// Command-line plumbing shared by the subcommands: option parsing, configuration assembly,
// model loading and the text blocks that describe a model and its plugins.
#include "common.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gauss/error.h"
#include "gauss/mjcf.h"

namespace gauss::cli {

void AddConfigOptions(po::options_description& desc, CommonArgs& args) {
  std::string keys;
  for (const auto& k : ConfigKeys()) keys += (keys.empty() ? "" : ", ") + k;
  desc.add_options()
      ("config", po::value<std::string>(&args.config_file)->value_name("CFG.yaml"),
       "YAML run configuration (see docs/config.md); overrides the model's <option>")
      ("set", po::value<std::vector<std::string>>(&args.sets)->value_name("KEY=VALUE")->composing(),
       ("override one configuration key, after --config; repeatable, later wins. Keys: " + keys)
           .c_str());
}

// (argv, option descriptions) => (vm, args.model); prints help to stdout when asked.
bool ParseCommandLine(const std::vector<std::string>& argv, const std::string& usage,
                      po::options_description& visible, bool want_model, CommonArgs& args,
                      po::variables_map& vm) {
  visible.add_options()("help,h", "show this help and exit");
  po::options_description all;
  all.add(visible);
  po::positional_options_description positional;
  if (want_model) {
    all.add_options()("model", po::value<std::string>(&args.model));
    positional.add("model", 1);
  }
  try {
    po::store(po::command_line_parser(argv).options(all).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << visible << "\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  if (want_model && args.model.empty()) throw UsageError("missing the model file (MODEL.xml)");
  return true;
}

Config BuildConfig(const CommonArgs& args) {
  Config config;
  if (!args.config_file.empty()) config = LoadConfigFile(args.config_file);
  for (const auto& setting : args.sets) ApplySetting(config, setting);
  return config;
}

std::shared_ptr<const Model> LoadModelFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw Error(ErrorLocation{path, 0, "", ""}, "model file not found");
  }
  if (std::filesystem::is_directory(path, ec)) {
    throw Error(ErrorLocation{path, 0, "", ""}, "is a directory, expected an MJCF model file");
  }
  return LoadModel(path);
}

int FindKeyframe(const Model& m, const std::string& name_or_index) {
  for (int k = 0; k < m.nkey; ++k) {
    if (m.key_name[k] == name_or_index) return k;
  }
  char* end = nullptr;
  const long index = std::strtol(name_or_index.c_str(), &end, 10);
  const bool number = !name_or_index.empty() && end == name_or_index.c_str() + name_or_index.size();
  return number && index >= 0 && index < m.nkey ? static_cast<int>(index) : -1;
}

std::string ModelSizeText(const Model& m) {
  std::ostringstream out;
  out << "nq=" << m.nq << " nv=" << m.nv << " nu=" << m.nu << " na=" << m.na
      << " nbody=" << m.nbody << " njnt=" << m.njnt << " ngeom=" << m.ngeom
      << " nsite=" << m.nsite << " neq=" << m.neq << " ntendon=" << m.ntendon
      << " nsensor=" << m.nsensor << " nsensordata=" << m.nsensordata;
  return out.str();
}

std::string PluginsText(const Engine& engine) {
  std::ostringstream out;
  for (const auto& p : engine.PluginsInUse()) {
    out << "  " << PluginKindName(p.kind) << " " << p.name << " "
        << (p.version.empty() ? "?" : p.version) << " " << p.file << "\n";
  }
  return out.str();
}

// (engine's resolved options and config) => file OUT.config.yaml.
std::string WriteResolvedConfig(const std::string& output_path, const std::string& model_path,
                                const Engine& engine) {
  const std::string path = output_path + ".config.yaml";
  std::ofstream out(path);
  if (!out) throw Error(ErrorLocation{path, 0, "", ""}, "cannot write the resolved configuration");
  out << "# Written by gauss " << Version() << " next to " << output_path << "\n";
  out << "# Model: " << std::filesystem::absolute(model_path).lexically_normal().string() << "\n";
  out << ResolvedConfigYaml(engine.config(), engine.options());
  out.close();
  if (!out) throw Error(ErrorLocation{path, 0, "", ""}, "error while writing");
  return path;
}

const char* Version() { return GAUSS_VERSION; }

}  // namespace gauss::cli
