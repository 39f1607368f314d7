// Actuator constants computed when a model is compiled: the length and acceleration scale at
// qpos0 (actuator_length0, actuator_acc0) and the feasible length range (actuator_lengthrange)
// that muscles need to normalize their length. MuJoCo 2.2.2 semantics (mj_setConst's actuator
// part and mj_setLengthRange).
#pragma once

#include <string>

#include "gauss/error.h"
#include "gauss/model.h"

namespace gauss {

// Which actuators get their length range computed (MJCF <compiler><lengthrange mode>).
enum class LengthRangeMode : int { kNone = 0, kMuscle = 1, kMuscleUser = 2, kAll = 3 };

// MJCF <compiler><lengthrange>; the defaults are MuJoCo 2.2.2's.
struct LengthRangeOptions {
  LengthRangeMode mode = LengthRangeMode::kMuscle;
  bool useexisting = true;  // keep a range the model gives (lo < hi)
  bool uselimit = false;    // copy the range of a limited joint / tendon transmission
  double accel = 20;        // acceleration that pushes the actuator to each end
  double maxforce = 0;      // bound on the pushing force's norm; 0: none
  double timeconst = 1;     // time constant of the velocity damping (at least 0.01)
  double timestep = 0.01;   // simulation timestep; 0: the model's
  double inttotal = 10;     // simulated time per direction
  double inteval = 2;       // final interval over which the extreme length is taken
  double tolrange = 0.05;   // convergence: length spread in that interval / range width
};

// Thrown by SetLengthRanges: the failing actuator's id, so that the compiler can name the
// element's file and line.
class LengthRangeError : public Error {
 public:
  LengthRangeError(int actuator, const std::string& message) : Error(message), actuator(actuator) {}
  int actuator;
};

// Model at qpos0 => (actuator_length0, actuator_acc0 = |M^-1 moment|). Needs the complete model
// (runs the position stages). Called by the MJCF compiler after SetConstants.
void SetActuatorConstants(Model& m);

// Model => actuator_lengthrange of the actuators selected by opt: for each, two simulations from
// qpos0 push the actuator towards its shortest and longest length with a force of acceleration
// `accel` (gravity, contacts, passive forces, friction loss and actuation off; limits on) while
// damping the velocity, and take the extreme length reached in the last `inteval` seconds.
// The solver and integrator plugins come from the default registry search paths. Throws
// LengthRangeError naming the actuator when a simulation diverges or does not converge.
void SetLengthRanges(Model& m, const LengthRangeOptions& opt);

}  // namespace gauss
