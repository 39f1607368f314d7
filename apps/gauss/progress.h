// A progress bar for long runs, on stderr only.
//
// It stays invisible unless stderr is a terminal (so redirected output and test logs stay clean)
// and the run has already lasted over a second (so short runs print nothing at all).
#pragma once

#include <chrono>
#include <string>

namespace gauss::cli {

class Progress {
 public:
  // `total` units of work (e.g. steps); `label` starts the line.
  Progress(long total, std::string label);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Reports `done` units finished; redraws at most ten times a second.
  void Update(long done);
  // Erases the bar (if one was drawn).
  void Finish();

 private:
  using Clock = std::chrono::steady_clock;
  long total_;
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

}  // namespace gauss::cli
