// `gauss inverse`: the inverse dynamics of each (state, acceleration) in a CSV file: the
// generalized force qfrc_inverse that, applied to the model, produces the given qacc. Constraint
// forces come analytically from the soft-constraint model (Engine::Inverse).
#include <algorithm>

#include "common.h"
#include "csv.h"
#include "state_table.h"

namespace gauss::cli {
namespace {

const char* kUsage =
    "usage: gauss inverse MODEL.xml --states IN.csv --out OUT.csv [--threads T]\n"
    "                     [--config CFG.yaml] [--set KEY=VALUE]...\n\n"
    "For each row of IN.csv: reset, set the state and acceleration from the columns present\n"
    "(time, qpos*, qvel*, qacc*, act*, ctrl*; missing ones keep qpos0 and zeros), evaluate the\n"
    "inverse dynamics and write qfrc_inverse0..qfrc_inverse{nv-1} to OUT.csv. For the output of\n"
    "`gauss forward` (with the state columns) this returns the actuator and applied forces.";

std::vector<OutputGroup> OutputGroups(const Model& m) {
  return {{"qfrc_inverse", m.nv, false,
           [](const Data& d, double* o) { std::copy(d.qfrc_inverse.begin(), d.qfrc_inverse.end(), o); }}};
}

}  // namespace

int InverseCommand(const std::vector<std::string>& argv) {
  return RunStateRows(argv, {"inverse", kUsage,
                             "input states and accelerations, columns matched by name (see above)",
                             "output CSV: qfrc_inverse0..qfrc_inverse{nv-1}, one row per input row",
                             /*with_qacc=*/true, OutputGroups,
                             [](const Engine& engine, Data& d) { engine.Inverse(d); }});
}

}  // namespace gauss::cli
