// Which plugin was running when something went wrong: the engine marks each call into a plugin
// (kind, name, pipeline stage) on the calling thread, and a program that installs the crash
// report gets one fixed line on stderr when it dies of a fatal signal, e.g.
//   gauss: fatal signal SIGSEGV in solver plugin 'newton' (stage: constraint solve)
// A mark costs two pointer stores per call; reading it is async-signal-safe.
#pragma once

namespace gauss {

// One call into a plugin; the strings are not owned and outlive the call.
struct PluginCall {
  const char* kind = nullptr;   // "solver", "integrator", ...
  const char* name = nullptr;   // the plugin's name, or null when the call site does not know it
  const char* stage = nullptr;  // pipeline stage, e.g. "constraint solve"
};

// The plugin call in progress on this thread, null when none.
const PluginCall* CurrentPluginCall() noexcept;

// The last plugin call on this thread that was left by an exception (null when none), so that
// a caller catching an exception that is not a std::exception can still say where it came from.
const PluginCall* LastThrowingPluginCall() noexcept;

// Marks a plugin call for the lifetime of the object (nests; restores the outer mark).
class PluginCallScope {
 public:
  PluginCallScope(const char* kind, const char* name, const char* stage) noexcept;
  ~PluginCallScope();
  PluginCallScope(const PluginCallScope&) = delete;
  PluginCallScope& operator=(const PluginCallScope&) = delete;

 private:
  PluginCall call_;
  const PluginCall* outer_;
};

// Installs handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT that write
// "<program>: fatal signal SIG... in <kind> plugin '<name>' (stage: <stage>)" (or "outside any
// plugin call") to stderr with write(2), then die of the same signal with the default action.
// `program` must outlive the process (a string literal).
void InstallCrashReport(const char* program);

}  // namespace gauss
