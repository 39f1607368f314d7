// Scoped timers for the pipeline (see gauss/profile.h). When profiling is off a timer costs
// one well-predicted branch on construction and one on destruction, and no clock read; the
// clock is the steady clock, read through the vDSO (no system call).
#pragma once

#include <chrono>
#include <cstdint>

#include "gauss/data.h"

namespace gauss {

// Nanoseconds on the steady clock.
inline std::int64_t ProfileClockNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Adds the time from construction to destruction, and one call, to `stat` (when not null).
class ScopedTimer {
 public:
  explicit ScopedTimer(TimerStat* stat) : stat_(stat), start_(stat ? ProfileClockNs() : 0) {}
  ~ScopedTimer() {
    if (stat_) {
      stat_->duration += static_cast<double>(ProfileClockNs() - start_);
      ++stat_->number;
    }
  }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  TimerStat* stat_;
  std::int64_t start_;
};

// d.profile's timer t when profiling, else null.
inline TimerStat* StageStat(Data& d, Timer t) {
  return d.profile.enabled ? &d.profile[t] : nullptr;
}

// d.profile's timer of plugin `slot` (Engine::PluginsInUse() order) when profiling and the
// slot exists, else null.
inline TimerStat* PluginStat(Data& d, int slot) {
  if (!d.profile.enabled) return nullptr;
  if (slot < 0 || slot >= static_cast<int>(d.profile.plugin.size())) return nullptr;
  return &d.profile.plugin[slot];
}

}  // namespace gauss
