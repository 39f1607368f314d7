// Per-stage timers (spec "Diagnostics"): where the time of a step goes.
//
// Off by default. With Data::profile.enabled set, each stage of the pipeline adds its wall time
// (steady clock, nanoseconds) and one call to its timer, and each plugin call adds to the
// plugin's timer; with it clear, a stage costs one predictable branch and no clock read.
// Timers accumulate until Profile::Clear (Engine::Reset keeps them), so a benchmark can sum over
// repeats. A step evaluated by a multi-stage integrator (rk4) counts its forward evaluations
// several times, which is where its time goes.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace gauss {

// The timers; nested ones are part of the one above them (indented in the comments).
enum class Timer : int {
  kStep,                // Engine::Step (and Step1 + Step2)
  kForward,             //   Engine::Forward, each evaluation (rk4: four per step)
  kPosition,            //     stages 2-12: everything that depends on qpos
  kPosKinematics,       //       poses, com quantities, tendons (stages 2-5)
  kPosInertia,          //       qM and its factor (stages 6-7)
  kCollision,           //       collision detection (stage 8)
  kCollisionBroad,      //         broad phase: candidate geom pairs
  kCollisionNarrow,     //         narrow phase: the collider plugins, contact parameters
  kPosConstraint,       //       constraint rows, Jacobian, parameters (stages 9, 11)
  kPosTransmission,     //       actuator lengths and moments (stage 10)
  kVelocity,            //     stages 13-18: everything that depends on qpos and qvel
  kActuation,           //     stage 19: controls, actuator plugins, qfrc_actuator
  kAcceleration,        //     stage 20: smooth acceleration M^-1 qfrc_smooth
  kConstraint,          //     stage 21: the constraint solver plugin and its outputs
  kSensors,             //     sensor plugins at every stage, noise, cutoff
  kIntegration,         //   the integrator plugin, without the forward evaluations it calls
  kNumTimers
};
inline constexpr int kNumTimers = static_cast<int>(Timer::kNumTimers);

// Short names of the timers, in Timer order ("step", "forward", "position", ...).
extern const char* const kTimerNames[kNumTimers];

// Accumulated time and number of calls of one timer.
struct TimerStat {
  double duration = 0;  // ns, summed over the calls
  long number = 0;      // calls
};

struct Profile {
  bool enabled = false;                      // set to time the stages
  std::array<TimerStat, kNumTimers> timer{};  // indexed by Timer
  // One per plugin in use, in Engine::PluginsInUse() order (sized by Engine::MakeData): time
  // inside the plugin's calls (the integrator's without the forward evaluations it calls).
  std::vector<TimerStat> plugin;

  TimerStat& operator[](Timer t) { return timer[static_cast<int>(t)]; }
  const TimerStat& operator[](Timer t) const { return timer[static_cast<int>(t)]; }
  // Every timer back to zero (enabled and the size of `plugin` are kept).
  void Clear();
};

}  // namespace gauss
