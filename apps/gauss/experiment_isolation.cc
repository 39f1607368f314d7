// RunIsolated (experiment_isolation.h): fork, run in the child, watch it from the parent.
//
// Channels between parent and child, all created before fork:
//   - a pipe for the result: the child writes one record (status, metrics, reason) and exits;
//   - a pipe for the child's stdout and stderr, whose last lines the parent keeps;
//   - one shared anonymous page holding the child's completed-step counter (progress).
// The parent polls both pipes every 50 ms, adds progress, and applies the limits. The child
// closes every descriptor it inherited except its own ends, so that runs forked by other worker
// threads never hold this run's pipes open.
#include "experiment_isolation.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "gauss/error.h"

namespace gauss::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxReason = 4000;     // bytes of a reason sent back by the child
constexpr std::size_t kStderrTail = 4096;    // bytes of the child's output kept
constexpr std::size_t kStderrLines = 5;             // lines of it quoted in a failure reason
constexpr int kResultExit = 0;               // child exit status after writing its result

// The child's stop flag, set by SIGINT in the child (the parent forwards the first Ctrl-C).
std::atomic<bool> g_child_stop{false};
extern "C" void OnChildInterrupt(int) { g_child_stop.store(true); }

// The fixed-size head of the record the child sends; `reason_size` bytes of text follow.
struct ResultRecord {
  int status = 0;
  std::uint32_t reason_size = 0;
  double metrics[kNumMetrics] = {};
};

// (fd, bytes) => all written, retrying on EINTR and partial writes; false on error.
bool WriteAll(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Child side: (result) => one record on fd.
void SendResult(int fd, const RunResult& result) {
  ResultRecord record;
  record.status = static_cast<int>(result.status);
  const std::string reason = result.reason.substr(0, kMaxReason);
  record.reason_size = static_cast<std::uint32_t>(reason.size());
  std::copy(result.metrics.begin(), result.metrics.end(), record.metrics);
  WriteAll(fd, &record, sizeof(record));
  WriteAll(fd, reason.data(), reason.size());
}

// Parent side: (bytes received) => the result, or false when the record is incomplete.
bool ParseResult(const std::string& bytes, RunResult& result) {
  if (bytes.size() < sizeof(ResultRecord)) return false;
  ResultRecord record;
  std::memcpy(&record, bytes.data(), sizeof(record));
  if (bytes.size() != sizeof(record) + record.reason_size) return false;
  if (record.status < 0 || record.status > static_cast<int>(RunStatus::kInterrupted)) return false;
  result.status = static_cast<RunStatus>(record.status);
  std::copy(record.metrics, record.metrics + kNumMetrics, result.metrics.begin());
  result.reason = bytes.substr(sizeof(record));
  return true;
}

// In the child, right after fork: output to `output_fd`, the result pipe kept, every other
// inherited descriptor closed; SIGINT stops the run, SIGTERM and SIGHUP kill it. Returns the
// result descriptor (moved above the others).
int PrepareChild(int result_fd, int output_fd) {
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  const int keep = fcntl(result_fd, F_DUPFD, 3);
  if (keep < 0) _exit(127);
  for (int fd = 3; fd < keep; ++fd) close(fd);
  close_range(static_cast<unsigned>(keep) + 1, ~0U, 0);
  g_child_stop.store(false);
  signal(SIGINT, OnChildInterrupt);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  return keep;
}

// In the child: run, report, exit. Never returns.
[[noreturn]] void ChildMain(const RunSetup& setup, std::uint64_t seed, Workspace& ws,
                            std::atomic<long>* shared_steps, const ChildFinish& finish,
                            int result_fd) {
  RunResult result;
  try {
    result = RunOne(setup, seed, ws, g_child_stop, shared_steps);
    result.trace.shrink_to_fit();
    if (finish && result.status != RunStatus::kInterrupted) finish(result);
  } catch (const std::exception& e) {
    result.status = RunStatus::kFailed;
    result.reason = e.what();
    result.metrics.fill(std::numeric_limits<double>::quiet_NaN());
  } catch (...) {
    result.status = RunStatus::kFailed;
    result.reason = "threw an exception that is not a std::exception (a plugin's 'throw'?)";
    result.metrics.fill(std::numeric_limits<double>::quiet_NaN());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  SendResult(result_fd, result);
  _exit(kResultExit);
}

// (kept output) => its last kStderrLines non-empty lines joined with " | ", "" when none.
std::string LastLines(const std::string& output) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < output.size()) {
    std::size_t end = output.find('\n', begin);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(line);
    begin = end + 1;
  }
  std::string out;
  const std::size_t first = lines.size() > kStderrLines ? lines.size() - kStderrLines : 0;
  for (std::size_t i = first; i < lines.size(); ++i) out += (out.empty() ? "" : " | ") + lines[i];
  return out;
}

