// PluginRegistry: finds plugin shared objects on the search path, lists their exported entries
// from the ELF sections without loading them (boost::dll::library_info for the sections,
// shielded and completed by the checked reader of elf_symbols.h), and loads, checks and
// instantiates a plugin on request. Every message it throws is meant to be enough to fix the
// setup: it names the files, the directories searched (and why each one is searched) and what
// was wrong with each candidate. docs/plugins.md describes the behaviour for users and authors.
#include "gauss/registry.h"

// Boost 1.74's library_info headers use std::vector and std::string without including them.
#include <string>
#include <vector>

#include <boost/dll/library_info.hpp>
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <system_error>
#include <utility>

#include "elf_loader_checks.h"
#include "elf_symbols.h"
#include "plugin_probe.h"
#include "gauss/error.h"
#include "internal.h"

namespace gauss {
namespace fs = std::filesystem;

namespace {

constexpr PluginKind kAllKinds[kNumPluginKinds] = {PluginKind::kCollider, PluginKind::kSolver,
                                                  PluginKind::kIntegrator, PluginKind::kActuator,
                                                  PluginKind::kSensor};

// The exported symbol of one plugin: "gauss_<kind>_<name>".
std::string SymbolPrefix(PluginKind kind) {
  return std::string("gauss_") + PluginKindName(kind) + "_";
}

// ---------------------------------------------------------------- process-wide library store

// Loaded libraries, keyed by canonical path. The store is deliberately leaked: a plugin instance
// held by a static object (or by a thread still running at exit) must never outlive its code,
// so libraries are not unloaded, not even during static destruction.
struct LibraryStore {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<boost::dll::shared_library>> libraries;
};

LibraryStore& Store() {
  static LibraryStore* store = new LibraryStore();
  return *store;
}

// (file, its entry symbols) => the loaded library, loading it on first use after a probe in a
// child process (plugin_probe.h). Throws gauss::Error when the probe crashed or hung, or when
// the dynamic loader refuses the file (missing dependency, undefined symbol, architecture).
std::shared_ptr<boost::dll::shared_library> LoadLibrary(const std::string& file,
                                                        const std::vector<std::string>& symbols) {
  LibraryStore& store = Store();
  std::lock_guard<std::mutex> lock(store.mutex);
  auto it = store.libraries.find(file);
  if (it != store.libraries.end()) return it->second;
  try {
    CheckElfForLoader(file);  // again: the file may have changed since it was scanned
  } catch (const Error& e) {
    std::string reason = e.what();  // "<file>: damaged ...": name the file once
    if (reason.rfind(file + ": ", 0) == 0) reason.erase(0, file.size() + 2);
    throw Error("cannot load plugin library " + file + ": " + reason);
  }
  const ProbeResult probe = ProbePluginLibrary(file, symbols);
  if (!probe.ok) throw Error("cannot load plugin library " + file + ": " + probe.reason);
  auto library = std::make_shared<boost::dll::shared_library>();
  try {
    // rtld_now: an unresolved symbol is reported here, with the file name, instead of
    // crashing the first time the plugin calls it.
    library->load(file, boost::dll::load_mode::rtld_now);
  } catch (const std::exception& e) {
    throw Error("cannot load plugin library " + file + ": " + e.what());
  }
  store.libraries.emplace(file, library);
  return library;
}

// The outcome of checking one exported entry: `entry` is null when it was refused, and then
// `brief` says why in a few words (for List) and `message` says it in full (for CreateRaw).
struct EntryCheck {
  const PluginEntry* entry = nullptr;
  std::string brief;
  std::string message;
};

// (library, kind, name) => the entry exported as gauss_<kind>_<name> if it was built for this
// kernel, else why not and how to fix it.
EntryCheck CheckEntry(boost::dll::shared_library& library, const std::string& file,
                      PluginKind kind, const std::string& name) {
  EntryCheck out;
  const std::string symbol = SymbolPrefix(kind) + name;
  const std::string who = "plugin '" + name + "' in " + file;
  const std::string rebuild = ": rebuild the plugin against this Gauss";
  const PluginEntry* entry = nullptr;
  try {
    entry = &library.get_alias<const PluginEntry>(symbol);
  } catch (const std::exception& e) {
    out.brief = "no entry " + symbol;
    out.message = who + ": cannot read its entry '" + symbol + "': " + e.what();
    return out;
  }
  // abi_version is read first: with another ABI the rest of the entry may be laid out otherwise.
  if (entry->abi_version != kPluginAbiVersion) {
    out.brief = "ABI " + std::to_string(entry->abi_version) + " != " +
                std::to_string(kPluginAbiVersion);
    out.message = who + " was built for plugin ABI " + std::to_string(entry->abi_version) +
                  ", this Gauss has ABI " + std::to_string(kPluginAbiVersion) + rebuild;
  } else if (const std::string differs = LayoutDifference(*entry); !differs.empty()) {
    out.brief = "layout of " + differs + " differs";
    out.message = who + " was built with a different layout of struct gauss::" + differs +
                  " (its field offsets, sizes or types differ from this Gauss's)" + rebuild;
  } else if (entry->kind != kind) {
    out.brief = std::string("descriptor says ") + PluginKindName(entry->kind);
    out.message = who + " is exported as a " + PluginKindName(kind) +
                  " but its descriptor says " + PluginKindName(entry->kind);
  } else if (entry->name == nullptr || name != entry->name) {
    out.brief = "descriptor names it '" + std::string(entry->name ? entry->name : "(null)") + "'";
    out.message = who + ": its " + out.brief;
  } else if (entry->create == nullptr) {
    out.brief = "no factory";
    out.message = who + ": its descriptor has no factory";
  } else {
    out.entry = entry;
  }
  return out;
}

std::string OrEmpty(const char* s) { return s ? std::string(s) : std::string(); }

// (checked entry) => what PluginInfo reports of it.
void FillFromEntry(const PluginEntry& entry, PluginInfo& info) {
  info.version = OrEmpty(entry.version);
  info.description = OrEmpty(entry.description);
  info.capabilities = entry.capabilities;
  info.params = ParamList(entry.params, entry.params ? entry.num_params : 0);
  info.usable = true;
}

// Appends "  <dir> (<reason>)" lines, one per search directory, to `out`.
void AppendList(const std::vector<std::string>& lines, std::string& out) {
  for (const std::string& line : lines) out += "\n    " + line;
}

}  // namespace

// The first struct whose layout fingerprint in `entry` differs from the kernel's (or is
// missing), "" when all agree.
std::string LayoutDifference(const PluginEntry& entry) {
  for (const StructFingerprint& mine : abi::kFingerprints) {
    bool same = false, found = false;
    for (int k = 0; k < entry.num_fingerprints && entry.fingerprints; ++k) {
      const StructFingerprint& theirs = entry.fingerprints[k];
      if (theirs.name && std::string(theirs.name) == mine.name) {
        found = true;
        same = theirs.hash == mine.hash;
      }
    }
    if (!found || !same) return mine.name;
  }
  return "";
}


// ---------------------------------------------------------------- registry state

struct GAUSS_INTERNAL PluginRegistry::Impl {
  struct Directory {
    std::string path;    // absolute, as given (not canonical: shown to the user as written)
    std::string reason;  // why it is searched
    bool exists = false;
  };
  struct Candidate {
    PluginKind kind;
    std::string name;
    std::string file;  // canonical path
  };
  struct Rejected {
    std::string file;
    std::string reason;
  };

