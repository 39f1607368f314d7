// Newton's Hessian factor kept between solves (plugins/solvers/newton/kept_factor.h): a solve
// whose matrices (Data::matrices_id) and quadratic rows are those of the kept factor uses it
// instead of factoring, and that changes no bit of any result (the same numbers); any writer of
// qM or the rows makes the kept factor stale.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "gauss/state.h"
#include "support/test_support.h"

namespace gauss {
namespace {

Config NewtonConfig(bool keep_factor) {
  Config config;
  config.solver = "newton";
  config.integrator = "euler";
  config.jacobian = JacobianType::kDense;  // only the dense factor is kept
  config.solver_params.Set("keep_factor", keep_factor ? "true" : "false");
  return config;
}

// contact_pile.xml after it landed, from velocities that keep its contacts busy
Data LandedPile(const Engine& engine) {
  Data d = engine.MakeData();
  std::mt19937_64 gen(7);
  std::normal_distribution<double> nd(0, 0.3);
  for (int i = 0; i < engine.model().nv; ++i) d.qvel[i] = nd(gen);
  for (int k = 0; k < 300; ++k) engine.Step(d);
  engine.Forward(d);
  return d;
}

using test::SameBits;

// The reuse path is taken: a solve that claims the kept factor's matrices id after its D was
// changed behind the id's back solves with the kept (now wrong) Hessian, so its Newton steps
// and hence its bits differ from the same solve without the kept factor. (Only a test can lie
// about the id: every kernel writer of qM or the rows draws a new one.)
TEST(NewtonKeptFactor, SolveWithTheSameMatricesUsesTheKeptFactor) {
  const Engine engine(LoadModel(test::TestModel("contact_pile.xml")), NewtonConfig(true));
  Data kept = LandedPile(engine);
  ASSERT_GT(kept.nefc, 0);
  ASSERT_FALSE(kept.solver_memory.empty());
  Data fresh = kept;
  fresh.solver_memory.clear();  // no memory: nothing kept, every solve factors
  for (Data* d : {&kept, &fresh}) {
    for (int i = 0; i < d->nefc; ++i) {
      d->efc_D[i] *= 1.5;
      d->efc_R[i] /= 1.5;
    }
    // the same point again (it starts from its own solution: the rows on the same pieces as
    // the kept factor's); the rows and their id stay
    engine.ForwardSkip(*d, Stage::kVelocity, true);
  }
  EXPECT_FALSE(SameBits(kept.qacc, fresh.qacc));
}

// Whole trajectories and forward passes that reuse stages (velocity and control
// perturbations of one state, as finite differences run them) are bit-identical with and
// without the kept factor.
TEST(NewtonKeptFactor, ResultsAreBitIdenticalToFactoringAnew) {
  const Engine keeping(LoadModel(test::TestModel("contact_pile.xml")), NewtonConfig(true));
  const Engine factoring(LoadModel(test::TestModel("contact_pile.xml")), NewtonConfig(false));
  Data a = LandedPile(keeping);
  Data b = LandedPile(factoring);
  ASSERT_GT(a.nefc, 0);
  ASSERT_TRUE(SameBits(a.qacc, b.qacc));
  const int nv = keeping.model().nv;
  int reusable = 0;  // perturbed solves whose quadratic rows are the nominal's
  for (int k = 0; k < 20; ++k) {
    keeping.Step(a);
    factoring.Step(b);
    keeping.Forward(a);
    factoring.Forward(b);
    const std::vector<int> nominal_state(a.efc_state.begin(), a.efc_state.begin() + a.nefc);
    for (int j = 0; j < nv; ++j) {
      for (Data* d : {&a, &b}) d->qvel[j] += 1e-6;
      keeping.ForwardSkip(a, Stage::kPosition, false);
      factoring.ForwardSkip(b, Stage::kPosition, false);
      ASSERT_TRUE(SameBits(a.qacc, b.qacc)) << "step " << k << " dof " << j;
      ASSERT_TRUE(SameBits(a.efc_force, b.efc_force)) << "step " << k << " dof " << j;
      if (std::equal(nominal_state.begin(), nominal_state.end(), a.efc_state.begin())) ++reusable;
      for (Data* d : {&a, &b}) d->qvel[j] -= 1e-6;
    }
    ASSERT_TRUE(SameBits(GetState(keeping.model(), a, kStatePhysics),
                         GetState(factoring.model(), b, kStatePhysics)));
  }
  EXPECT_GT(reusable, 0);  // the comparison did cover solves that could use the kept factor
}

}  // namespace
}  // namespace gauss
