// An actuator-dynamics plugin written outside the Gauss source tree: direct force scaled by a
// configurable factor, with a first-order activation filter when the actuator has a state.
// It only uses the installed headers, which is what the install test checks.
#include <gauss/actuator.h>
#include <gauss/plugin.h>

namespace {

class ScaledActuator : public gauss::ActuatorDynamics {
 public:
  // (params: scale, tau) => scale_, tau_
  void Configure(const gauss::Params& params) override {
    scale_ = params.GetDouble("scale");
    tau_ = params.GetDouble("tau");
  }

 protected:
  // (ctrl, act) => (actuator_force, act_dot): force from the activation when the actuator has
  // one, from the control otherwise.
  void DoCompute(const gauss::Model& m, gauss::Data& d, const double* ctrl, const int* ids,
                 int n) const override {
    for (int i = 0; i < n; ++i) {
      const int id = ids[i];
      const int adr = m.actuator_actadr[id];
      if (adr >= 0) {
        d.act_dot[adr] = (ctrl[id] - d.act[adr]) / tau_;
        d.actuator_force[id] = scale_ * d.act[adr];
      } else {
        d.actuator_force[id] = scale_ * ctrl[id];
      }
    }
  }

 private:
  double scale_ = 1.0;
  double tau_ = 1.0;
};

}  // namespace

constexpr gauss::ParamSpec kScaledParams[] = {
    {"scale", gauss::ParamType::kDouble, "1", "force per unit control or activation"},
    {"tau", gauss::ParamType::kDouble, "1", "activation time constant (s)"}};

GAUSS_ACTUATOR_PLUGIN(ScaledActuator, oot_scaled, "0.9.2", "scaled direct force (out of tree)",
                      gauss::kCapNone, kScaledParams)
