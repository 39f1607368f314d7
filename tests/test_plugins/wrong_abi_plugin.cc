// A plugin compiled with GAUSS_PLUGIN_ABI_VERSION=999 (see CMakeLists.txt), standing for a
// library built against another Gauss: the registry must refuse it with a message naming the
// file and both ABI versions, and List() must report it as refused instead of throwing.
#include "gauss/actuator.h"
#include "gauss/plugin.h"

namespace {

class StaleGain : public gauss::ActuatorDynamics {
 protected:
  // (ctrl) => (actuator_force); never reached, the registry refuses the library first.
  void DoCompute(const gauss::Model&, gauss::Data& d, const double* ctrl, const int* ids,
                 int n) const override {
    for (int i = 0; i < n; ++i) d.actuator_force[ids[i]] = ctrl[ids[i]];
  }
};

}  // namespace

GAUSS_ACTUATOR_PLUGIN(StaleGain, test_stale, "1.0.0", "built for another plugin ABI",
                      gauss::kCapNone, gauss::kNoParams)
