// Plugin discovery and instantiation on Boost.DLL.
//
// Search order (first match of a (kind, name) wins only if it is unique; the same name in two
// different files is an error naming both files):
//   1. directories added with AddSearchPath (plugins.paths from YAML), in order;
//   2. GAUSS_PLUGIN_PATH (colon-separated);
//   3. one default directory: the build tree's plugin directory when the kernel library itself
//      runs from the build tree, otherwise the plugin directory of the installation it runs from.
// Each shared object's sections are listed with boost::dll::library_info before it is loaded; a
// library is loaded only when one of its plugins is requested. Loaded libraries stay loaded for
// the life of the process; instances keep their library alive.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gauss/plugin.h"

namespace gauss {

// A plugin found on disk (not necessarily loaded).
struct PluginInfo {
  PluginKind kind;
  std::string name;
  std::string file;     // absolute path of the shared object
  std::string version;  // filled once loaded ("" before)
  std::string description;
  // from the entry, once loaded and accepted (usable); they point into the loaded library
  std::uint64_t capabilities = 0;  // Capability bits
  ParamList params;                // declared parameters
  bool usable = false;
};

// (plugin, its info, the user's values) => plugin configured: the entry's declared parameters
// are attached (Params::Declare), undeclared keys refused listing the declared ones, then
// plugin.Configure runs. The context of `params` is set to "<kind> '<name>' parameters".
GAUSS_API void ConfigurePlugin(Plugin& plugin, const PluginInfo& info, Params params);

// An instance together with the library that holds its code.
template <class T>
struct PluginInstance {
  std::shared_ptr<void> library;  // keeps the shared object loaded
  std::unique_ptr<T> instance;    // destroyed before `library` (declaration order)
  PluginInfo info;

  // ConfigurePlugin on this instance: how every plugin should be configured.
  void Configure(const Params& params) { ConfigurePlugin(*instance, info, params); }
};

class GAUSS_API PluginRegistry {
 public:
  // Builds a registry with the default search path (GAUSS_PLUGIN_PATH, build tree, install).
  PluginRegistry();
  ~PluginRegistry();
  PluginRegistry(const PluginRegistry&) = delete;
  PluginRegistry& operator=(const PluginRegistry&) = delete;

  // Adds a directory searched before the defaults. Rescans on the next query.
  void AddSearchPath(const std::string& directory);
  // The directories searched, in order, with the reason each was added.
  std::vector<std::string> SearchPaths() const;

  // Every plugin found, loading each library to read versions (used by `gauss plugins`).
  std::vector<PluginInfo> List();

  // Loads the named plugin and creates an instance. Throws gauss::Error listing the requested
  // name, every directory searched and why each candidate was rejected (wrong kind, ABI
  // mismatch, duplicate, not a Gauss plugin).
  std::unique_ptr<Plugin> CreateRaw(PluginKind kind, const std::string& name, PluginInfo* info);

  template <class T>
  PluginInstance<T> Create(PluginKind kind, const std::string& name) {
    PluginInstance<T> out;
    std::unique_ptr<Plugin> raw = CreateRaw(kind, name, &out.info);
    out.library = LibraryHandle(out.info.file);
    out.instance.reset(static_cast<T*>(raw.release()));
    return out;
  }

  // Every file on the search path that was skipped, as "file: why" (not a shared object, not a
  // Gauss plugin, crashed or hung while being loaded in a probe process, ...). Files refused
  // while loading are included once List() or CreateRaw has tried them.
  std::vector<std::string> Skipped();

  // Names of the plugins of one kind that were found (for error messages and help).
  std::vector<std::string> Names(PluginKind kind);

 private:
  std::shared_ptr<void> LibraryHandle(const std::string& file);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gauss
