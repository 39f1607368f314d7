// The `ccd` collider plugin against MuJoCo 2.2.2, which also runs libccd's MPR (the same
// system library): every geom-type pair MuJoCo 2.2.2 gives to its general convex collider, at
// 500 random relative poses x margin {0, 0.05} x multiccd {off, on}, a pile of ten geoms of
// every type on a floor, and MuJoCo's mug sample, collided by Gauss's driver with
// [primitive, ccd]. MuJoCo collides Gauss's geom poses, mesh vertices and mesh bounding radii
// (copied into its mjData / mjModel), so that both colliders see the same numbers. Contacts are compared geom
// pair by geom pair - count, then dist, pos and the full frame of each contact in order;
// plane-mesh pairs count and first contact only (Gauss chooses the other two vertices
// differently, docs/collision.md).
//
// Tolerance: every pair without an ellipsoid, shallow or deep, must agree to 1e-12 (measured:
// at most 2e-15; mesh hulls are qhull's graphs in MuJoCo's order, core/src/mjcf/convex_hull.h,
// so hill climbing breaks ties between equally far hull vertices the same way). Pairs with an
// ellipsoid: 1e-4, because MuJoCo finds an ellipsoid's closest surface point iteratively, to
// about 1e-5 (normal.cc); those deeper than 2 cm may differ in up to 10% of the cases, where
// that iteration converges to another surface point (measured: 0 to 8%, same distance,
// another normal).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../../core/src/pipeline.h"
#include "collision_pair.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kTol = 1e-12;

// One model on both sides; Gauss collides with [primitive, ccd] like the engine's default.
// MuJoCo collides Gauss's geom poses, mesh vertices and mesh radii (see ShareMeshGeometry).
struct Both : CollisionPair {
  explicit Both(const std::string& path) : CollisionPair(path, {"primitive", "ccd"}) {
    if (mj) ShareMeshGeometry();
  }

  // MuJoCo's mesh vertices replaced by Gauss's (exactly representable as floats: Gauss rounds
  // them so), each MuJoCo vertex by the Gauss vertex at the same place in the body. Mesh frames
  // differ by float round-off (and arbitrarily about the axis of symmetric meshes); with
  // Gauss's frames and vertices on both sides the colliders see the same geometry. MuJoCo's
  // qhull graphs stay valid: the vertices move by ~1e-8.
  void ShareMeshGeometry() {
    for (int g = 0; g < mj->ngeom; ++g) {
      const int k = mj->geom_dataid[g];
      if (mj->geom_type[g] != mjGEOM_MESH || k < 0) continue;
      if (mj->geom_contype[g] == 0 && mj->geom_conaffinity[g] == 0) continue;  // never collides
      for (int v = 0; v < mj->mesh_vertnum[k]; ++v) {
        float* fv = mj->mesh_vert + 3 * (mj->mesh_vertadr[k] + v);
        const double local[3] = {fv[0], fv[1], fv[2]};
        double placed[3];
        mju_rotVecQuat(placed, local, mj->geom_quat + 4 * g);
        mju_addTo3(placed, mj->geom_pos + 3 * g);
        int best = -1;
        double best_dist = 1e300;
        for (int i = 0; i < model->mesh_vertnum[k]; ++i) {
          const double* x = &model->mesh_vert[3 * (model->mesh_vertadr[k] + i)];
          double p[3];
          mju_rotVecQuat(p, x, &model->geom_quat[4 * g]);
          mju_addTo3(p, &model->geom_pos[3 * g]);
          const double e = mju_dist3(p, placed);
          if (e < best_dist) {
            best_dist = e;
            best = i;
          }
        }
        const double* x = &model->mesh_vert[3 * (model->mesh_vertadr[k] + best)];
        for (int c = 0; c < 3; ++c) fv[c] = static_cast<float>(x[c]);
      }
      // a mesh's bounding radius is the half-diagonal of its vertices' box in its principal
      // frame, which is arbitrary about the axis of a mesh with two equal moments (the
      // octagonal prism: 0.139 in MuJoCo, 0.134 in Gauss); multiccd's tolerance for a new
      // contact is 1e-3 x the smaller radius, so both sides use Gauss's
      mj->geom_rbound[g] = model->geom_rbound[g];
    }
  }

