// `example_kinetic_energy`: a sensor plugin, written against the installed Gauss SDK as an
// example of a Sensor plugin (docs/plugin-authoring.md). It evaluates the sensors it is given
// as the kinetic energy of the whole model,
//   T = 1/2 qvel' M qvel,
// from the tree-sparse inertia the position stage computed. A model names it in MJCF
//   <sensor> <plugin name="kinetic" plugin="example_kinetic_energy" dim="1" needstage="vel"/> </sensor>
// or a program hands it a `user` sensor by setting Model::sensor_plugin[id] before making the
// Engine (what demo.cc does).
#include <string>
#include <vector>

#include <gauss/error.h>
#include <gauss/plugin.h>
#include <gauss/sensor.h>
#include <gauss/sparse_inertia.h>

namespace {

class KineticEnergySensor : public gauss::Sensor {
 public:
  // refuses sensors that are not 1-dimensional or evaluated before velocities are known
  void Check(const gauss::Model& m, const int* ids, int n) const override {
    for (int k = 0; k < n; ++k) {
      const int s = ids[k];
      if (m.sensor_dim[s] != 1 || m.sensor_needstage[s] == gauss::Stage::kPosition) {
        throw gauss::Error("sensor '" + m.sensor_name[s] +
                           "' (example_kinetic_energy): needs dim 1 and needstage vel or acc");
      }
    }
  }

  std::size_t ScratchDoubles(const gauss::Model& m) const override { return m.nv + 8; }

 protected:
  // (qM, qvel) => sensordata[sensor_adr[id]] = 1/2 qvel' M qvel
  void DoEvaluate(const gauss::Model& m, gauss::Data& d, gauss::Stage, const int* ids,
                  int n) const override {
    gauss::ArenaScope scope(d.arena);
    double* Mv = d.arena.Doubles(m.nv);
    gauss::MulTreeSparse(m, d.qM.data(), d.qvel.data(), Mv);
    double energy = 0;
    for (int i = 0; i < m.nv; ++i) energy += 0.5 * d.qvel[i] * Mv[i];
    for (int k = 0; k < n; ++k) d.sensordata[m.sensor_adr[ids[k]]] = energy;
  }
};

}  // namespace

GAUSS_SENSOR_PLUGIN(KineticEnergySensor, example_kinetic_energy, "1.0.0",
                    "example: user sensors as the model's kinetic energy (examples/plugins)",
                    gauss::kCapNone, gauss::kNoParams)
