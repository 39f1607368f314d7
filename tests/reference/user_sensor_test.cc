// User sensors against MuJoCo 2.2.2's mjcb_sensor: tests/models/compile_user_sensors.xml has
// seven user sensors (every stage including "none", dims 1 to 4, real / positive / quaternion /
// axis, cutoffs) between built-in ones. MuJoCo's global mjcb_sensor and Gauss's per-engine
// SensorCallback compute the same quantities from their own Data (UserValue below), and after
// mj_forward / Engine::Forward at 50 random states the whole sensordata must agree to 1e-9
// relative: each value at the same address, each cutoff applied the same way, the needstage
// "none" sensor never written (it stays 0).
#include <gtest/gtest.h>

#include <random>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// What the callbacks write for sensor `name`, from one engine's arrays: value[0 .. dim).
// The objects are found through sensor_objid, which the compile test checks equal.
struct Arrays {
  const double *site_xpos, *xpos, *qpos, *qvel, *qacc, *actuator_force;
  const int *jnt_qposadr, *jnt_dofadr;
};

void UserValue(const std::string& name, int objid, const Arrays& a, double* value) {
  if (name == "tip_pos") {  // 2 x the site position: beyond the cutoff 1.1 in z
    for (int k = 0; k < 3; ++k) value[k] = 2 * a.site_xpos[3 * objid + k];
  } else if (name == "speed") {
    value[0] = 3 * a.qvel[a.jnt_dofadr[objid]];
  } else if (name == "accel") {  // the forearm's slide and the hinge
    value[0] = a.qacc[0];
    value[1] = a.qacc[1];
  } else if (name == "height") {  // positive: cut at 0.9 from above only
    value[0] = a.xpos[3 * objid + 2] - 0.3;
  } else if (name == "orient") {
    for (int k = 0; k < 4; ++k) value[k] = a.qpos[a.jnt_qposadr[objid] + k];
  } else if (name == "torque") {
    value[0] = a.actuator_force[objid];
  } else {  // "never": needstage none, must not be computed
    for (int k = 0; k < 3; ++k) value[k] = 7;
  }
}

// MuJoCo's callback: every user sensor of `stage`, as mjcb_sensor users write it.
void MujocoCallback(const mjModel* m, mjData* d, int stage) {
  const Arrays a{d->site_xpos, d->xpos, d->qpos, d->qvel, d->qacc, d->actuator_force,
                 m->jnt_qposadr, m->jnt_dofadr};
  for (int s = 0; s < m->nsensor; ++s) {
    if (m->sensor_type[s] != mjSENS_USER || m->sensor_needstage[s] != stage) continue;
    UserValue(mj_id2name(m, mjOBJ_SENSOR, s), m->sensor_objid[s], a, d->sensordata + m->sensor_adr[s]);
  }
}

TEST(UserSensorReference, CallbackValuesCutoffsAndOrderMatchMujoco) {
  const std::string path = TestModel("compile_user_sensors.xml");
  MjModelPtr mj = LoadMujoco(path);
  ASSERT_TRUE(mj);
  MjDataPtr mjd = MakeMujocoData(mj.get());
  Engine engine(LoadModel(path));
  const Model& m = engine.model();
  ASSERT_EQ(m.nsensordata, mj->nsensordata);
  int calls[4] = {0, 0, 0, 0};
  engine.SetSensorCallback([&calls](const Model& model, Data& d, Stage stage, const int* ids,
                                    int n) {
    ++calls[static_cast<int>(stage)];
    const Arrays a{d.site_xpos.data(), d.xpos.data(), d.qpos.data(), d.qvel.data(),
                   d.qacc.data(), d.actuator_force.data(), model.jnt_qposadr.data(),
                   model.jnt_dofadr.data()};
    for (int k = 0; k < n; ++k) {
      const int s = ids[k];
      UserValue(model.sensor_name[s], model.sensor_objid[s], a,
                d.sensordata.data() + model.sensor_adr[s]);
    }
  });
  Data d = engine.MakeData();
  mjcb_sensor = MujocoCallback;
  std::mt19937_64 gen(16);
  RandomStateOptions options;
  options.forces = true;
  double worst = 0;
  int clipped = 0;
  for (int state = 0; state < 50; ++state) {
    RandomState(mj.get(), mjd.get(), gen, options);
    mj_forward(mj.get(), mjd.get());
    engine.Reset(d);
    CopyForwardInputs(mj.get(), mjd.get(), d, false);
    engine.Forward(d);
    worst = std::max(worst, MaxRelError(d.sensordata.data(), mjd->sensordata, m.nsensordata));
    clipped += std::fabs(d.sensordata[3]) == 1.1;  // tip_pos z at its cutoff
  }
  mjcb_sensor = nullptr;
  RecordProperty("max_rel_error", std::to_string(worst));
  EXPECT_LE(worst, 1e-9);
  EXPECT_GT(clipped, 5) << "the states should drive tip_pos beyond its cutoff";
  EXPECT_EQ(calls[0], 0);
  EXPECT_EQ(calls[1], 50);
  EXPECT_EQ(calls[2], 50);
  EXPECT_EQ(calls[3], 50);
  for (int k = 13; k < 16; ++k) EXPECT_EQ(d.sensordata[k], 0) << "the needstage none sensor";
}

}  // namespace
}  // namespace gauss::test
