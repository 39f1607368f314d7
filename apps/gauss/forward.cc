// `gauss forward`: the continuous-time forward dynamics of each state in a CSV file.
//
// Input columns are matched by name (state_table.h). Each row starts from Reset, so from a zero
// warmstart unless the table has qacc_warmstart* columns: rows are independent. Output columns
// come from a table of groups (OutputGroups), so later quantities are one line each.
#include <algorithm>

#include "common.h"
#include "csv.h"
#include "state_table.h"

namespace gauss::cli {
namespace {

const char* kUsage =
    "usage: gauss forward MODEL.xml --states IN.csv --out OUT.csv [--threads T]\n"
    "                     [--config CFG.yaml] [--set KEY=VALUE]...\n\n"
    "For each row of IN.csv: reset, set the state from the columns present (time, qpos*, qvel*,\n"
    "act*, ctrl*, qacc_warmstart*; missing ones keep qpos0 and zeros), evaluate the forward\n"
    "dynamics and write qacc0..qacc{nv-1}, ncon, nefc, qfrc_constraint0..qfrc_constraint{nv-1},\n"
    "sensordata0..sensordata{nsensordata-1} and solver_iter to OUT.csv (plus\n"
    "OUT.csv.config.yaml).";

// The output columns, in order. Each group reads the Data after Engine::Forward.
std::vector<OutputGroup> OutputGroups(const Model& m) {
  return {
      {"qacc", m.nv, false, [](const Data& d, double* o) { std::copy(d.qacc.begin(), d.qacc.end(), o); }},
      {"ncon", 1, true, [](const Data& d, double* o) { *o = d.ncon; }},
      {"nefc", 1, true, [](const Data& d, double* o) { *o = d.nefc; }},
      {"qfrc_constraint", m.nv, false,
       [](const Data& d, double* o) { std::copy(d.qfrc_constraint.begin(), d.qfrc_constraint.end(), o); }},
      {"sensordata", m.nsensordata, false,
       [](const Data& d, double* o) { std::copy(d.sensordata.begin(), d.sensordata.end(), o); }},
      {"solver_iter", 1, true, [](const Data& d, double* o) { *o = d.solver_iter; }},
  };
}

}  // namespace

int ForwardCommand(const std::vector<std::string>& argv) {
  return RunStateRows(argv, {"forward", kUsage, "input states, columns matched by name (see above)",
                             "output CSV (columns above), one row per input row",
                             /*with_qacc=*/false, OutputGroups,
                             [](const Engine& engine, Data& d) { engine.Forward(d); }});
}

}  // namespace gauss::cli
