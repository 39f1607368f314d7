// ProbePluginLibrary (plugin_probe.h).
//
// The child only calls dlopen/dlsym, reads memory, calls the plugin's factory and unloads the
// library again (its destructors run, as they will at the parent's exit); its verdict is its
// exit: status 0 means "loaded and nothing crashed". When dlopen refuses the file, the child
// sends the loader's message through a pipe and exits with kLoadRefused: the parent then never
// calls dlopen on the file itself, because the loader's own error path can crash on a damaged
// file (it formats names read from the file), and may do so in one process and not another.
// The child's stdout and stderr are sent to /dev/null so that a noisy constructor does not
// garble the parent's output.
#include "plugin_probe.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "gauss/plugin.h"

namespace gauss {
namespace {

// (path, size, mtime) => verdict, shared by every registry of the process.
struct ProbeCache {
  std::mutex mutex;
  std::map<std::tuple<std::string, long long, long long>, ProbeResult> results;
};
ProbeCache& Cache() {
  static ProbeCache* cache = new ProbeCache();  // leaked: used until exit
  return *cache;
}

constexpr int kLoadRefused = 3;  // child exit status: dlopen failed, message on the pipe

// In the child: load, read and exercise every descriptor; never returns.
[[noreturn]] void ProbeChild(const std::string& file, const std::vector<std::string>& symbols,
                             int message_fd) {
  const int devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0) {
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
  }
  const struct rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // a crash here is expected: no core file left behind
  signal(SIGSEGV, SIG_DFL);  // die of the signal itself, without a program's crash report
  signal(SIGBUS, SIG_DFL);
  signal(SIGFPE, SIG_DFL);
  signal(SIGILL, SIG_DFL);
  signal(SIGABRT, SIG_DFL);
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = dlerror();
    if (error) {
      const ssize_t ignored = write(message_fd, error, std::strlen(error));
      (void)ignored;
    }
    _exit(kLoadRefused);
  }
  volatile std::size_t sink = 0;
  for (const std::string& symbol : symbols) {
    void* alias = dlsym(handle, symbol.c_str());
    if (alias == nullptr) continue;
    const PluginEntry* entry = *static_cast<const PluginEntry* const*>(alias);
    if (entry == nullptr || entry->abi_version != kPluginAbiVersion) continue;
    if (!LayoutDifference(*entry).empty()) continue;  // built against another layout
    for (const char* text : {entry->name, entry->version, entry->description}) {
      if (text) sink = sink + std::strlen(text);
    }
    if (entry->create == nullptr) continue;
    try {
      delete entry->create();
    } catch (...) {  // the parent reports a throwing factory as an error, not a crash
    }
  }
  // the library's destructors run at the parent's exit (libraries are never unloaded there):
  // run them here first, so that one that crashes is caught now rather than at exit
  dlclose(handle);
  _exit(0);
}

// (file) => its (size, mtime in ns), or false when it cannot be stat'ed.
bool FileStamp(const std::string& file, long long& size, long long& mtime) {
  struct stat st;
  if (stat(file.c_str(), &st) != 0) return false;
  size = static_cast<long long>(st.st_size);
  mtime = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  return true;
}

std::string SignalText(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(sig);
}

ProbeResult WaitForProbe(pid_t pid, int message_fd, double timeout_seconds);

// (file, symbols, timeout) => the verdict of one child.
ProbeResult RunProbe(const std::string& file, const std::vector<std::string>& symbols,
                     double timeout_seconds) {
  int message[2];
  if (pipe2(message, O_CLOEXEC) != 0) {
    return {false, std::string("cannot start a probe process: ") + std::strerror(errno)};
  }
  const pid_t pid = fork();
  if (pid == 0) {
    close(message[0]);
    ProbeChild(file, symbols, message[1]);
  }
  close(message[1]);
  if (pid < 0) {
    close(message[0]);
    return {false, std::string("cannot start a probe process: ") + std::strerror(errno)};
  }
  const ProbeResult result = WaitForProbe(pid, message[0], timeout_seconds);
  close(message[0]);
  return result;
}

// (probe child, its message pipe) => its verdict; kills it after `timeout_seconds`.
ProbeResult WaitForProbe(pid_t pid, int message_fd, double timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(timeout_seconds));
  int status = 0;
  std::chrono::microseconds pause(200);
  for (;;) {
    const pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid) break;
    if (got < 0 && errno != EINTR) return {false, "lost the probe process: " + std::string(std::strerror(errno))};
    if (Clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      char text[64];
      std::snprintf(text, sizeof(text), "%g", timeout_seconds);
      return {false, std::string("did not finish loading within ") + text +
                         " s in a probe process (killed)"};
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(2000));
  }
  if (WIFSIGNALED(status)) {
    return {false, "crashed with " + SignalText(WTERMSIG(status)) +
                       " while being loaded in a probe process (a damaged file or a crashing "
                       "load-time constructor)"};
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == kLoadRefused) {
    char text[2048];
    const ssize_t got = read(message_fd, text, sizeof(text) - 1);
    return {false, "the dynamic loader refuses it: " +
                       (got > 0 ? std::string(text, static_cast<std::size_t>(got))
                                : std::string("(no message)"))};
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return {false, "exited with status " + std::to_string(WEXITSTATUS(status)) +
                       " while being loaded in a probe process"};
  }
  return {true, ""};
}

}  // namespace

ProbeResult ProbePluginLibrary(const std::string& file, const std::vector<std::string>& symbols,
                               double timeout_seconds) {
  // already in this process (linked, or loaded by other code): nothing new would run
  if (void* loaded = dlopen(file.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
    dlclose(loaded);
    return {true, ""};
  }
  long long size = 0, mtime = 0;
  if (!FileStamp(file, size, mtime)) return {true, ""};  // the real load reports the error
  ProbeCache& cache = Cache();
  const auto key = std::make_tuple(file, size, mtime);
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.results.find(key);
    if (it != cache.results.end()) return it->second;
  }
  const ProbeResult result = RunProbe(file, symbols, timeout_seconds);
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.results[key] = result;
  return result;
}

}  // namespace gauss
