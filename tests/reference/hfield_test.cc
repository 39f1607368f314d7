// Height fields against MuJoCo 2.2.2 (tests/models/hfield_*.xml: a PNG field under one free
// body of each convex type and rangefinders looking at it; a binary field, turned and moved,
// with margins; an inline field and a colour PNG):
//  1. the compiled samples: Gauss's hfield_data equals MuJoCo's float data exactly (the inline
//     field, which 2.2.2 cannot read, is loaded by MuJoCo as an all-zero field of the same size
//     and filled with Gauss's samples - the "program fills it later" path);
//  2. forward dynamics at 60 states per model, sampled by simulating MuJoCo from random initial
//     velocities (bodies falling, bouncing and resting on the field): the same contacts (geom
//     pairs, count, then dist, pos, frame), qacc and sensordata (rangefinders);
//  3. 200-step trajectories from the initial state (the bodies drop onto the field).
// Measured: with the same geom poses MuJoCo's collider and Gauss's give the same contacts to
// 1.6e-11 (ellipsoid contacts 1.6e-8: MuJoCo's iterative ellipsoid normal); with each side's
// own kinematics 178 of 180 states agree (contacts 2.6e-10, qacc 4.5e-7 at the solver's
// default tolerance, rangefinders 5e-16); in the other two a cylinder or a box contact a few
// millimetres deep moves with the last bits of the poses (MPR).
// The tolerances are those measured, stated at each assertion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gauss/mjcf.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// A copy of the model file MuJoCo 2.2.2 can read: no elevation attribute (its field is then
// all zeros until the samples are copied), file names made absolute.
std::string MujocoReadableCopy(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string xml = std::regex_replace(text.str(), std::regex("elevation=\"[^\"]*\""), "");
  const std::string folder = path.substr(0, path.rfind('/') + 1);
  xml = std::regex_replace(xml, std::regex("file=\"hfield/"), "file=\"" + folder + "hfield/");
  const std::string copy = ::testing::TempDir() + "/mujoco_" + path.substr(path.rfind('/') + 1);
  std::ofstream(copy) << xml;
  return copy;
}

struct HfieldPair : ReferencePair {
  MjDataPtr sim;  // MuJoCo data that samples states by simulation
  bool same_samples = true;  // MuJoCo's own samples equal Gauss's (before copying)

  explicit HfieldPair(const std::string& path) {
    // the oracle is MuJoCo 2.2.2: a file that inline `elevation` marks as a 3.x file keeps
    // 2.2.2's convex collider settings (MPR, 50 iterations, no multiccd)
    const auto model = std::make_shared<Model>(*LoadModel(path));
    model->opt.enableflags &= ~(kEnableNativeCcd | kEnableMulticcd);
    model->opt.ccd_iterations = 50;
    mj = LoadMujoco(MujocoReadableCopy(path));
    if (!mj) return;
    for (int h = 0; h < mj->nhfield && h < model->nhfield; ++h) {
      float* mine = mj->hfield_data + mj->hfield_adr[h];
      const int n = mj->hfield_nrow[h] * mj->hfield_ncol[h];
      const bool zero_field = std::all_of(mine, mine + n, [](float v) { return v == 0; });
      for (int i = 0; i < n; ++i) {
        const double gauss = model->hfield_data[model->hfield_adr[h] + i];
        if (!zero_field && mine[i] != static_cast<float>(gauss)) same_samples = false;
        mine[i] = static_cast<float>(gauss);
      }
    }
    mjd = MakeMujocoData(mj.get());
    sim = MakeMujocoData(mj.get());
    engine = std::make_unique<Engine>(model, Config());
    d = engine->MakeData();
  }
};

std::vector<std::string> HfieldModels() {
  return {TestModel("hfield_png.xml"), TestModel("hfield_bin.xml"),
          TestModel("hfield_inline.xml")};
}

