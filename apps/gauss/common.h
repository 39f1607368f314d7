// Pieces shared by the subcommands of the `gauss` program: the --config/--set options, model
// loading, engine creation, the model/plugin summary printed by run and bench, and the error
// class for command-line misuse (exit status 2, as opposed to bad input files: status 1).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "gauss/config.h"
#include "gauss/engine.h"
#include "gauss/model.h"

namespace gauss::cli {

namespace po = boost::program_options;

// Wrong use of the command line (unknown option, missing argument, conflicting options).
// main() prints it with a pointer to --help and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The subcommand signature: arguments after the subcommand name; returns the exit status.
using Command = int (*)(const std::vector<std::string>& args);

int RunCommand(const std::vector<std::string>& args);
int ForwardCommand(const std::vector<std::string>& args);
int InverseCommand(const std::vector<std::string>& args);
int BenchCommand(const std::vector<std::string>& args);
int PluginsCommand(const std::vector<std::string>& args);
int ExperimentCommand(const std::vector<std::string>& args);  // experiment.cc

// Values of the options every simulating command shares.
struct CommonArgs {
  std::string model;                // positional MODEL.xml
  std::string config_file;          // --config
  std::vector<std::string> sets;    // --set, in command-line order
};

// Adds --config and --set to `desc`, storing into `args`.
void AddConfigOptions(po::options_description& desc, CommonArgs& args);

// Parses `argv` with `visible` options (to which it adds --help) plus a positional MODEL (when
// `want_model`); prints help and returns false when --help was given. Throws UsageError on
// misuse.
bool ParseCommandLine(const std::vector<std::string>& argv, const std::string& usage,
                      po::options_description& visible, bool want_model, CommonArgs& args,
                      po::variables_map& vm);

// YAML file (if any) then each --set in order: the precedence --set > YAML comes from the order.
Config BuildConfig(const CommonArgs& args);

// Loads and compiles MODEL.xml, with a clear message when the file does not exist.
std::shared_ptr<const Model> LoadModelFile(const std::string& path);

// (model, keyframe name or 0-based index) => the keyframe's index, -1 when there is none such.
// A name wins over an index ("3" names keyframe "3" if the model has one).
int FindKeyframe(const Model& model, const std::string& name_or_index);

// Model size line: "nq=.. nv=.. nu=.. na=.. nbody=.. njnt=.. ngeom=.. nsite=.. nsensor=.. ...".
std::string ModelSizeText(const Model& model);
// One line per plugin in use: "  kind  name  version  file".
std::string PluginsText(const Engine& engine);

// The resolved configuration of `engine`, with a header naming the model, as written next to
// every output file (OUT + ".config.yaml"). Returns the path written.
std::string WriteResolvedConfig(const std::string& output_path, const std::string& model_path,
                                const Engine& engine);

// Program version ("0.1.0"), from the CMake project.
const char* Version();

}  // namespace gauss::cli
