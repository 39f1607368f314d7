// `example_dcmotor`: a first-order DC-motor actuator-dynamics plugin, written against the
// installed Gauss SDK as an example of an ActuatorDynamics plugin (docs/plugin-authoring.md).
//
// A model names it through an actuator's dynamics type (a Gauss extension of MJCF: a dyntype
// that is not builtin names a plugin and gives the actuator one activation):
//
//   <general joint="axle" dyntype="example_dcmotor" dynprm="R L K imax" ctrlrange="-12 12"
//            ctrllimited="true"/>
//
// The control is the terminal voltage V, the activation the armature current i, and with the
// joint speed w = actuator_velocity (the transmission applies the gear):
//
//   L di/dt = V - R i - K w        (first order: the electrical time constant is L / R)
//   torque  = K i
//
// dynprm = (R [ohm] > 0, L [H] > 0, K [N m / A] > 0, imax [A] >= 0, 0 = no current limit).
// A current limit, as a motor driver has, clamps i to [-imax, imax].
//
// Over one step of length h the current is advanced exactly for the step's voltage and speed:
//   i(h) = i_ss + (i - i_ss) exp(-h R / L),   i_ss = (V - K w) / R,
// so a small inductance (L/R far below the timestep) stays stable.
//
// With only a viscous load b on the joint the steady speed is w = K V / (K^2 + R b), at which
// the current is i = b w / K.
#include <algorithm>
#include <cmath>
#include <string>

#include <gauss/actuator.h>
#include <gauss/error.h>
#include <gauss/plugin.h>

namespace {

struct Motor {
  double resistance, inductance, torque_constant, current_limit;
};

// (model, actuator) => its motor constants from dynprm.
Motor MotorOf(const gauss::Model& m, int actuator) {
  const double* p = m.actuator_dynprm.data() + gauss::kNDyn * actuator;
  return {p[0], p[1], p[2], p[3]};
}

double Limit(const Motor& motor, double current) {
  if (motor.current_limit <= 0) return current;
  return std::clamp(current, -motor.current_limit, motor.current_limit);
}

class DcMotor : public gauss::ActuatorDynamics {
 public:
  // Refuses actuators without a state or with non-physical constants, naming the actuator.
  void Check(const gauss::Model& m, const int* ids, int n) const override {
    for (int k = 0; k < n; ++k) {
      const int a = ids[k];
      const Motor motor = MotorOf(m, a);
      const std::string name = "actuator '" + m.actuator_name[a] + "' (example_dcmotor)";
      if (!(motor.resistance > 0 && motor.inductance > 0 && motor.torque_constant > 0 &&
            motor.current_limit >= 0)) {
        throw gauss::Error(name + ": dynprm must be R > 0, L > 0, K > 0, imax >= 0");
      }
      if (m.actuator_actadr[a] < 0 || m.actuator_actnum[a] != 1) {
        throw gauss::Error(name + ": needs exactly one activation (the current)");
      }
    }
  }

 protected:
  // (ctrl = V, act = i, actuator_velocity = w) => (act_dot = di/dt, actuator_force = K i)
  void DoCompute(const gauss::Model& m, gauss::Data& d, const double* ctrl, const int* ids,
                 int n) const override {
    for (int k = 0; k < n; ++k) {
      const int a = ids[k];
      const Motor motor = MotorOf(m, a);
      const int adr = m.actuator_actadr[a];
      const double current = Limit(motor, d.act[adr]);
      const double back_emf = motor.torque_constant * d.actuator_velocity[a];
      d.act_dot[adr] = (ctrl[a] - motor.resistance * current - back_emf) / motor.inductance;
      d.actuator_force[a] = motor.torque_constant * current;
    }
  }

  // (act = i, act_dot at the start of the step, h) => i after the step, exactly for the
  // step's voltage and speed (recovered from act_dot), then limited
  double DoNextActivation(const gauss::Model& m, const gauss::Data&, int id, double act,
                          double act_dot, double h) const override {
    const Motor motor = MotorOf(m, id);
    const double rate = motor.resistance / motor.inductance;  // 1 / time constant
    // act_dot = (V - K w - R i) / L  =>  i_ss = (V - K w) / R = i + act_dot / rate
    const double steady = act + act_dot / rate;
    return Limit(motor, steady + (act - steady) * std::exp(-h * rate));
  }
};

}  // namespace

GAUSS_ACTUATOR_PLUGIN(DcMotor, example_dcmotor, "1.0.0",
                      "example: first-order DC motor, voltage in, armature current as state "
                      "(examples/plugins)",
                      gauss::kCapNone, gauss::kNoParams)