// Worst difference between the two contact lists; -1 when the geom pairs or counts differ.
// Contacts with an ellipsoid are scaled down by 1e-3: MuJoCo finds an ellipsoid's normal
// iteratively (docs/collision.md: 1e-5 accuracy), measured here up to 1.6e-8.
double ContactDifference(const Model& m, const Data& d, const mjData* md) {
  if (d.ncon != md->ncon) return -1;
  double worst = 0;
  for (int k = 0; k < d.ncon; ++k) {
    const Contact& c = d.contact[k];
    const mjContact& r = md->contact[k];
    if (c.geom1 != r.geom1 || c.geom2 != r.geom2) return -1;
    double e = std::fabs(c.dist - r.dist);
    for (int i = 0; i < 3; ++i) e = std::max(e, std::fabs(c.pos[i] - r.pos[i]));
    for (int i = 0; i < 9; ++i) e = std::max(e, std::fabs(c.frame[i] - r.frame[i]));
    if (m.geom_type[c.geom1] == GeomType::kEllipsoid ||
        m.geom_type[c.geom2] == GeomType::kEllipsoid) {
      e *= 1e-3;
    }
    worst = std::max(worst, e);
  }
  return worst;
}

// Relative difference max |a - b| / max(1, |b|) over n values.
double RelativeDifference(const double* a, const double* b, int n) {
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i])));
  }
  return worst;
}

class HfieldReference : public ::testing::TestWithParam<std::string> {};

TEST_P(HfieldReference, SamplesEqualMujocos) {
  HfieldPair p(GetParam());
  ASSERT_TRUE(p.mj);
  const Model& m = p.engine->model();
  ASSERT_EQ(m.nhfield, p.mj->nhfield);
  EXPECT_TRUE(p.same_samples);
  for (int h = 0; h < m.nhfield; ++h) {
    EXPECT_EQ(m.hfield_nrow[h], p.mj->hfield_nrow[h]);
    EXPECT_EQ(m.hfield_ncol[h], p.mj->hfield_ncol[h]);
    EXPECT_EQ(m.hfield_adr[h], p.mj->hfield_adr[h]);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(m.hfield_size[4 * h + k], p.mj->hfield_size[4 * h + k]);
  }
  // geom sizes: equal; a mesh's from its float vertices, which MuJoCo's float arithmetic and
  // Gauss's double one round differently (docs/collision.md, "Meshes")
  for (int g = 0; g < m.ngeom; ++g) {
    const double tol = m.geom_type[g] == GeomType::kMesh ? 1e-7 : 0;
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(m.geom_size[3 * g + k], p.mj->geom_size[3 * g + k], tol) << g;
    }
    EXPECT_NEAR(m.geom_rbound[g], p.mj->geom_rbound[g], tol) << g;
  }
}

