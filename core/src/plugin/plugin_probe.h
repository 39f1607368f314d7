// Probing a plugin library in a child process before the registry loads it into this one.
//
// dlopen runs a library's load-time constructors, and a damaged or hostile file can crash the
// dynamic loader itself; reading a damaged descriptor can crash too. So before the first load
// of a file, ProbePluginLibrary forks a child that loads it, reads every named descriptor
// (abi_version first, then its strings), creates and destroys one instance of each, unloads
// it (running its destructors) and exits.
// The file is loaded here only if the child ended normally. Results are cached per process by
// (path, size, modification time). A file already loaded in this process is not probed.
#pragma once

#include <string>
#include <vector>

namespace gauss {

struct PluginEntry;

// The first boundary struct whose layout fingerprint in `entry` differs from the kernel's (or
// is missing), "" when all agree (registry.cc).
std::string LayoutDifference(const PluginEntry& entry);

struct ProbeResult {
  bool ok = false;
  std::string reason;  // why not, e.g. "crashed with SIGSEGV while being loaded"
};

// (file, exported entry symbols "gauss_<kind>_<name>") => whether it can be loaded without
// harm. Waits at most `timeout_seconds` for the child (then kills it: a hang while loading
// is a failure too). Never throws; a probe that cannot start (fork fails) reports ok = false.
ProbeResult ProbePluginLibrary(const std::string& file, const std::vector<std::string>& symbols,
                               double timeout_seconds = 10.0);

}  // namespace gauss