  std::mutex mutex;  // makes one registry safe to share between threads
  std::vector<std::string> added;  // AddSearchPath, in order
  bool scanned = false;
  std::vector<Directory> directories;
  std::vector<Candidate> candidates;  // in search order
  std::vector<Rejected> rejected;

  std::vector<Directory> ComputeDirectories() const;
  void Scan();
  void ScanFile(const fs::path& file);
  std::vector<std::string> DirectoryLines() const;
  std::vector<std::string> NamesOf(PluginKind kind) const;
  std::vector<std::string> SymbolsOf(const std::string& file) const;
  std::string NotFoundMessage(PluginKind kind, const std::string& name) const;
};

// (added, GAUSS_PLUGIN_PATH, location of libgauss) => the search directories, in order.
std::vector<PluginRegistry::Impl::Directory> PluginRegistry::Impl::ComputeDirectories() const {
  std::vector<Directory> out;
  auto push = [&out](const fs::path& path, const std::string& reason) {
    std::error_code ec;
    const bool exists = fs::is_directory(path, ec);
    out.push_back({path.lexically_normal().string(), reason, exists});
  };
  for (const std::string& dir : added) push(dir, "added by plugins.paths / AddSearchPath");

  if (const char* env = std::getenv("GAUSS_PLUGIN_PATH")) {
    const std::string value = env;
    std::size_t begin = 0;
    while (begin <= value.size()) {
      std::size_t end = value.find(':', begin);
      if (end == std::string::npos) end = value.size();
      const std::string entry = value.substr(begin, end - begin);
      if (!entry.empty()) {
        std::error_code ec;
        const fs::path absolute = fs::absolute(entry, ec);
        push(ec ? fs::path(entry) : absolute, "GAUSS_PLUGIN_PATH");
      }
      begin = end + 1;
    }
  }

  // One default directory only, so that a build tree and an install of the same version are
  // never both searched (their plugins would count as duplicates).
  std::error_code ec;
  const fs::path kernel = boost::dll::this_line_location(ec).lexically_normal();
  const fs::path kernel_dir = ec ? fs::path() : kernel.parent_path();
  std::error_code ec1, ec2;
  const fs::path here = fs::weakly_canonical(kernel_dir, ec1);
  const fs::path build_lib = fs::weakly_canonical(GAUSS_BUILD_LIB_DIR, ec2);
  // the kernel is libgauss.so in the build tree's lib/, or linked into a program of the build
  // tree's bin/ (tests and benchmarks of internals: gauss_embed_kernel in core/CMakeLists.txt)
  std::error_code ec3;
  const fs::path build_bin = fs::weakly_canonical(GAUSS_BUILD_BIN_DIR, ec3);
  if (!kernel_dir.empty() && !ec1 && !ec2 && !ec3 && (here == build_lib || here == build_bin)) {
    push(GAUSS_BUILD_PLUGIN_DIR, "build tree of this Gauss, kernel in " + here.string());
  } else if (!kernel_dir.empty() && fs::is_directory(kernel_dir / "gauss" / "plugins", ec)) {
    push(kernel_dir / "gauss" / "plugins", "next to the Gauss library " + kernel.string());
  } else {
    push(GAUSS_INSTALL_PLUGIN_DIR, "install prefix of this Gauss (compiled in)");
  }
  return out;
}

// (directories on disk) => (directories, candidates, rejected). Lists each shared object once,
// by canonical path, so that symlinks to one file or one directory never make duplicates.
void PluginRegistry::Impl::Scan() {
  directories = ComputeDirectories();
  candidates.clear();
  rejected.clear();
  std::set<std::string> seen;
  for (const Directory& dir : directories) {
    if (!dir.exists) continue;
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir.path, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string filename = it->path().filename().string();
      if (filename.find(".so") == std::string::npos) continue;
      std::error_code type_ec;
      if (!fs::is_regular_file(it->path(), type_ec)) continue;  // follows symlinks
      files.push_back(it->path());
    }
    if (ec) {
      rejected.push_back({dir.path, "cannot list directory: " + ec.message()});
    }
    // Directory order is arbitrary; sorting makes candidates and messages reproducible.
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      std::error_code canon_ec;
      const fs::path canonical = fs::canonical(file, canon_ec);
      if (canon_ec) {
        rejected.push_back({file.string(), "cannot resolve path: " + canon_ec.message()});
        continue;
      }
      if (!seen.insert(canonical.string()).second) continue;
      ScanFile(canonical);
    }
  }
  scanned = true;
}