  // Gauss's kinematics from MuJoCo's qpos; MuJoCo collides Gauss's geom poses (they differ
  // from its own by round-off, which MPR may amplify, see the file comment).
  void Collide() {
    mj_kinematics(mj.get(), mjd.get());
    std::copy_n(mjd->qpos, mj->nq, d.qpos.begin());
    Kinematics(*model, d);
    ComPosition(*model, d);
    std::copy_n(d.geom_xpos.data(), 3 * mj->ngeom, mjd->geom_xpos);
    std::copy_n(d.geom_xmat.data(), 9 * mj->ngeom, mjd->geom_xmat);
    mj_collision(mj.get(), mjd.get());
    Collision(*model, d, table);
  }
};

// Worst difference between Gauss's contact c and MuJoCo's r (dist, pos, frame).
double ContactError(const Contact& c, const mjContact& r) {
  return std::max(
      {std::fabs(c.dist - r.dist), MaxAbs(c.pos, r.pos, 3), MaxAbs(c.frame, r.frame, 9)});
}

// Pairs with an ellipsoid and a contact deeper than this are "deep" (see the file comment).
constexpr double kDeep = 0.02;
constexpr double kEllipsoidTol = 1e-4;

struct Tally {
  int contacts = 0;
  int exact = 0, exact_mismatched = 0;  // pairs without an ellipsoid: all must agree to kTol
  int round = 0, round_mismatched = 0;  // pairs with an ellipsoid, all contacts shallower than
                                        // kDeep: all must agree to kEllipsoidTol
  int deep = 0, deep_mismatched = 0;    // pairs with an ellipsoid and a deep contact
  double worst_exact = 0, worst_round = 0;  // over the matching pairs
  std::string first_mismatch;
};

// The contacts of one geom pair: [begin, end) in the contact list.
struct Group {
  int g1, g2, begin, end;
};

// The geom-pair groups of a contact list (consecutive contacts of one pair).
template <typename C>
std::vector<Group> Groups(const C* contacts, int n) {
  std::vector<Group> out;
  for (int k = 0; k < n; ++k) {
    if (out.empty() || out.back().g1 != contacts[k].geom1 || out.back().g2 != contacts[k].geom2) {
      out.push_back({contacts[k].geom1, contacts[k].geom2, k, k});
    }
    out.back().end = k + 1;
  }
  return out;
}

