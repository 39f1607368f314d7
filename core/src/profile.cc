// Names of the stage timers and clearing them (gauss/profile.h).
#include "gauss/profile.h"

namespace gauss {

const char* const kTimerNames[kNumTimers] = {
    "step",      "forward",      "position",   "kinematics", "inertia",    "collision",
    "broadphase", "narrowphase", "constraint rows", "transmission", "velocity", "actuation",
    "acceleration", "constraint solve", "sensors", "integration"};

void Profile::Clear() {
  timer.fill(TimerStat());
  for (TimerStat& s : plugin) s = TimerStat();
}

}  // namespace gauss
