// The label table of experiment_labels.h: every built-in metric, trace column and common sweep
// key. Units follow the MJCF conventions (SI: m, s, kg, N, J); generalized forces are "N or N·m"
// because they mix slide and hinge joints.
#include "experiment_labels.h"

#include <cstring>

namespace gauss::cli {
namespace {

struct Label {
  const char* column;
  const char* text;  // without the unit
  const char* unit;  // "" = dimensionless or a count
};

const Label kLabels[] = {
    // results.csv: identity and sweep keys
    {"run", "run", ""},
    {"model", "model", ""},
    {"seed", "seed", ""},
    {"variant", "variant", ""},
    {"solver", "solver", ""},
    {"integrator", "integrator", ""},
    {"cone", "friction cone", ""},
    {"jacobian", "Jacobian", ""},
    {"timestep", "timestep h", "s"},
    {"solver.iterations", "solver iteration budget", ""},
    {"solver.tolerance", "solver tolerance", ""},
    // metrics
    {"steps", "steps completed", ""},
    {"sim_time", "simulated time completed", "s"},
    {"wall_time", "wall time in Step", "s"},
    {"step_time_us", "time per step", "µs"},
    {"steps_per_second", "steps per second", "1/s"},
    {"solver_iter_mean", "solver iterations per step (mean)", ""},
    {"solver_iter_max", "solver iterations per step (max)", ""},
    {"solver_cost", "solver cost at the last iteration", ""},
    {"solver_gradient", "solver gradient norm at the last iteration", ""},
    {"ncon_mean", "contacts per step (mean)", ""},
    {"nefc_mean", "constraint rows per step (mean)", ""},
    {"penetration_max", "max penetration", "m"},
    {"eq_residual_max", "max equality residual", "m or rad"},
    {"limit_violation_max", "max limit violation", "m or rad"},
    {"energy_initial", "initial energy", "J"},
    {"energy_final", "final energy", "J"},
    {"energy_drift", "energy drift max |E(t) - E(0)|", "J"},
    {"fwdinv_residual", "forward/inverse residual", "N or N·m"},
    {"ref_error_max", "max relative qacc error vs reference", ""},
    {"ref_error_mean", "mean relative qacc error vs reference", ""},
    {"diverged", "diverged (1 = yes)", ""},
    {"diverge_time", "time of divergence", "s"},
    {"track_x", "x", "m"},
    {"track_y", "y", "m"},
    {"track_z", "z", "m"},
    {"track_travel", "travel along the initial motion", "m"},
    {"track_drift", "sideways drift (left positive)", "m"},
    {"warnings", "kernel warnings", ""},
    // trace columns
    {"time", "time", "s"},
    {"energy", "energy E = potential + kinetic", "J"},
    {"solver_iter", "solver iterations", ""},
    {"ncon", "contacts", ""},
    {"nefc", "constraint rows", ""},
    {"penetration", "penetration", "m"},
    {"eq_residual", "equality residual", "m or rad"},
    {"limit_violation", "limit violation", "m or rad"},
    {"max_qvel", "max |qvel|", "m/s or rad/s"},
    {"awake_trees", "awake kinematic trees", ""},
    {"step_rate", "steps per second (this step)", "1/s"},
};

const Label* Find(const std::string& column) {
  for (const Label& l : kLabels) {
    if (column == l.column) return &l;
  }
  return nullptr;
}

}  // namespace

std::string ColumnUnit(const std::string& column) {
  const Label* l = Find(column);
  if (l) return l->unit;
  if (column.rfind("qpos", 0) == 0) return "m or rad";
  return "";
}

std::string ColumnLabel(const std::string& column) {
  const Label* l = Find(column);
  if (!l) {
    if (column.rfind("qpos", 0) == 0) return column + " (m or rad)";
    return column;
  }
  return std::strlen(l->unit) ? std::string(l->text) + " (" + l->unit + ")" : l->text;
}

}  // namespace gauss::cli