// Compares the contacts of one state geom pair by geom pair (a pair's contacts must agree in
// number and, in order, within the pair's tolerance; plane-mesh pairs: number and first
// contact).
void CompareState(const Model& m, const Data& d, const mjData* mjd, Tally* t,
                  const std::string& where) {
  t->contacts += mjd->ncon;
  const std::vector<Group> gg = Groups(d.contact.data(), d.ncon);
  const std::vector<Group> mg = Groups(mjd->contact, mjd->ncon);
  std::vector<bool> used(gg.size(), false);
  auto has_ellipsoid = [&m](int g1, int g2) {
    return m.geom_type[g1] == GeomType::kEllipsoid || m.geom_type[g2] == GeomType::kEllipsoid;
  };
  // the class of a pair: its counters; deep only for pairs with an ellipsoid
  auto classify = [&](int g1, int g2, bool deep) -> std::pair<int*, int*> {
    if (!has_ellipsoid(g1, g2)) return {&t->exact, &t->exact_mismatched};
    return deep ? std::make_pair(&t->deep, &t->deep_mismatched)
                : std::make_pair(&t->round, &t->round_mismatched);
  };
  auto mismatch = [&](int* counter, const Group* g, const Group* r, double worst) {
    ++*counter;
    if (!t->first_mismatch.empty() && counter == &t->deep_mismatched) return;
    if (!t->first_mismatch.empty() && t->exact_mismatched + t->round_mismatched > 1) return;
    std::ostringstream s;
    s << where << (counter == &t->deep_mismatched ? " (deep)" : "") << ", geoms "
      << (r ? r->g1 : g->g1) << "-" << (r ? r->g2 : g->g2) << ": gauss "
      << (g ? g->end - g->begin : 0) << " contacts, mujoco " << (r ? r->end - r->begin : 0)
      << ", worst difference " << worst;
    for (int k = 0; g && k < g->end - g->begin; ++k) {
      const Contact& c = d.contact[g->begin + k];
      s << "\n  gauss  dist " << c.dist << " n (" << c.frame[0] << ", " << c.frame[1] << ", "
        << c.frame[2] << ")";
    }
    for (int k = 0; r && k < r->end - r->begin; ++k) {
      const mjContact& c = mjd->contact[r->begin + k];
      s << "\n  mujoco dist " << c.dist << " n (" << c.frame[0] << ", " << c.frame[1] << ", "
        << c.frame[2] << ")";
    }
    t->first_mismatch = s.str();
  };
  for (const Group& r : mg) {
    bool deep = false;
    for (int k = r.begin; k < r.end; ++k) deep = deep || mjd->contact[k].dist < -kDeep;
    const auto [count, mismatched] = classify(r.g1, r.g2, deep);
    ++*count;
    const Group* g = nullptr;
    for (std::size_t i = 0; i < gg.size(); ++i) {
      if (!used[i] && gg[i].g1 == r.g1 && gg[i].g2 == r.g2) {
        g = &gg[i];
        used[i] = true;
        break;
      }
    }
    if (!g || g->end - g->begin != r.end - r.begin) {
      mismatch(mismatched, g, &r, 0);
      continue;
    }
    const bool plane_mesh =
        m.geom_type[r.g1] == GeomType::kPlane && m.geom_type[r.g2] == GeomType::kMesh;
    double worst = 0;
    for (int k = 0; k < (plane_mesh ? 1 : r.end - r.begin); ++k) {
      worst = std::max(worst, ContactError(d.contact[g->begin + k], mjd->contact[r.begin + k]));
    }
    const bool round = has_ellipsoid(r.g1, r.g2);
    if (worst <= (round ? kEllipsoidTol : kTol)) {
      double& w = round ? t->worst_round : t->worst_exact;
      w = std::max(w, worst);
    } else {
      mismatch(mismatched, g, &r, worst);
    }
  }
  for (std::size_t i = 0; i < gg.size(); ++i) {  // pairs only Gauss found
    if (used[i]) continue;
    bool deep = false;
    for (int k = gg[i].begin; k < gg[i].end; ++k) deep = deep || d.contact[k].dist < -kDeep;
    const auto [count, mismatched] = classify(gg[i].g1, gg[i].g2, deep);
    ++*count;
    mismatch(mismatched, &gg[i], nullptr, 0);
  }
}

// Test report and assertions: every pair without an ellipsoid equal to kTol, every shallow
// pair with one to kEllipsoidTol, deep pairs with one in 90% of the cases.
void Report(const std::string& name, const Tally& t) {
  ::testing::Test::RecordProperty("contacts", t.contacts);
  ::testing::Test::RecordProperty("max_error", Sci(t.worst_exact));
  ::testing::Test::RecordProperty("max_error_ellipsoid", Sci(t.worst_round));
  ::testing::Test::RecordProperty("deep_ellipsoid_mismatched", t.deep_mismatched);
  std::cout << name << ": " << t.contacts << " contacts; " << t.exact
            << " pairs without an ellipsoid, " << t.exact_mismatched << " differ, worst "
            << Sci(t.worst_exact) << " (tolerance " << Sci(kTol) << "); with an ellipsoid: "
            << t.round << " shallow pairs, " << t.round_mismatched << " differ, " << t.deep
            << " deep, " << t.deep_mismatched << " differ, worst " << Sci(t.worst_round)
            << " (tolerance " << Sci(kEllipsoidTol) << ")\n";
  EXPECT_EQ(t.exact_mismatched, 0) << t.first_mismatch;
  EXPECT_EQ(t.round_mismatched, 0) << t.first_mismatch;
  EXPECT_LE(t.deep_mismatched, t.deep / 10) << t.first_mismatch;
}

