// PluginCallScope and the fatal-signal report (gauss/crash_report.h).
//
// The handler only calls async-signal-safe functions: it reads the thread's mark (set by the
// thread that faulted, which is the thread the kernel delivers SIGSEGV/SIGBUS/SIGFPE/SIGILL and
// a raise()d SIGABRT to), writes fixed text and the mark's strings with write(2), restores the
// default action and raises the signal again so that the exit status still tells the signal.
#include "gauss/crash_report.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <exception>
#include <initializer_list>

namespace gauss {
namespace {

thread_local const PluginCall* t_current = nullptr;
thread_local PluginCall t_last_throwing;
thread_local bool t_has_last_throwing = false;
// The plugin name of t_last_throwing, copied: the exception may unwind past the Engine that
// owns the name (kind and stage are string literals).
thread_local char t_last_throwing_name[128];

const char* g_program = "gauss";

// write(2) of a NUL-terminated string; errors are ignored (nothing else can be done here).
void WriteText(const char* text) {
  if (text == nullptr) return;
  std::size_t size = 0;
  while (text[size] != '\0') ++size;
  while (size > 0) {
    const ssize_t n = write(STDERR_FILENO, text, size);
    if (n <= 0) return;
    text += n;
    size -= static_cast<std::size_t>(n);
  }
}

const char* SignalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (abort)";
  }
  return "signal";
}

extern "C" void OnFatalSignal(int sig) {
  WriteText(g_program);
  WriteText(": fatal signal ");
  WriteText(SignalName(sig));
  const PluginCall* call = t_current;
  if (call) {
    WriteText(" in ");
    WriteText(call->kind);
    WriteText(" plugin");
    if (call->name) {
      WriteText(" '");
      WriteText(call->name);
      WriteText("'");
    }
    WriteText(" (stage: ");
    WriteText(call->stage);
    WriteText(")\n");
  } else {
    WriteText(" outside any plugin call (in the kernel or the program)\n");
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

const PluginCall* CurrentPluginCall() noexcept { return t_current; }

const PluginCall* LastThrowingPluginCall() noexcept {
  return t_has_last_throwing ? &t_last_throwing : nullptr;
}

PluginCallScope::PluginCallScope(const char* kind, const char* name, const char* stage) noexcept
    : call_{kind, name, stage}, outer_(t_current) {
  t_current = &call_;
}

PluginCallScope::~PluginCallScope() {
  // left by an exception: remember the innermost call it came from (one query: it reads the
  // thread's exception state, a call into the C++ runtime on every plugin call)
  const bool unwinding = std::uncaught_exceptions() > 0;
  if (unwinding && !t_has_last_throwing) {
    t_last_throwing = call_;
    if (call_.name) {
      strncpy(t_last_throwing_name, call_.name, sizeof(t_last_throwing_name) - 1);
      t_last_throwing_name[sizeof(t_last_throwing_name) - 1] = '\0';
      t_last_throwing.name = t_last_throwing_name;
    }
    t_has_last_throwing = true;
  }
  t_current = outer_;
  if (outer_ == nullptr && !unwinding) t_has_last_throwing = false;
}

void InstallCrashReport(const char* program) {
  g_program = program;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = OnFatalSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigaction(sig, &action, nullptr);
  }
}

}  // namespace gauss
