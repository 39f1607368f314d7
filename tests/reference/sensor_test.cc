// Sensors against MuJoCo 2.2.2 at 100 random states (random qpos, qvel, ctrl, and applied
// joint and Cartesian forces every other state), element by element to
// |a - b| / max(1, |b|) <= 1e-6:
//  - full pipeline: Engine::Forward vs mj_forward on tests/models/sensors_all.xml (every builtin
//    sensor type, contype=0: limits and equalities but no contacts), and on contact models when
//    the engine accepts contacts (skipped, saying why, while it refuses them);
//  - contact sensors on MuJoCo's own constraint state: the same kinematics in Gauss, then
//    MuJoCo's contacts, constraint rows, efc_force and qacc copied in, and the builtin plugin +
//    the kernel's noise/cutoff stage evaluated (tests/models/sensors_contact.xml with pyramidal
//    and elliptic cones, and mjref's test/sensors.xml). This checks touch zones, contact force
//    decoding and cfrc_ext independently of collision detection and the solver;
//  - the on-demand kernel quantities: subtree_linvel/angmom vs mj_subtreeVel, and cacc,
//    cfrc_int, cfrc_ext vs mj_rnePostConstraint;
//  - ray casting: Ray vs mj_ray on 5000 random rays with random exclusions (distance to 1e-9,
//    same geom), hitting every primitive type.
// Measured max errors are printed per sensor type and recorded as test properties.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../../core/src/pipeline.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "gauss/sensor_support.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kSensorTol = 1e-6;

// The random states of the sensor tests (RandomState): around qpos0 with ball and free
// quaternions perturbed by 10 N(0,1) per component, velocities 2 N(0,1), activations, controls,
// the time, and applied forces when `forces`.
RandomStateOptions WideState(bool forces) {
  RandomStateOptions o;
  o.turn = 10;
  o.act = true;
  o.time = true;
  o.forces = forces;
  return o;
}

// Near rest, for contact models: free bodies translated by 0.03 N(0,1) (heights around free_z
// when it is >= 0), quaternions perturbed by 0.15 N(0,1), velocities 0.5 N(0,1).
RandomStateOptions NearRestState(bool forces, double free_z) {
  RandomStateOptions o = WideState(forces);
  o.translation = 0.03;
  o.turn = 0.15;
  o.speed = 0.5;
  o.free_z = free_z;
  return o;
}

// Worst relative error per sensor type over all states.
class Errors {
 public:
  void Add(const Model& model, const double* gauss, const double* mujoco) {
    for (int s = 0; s < model.nsensor; ++s) {
      const int adr = model.sensor_adr[s];
      const double e = MaxRelError(gauss + adr, mujoco + adr, model.sensor_dim[s]);
      double& worst = by_type_[model.sensor_type[s]];
      worst = std::max(worst, e);
      if (e > worst_) {
        worst_ = e;
        worst_sensor_ = s;
      }
    }
  }
  double worst() const { return worst_; }
  int worst_sensor() const { return worst_sensor_; }
  // "type=err" pairs, printed and recorded for the test report.
  void Report(const std::string& label) const {
    std::string text;
    for (const auto& [type, e] : by_type_) {
      char line[96];
      std::snprintf(line, sizeof line, "%s=%.2e ", type.c_str(), e);
      text += line;
    }
    std::printf("[%s] max rel error per sensor type: %s\n", label.c_str(), text.c_str());
    ::testing::Test::RecordProperty("max_rel_error_" + label, text);
  }

 private:
  std::map<std::string, double> by_type_;
  double worst_ = 0;
  int worst_sensor_ = -1;
};

// ---------------------------------------------------------------- full pipeline

// Inputs copied into a reset Gauss Data: zero warmstart on both sides.
struct Pipeline : ReferencePair {
  Pipeline(const std::string& path, const Config& config) {
    mj = LoadMujoco(path);
    if (!mj) return;
    mjd = MakeMujocoData(mj.get());
    engine = std::make_unique<Engine>(LoadModel(path), config);
    d = engine->MakeData();
  }
};