// Forward at states reached by simulating MuJoCo: contacts, qacc and sensors; and MuJoCo's
// collider run on Gauss's geom poses.
TEST_P(HfieldReference, ForwardAtSimulatedStatesMatchesMujoco) {
  HfieldPair p(GetParam());
  ASSERT_TRUE(p.mj);
  const Model& m = p.engine->model();
  std::mt19937_64 gen(21);
  std::normal_distribution<double> nd(0, 1);
  std::uniform_int_distribution<int> steps(30, 400);
  double worst_contact = 0, worst_qacc = 0, worst_sensor = 0, worst_shared = 0;
  int contacts = 0, hfield_contacts = 0, equal_states = 0, shared_mismatched = 0;
  std::string first_difference;
  const int states = 60;
  for (int s = 0; s < states; ++s) {
    FreeRunState(p.mj.get(), p.sim.get(), p.mjd.get(), gen, nd, 0.5, steps);
    p.engine->Reset(p.d);
    p.CopyInputs(/*warmstart=*/true);
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Forward(p.d);
    contacts += p.d.ncon;
    for (int k = 0; k < p.d.ncon; ++k) {
      hfield_contacts += m.geom_type[p.d.contact[k].geom1] == GeomType::kHfield;
    }

    // each side with its own kinematics
    const double dc = ContactDifference(m, p.d, p.mjd.get());
    const double dq = RelativeDifference(p.d.qacc.data(), p.mjd->qacc, p.mj->nv);
    const double ds =
        RelativeDifference(p.d.sensordata.data(), p.mjd->sensordata, p.mj->nsensordata);
    if (dc >= 0 && dc <= 1e-6 && dq <= 1e-6 && ds <= 1e-9) {
      ++equal_states;
      worst_contact = std::max(worst_contact, dc);
      worst_qacc = std::max(worst_qacc, dq);
      worst_sensor = std::max(worst_sensor, ds);
    } else if (first_difference.empty()) {
      first_difference = "state " + std::to_string(s) + ": contacts " + std::to_string(dc) +
                         ", qacc " + std::to_string(dq) + ", sensors " + std::to_string(ds) +
                         ContactList(p.d, p.mjd.get());
    }

    // MuJoCo's collider on Gauss's geom poses (they differ from MuJoCo's own by round-off,
    // which MPR can amplify in deeper contacts, docs/collision.md)
    std::copy_n(p.d.geom_xpos.data(), 3 * p.mj->ngeom, p.mjd->geom_xpos);
    std::copy_n(p.d.geom_xmat.data(), 9 * p.mj->ngeom, p.mjd->geom_xmat);
    mj_collision(p.mj.get(), p.mjd.get());
    const double shared = ContactDifference(m, p.d, p.mjd.get());
    if (shared < 0 || shared > 1e-9) {
      ++shared_mismatched;
      ADD_FAILURE() << "state " << s << ", the same geom poses: contacts differ (worst "
                    << shared << ")" << ContactList(p.d, p.mjd.get());
    } else {
      worst_shared = std::max(worst_shared, shared);
    }
  }
  RecordProperty("contacts", contacts);
  RecordProperty("equal_states", equal_states);
  RecordProperty("worst_shared_pose_contact", std::to_string(worst_shared));
  RecordProperty("worst_qacc", std::to_string(worst_qacc));
  std::printf("%s: %d states, %d contacts (%d with the field); same poses: contacts to %.1e; "
              "own kinematics: %d states equal (contacts to %.1e, qacc %.1e, sensors %.1e)\n%s\n",
              GetParam().c_str(), states, contacts, hfield_contacts, worst_shared, equal_states,
              worst_contact, worst_qacc, worst_sensor, first_difference.c_str());
  EXPECT_GT(hfield_contacts, states);  // the states do exercise the field
  EXPECT_EQ(shared_mismatched, 0);
  EXPECT_LE(worst_shared, 1e-9);
  // own kinematics: geom poses differ from MuJoCo's by ~1e-16, which MPR amplifies in a few
  // deeper or cylinder contacts (measured: 2 of 60 states on hfield_png.xml, 0 on the others)
  EXPECT_GE(equal_states, states - 3);
}

// 200 steps from the initial state: the bodies fall onto the field and come to rest. Contact
// dynamics amplify round-off: when a deep contact's MPR result (a cylinder's, typically) moves
// with the last bits of the geom poses, the trajectories part. Asserted: agreement to 1e-6 over
// the first 20 steps with contacts (as for the humanoid in contact_dynamics_test.cc);
// reported: the whole run. Measured: hfield_png.xml and hfield_bin.xml agree over all 200
// steps (5.7e-8, 5.2e-10); hfield_inline.xml to 3e-14 until step 139, when a cylinder contact
// 1 cm deep differs by 2e-7, and by 2.0e-2 at step 200 (3.8e-3 before Gauss solved this 3.x
// file by island: docs/islands.md, "Default").
TEST_P(HfieldReference, TrajectoryMatchesMujocoFor200Steps) {
  HfieldPair p(GetParam());
  ASSERT_TRUE(p.mj);
  double worst = 0, worst_asserted = 0;
  int first_contact_step = -1, diverged = -1;
  for (int k = 0; k < 200; ++k) {
    mj_step(p.mj.get(), p.mjd.get());
    p.engine->Step(p.d);
    if (first_contact_step < 0 && p.mjd->ncon > 0) first_contact_step = k;
    const double e = RelativeDifference(p.d.qpos.data(), p.mjd->qpos, p.mj->nq);
    if (diverged < 0 && e > 1e-6) diverged = k;
    worst = std::max(worst, e);
    if (first_contact_step < 0 || k < first_contact_step + 20) worst_asserted = worst;
  }
  std::printf("%s: first contact at step %d, worst qpos difference %.1e over the first 20 "
              "contact steps, %.1e over 200 steps (first step above 1e-6: %d)\n",
              GetParam().c_str(), first_contact_step, worst_asserted, worst, diverged);
  RecordProperty("max_qpos_error", std::to_string(worst));
  EXPECT_GE(first_contact_step, 0);
  EXPECT_LT(first_contact_step, 150);
  EXPECT_LE(worst_asserted, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Models, HfieldReference, ::testing::ValuesIn(HfieldModels()));

}  // namespace
}  // namespace gauss::test