// (file) => candidates for each gauss_<kind>_<name> symbol in the per-kind sections, or a
// rejection saying why the file is not a plugin. Reads the file only; never loads it.
void PluginRegistry::Impl::ScanFile(const fs::path& file) {
  // The careful reader goes first: library_info must only see well-formed files (elf_symbols.h).
  ElfExports exports;
  std::vector<std::string> sections;
  try {
    exports = ReadElfExports(file.string());
    sections = boost::dll::library_info(file).sections();
  } catch (const std::exception& e) {
    rejected.push_back({file.string(), std::string("not a shared object of this platform (") +
                                           e.what() + ")"});
    return;
  }
  // Damage the loader would trust (symbol versions, hash and relocation tables) is refused
  // here, before the probe or any dlopen, so that it is the same verdict in every process.
  try {
    CheckElfForLoader(file.string());
  } catch (const std::exception& e) {
    std::string reason = e.what();  // "<file>: damaged ...": the file is named once, by Skipped
    if (reason.rfind(file.string() + ": ", 0) == 0) reason.erase(0, file.string().size() + 2);
    rejected.push_back({file.string(), reason});
    return;
  }
  bool has_section = false;
  bool any = false;
  for (PluginKind kind : kAllKinds) {
    const char* section = PluginKindSection(kind);
    if (std::find(sections.begin(), sections.end(), section) == sections.end()) continue;
    has_section = true;
    const std::string prefix = SymbolPrefix(kind);
    std::set<std::string> unique;
    for (const std::string& symbol : exports.symbols[section]) {
      if (symbol.size() <= prefix.size() || symbol.compare(0, prefix.size(), prefix) != 0) continue;
      if (!unique.insert(symbol).second) continue;
      candidates.push_back({kind, symbol.substr(prefix.size()), file.string()});
      any = true;
    }
  }
  if (!has_section) {
    rejected.push_back({file.string(),
                        "not a Gauss plugin (no gcollid/gsolver/gintegr/gactuat/gsensor section)"});
  } else if (!any) {
    rejected.push_back({file.string(),
                        "has a Gauss plugin section but exports no gauss_<kind>_<name> symbol"});
  }
}

