// MuJoCo 3.x tendon armature (tendon_armature.cc): the inertia a J'J in qM (whole on one chain,
// dropped across branches), inverse dynamics consistent with it, and energy conservation, which
// holds only with the bias term a J' (dJ/dt qvel).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "gauss/sparse_inertia.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// A branching chain: j1 carries l2 (j2, j2b, ball j3) and l4 (j4); a free body; a spatial
// tendon with a pulley over both branches and the free body, one along a single chain, and a
// fixed tendon whose dofs sit on one chain.
const char* kModel = R"(<mujoco><option gravity="0 0 -9.81"/><worldbody>
  <site name="w0" pos="0.3 0.2 0.5"/>
  <body name="l1"><joint name="j1" axis="0 1 0"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/><site name="s1" pos="0.25 0 0.1"/>
    <body name="l2" pos="0.5 0 0"><joint name="j2" axis="0 0.6 0.8"/>
      <joint name="j2b" type="slide" axis="1 0 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/><site name="s2" pos="0.3 0.05 0.1"/>
      <body name="l3" pos="0.5 0 0"><joint name="j3" type="ball"/>
        <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05"/>
        <site name="s3" pos="0.3 -0.05 0.1"/></body></body>
    <body name="l4" pos="0 0 -0.1"><joint name="j4" axis="1 0 0"/>
      <geom type="capsule" fromto="0 0 0 0 0.3 0" size="0.04"/><site name="s4" pos="0 0.3 0"/>
    </body></body>
  <body name="f" pos="1 1 0.5"><freejoint/><geom type="box" size="0.1 0.2 0.05"/>
    <site name="sf" pos="0.05 0.1 0"/></body></worldbody>
  <tendon>
    <spatial name="chain" armature="0.7"><site site="w0"/><site site="s1"/><site site="s2"/>
      <site site="s3"/></spatial>
    <spatial name="branches" armature="1.3"><site site="s2"/><site site="sf"/>
      <pulley divisor="2"/><site site="s3"/><site site="s4"/></spatial>
    <fixed name="fixed" armature="0.4"><joint joint="j1" coef="1"/><joint joint="j2b" coef="-0.5"/>
    </fixed></tendon></mujoco>)";

// The model with every tendon armature but `keep` set to 0 (keep = -1: none kept).
std::shared_ptr<Model> WithArmatureOf(const Model& base, int keep) {
  auto m = std::make_shared<Model>(base);
  for (int t = 0; t < m->ntendon; ++t) {
    if (t != keep) m->tendon_armature[t] = 0;
  }
  return m;
}

// Dense symmetric qM of model m at state (qpos, qvel) after Forward; also ten_J.
std::vector<double> DenseInertia(const std::shared_ptr<Model>& m, const Data& state,
                                 std::vector<double>* ten_J = nullptr) {
  const Engine engine(m);
  Data d = engine.MakeData();
  d.qpos = state.qpos;
  d.qvel = state.qvel;
  engine.Forward(d);
  const int nv = m->nv;
  std::vector<double> H(nv * nv, 0.0);
  AddTreeSparseToDense(LayoutOf(*m), d.qM.data(), H.data());
  for (int i = 0; i < nv; ++i) {
    for (int j = 0; j < i; ++j) H[j * nv + i] = H[i * nv + j];
  }
  if (ten_J) *ten_J = d.ten_J;
  return H;
}

Data PosedState(const Engine& engine) {
  Data d = engine.MakeData();
  const Model& m = engine.model();
  for (int i = 0; i < m.nq; ++i) d.qpos[i] += 0.1 * std::sin(1.7 * i + 0.3);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = std::cos(2.3 * i);
  return d;
}

TEST(TendonArmature, InertiaGainsArmatureTimesJTJOnTheStoredEntries) {
  const auto model = std::make_shared<Model>(*LoadModelFromString(kModel, "armature.xml"));
  const Engine engine(model);
  const Data state = PosedState(engine);
  const int nv = model->nv;
  const std::vector<double> bare = DenseInertia(WithArmatureOf(*model, -1), state);
  for (int t = 0; t < model->ntendon; ++t) {
    std::vector<double> ten_J;
    const std::vector<double> with = DenseInertia(WithArmatureOf(*model, t), state, &ten_J);
    const double a = model->tendon_armature[t];
    const double* J = ten_J.data() + t * nv;
    int dropped = 0;
    for (int i = 0; i < nv; ++i) {
      for (int j = 0; j < nv; ++j) {
        // stored: i == j or one dof an ancestor of the other
        bool stored = false;
        for (int k = std::max(i, j); k >= 0; k = model->dof_parentid[k]) {
          if (k == std::min(i, j)) stored = true;
        }
        const double expected = stored ? a * J[i] * J[j] : 0.0;
        if (!stored && J[i] * J[j] != 0) ++dropped;
        EXPECT_NEAR(with[i * nv + j] - bare[i * nv + j], expected, 1e-12)
            << model->tendon_name[t] << " (" << i << ", " << j << ")";
      }
    }
    // the chain and fixed tendons lie on one chain; the branching one couples l3 and l4 (and
    // the free body), whose couplings are dropped
    EXPECT_EQ(dropped > 0, model->tendon_name[t] == "branches") << model->tendon_name[t];
  }
}

TEST(TendonArmature, InverseDynamicsRecoversTheAppliedForce) {
  const auto model = std::make_shared<Model>(*LoadModelFromString(kModel, "armature.xml"));
  const Engine engine(model);
  Data d = PosedState(engine);
  for (int i = 0; i < model->nv; ++i) d.qfrc_applied[i] = 0.5 * std::sin(0.9 * i + 1);
  engine.Forward(d);
  engine.Inverse(d);
  for (int i = 0; i < model->nv; ++i) {
    EXPECT_NEAR(d.qfrc_inverse[i], d.qfrc_applied[i], 1e-9) << i;
  }
}

TEST(TendonArmature, EnergyIsConservedWithTheBiasTerm) {
  // MuJoCo's ten_armature_3.xml: springs, a ball joint with armature, a spatial tendon with
  // armature 9 across two bodies, RK4, no gravity, contacts or damping. The energy error over
  // 2 s must shrink with the timestep (measured: 1.3e-6 relative at h = 2 ms, 3.3e-7 at 1 ms,
  // second order as without tendon armature): without the bias term a J' (dJ/dt qvel) the
  // dynamics are not those of the energy, and the error would stay as h goes to zero.
  double drift[2] = {0, 0};
  double start = 0;
  for (int k = 0; k < 2; ++k) {
    auto model = std::make_shared<Model>(*LoadModel(TestModel("mjcf3/mujoco/ten_armature_3.xml")));
    model->opt.timestep = 0.002 / (1 << k);
    const Engine engine(model);
    Data d = engine.MakeData();
    for (int i = 0; i < model->nv; ++i) d.qvel[i] = 0.5 * std::cos(1.3 * i);
    engine.Forward(d);
    start = d.energy[0] + d.energy[1];
    const int steps = static_cast<int>(std::lround(2.0 / model->opt.timestep));
    for (int step = 0; step < steps; ++step) {
      engine.Step(d);
      engine.Forward(d);
      drift[k] = std::max(drift[k], std::fabs(d.energy[0] + d.energy[1] - start));
    }
  }
  EXPECT_LT(drift[0], 1e-5 * std::fabs(start)) << "start " << start;
  EXPECT_LT(drift[1], 0.35 * drift[0]) << "h = 2 ms: " << drift[0] << ", 1 ms: " << drift[1];
}

}  // namespace
}  // namespace gauss::test
