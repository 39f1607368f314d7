// Physics options: what MJCF <option> sets and what a YAML config / --set may override.
#pragma once

#include <array>
#include <string>

#include "gauss/types.h"

namespace gauss {

struct Options {
  // timing
  double timestep = 0.002;

  // constraint solver
  double impratio = 1;            // ratio of frictional to normal contact impedance
  double tolerance = 1e-8;        // solver stops when the scaled improvement/gradient is below
  int iterations = 100;           // maximum solver iterations
  double noslip_tolerance = 1e-6;
  int noslip_iterations = 0;
  double ccd_tolerance = 1e-6;    // MJCF mpr_tolerance
  int ccd_iterations = 50;        // MJCF mpr_iterations

  // sleeping (kEnableSleep): a tree counts as at rest while max |qvel * dof_length| of its
  // dofs stays below this speed (m/s)
  double sleep_tolerance = 1e-3;

  // physical constants
  std::array<double, 3> gravity{0, 0, -9.81};
  std::array<double, 3> wind{0, 0, 0};
  std::array<double, 3> magnetic{0, -0.5, 0};
  double density = 0;    // of the medium, for fluid forces
  double viscosity = 0;  // of the medium, for fluid forces

  // contact parameter overrides (used when kEnableOverride is set)
  double o_margin = 0;
  std::array<double, kNRef> o_solref{0.02, 1};
  std::array<double, kNImp> o_solimp{0.9, 0.95, 0.001, 0.5, 2};

  // plugin choices by name: the integrator and constraint-solver plugins
  std::string integrator = "euler";  // MJCF "Euler" -> "euler", "RK4" -> "rk4", "implicit"
  std::string solver = "newton";     // MJCF "PGS" -> "pgs", "CG" -> "cg", "Newton" -> "newton"

  // discrete settings
  Cone cone = Cone::kPyramidal;
  JacobianType jacobian = JacobianType::kAuto;
  CollisionMode collision = CollisionMode::kAll;
  unsigned disableflags = 0;  // bits of DisableBit
  unsigned enableflags = 0;   // bits of EnableBit
  // MuJoCo 3.x actuatorgroupdisable: bit g set (g = 0..30) = the actuators of group g are
  // disabled (no force, activation held; ActuatorDisabled in gauss/model.h)
  unsigned disableactuator = 0;

  bool Disabled(DisableBit bit) const { return (disableflags & bit) != 0; }
  bool Enabled(EnableBit bit) const { return (enableflags & bit) != 0; }
  // Springs / dampers off: 2.2.2's passive flag, or 3.x's spring / damper flag.
  bool SpringsDisabled() const { return Disabled(kDisablePassive) || Disabled(kDisableSpring); }
  bool DampersDisabled() const { return Disabled(kDisablePassive) || Disabled(kDisableDamper); }
  // All passive forces off (gravity compensation and fluid forces too): both of the above.
  bool PassiveDisabled() const { return SpringsDisabled() && DampersDisabled(); }
};

}  // namespace gauss
