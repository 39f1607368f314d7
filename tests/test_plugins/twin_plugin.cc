// Compiled into two libraries (gauss_test_twin_a, gauss_test_twin_b) in one directory, so that
// the integrator "test_twin" is exported by two different files: the registry must refuse to
// choose between them and name both files.
#include "gauss/engine.h"
#include "gauss/integrator.h"
#include "gauss/plugin.h"

#ifndef GAUSS_TEST_TWIN_COPY
#error "GAUSS_TEST_TWIN_COPY must name the copy (a or b)"
#endif

namespace {

class TestTwin : public gauss::Integrator {
 protected:
  // (time) => (time + timestep)
  void DoIntegrate(const gauss::Engine& engine, gauss::Data& d) const override {
    d.time += engine.options().timestep;
  }
};

}  // namespace

GAUSS_INTEGRATOR_PLUGIN(TestTwin, test_twin, "1.0.0", "copy " GAUSS_TEST_TWIN_COPY,
                        gauss::kCapNone, gauss::kNoParams)
