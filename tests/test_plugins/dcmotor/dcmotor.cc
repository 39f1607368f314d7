// `dcmotor`: a third-party ActuatorDynamics plugin, named by a model through its actuator's
// type (<general dyntype="dcmotor" .../>, docs/mjcf.md). A permanent-magnet DC motor driven by
// a voltage, with the armature current as the actuator's activation:
//
//   L di/dt = V - R i - kt w        (V = control, w = actuator_velocity: back-EMF)
//   torque  = kt i                  (actuator_force, mapped to the joint by the transmission)
//
// Parameters per actuator: dynprm = (R [ohm], L [H], kt [N m / A]); the torque and back-EMF
// constants are equal (SI units). The current is integrated exactly over a step for the
// step's voltage and speed (i relaxes to (V - kt w) / R with time constant L / R), so a small
// inductance does not make the step unstable.
//
// With a viscous load b on the joint (and nothing else), the steady speed is
//   w = V kt / (kt^2 + R b) = V / (kt + R b / kt).
#include <cmath>
#include <string>

#include "gauss/actuator.h"
#include "gauss/error.h"
#include "gauss/plugin.h"

namespace {

struct MotorParams {
  double resistance, inductance, kt;
};

MotorParams ParamsOf(const gauss::Model& m, int a) {
  const double* p = m.actuator_dynprm.data() + gauss::kNDyn * a;
  return {p[0], p[1], p[2]};
}

class DcMotor : public gauss::ActuatorDynamics {
 public:
  // every actuator needs positive R, L, kt and an activation (the current)
  void Check(const gauss::Model& m, const int* ids, int n) const override {
    for (int k = 0; k < n; ++k) {
      const int a = ids[k];
      const MotorParams p = ParamsOf(m, a);
      const std::string what = "dcmotor actuator '" + m.actuator_name[a] + "'";
      if (!(p.resistance > 0 && p.inductance > 0 && p.kt > 0)) {
        throw gauss::Error(what + ": dynprm must hold positive R, L and kt");
      }
      if (m.actuator_actadr[a] < 0) throw gauss::Error(what + ": needs an activation state");
    }
  }

 protected:
  // (ctrl = voltage, act = current, actuator_velocity) => (act_dot, actuator_force)
  void DoCompute(const gauss::Model& m, gauss::Data& d, const double* ctrl, const int* ids,
                 int n) const override {
    for (int k = 0; k < n; ++k) {
      const int a = ids[k];
      const MotorParams p = ParamsOf(m, a);
      const int adr = m.actuator_actadr[a];
      const double current = d.act[adr];
      const double emf = p.kt * d.actuator_velocity[a];
      d.act_dot[adr] = (ctrl[a] - p.resistance * current - emf) / p.inductance;
      d.actuator_force[a] = p.kt * current;
    }
  }

  // exact relaxation towards the steady current: i + i' tau (1 - e^(-h/tau)), tau = L / R
  double DoNextActivation(const gauss::Model& m, const gauss::Data&, int a, double act,
                          double act_dot, double h) const override {
    const MotorParams p = ParamsOf(m, a);
    const double tau = p.inductance / p.resistance;
    return act + act_dot * tau * (1 - std::exp(-h / tau));
  }
};

}  // namespace

GAUSS_ACTUATOR_PLUGIN(DcMotor, dcmotor, "1.0.0",
                      "DC motor: armature current as activation, torque kt i, back-EMF (test)",
                      // the torque kt i depends on the velocity only through the current's
                      // dynamics: its direct velocity derivative is the default zero
                      gauss::kCapVelocityDerivative, gauss::kNoParams)
