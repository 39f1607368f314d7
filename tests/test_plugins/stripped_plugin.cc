// A plugin library stripped of its full symbol table after linking (see CMakeLists.txt), as
// `cmake --install --strip` or a distribution package would leave it: the registry must still
// discover it, from the dynamic symbol table.
//
//   sensor "test_constant": writes `value` (from Configure) into every slot of its sensors
#include "gauss/plugin.h"
#include "gauss/sensor.h"

namespace {

class TestConstant : public gauss::Sensor {
 public:
  // (params: value) => value_
  void Configure(const gauss::Params& params) override {
    value_ = params.GetDouble("value");
  }

 protected:
  // () => sensordata[sensor_adr[id] .. + sensor_dim[id]) = value_
  void DoEvaluate(const gauss::Model& m, gauss::Data& d, gauss::Stage, const int* ids,
                  int n) const override {
    for (int i = 0; i < n; ++i) {
      const int id = ids[i];
      for (int k = 0; k < m.sensor_dim[id]; ++k) d.sensordata[m.sensor_adr[id] + k] = value_;
    }
  }

 private:
  double value_ = 0.0;
};

}  // namespace

namespace {
constexpr gauss::ParamSpec kConstantParams[] = {
    {"value", gauss::ParamType::kDouble, "0", "the value every sensor reads"}};
}  // namespace

GAUSS_SENSOR_PLUGIN(TestConstant, test_constant, "1.1.0", "constant sensor (stripped library)",
                    gauss::kCapNone, kConstantParams)