// (directories) => "<dir> (<reason>)" lines, "(missing)" appended for absent directories.
std::vector<std::string> PluginRegistry::Impl::DirectoryLines() const {
  std::vector<std::string> out;
  for (const Directory& dir : directories) {
    out.push_back(dir.path + " (" + dir.reason + ")" + (dir.exists ? "" : " (missing)"));
  }
  return out;
}

// (candidates) => the sorted, distinct names of one kind.
std::vector<std::string> PluginRegistry::Impl::NamesOf(PluginKind kind) const {
  std::set<std::string> names;
  for (const Candidate& c : candidates) {
    if (c.kind == kind) names.insert(c.name);
  }
  return {names.begin(), names.end()};
}

// (candidates) => the entry symbols ("gauss_<kind>_<name>") exported by one file.
std::vector<std::string> PluginRegistry::Impl::SymbolsOf(const std::string& file) const {
  std::vector<std::string> out;
  for (const Candidate& c : candidates) {
    if (c.file == file) out.push_back(SymbolPrefix(c.kind) + c.name);
  }
  return out;
}

namespace {

// Levenshtein distance between a and b (insertions, deletions, substitutions).
std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The name of `names` closest to `name` when it is a plausible typo (at most 2 edits), or the
// name it begins (a prefix of at least 2 letters, preferred), else "".
std::string ClosestName(const std::string& name, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = 3;
  for (const std::string& n : names) {
    const std::size_t d = n.rfind(name, 0) == 0 && name.size() >= 2 ? 0 : EditDistance(name, n);
    if (d < best_distance) {
      best = n;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace

// (directories, candidates, rejected) => the message for a plugin that was not found.
std::string PluginRegistry::Impl::NotFoundMessage(PluginKind kind, const std::string& name) const {
  std::string out = std::string("no ") + PluginKindName(kind) + " plugin named '" + name + "'";
  const std::vector<std::string> names = NamesOf(kind);
  const std::string closest = ClosestName(name, names);
  if (!closest.empty()) out += "; did you mean '" + closest + "'?";
  out += "\n  directories searched, in order:";
  AppendList(DirectoryLines(), out);
  std::string available;
  for (const std::string& n : names) available += (available.empty() ? "" : ", ") + n;
  out += std::string("\n  ") + PluginKindName(kind) + " plugins found: " +
         (available.empty() ? std::string("(none)") : available);
  std::vector<std::string> other_kinds;
  for (const Candidate& c : candidates) {
    if (c.name == name && c.kind != kind) {
      other_kinds.push_back(c.file + ": exports '" + name + "' as " + PluginKindName(c.kind) +
                            ", not as " + PluginKindName(kind));
    }
  }
  if (!other_kinds.empty()) {
    out += "\n  candidates of another kind:";
    AppendList(other_kinds, out);
  }
  if (!rejected.empty()) {
    std::vector<std::string> lines;
    for (const Rejected& r : rejected) lines.push_back(r.file + ": " + r.reason);
    out += "\n  files rejected:";
    AppendList(lines, out);
  }
  out += "\n  add directories with GAUSS_PLUGIN_PATH or plugins.paths in the configuration";
  return out;
}

// ---------------------------------------------------------------- public interface

PluginRegistry::PluginRegistry() : impl_(std::make_unique<Impl>()) {}
PluginRegistry::~PluginRegistry() = default;

// (directory) => added, made absolute against the current directory; forces a rescan.
void PluginRegistry::AddSearchPath(const std::string& directory) {
  if (directory.empty()) throw Error("plugin search path: empty directory name");
  std::error_code ec;
  const fs::path absolute = fs::absolute(directory, ec);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->added.push_back(ec ? directory : absolute.string());
  impl_->scanned = false;
}

// (added, environment, kernel location) => "<dir> (<reason>)" lines; does not scan.
std::vector<std::string> PluginRegistry::SearchPaths() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Impl probe;
  probe.added = impl_->added;
  probe.directories = probe.ComputeDirectories();
  return probe.DirectoryLines();
}

// (scan) => sorted names of one kind, loading nothing.
std::vector<std::string> PluginRegistry::Names(PluginKind kind) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!impl_->scanned) impl_->Scan();
  return impl_->NamesOf(kind);
}

// (scan, kind, name) => a new instance and its info; loads the one library that exports it.
std::unique_ptr<Plugin> PluginRegistry::CreateRaw(PluginKind kind, const std::string& name,
                                                  PluginInfo* info) {
  std::string file;
  std::vector<std::string> symbols;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (!impl_->scanned) impl_->Scan();
    std::vector<std::string> files;
    for (const Impl::Candidate& c : impl_->candidates) {
      if (c.kind == kind && c.name == name) files.push_back(c.file);
    }
    if (files.empty()) throw Error(impl_->NotFoundMessage(kind, name));
    if (files.size() > 1) {
      std::string message = std::string("duplicate plugin: ") + PluginKindName(kind) + " '" +
                            name + "' is exported by " + std::to_string(files.size()) +
                            " different files:";
      AppendList(files, message);
      message += "\n  remove one of them or take its directory off the plugin search path";
      throw Error(message);
    }
    file = files.front();
    symbols = impl_->SymbolsOf(file);
  }
  std::shared_ptr<boost::dll::shared_library> library = LoadLibrary(file, symbols);
  const EntryCheck check = CheckEntry(*library, file, kind, name);
  if (!check.entry) throw Error(check.message);
  const PluginEntry& entry = *check.entry;
  std::unique_ptr<Plugin> instance;
  try {
    instance.reset(entry.create());
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error("plugin '" + name + "' in " + file + " failed to create an instance: " + e.what());
  }
  if (!instance) throw Error("plugin '" + name + "' in " + file + ": its factory returned null");
  if (info) {
    info->kind = kind;
    info->name = name;
    info->file = file;
    FillFromEntry(entry, *info);
  }
  return instance;
}