TEST(SensorReference, EverySensorTypeMatchesMujocoThroughForward) {
  Pipeline p(TestModel("sensors_all.xml"), Config());
  ASSERT_TRUE(p.mj);
  const Model& model = p.engine->model();
  ASSERT_EQ(model.nsensordata, p.mj->nsensordata);
  std::mt19937_64 gen(7);
  Errors errors;
  double worst_subtree = 0, worst_rne = 0, worst_qacc = 0;
  int limit_rows = 0, range_hits = 0;
  for (int s = 0; s < 100; ++s) {
    RandomState(p.mj.get(), p.mjd.get(), gen, WideState(s % 2 == 1));
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Reset(p.d);
    p.CopyInputs(/*warmstart=*/false);
    p.engine->Forward(p.d);
    limit_rows += p.d.nefc - p.d.ne;
    for (int k = 0; k < model.nsensor; ++k) {
      if (model.sensor_type[k] == "rangefinder" && p.mjd->sensordata[model.sensor_adr[k]] > 0) {
        ++range_hits;
      }
    }
    worst_qacc = std::max(worst_qacc, MaxRelError(p.d.qacc.data(), p.mjd->qacc, p.mj->nv));
    errors.Add(model, p.d.sensordata.data(), p.mjd->sensordata);

    // the on-demand kernel quantities, for every body
    const int nb = p.mj->nbody;
    mj_subtreeVel(p.mj.get(), p.mjd.get());
    SubtreeVelocity(model, p.d);
    worst_subtree = std::max(
        {worst_subtree, MaxRelError(p.d.subtree_linvel.data(), p.mjd->subtree_linvel, 3 * nb),
         MaxRelError(p.d.subtree_angmom.data(), p.mjd->subtree_angmom, 3 * nb)});
    mj_rnePostConstraint(p.mj.get(), p.mjd.get());
    RnePostConstraint(model, p.d);
    worst_rne = std::max({worst_rne, MaxRelError(p.d.cacc.data(), p.mjd->cacc, 6 * nb),
                          MaxRelError(p.d.cfrc_int.data(), p.mjd->cfrc_int, 6 * nb),
                          MaxRelError(p.d.cfrc_ext.data(), p.mjd->cfrc_ext, 6 * nb)});
  }
  errors.Report("sensors_all");
  RecordProperty("max_rel_qacc_error", std::to_string(worst_qacc));
  EXPECT_GT(limit_rows, 50) << "the random states should activate limits";
  EXPECT_GT(range_hits, 200) << "the rangefinders should hit geoms";
  EXPECT_LE(errors.worst(), kSensorTol)
      << "worst sensor #" << errors.worst_sensor() << " "
      << model.sensor_type[std::max(errors.worst_sensor(), 0)];
  EXPECT_LE(worst_subtree, 1e-9);
  EXPECT_LE(worst_rne, kSensorTol);
}

// Ray casting (rangefinder, touch zones): Ray vs mj_ray on random rays through sensors_all.xml at
// random states, with random exclusions, to 1e-9 in distance and the same geom.
TEST(SensorReference, RayMatchesMujocoOnRandomRays) {
  Pipeline p(TestModel("sensors_all.xml"), Config());
  ASSERT_TRUE(p.mj);
  const Model& model = p.engine->model();
  std::mt19937_64 gen(13);
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(-2.5, 2.5);
  std::uniform_int_distribution<int> body(-1, p.mj->nbody - 1);
  int hits = 0, misses = 0;
  std::vector<int> hit_types(kNumGeomTypes, 0);
  for (int s = 0; s < 100; ++s) {
    RandomState(p.mj.get(), p.mjd.get(), gen, WideState(false));
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Reset(p.d);
    p.CopyInputs(/*warmstart=*/false);
    p.engine->Forward(p.d);
    for (int r = 0; r < 50; ++r) {
      const double pnt[3] = {ud(gen), ud(gen), ud(gen)};
      const double vec[3] = {nd(gen), nd(gen), nd(gen)};
      const int exclude = body(gen);
      const bool include_static = r % 3 != 0;
      unsigned char groups[6] = {1, 1, 1, 1, 1, 1};
      for (unsigned char& g : groups) g = gen() % 4 != 0;
      const unsigned char* group_filter = r % 2 ? groups : nullptr;
      int mj_geom = -2, geom = -2;
      const double expected = mj_ray(p.mj.get(), p.mjd.get(), pnt, vec, group_filter,
                                     include_static, exclude, &mj_geom);
      const double got = Ray(model, p.d, pnt, vec, group_filter, include_static, exclude, &geom);
      ASSERT_NEAR(got, expected, 1e-9 * std::max(1.0, std::fabs(expected)))
          << "state " << s << " ray " << r << " geoms " << geom << " " << mj_geom;
      ASSERT_EQ(geom, mj_geom) << s << " " << r;
      if (geom >= 0) {
        ++hits;
        ++hit_types[static_cast<int>(model.geom_type[geom])];
      } else {
        ++misses;
      }
    }
  }
  EXPECT_GT(hits, 500);
  EXPECT_GT(misses, 500);
  for (GeomType t : {GeomType::kPlane, GeomType::kSphere, GeomType::kCapsule,
                     GeomType::kEllipsoid, GeomType::kCylinder, GeomType::kBox}) {
    EXPECT_GT(hit_types[static_cast<int>(t)], 10) << "geom type " << static_cast<int>(t);
  }
}