// ---------------------------------------------------------------- geom pairs

struct PairCase {
  std::string name;
  std::string a, b;  // geom attributes
};

std::ostream& operator<<(std::ostream& os, const PairCase& c) { return os << c.name; }

// Two free bodies; meshes from tests/models/meshes (binary STL and OBJ, readable by MuJoCo).
std::string PairXml(const PairCase& c, double margin, bool multiccd) {
  std::ostringstream s;
  s << "<mujoco><compiler meshdir=\"" << TestModel("meshes") << "\"/><option gravity=\"0 0 0\">"
    << "<flag multiccd=\"" << (multiccd ? "enable" : "disable") << "\"/></option>"
    << "<asset><mesh name=\"box\" file=\"box.stl\"/><mesh name=\"oct\" file=\"octagon.stl\"/>"
    << "<mesh name=\"tet\" file=\"tetrahedron.obj\"/></asset><worldbody>"
    << "<body><freejoint/><geom " << c.a << " margin=\"" << margin << "\"/></body>"
    << "<body><freejoint/><geom " << c.b << " margin=\"" << margin << "\"/></body>"
    << "</worldbody></mujoco>";
  return s.str();
}

class CcdPairs : public ::testing::TestWithParam<PairCase> {};

TEST_P(CcdPairs, EqualMujocoAtRandomPoses) {
  const PairCase& c = GetParam();
  Tally tally;
  int with_contact = 0;
  for (double margin : {0.0, 0.05}) {
    for (bool multiccd : {false, true}) {
      const std::string path = ::testing::TempDir() + "gauss_ccd_" + c.name + ".xml";
      std::ofstream(path) << PairXml(c, margin, multiccd);
      Both both(path);
      ASSERT_TRUE(both.mj);
      std::mt19937_64 gen(17);
      std::normal_distribution<double> nd(0, 1);
      for (int s = 0; s < 500; ++s) {
        mj_resetData(both.mj.get(), both.mjd.get());
        for (int body = 0; body < 2; ++body) {
          double* q = both.mjd->qpos + 7 * body;
          for (int k = 0; k < 3; ++k) q[k] = body ? 0.12 * nd(gen) : 0;
          for (int k = 3; k < 7; ++k) q[k] = nd(gen);
          mju_normalize4(q + 3);
        }
        // meshes sit off their body origin: put the geom centres where the bodies were
        mj_kinematics(both.mj.get(), both.mjd.get());
        for (int body = 0; body < 2; ++body) {
          for (int k = 0; k < 3; ++k) {
            both.mjd->qpos[7 * body + k] +=
                both.mjd->qpos[7 * body + k] - both.mjd->geom_xpos[3 * body + k];
          }
        }
        both.Collide();
        with_contact += both.mjd->ncon > 0;
        CompareState(*both.model, both.d, both.mjd.get(), &tally,
                     c.name + " margin " + std::to_string(margin) + (multiccd ? " multiccd" : "") +
                         " pose " + std::to_string(s));
      }
    }
  }
  EXPECT_GT(with_contact, 300) << "too few contacts to be a test";
  Report(c.name, tally);
}

const char* kSphere = "type=\"sphere\" size=\"0.1\"";
const char* kCapsule = "type=\"capsule\" size=\"0.05 0.1\"";
const char* kEllipsoid = "type=\"ellipsoid\" size=\"0.05 0.1 0.15\"";
const char* kCylinder = "type=\"cylinder\" size=\"0.08 0.1\"";
const char* kBox = "type=\"box\" size=\"0.05 0.1 0.12\"";
const char* kMeshBox = "type=\"mesh\" mesh=\"box\"";
const char* kMeshOct = "type=\"mesh\" mesh=\"oct\"";

