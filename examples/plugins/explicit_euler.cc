// `example_explicit_euler`: the textbook forward Euler integrator, written against the installed
// Gauss SDK as an example of an Integrator plugin (docs/plugin-authoring.md).
//
//   q' = q + h v,   v' = v + h qacc,   act' = act + h act_dot
//
// Unlike the built-in `euler` (semi-implicit: positions move with the new velocity), positions
// here move with the old velocity. For an undamped oscillator of frequency w that multiplies
// the energy by (1 + h^2 w^2) every step: the energy grows without bound, which is why
// simulators do not use it. It is here because it is the smallest complete integrator.
#include <algorithm>

#include <gauss/engine.h>
#include <gauss/integrator.h>
#include <gauss/plugin.h>

namespace {

class ExplicitEuler : public gauss::Integrator {
 public:
  // one copy of qvel
  std::size_t ScratchDoubles(const gauss::Model& m) const override { return m.nv + 8; }

 protected:
  // (qpos, qvel, act, qacc, act_dot) => (qpos, qvel, act, time) one step later
  void DoIntegrate(const gauss::Engine& engine, gauss::Data& d) const override {
    gauss::ArenaScope scope(d.arena);
    double* old_qvel = d.arena.Doubles(d.qvel.size());
    std::copy(d.qvel.begin(), d.qvel.end(), old_qvel);
    // Advance: act and qvel by one Euler step, then qpos with the velocity given (quaternions
    // of free and ball joints are rotated properly), then time
    engine.Advance(d, d.act_dot.data(), d.qacc.data(), old_qvel);
  }
};

}  // namespace

GAUSS_INTEGRATOR_PLUGIN(ExplicitEuler, example_explicit_euler, "1.0.0",
                        "example: forward (explicit) Euler, positions with the old velocity "
                        "(examples/plugins)",
                        gauss::kCapSingleStep, gauss::kNoParams)