// Contact models through the whole pipeline, once the engine simulates contacts.
TEST(SensorReference, ContactSensorsMatchMujocoThroughForward) {
  const std::vector<std::string> paths = {TestModel("sensors_contact.xml"),
                                           GAUSS_SHARED_DIR "/tools/mjref/test/sensors.xml"};
  for (const std::string& path : paths) {
    std::unique_ptr<Pipeline> p;
    try {
      p = std::make_unique<Pipeline>(path, Config());
    } catch (const Error& e) {
      GTEST_SKIP() << "the engine refuses contact models for now: " << e.what();
    }
    ASSERT_TRUE(p->mj);
    std::mt19937_64 gen(11);
    Errors errors;
    for (int s = 0; s < 100; ++s) {
      RandomState(p->mj.get(), p->mjd.get(), gen, NearRestState(s % 2 == 1, -1));
      mj_forward(p->mj.get(), p->mjd.get());
      p->engine->Reset(p->d);
      p->CopyInputs(/*warmstart=*/false);
      p->engine->Forward(p->d);
      errors.Add(p->engine->model(), p->d.sensordata.data(), p->mjd->sensordata);
    }
    errors.Report("forward_" + p->engine->model().name);
    EXPECT_LE(errors.worst(), kSensorTol) << path;
  }
}

// ---------------------------------------------------------------- on MuJoCo's constraint state

// MuJoCo's contacts, constraint rows and qacc into a Gauss Data that holds the same kinematics.
void CopyConstraintState(const mjModel* m, const mjData* mjd, Data& d) {
  ASSERT_LE(mjd->ncon, static_cast<int>(d.contact.size()));
  ASSERT_LE(mjd->nefc, static_cast<int>(d.efc_force.size()));
  d.ncon = mjd->ncon;
  for (int i = 0; i < mjd->ncon; ++i) {
    const mjContact& in = mjd->contact[i];
    Contact& out = d.contact[i];
    out.dist = in.dist;
    std::copy_n(in.pos, 3, out.pos);
    std::copy_n(in.frame, 9, out.frame);
    out.includemargin = in.includemargin;
    std::copy_n(in.friction, 5, out.friction);
    out.dim = in.dim;
    out.geom1 = in.geom1;
    out.geom2 = in.geom2;
    out.exclude = in.exclude;
    out.efc_address = in.efc_address;
  }
  d.ne = mjd->ne;
  d.nf = mjd->nf;
  d.nefc = mjd->nefc;
  for (int r = 0; r < mjd->nefc; ++r) {
    d.efc_type[r] = static_cast<ConstraintType>(mjd->efc_type[r]);  // same numbering
    d.efc_id[r] = mjd->efc_id[r];
    d.efc_pos[r] = mjd->efc_pos[r];
    d.efc_margin[r] = mjd->efc_margin[r];
    d.efc_vel[r] = mjd->efc_vel[r];
    d.efc_force[r] = mjd->efc_force[r];
  }
  std::copy_n(mjd->qacc, m->nv, d.qacc.begin());
}