// Watches one child; owns its descriptors and the shared counter.
class ChildWatch {
 public:
  ChildWatch(pid_t pid, int result_fd, int output_fd, std::atomic<long>* shared)
      : pid_(pid), result_fd_(result_fd), output_fd_(output_fd), shared_(shared) {}
  ~ChildWatch() {
    if (result_fd_ >= 0) close(result_fd_);
    if (output_fd_ >= 0) close(output_fd_);
    if (pid_ > 0) {  // still running after an exception in the parent: do not leave it behind
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  // (limits, interrupts) => the child's result; see the header for the rules.
  RunResult Watch(const IsolationLimits& limits, const std::atomic<int>& interrupts,
                  std::atomic<long>* steps_done) {
    const Clock::time_point start = Clock::now();
    Clock::time_point term_sent{};
    bool sent_int = false, sent_term = false, sent_kill = false;
    long reported = 0;
    while (result_fd_ >= 0 || output_fd_ >= 0) {
      Pump();
      const long done = shared_->load();
      if (steps_done && done > reported) steps_done->fetch_add(done - reported);
      reported = done;
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      if (interrupts.load() >= 2 && !sent_kill) {
        kill(pid_, SIGKILL);
        sent_kill = true;
      } else if (interrupts.load() == 1 && !sent_int) {
        kill(pid_, SIGINT);
        sent_int = true;
      }
      if (limits.wall_time > 0 && !sent_term && elapsed > limits.wall_time + limits.overrun) {
        kill(pid_, SIGTERM);
        sent_term = true;
        term_sent = Clock::now();
      }
      if (sent_term && !sent_kill &&
          std::chrono::duration<double>(Clock::now() - term_sent).count() > limits.term_grace) {
        kill(pid_, SIGKILL);
        sent_kill = true;
      }
    }
    int wstatus = 0;
    while (waitpid(pid_, &wstatus, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return Outcome(wstatus, limits, interrupts.load() > 0, sent_term);
  }

 private:
  // Reads whatever the pipes hold (waiting up to 50 ms), closing each at end of file.
  void Pump() {
    pollfd fds[2];
    int n = 0;
    if (result_fd_ >= 0) fds[n++] = {result_fd_, POLLIN, 0};
    if (output_fd_ >= 0) fds[n++] = {output_fd_, POLLIN, 0};
    if (poll(fds, n, 50) <= 0) return;
    for (int i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      char buffer[4096];
      const ssize_t got = read(fds[i].fd, buffer, sizeof(buffer));
      if (got < 0 && errno == EINTR) continue;
      const bool is_result = fds[i].fd == result_fd_;
      if (got <= 0) {
        close(fds[i].fd);
        (is_result ? result_fd_ : output_fd_) = -1;
      } else if (is_result) {
        record_.append(buffer, static_cast<std::size_t>(got));
      } else {
        output_.append(buffer, static_cast<std::size_t>(got));
        if (output_.size() > 2 * kStderrTail) output_.erase(0, output_.size() - kStderrTail);
      }
    }
  }

  // (wait status, what the parent did) => the run's result.
  RunResult Outcome(int wstatus, const IsolationLimits& limits, bool interrupted,
                    bool sent_term) const {
    RunResult result;
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == kResultExit && ParseResult(record_, result)) {
      return result;
    }
    result.metrics.fill(std::numeric_limits<double>::quiet_NaN());
    if (interrupted) {
      result.status = RunStatus::kInterrupted;
      result.reason = "interrupted";
      return result;
    }
    result.status = RunStatus::kFailed;
    if (sent_term) {
      result.reason = "exceeded limits.wall_time = " + FormatSeconds(limits.wall_time) +
                      " s without returning; stopped with " +
                      SignalText(WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : SIGTERM);
    } else if (WIFSIGNALED(wstatus)) {
      result.reason = "crashed with " + SignalText(WTERMSIG(wstatus));
    } else {
      result.reason = "the run's process exited with status " +
                      std::to_string(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1) +
                      " without reporting a result";
    }
    const std::string tail = LastLines(output_);
    if (!tail.empty()) result.reason += "; last output: " + tail;
    return result;
  }

  static std::string FormatSeconds(double s) {
    char text[32];
    std::snprintf(text, sizeof(text), "%g", s);
    return text;
  }

  pid_t pid_;
  int result_fd_, output_fd_;
  std::atomic<long>* shared_;
  std::string record_, output_;
};

}  // namespace

std::string SignalText(int signal_number) {
  const char* abbrev = sigabbrev_np(signal_number);
  const char* description = strsignal(signal_number);
  return (abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(signal_number)) +
         " (" + (description ? description : "unknown signal") + ")";
}

RunResult RunIsolated(const RunSetup& setup, std::uint64_t seed, Workspace& ws,
                      const IsolationLimits& limits, const std::atomic<int>& interrupts,
                      std::atomic<long>* steps_done, const ChildFinish& finish) {
  static_assert(std::atomic<long>::is_always_lock_free, "the shared counter must be lock-free");
  void* page = mmap(nullptr, sizeof(std::atomic<long>), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) throw Error(std::string("cannot map a progress page: ") + std::strerror(errno));
  auto* shared = new (page) std::atomic<long>(0);
  int result_pipe[2], output_pipe[2];
  if (pipe2(result_pipe, O_CLOEXEC) != 0) {
    munmap(page, sizeof(std::atomic<long>));
    throw Error(std::string("cannot create a pipe for a run: ") + std::strerror(errno));
  }
  if (pipe2(output_pipe, O_CLOEXEC) != 0) {
    close(result_pipe[0]);
    close(result_pipe[1]);
    munmap(page, sizeof(std::atomic<long>));
    throw Error(std::string("cannot create a pipe for a run: ") + std::strerror(errno));
  }
  std::fflush(stdout);  // nothing buffered may be written twice
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(result_pipe[0]);
    close(output_pipe[0]);
    const int fd = PrepareChild(result_pipe[1], output_pipe[1]);
    ChildMain(setup, seed, ws, shared, finish, fd);
  }
  const int fork_errno = errno;
  close(result_pipe[1]);
  close(output_pipe[1]);
  if (pid < 0) {
    close(result_pipe[0]);
    close(output_pipe[0]);
    munmap(page, sizeof(std::atomic<long>));
    throw Error(std::string("cannot start a process for a run: ") + std::strerror(fork_errno));
  }
  RunResult result;
  {
    ChildWatch watch(pid, result_pipe[0], output_pipe[0], shared);
    result = watch.Watch(limits, interrupts, steps_done);
  }
  munmap(page, sizeof(std::atomic<long>));
  return result;
}

}  // namespace gauss::cli
