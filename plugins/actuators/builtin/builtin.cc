// `builtin` actuator dynamics: the activation dynamics and force laws of MJCF <general> and its
// shortcuts (motor, position, velocity, ...), per the spec's "Actuation model":
//
//   activation:  none: no state; integrator: w' = u; filter / filterexact: w' = (u - w) / tau
//   force:       p = gain * (w or u) + bias
//                gain = g0 (fixed) or g0 + g1 l + g2 l' (affine)
//                bias = 0 (none) or b0 + b1 l + b2 l' (affine)
//
// filterexact integrates its linear dynamics exactly over a step, so it is stable for any
// tau > 0 (explicit Euler on `filter` diverges when tau < h/2).
#include <algorithm>
#include <cmath>
#include <string>

#include "gauss/actuator.h"
#include "gauss/error.h"

namespace gauss {
namespace {

double TimeConstant(const Model& m, int a) { return std::max(kMinVal, m.actuator_dynprm[kNDyn * a]); }

class BuiltinActuators : public ActuatorDynamics {
 public:
  void Check(const Model& m, const int* ids, int n) const override {
    for (int k = 0; k < n; ++k) {
      const int a = ids[k];
      const std::string what = "actuator '" + m.actuator_name[a] + "' (#" + std::to_string(a) + ")";
      const DynType dyn = m.actuator_dyntype[a];
      if (dyn == DynType::kMuscle || dyn == DynType::kUser) {
        throw Error("not supported yet: " + what + " uses muscle/user activation dynamics");
      }
      const GainType gain = m.actuator_gaintype[a];
      if (gain != GainType::kFixed && gain != GainType::kAffine) {
        throw Error("not supported yet: " + what + " uses a muscle/user gain");
      }
      const BiasType bias = m.actuator_biastype[a];
      if (bias != BiasType::kNone && bias != BiasType::kAffine) {
        throw Error("not supported yet: " + what + " uses a muscle/user bias");
      }
    }
  }

 protected:
  // (ctrl, act, actuator_length, actuator_velocity) => (act_dot, actuator_force)
  void DoCompute(const Model& m, Data& d, const double* ctrl, const int* ids,
                 int n) const override {
    for (int k = 0; k < n; ++k) {
      const int a = ids[k];
      const double u = ctrl[a];
      double input = u;
      const int adr = m.actuator_actadr[a];
      if (m.actuator_dyntype[a] != DynType::kNone && adr >= 0) {
        const double w = d.act[adr];
        switch (m.actuator_dyntype[a]) {
          case DynType::kIntegrator:
            d.act_dot[adr] = u;
            break;
          case DynType::kFilter:
          case DynType::kFilterExact:
            d.act_dot[adr] = (u - w) / TimeConstant(m, a);
            break;
          default:
            break;  // refused in Check
        }
        input = w;
      }

      const double* gp = m.actuator_gainprm.data() + kNGain * a;
      const double* bp = m.actuator_biasprm.data() + kNBias * a;
      const double len = d.actuator_length[a];
      const double vel = d.actuator_velocity[a];
      double gain = gp[0];
      if (m.actuator_gaintype[a] == GainType::kAffine) gain += gp[1] * len + gp[2] * vel;
      double bias = 0;
      if (m.actuator_biastype[a] == BiasType::kAffine) bias = bp[0] + bp[1] * len + bp[2] * vel;
      d.actuator_force[a] = gain * input + bias;
    }
  }

  // filterexact: w(t+h) = u + (w - u) e^(-h/tau), written with w' = (u - w)/tau
  double DoNextActivation(const Model& m, const Data&, int a, double act, double act_dot,
                          double h) const override {
    if (m.actuator_dyntype[a] == DynType::kFilterExact) {
      const double tau = TimeConstant(m, a);
      return act + act_dot * tau * (1 - std::exp(-h / tau));
    }
    return act + h * act_dot;
  }
};

}  // namespace
}  // namespace gauss

GAUSS_ACTUATOR_PLUGIN(gauss::BuiltinActuators, builtin, "1.0.0",
                      "MJCF general actuators: none/integrator/filter/filterexact dynamics, "
                      "fixed/affine gain, none/affine bias")