INSTANTIATE_TEST_SUITE_P(
    Mpr, CcdPairs,
    ::testing::Values(PairCase{"sphere_ellipsoid", kSphere, kEllipsoid},
                      PairCase{"sphere_cylinder", kSphere, kCylinder},
                      PairCase{"sphere_mesh", kSphere, kMeshOct},
                      PairCase{"capsule_ellipsoid", kCapsule, kEllipsoid},
                      PairCase{"capsule_cylinder", kCapsule, kCylinder},
                      PairCase{"capsule_mesh", kCapsule, kMeshBox},
                      PairCase{"ellipsoid_ellipsoid", kEllipsoid, kEllipsoid},
                      PairCase{"ellipsoid_cylinder", kEllipsoid, kCylinder},
                      PairCase{"ellipsoid_box", kEllipsoid, kBox},
                      PairCase{"ellipsoid_mesh", kEllipsoid, kMeshOct},
                      PairCase{"cylinder_cylinder", kCylinder, kCylinder},
                      PairCase{"cylinder_box", kCylinder, kBox},
                      PairCase{"cylinder_mesh", kCylinder, kMeshBox},
                      PairCase{"box_mesh", kBox, kMeshOct},
                      PairCase{"mesh_mesh", kMeshOct, kMeshBox},
                      PairCase{"tet_mesh", "type=\"mesh\" mesh=\"tet\"", kMeshOct}),
    [](const ::testing::TestParamInfo<PairCase>& info) { return info.param.name; });

// ---------------------------------------------------------------- scenes

// Random piles: free bodies dropped into a small region, `lift` and more above the floor.
void CompareScene(const std::string& path, int states, double spread, double lift,
                  unsigned seed) {
  Both both(path);
  ASSERT_TRUE(both.mj);
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> nd(0, 1);
  Tally tally;
  for (int s = 0; s < states; ++s) {
    mj_resetData(both.mj.get(), both.mjd.get());
    for (int j = 0; j < both.mj->njnt; ++j) {
      if (both.mj->jnt_type[j] != mjJNT_FREE) continue;
      double* q = both.mjd->qpos + both.mj->jnt_qposadr[j];
      q[0] = spread * nd(gen);
      q[1] = spread * nd(gen);
      q[2] = lift + spread * std::fabs(nd(gen));
      for (int k = 3; k < 7; ++k) q[k] = nd(gen);
      mju_normalize4(q + 3);
    }
    both.Collide();
    CompareState(*both.model, both.d, both.mjd.get(), &tally, path + " state " + std::to_string(s));
  }
  EXPECT_GT(tally.contacts, states) << "too few contacts to be a test";
  Report(path, tally);
}

TEST(CcdScenes, ConvexPileOnAFloor) {
  for (const char* multiccd : {"disable", "enable"}) {
    std::ostringstream s;
    s << "<mujoco><compiler meshdir=\"" << TestModel("meshes") << "\"/><option><flag multiccd=\""
      << multiccd << "\"/></option><asset><mesh name=\"box\" file=\"box.stl\"/>"
      << "<mesh name=\"oct\" file=\"octagon.stl\"/><mesh name=\"tet\" file=\"tetrahedron.obj\"/>"
      << "</asset><worldbody><geom type=\"plane\" size=\"0 0 1\"/>";
    const char* geoms[] = {kCylinder, kEllipsoid, kCapsule, kMeshBox, kMeshOct, kBox,
                           "type=\"mesh\" mesh=\"tet\"", kCylinder, kEllipsoid, kSphere};
    for (const char* g : geoms) s << "<body><freejoint/><geom " << g << "/></body>";
    s << "</worldbody></mujoco>";
    const std::string path = ::testing::TempDir() + "gauss_ccd_pile.xml";
    std::ofstream(path) << s.str();
    CompareScene(path, 300, 0.2, 0.08, 21);
  }
}

TEST(CcdScenes, MugSample) {
  CompareScene(MujocoSampleModel("mug/mug.xml"), 200, 0.04, 0, 22);
}

}  // namespace
}  // namespace gauss::test
