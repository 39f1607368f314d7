// Progress bar on a terminal's stderr (see progress.h).
#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace gauss::cli {

Progress::Progress(long total, std::string label)
    : total_(total > 0 ? total : 1),
      label_(std::move(label)),
      enabled_(isatty(STDERR_FILENO) != 0),
      start_(Clock::now()),
      last_draw_(start_) {}

Progress::~Progress() { Finish(); }

// (done, time since start) => a redrawn "\r label [#####     ]  42% 3.1 s" line on stderr.
void Progress::Update(long done) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 1.0 || now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  constexpr int kWidth = 40;
  const double fraction = done >= total_ ? 1.0 : static_cast<double>(done) / total_;
  const int filled = static_cast<int>(fraction * kWidth);
  char bar[kWidth + 1];
  for (int i = 0; i < kWidth; ++i) bar[i] = i < filled ? '#' : ' ';
  bar[kWidth] = '\0';
  std::fprintf(stderr, "\r%s [%s] %3d%% %.1f s", label_.c_str(), bar,
               static_cast<int>(fraction * 100), elapsed);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::Finish() {
  if (!drawn_) return;
  // Blank the line so that the summary printed next starts clean.
  std::fprintf(stderr, "\r%*s\r", static_cast<int>(label_.size()) + 60, "");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace gauss::cli