void ConfigurePlugin(Plugin& plugin, const PluginInfo& info, Params params) {
  params.set_context(std::string(PluginKindName(info.kind)) + " '" + info.name + "' parameters");
  params.Declare(info.params);
  params.CheckDeclared();
  plugin.Configure(params);
}

// (scan) => every candidate with version and description, or "REFUSED: why" in the
// description; loads each library that is not a duplicate, never throws for a bad one.
std::vector<PluginInfo> PluginRegistry::List() {
  std::vector<Impl::Candidate> candidates;
  std::map<std::string, std::vector<std::string>> symbols;  // of each file
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (!impl_->scanned) impl_->Scan();
    candidates = impl_->candidates;
    for (const Impl::Candidate& c : candidates) symbols[c.file] = impl_->SymbolsOf(c.file);
  }
  std::set<std::string> refused_files;  // files that could not be loaded (listed once)
  std::vector<PluginInfo> out;
  for (const Impl::Candidate& c : candidates) {
    PluginInfo info;
    info.kind = c.kind;
    info.name = c.name;
    info.file = c.file;
    std::string duplicate;
    for (const Impl::Candidate& other : candidates) {
      if (other.kind == c.kind && other.name == c.name && other.file != c.file) {
        duplicate += (duplicate.empty() ? "" : ", ") + other.file;
      }
    }
    if (!duplicate.empty()) {
      info.description = "REFUSED: duplicate, also exported by " + duplicate;
    } else {
      try {
        const EntryCheck check =
            CheckEntry(*LoadLibrary(c.file, symbols[c.file]), c.file, c.kind, c.name);
        if (check.entry) {
          FillFromEntry(*check.entry, info);
        } else {
          info.description = "REFUSED: " + check.brief;
        }
      } catch (const Error& e) {
        info.description = std::string("REFUSED: ") + e.what();
        if (refused_files.insert(c.file).second) {
          std::lock_guard<std::mutex> lock(impl_->mutex);
          const std::string prefix = "cannot load plugin library " + c.file + ": ";
          std::string reason = e.what();
          if (reason.compare(0, prefix.size(), prefix) == 0) reason.erase(0, prefix.size());
          impl_->rejected.push_back({c.file, reason});
        }
      }
    }
    out.push_back(std::move(info));
  }
  std::sort(out.begin(), out.end(), [](const PluginInfo& a, const PluginInfo& b) {
    if (a.kind != b.kind) return static_cast<int>(a.kind) < static_cast<int>(b.kind);
    if (a.name != b.name) return a.name < b.name;
    return a.file < b.file;
  });
  return out;
}

// (scan, and the loads of List) => "file: reason" for every file skipped.
std::vector<std::string> PluginRegistry::Skipped() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  if (!impl_->scanned) impl_->Scan();
  std::vector<std::string> out;
  for (const Impl::Rejected& r : impl_->rejected) out.push_back(r.file + ": " + r.reason);
  return out;
}

// (file) => a handle sharing the process-wide, never-unloaded library (loaded by CreateRaw).
std::shared_ptr<void> PluginRegistry::LibraryHandle(const std::string& file) {
  std::vector<std::string> symbols;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    symbols = impl_->SymbolsOf(file);
  }
  return LoadLibrary(file, symbols);
}

}  // namespace gauss