// At 100 random states near rest (free bodies around height free_z when >= 0), expecting at
// least min_contacts contacts and min_touching positive touch readings over all states.
void CheckOnMujocoConstraints(const std::string& path, mjtCone cone, double free_z,
                              int min_contacts, int min_touching) {
  MjModelPtr mj = LoadMujoco(path);
  ASSERT_TRUE(mj);
  mj->opt.cone = cone;
  MjDataPtr mjd = MakeMujocoData(mj.get());
  // Gauss computes the kinematics; contacts come from MuJoCo, so the engine runs without them
  Config config;
  config.flags["contact"] = false;
  config.cone = cone == mjCONE_ELLIPTIC ? Cone::kElliptic : Cone::kPyramidal;
  const Engine engine(LoadModel(path), config);
  const Model& model = engine.model();
  Data d = engine.MakeData();
  PluginRegistry registry;
  PluginInstance<Sensor> plugin = registry.Create<Sensor>(PluginKind::kSensor, "builtin");
  SensorGroup group{plugin.instance.get(), {}};
  for (int s = 0; s < model.nsensor; ++s) {
    group.ids[static_cast<int>(model.sensor_needstage[s]) - 1].push_back(s);
  }
  for (const std::vector<int>& ids : group.ids) {
    plugin.instance->Check(model, ids.data(), static_cast<int>(ids.size()));
  }
  const std::vector<SensorGroup> groups{group};

  std::mt19937_64 gen(3);
  Errors errors;
  double worst_ext = 0;
  int contacts = 0, touching = 0;
  for (int s = 0; s < 100; ++s) {
    RandomState(mj.get(), mjd.get(), gen, NearRestState(s % 2 == 1, free_z));
    mj_forward(mj.get(), mjd.get());
    engine.Reset(d);
    CopyForwardInputs(mj.get(), mjd.get(), d, /*warmstart=*/false);
    engine.Forward(d);
    CopyConstraintState(mj.get(), mjd.get(), d);
    for (Stage stage : {Stage::kPosition, Stage::kVelocity, Stage::kAcceleration}) {
      EvaluateSensors(model, d, stage, groups);
    }
    errors.Add(model, d.sensordata.data(), mjd->sensordata);
    contacts += mjd->ncon;
    for (int k = 0; k < model.nsensor; ++k) {
      if (model.sensor_type[k] == "touch" && mjd->sensordata[model.sensor_adr[k]] > 0) ++touching;
    }
    mj_rnePostConstraint(mj.get(), mjd.get());
    RnePostConstraint(model, d);
    worst_ext = std::max(worst_ext, MaxRelError(d.cfrc_ext.data(), mjd->cfrc_ext, 6 * mj->nbody));
  }
  errors.Report(model.name + (cone == mjCONE_ELLIPTIC ? "_elliptic" : "_pyramidal"));
  EXPECT_GE(contacts, min_contacts) << "the random states should make contacts";
  EXPECT_GE(touching, min_touching) << "touch sensors should see some of them";
  EXPECT_LE(errors.worst(), kSensorTol)
      << "worst sensor #" << errors.worst_sensor() << " "
      << model.sensor_type[std::max(errors.worst_sensor(), 0)];
  EXPECT_LE(worst_ext, kSensorTol);
}

TEST(SensorReference, ContactSensorsOnMujocoContactsPyramidal) {
  CheckOnMujocoConstraints(TestModel("sensors_contact.xml"), mjCONE_PYRAMIDAL, -1, 300, 100);
}

TEST(SensorReference, ContactSensorsOnMujocoContactsElliptic) {
  CheckOnMujocoConstraints(TestModel("sensors_contact.xml"), mjCONE_ELLIPTIC, -1, 300, 100);
}

TEST(SensorReference, MjrefTestModelOnMujocoContacts) {
  // the ball dropped onto the floor; its touch site is a point at the ball's center, which never
  // sees a contact on the surface (as in MuJoCo): the touch reading is 0
  CheckOnMujocoConstraints(GAUSS_SHARED_DIR "/tools/mjref/test/sensors.xml", mjCONE_PYRAMIDAL,
                           0.05, 50, 0);
}

}  // namespace
}  // namespace gauss::test
