// The stage-timer table (see profile_table.h).
#include "profile_table.h"

#include <cstdio>

namespace gauss::cli {
namespace {

// Each timer with its nesting depth, in the order of gauss/profile.h.
struct Row {
  Timer timer;
  int depth;
};
constexpr Row kRows[] = {
    {Timer::kStep, 0},           {Timer::kForward, 1},          {Timer::kPosition, 2},
    {Timer::kPosKinematics, 3},  {Timer::kPosInertia, 3},       {Timer::kCollision, 3},
    {Timer::kCollisionBroad, 4}, {Timer::kCollisionNarrow, 4},  {Timer::kPosConstraint, 3},
    {Timer::kPosTransmission, 3}, {Timer::kVelocity, 2},        {Timer::kActuation, 2},
    {Timer::kAcceleration, 2},   {Timer::kConstraint, 2},       {Timer::kSensors, 2},
    {Timer::kIntegration, 1}};
static_assert(sizeof(kRows) / sizeof(kRows[0]) == kNumTimers, "every timer has a row");

// One formatted line: label (indented), calls/step, ns/step, % of the step.
std::string Line(const std::string& label, double calls, double ns, double step_ns) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), "%-30s %10.2f %12.0f %7.1f\n", label.c_str(), calls, ns,
                step_ns > 0 ? 100 * ns / step_ns : 0.0);
  return buf;
}

}  // namespace

std::string ProfileTable(const Engine& engine, const Data& d) {
  const Profile& p = d.profile;
  const long steps = p[Timer::kStep].number > 0 ? p[Timer::kStep].number
                                                : p[Timer::kForward].number;
  if (steps <= 0) return "profile: nothing timed\n";
  const double n = static_cast<double>(steps);
  const double step_ns = p[Timer::kStep].number > 0 ? p[Timer::kStep].duration / n
                                                    : p[Timer::kForward].duration / n;
  char head[160];
  std::snprintf(head, sizeof(head), "%-30s %10s %12s %7s\n", "stage", "calls/step", "ns/step",
                "%step");
  std::string out = head;
  for (const Row& row : kRows) {
    const TimerStat& s = p[row.timer];
    out += Line(std::string(2 * row.depth, ' ') + kTimerNames[static_cast<int>(row.timer)],
                s.number / n, s.duration / n, step_ns);
  }
  // what the step timer holds besides forward evaluation and integration (the checks)
  if (p[Timer::kStep].number > 0) {
    const double rest =
        p[Timer::kStep].duration - p[Timer::kForward].duration - p[Timer::kIntegration].duration;
    out += Line("  other (state checks)", 1.0, rest / n, step_ns);
  }

  std::snprintf(head, sizeof(head), "%-30s %10s %12s %7s\n", "plugin", "calls/step", "ns/step",
                "%step");
  out += head;
  const std::vector<PluginInfo> plugins = engine.PluginsInUse();
  for (std::size_t k = 0; k < plugins.size() && k < p.plugin.size(); ++k) {
    const TimerStat& s = p.plugin[k];
    out += Line(std::string(PluginKindName(plugins[k].kind)) + " " + plugins[k].name,
                s.number / n, s.duration / n, step_ns);
  }
  return out;
}

}  // namespace gauss::cli
