// Conformance of every discovered collider plugin (one test instance per collider, generated
// from the registry), on the primitive solids sphere, capsule, ellipsoid, cylinder and box:
//  - Declared pairs are ordered (type1 <= type2) and listed once.
//  - Agreement: for every other collider and every pair of geom types both declare, in 40
//    random poses per pair (random orientations; geom b moved along a random direction until
//    the first collider reports a contact, by bisection, then 0.2 mm further), the other
//    collider finds a contact too, and the deepest contacts agree: distance within 0.1 mm and
//    normal (frame row 0, from geom a to geom b) within 5e-3 per component. The penetration
//    depth and normal of two convex solids are unique, so colliders computing them must agree
//    up to their approximations (MPR's, for ccd; measured against primitive: depth up to
//    9e-5 m for capsule-box, 4e-5 m for capsule-capsule, normals up to 4.5e-3 for
//    capsule-box). One documented convention is allowed: box-box face contacts at half depth.
//  - Separation: beyond the margin no contact; within the margin the distance is positive.
//  - Determinism: the same poses give bitwise identical contacts on a second call.
//  - No heap allocation in Collide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "conformance/conformance.h"
#include "gauss/collider.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "support/alloc_counter.h"
#include "support/test_support.h"

namespace gauss::conformance {
namespace {

constexpr double kDepth = 2e-4;       // approach past first touch (m): resting-contact depths
constexpr double kDepthTol = 1e-4;    // deepest contact's distance, absolute (m)
constexpr double kNormalTol = 5e-3;   // deepest contact's normal, max component difference
constexpr int kPosesPerPair = 40;
constexpr int kMaxContacts = 16;

using TypePair = std::pair<GeomType, GeomType>;

const std::map<GeomType, std::string>& PrimitiveSolids() {
  static const std::map<GeomType, std::string> solids = {
      {GeomType::kSphere, "type=\"sphere\" size=\".1\""},
      {GeomType::kCapsule, "type=\"capsule\" size=\".06 .12\""},
      {GeomType::kEllipsoid, "type=\"ellipsoid\" size=\".08 .12 .1\""},
      {GeomType::kCylinder, "type=\"cylinder\" size=\".09 .1\""},
      {GeomType::kBox, "type=\"box\" size=\".1 .07 .12\""}};
  return solids;
}

std::string TypeName(GeomType t) {
  static const char* names[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid",
                                "cylinder", "box", "mesh"};
  return names[static_cast<int>(t)];
}

// Geoms a (type1) and b (type2) on two free bodies, no gravity.
std::shared_ptr<const Model> PairModel(const TypePair& pair) {
  const std::string xml =
      "<mujoco><option gravity=\"0 0 0\"/><worldbody>"
      "<body><freejoint/><geom " + PrimitiveSolids().at(pair.first) + "/></body>"
      "<body><freejoint/><geom " + PrimitiveSolids().at(pair.second) + "/></body>"
      "</worldbody></mujoco>";
  return LoadModelFromString(xml, "collider_pair.xml");
}

struct Loaded {
  PluginInstance<Collider> plugin;
  std::set<TypePair> pairs;
};

Loaded& Load(const std::string& name) {
  static PluginRegistry registry;
  static std::map<std::string, Loaded> loaded;
  auto it = loaded.find(name);
  if (it == loaded.end()) {
    Loaded entry{registry.Create<Collider>(PluginKind::kCollider, name), {}};
    for (const TypePair& p : entry.plugin.instance->Pairs()) entry.pairs.insert(p);
    it = loaded.emplace(name, std::move(entry)).first;
  }
  return it->second;
}

// A random pose of both geoms: orientations uniform, b's centre at distance `separation` from
// a's along the unit direction u.
struct Pose {
  double quat_a[4], quat_b[4], u[3];
};

Pose RandomPose(std::mt19937_64& gen) {
  std::normal_distribution<double> nd(0, 1);
  Pose p;
  for (double* q : {p.quat_a, p.quat_b}) {
    for (int i = 0; i < 4; ++i) q[i] = nd(gen);
    math::NormalizeQuat(q);
  }
  for (double& x : p.u) x = nd(gen);
  const double norm = std::sqrt(p.u[0] * p.u[0] + p.u[1] * p.u[1] + p.u[2] * p.u[2]);
  for (double& x : p.u) x /= norm;
  return p;
}

// Puts the pose into d (kinematics via Engine::Forward, whose own collision is irrelevant).
void Place(const Engine& engine, Data& d, const Pose& p, double separation) {
  double* q = d.qpos.data();
  std::fill(q, q + 3, 0.0);
  std::copy(p.quat_a, p.quat_a + 4, q + 3);
  for (int i = 0; i < 3; ++i) q[7 + i] = separation * p.u[i];
  std::copy(p.quat_b, p.quat_b + 4, q + 10);
  engine.Forward(d);
}

// Contacts of geoms 0 and 1 from `collider` at margin `margin`.
int Collide(const Collider& collider, const Model& m, const Data& d, double margin,
            Contact* out) {
  return collider.Collide(m, d, 0, 1, margin, out, kMaxContacts);
}

const Contact* Deepest(const Contact* c, int n) {
  return n == 0 ? nullptr
                : std::min_element(c, c + n, [](const Contact& a, const Contact& b) {
                    return a.dist < b.dist;
                  });
}

// Moves b along the pose's direction to where `collider` first reports a contact (bisection on
// contact or not, which MPR answers exactly, unlike its depth), then kDepth closer; false if the
// geoms never touch.
bool PressToDepth(const Collider& collider, const Engine& engine, Data& d, const Pose& p) {
  Contact c[kMaxContacts];
  double near = 0.0, far = 1.0;  // overlapping at 0, apart at 1 m (geoms are < 0.3 m)
  for (int it = 0; it < 50; ++it) {
    const double mid = 0.5 * (near + far);
    Place(engine, d, p, mid);
    (Collide(collider, engine.model(), d, 0.0, c) > 0 ? near : far) = mid;
  }
  Place(engine, d, p, near - kDepth);
  return Collide(collider, engine.model(), d, 0.0, c) > 0;
}

// MuJoCo 2.2.2's box-box collider, which the primitive collider reproduces, reports face
// contacts at half the penetration (tests/plugins/colliders/primitive_test.cc): for this pair
// the deepest distances must agree, or one be half the other.
double DepthDifference(const TypePair& pair, double a, double b) {
  const double plain = std::fabs(a - b);
  if (pair != TypePair(GeomType::kBox, GeomType::kBox)) return plain;
  return std::min({plain, std::fabs(a - 2 * b), std::fabs(2 * a - b)});
}

class ColliderConformance : public ::testing::TestWithParam<std::string> {
 protected:
  const Collider& collider() { return *Load(GetParam()).plugin.instance; }
  // This collider's pairs among the primitive solids.
  std::vector<TypePair> SolidPairs() {
    std::vector<TypePair> out;
    for (const TypePair& p : Load(GetParam()).pairs) {
      if (PrimitiveSolids().count(p.first) && PrimitiveSolids().count(p.second)) out.push_back(p);
    }
    return out;
  }
};

TEST_P(ColliderConformance, DeclaredPairsAreOrderedAndUnique) {
  const std::vector<TypePair> pairs = collider().Pairs();
  EXPECT_FALSE(pairs.empty());
  for (const TypePair& p : pairs) {
    EXPECT_LE(static_cast<int>(p.first), static_cast<int>(p.second))
        << TypeName(p.first) << "-" << TypeName(p.second);
  }
  EXPECT_EQ(std::set<TypePair>(pairs.begin(), pairs.end()).size(), pairs.size());
}

TEST_P(ColliderConformance, DeepestContactsAgreeWithEveryOtherColliderOnSharedPairs) {
  int compared = 0;
  for (const std::string& other_name : DiscoveredNames(PluginKind::kCollider)) {
    if (other_name == GetParam()) continue;
    const Loaded& other = Load(other_name);
    for (const TypePair& pair : SolidPairs()) {
      if (!other.pairs.count(pair)) continue;
      SCOPED_TRACE(GetParam() + " vs " + other_name + ", " + TypeName(pair.first) + "-" +
                   TypeName(pair.second));
      const Engine engine(PairModel(pair));
      Data d = engine.MakeData();
      std::mt19937_64 gen(17);
      double worst_depth = 0, worst_normal = 0;
      for (int k = 0; k < kPosesPerPair; ++k) {
        const Pose pose = RandomPose(gen);
        ASSERT_TRUE(PressToDepth(collider(), engine, d, pose)) << "pose " << k;
        Contact mine[kMaxContacts], theirs[kMaxContacts];
        const int n_mine = Collide(collider(), engine.model(), d, 0.0, mine);
        const int n_theirs = Collide(*other.plugin.instance, engine.model(), d, 0.0, theirs);
        ASSERT_GT(n_theirs, 0) << other_name << " finds no contact, pose " << k;
        const Contact *a = Deepest(mine, n_mine), *b = Deepest(theirs, n_theirs);
        worst_depth = std::max(worst_depth, DepthDifference(pair, a->dist, b->dist));
        for (int i = 0; i < 3; ++i) {
          worst_normal = std::max(worst_normal, std::fabs(a->frame[i] - b->frame[i]));
        }
        ++compared;
      }
      std::printf("[ measured ] %s vs %s, %s-%s: depth %.1e m, normal %.1e\n", GetParam().c_str(),
                  other_name.c_str(), TypeName(pair.first).c_str(), TypeName(pair.second).c_str(),
                  worst_depth, worst_normal);
      EXPECT_LE(worst_depth, kDepthTol);
      EXPECT_LE(worst_normal, kNormalTol);
    }
  }
  if (compared == 0) GTEST_SKIP() << "no other collider shares a primitive pair";
}

TEST_P(ColliderConformance, SeparatedGeomsGiveNoContactOrAPositiveDistanceWithinTheMargin) {
  for (const TypePair& pair : SolidPairs()) {
    SCOPED_TRACE(TypeName(pair.first) + "-" + TypeName(pair.second));
    const Engine engine(PairModel(pair));
    Data d = engine.MakeData();
    std::mt19937_64 gen(3);
    Contact c[kMaxContacts];
    for (int k = 0; k < 10; ++k) {
      const Pose pose = RandomPose(gen);
      Place(engine, d, pose, 0.8);  // farther apart than any two of the solids reach
      EXPECT_EQ(Collide(collider(), engine.model(), d, 0.0, c), 0) << "pose " << k;
      const int n = Collide(collider(), engine.model(), d, 1.0, c);  // margin spans the gap
      for (int i = 0; i < n; ++i) {
        EXPECT_GT(c[i].dist, 0.0) << "pose " << k;
        EXPECT_LT(c[i].dist, 1.0) << "pose " << k;
      }
    }
  }
}

TEST_P(ColliderConformance, SamePosesGiveBitwiseEqualContactsWithoutAllocating) {
  const bool count = test::AllocationCountAvailable();
  int contacts = 0;
  for (const TypePair& pair : SolidPairs()) {
    SCOPED_TRACE(TypeName(pair.first) + "-" + TypeName(pair.second));
    const Engine engine(PairModel(pair));
    Data d = engine.MakeData();
    std::mt19937_64 gen(11);
    for (int k = 0; k < 10; ++k) {
      Place(engine, d, RandomPose(gen), 0.08);  // closer than the sum of any two inradii
      Contact first[kMaxContacts], second[kMaxContacts];
      const long before = test::AllocationCount();
      const int n1 = Collide(collider(), engine.model(), d, 0.0, first);
      const int n2 = Collide(collider(), engine.model(), d, 0.0, second);
      if (count) {
        EXPECT_EQ(test::AllocationCount() - before, 0) << "pose " << k;
      }
      ASSERT_EQ(n1, n2);
      EXPECT_GT(n1, 0) << "pose " << k;
      for (int i = 0; i < n1; ++i) {
        EXPECT_EQ(std::memcmp(&first[i].dist, &second[i].dist, sizeof(double)), 0);
        EXPECT_EQ(std::memcmp(first[i].pos, second[i].pos, sizeof first[i].pos), 0);
        EXPECT_EQ(std::memcmp(first[i].frame, second[i].frame, sizeof first[i].frame), 0);
      }
      contacts += n1;
    }
  }
  EXPECT_GT(contacts, 0);
}

INSTANTIATE_TEST_SUITE_P(Discovered, ColliderConformance,
                         ::testing::ValuesIn(DiscoveredNames(PluginKind::kCollider)),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST(ColliderConformance, TheBuiltInCollidersAreDiscovered) {
  const std::vector<std::string> names = DiscoveredNames(PluginKind::kCollider);
  for (const char* name : {"ccd", "primitive"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

}  // namespace
}  // namespace gauss::conformance
