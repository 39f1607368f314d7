// The collision driver (collision.cc, collision_broadphase.cc): filters (same body, welded
// bodies, parent-child and the filterparent flag, contype/conaffinity, excluded body pairs,
// explicit pairs that bypass them), the contact parameters mixed from two geoms (values measured
// on MuJoCo 2.2.2), the override flag, the contact buffer limit, the collision modes, the
// contact frame, the dispatch table and its coverage check, and the broad phase against a test
// of every geom pair on MuJoCo's 22 humanoids and humanoid100 at random states.
//
// Narrow phase here is a small exact collider for spheres (against spheres and planes), so the
// driver is tested without the plugins; the plugins have their own tests.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "collision.h"
#include "data_alloc.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "pipeline.h"
#include "support/test_support.h"

namespace gauss {
namespace {

using namespace math;

// Exact sphere-sphere and plane-sphere contacts (no tangent hint).
class BallCollider : public Collider {
 public:
  std::vector<std::pair<GeomType, GeomType>> Pairs() const override {
    return {{GeomType::kPlane, GeomType::kSphere}, {GeomType::kSphere, GeomType::kSphere}};
  }

 protected:
  int DoCollide(const Model& m, const Data& d, int g1, int g2, double margin, Contact* out,
                int) const override {
    const double* p1 = d.geom_xpos.data() + 3 * g1;
    const double* p2 = d.geom_xpos.data() + 3 * g2;
    const double r2 = m.geom_size[3 * g2];
    double normal[3], dif[3];
    Sub3(dif, p2, p1);
    double dist;
    if (m.geom_type[g1] == GeomType::kPlane) {
      const double* mat = d.geom_xmat.data() + 9 * g1;
      normal[0] = mat[2];
      normal[1] = mat[5];
      normal[2] = mat[8];
      dist = Dot3(dif, normal) - r2;
    } else {
      Copy3(normal, dif);
      dist = Normalize3(normal) - m.geom_size[3 * g1] - r2;
    }
    if (dist >= margin) return 0;
    out->dist = dist;
    for (int i = 0; i < 3; ++i) out->pos[i] = p2[i] - normal[i] * (r2 + dist / 2);
    Copy3(out->frame, normal);
    Zero3(out->frame + 3);
    return 1;
  }
};

// A model from MJCF text with Data, at qpos0 with the position stages done.
struct Scene {
  std::shared_ptr<const Model> model;
  Data d;
  BallCollider balls;
  CollisionTable table;

  explicit Scene(const std::string& xml) {
    model = LoadModelFromString(xml);
    AllocateData(*model, d);
    BuildCollisionTable({&balls}, table);
    Kinematics(*model, d);
  }
  const Model& m() const { return *model; }

  // Names "geom1-geom2" of the contacts, in order.
  std::vector<std::string> Collide() {
    Collision(*model, d, table);
    std::vector<std::string> out;
    for (int k = 0; k < d.ncon; ++k) {
      out.push_back(m().geom_name[d.contact[k].geom1] + "-" + m().geom_name[d.contact[k].geom2]);
    }
    return out;
  }
  const Contact& Find(const std::string& g1, const std::string& g2) const {
    for (int k = 0; k < d.ncon; ++k) {
      if (d.contact[k].geom1 == m().GeomId(g1) && d.contact[k].geom2 == m().GeomId(g2)) {
        return d.contact[k];
      }
    }
    ADD_FAILURE() << "no contact " << g1 << "-" << g2;
    return d.contact[0];
  }
};

using Names = std::vector<std::string>;

// Along x at height 0.05 above a floor (all balls, radius 0.1, touch it): a1 and a2 on body A;
// w on W, welded to A; c on C (hinge child of W); g on G (hinge child of C, overlapping w, a2).
std::string ChainModel(const std::string& flags) {
  return R"(<mujoco><option>)" + flags + R"(</option><worldbody>
    <geom name="floor" type="plane" size="0 0 1"/>
    <body name="A" pos="0 0 0.05"><freejoint/>
      <geom name="a1" size="0.1" pos="-0.1 0 0"/><geom name="a2" size="0.1"/>
      <body name="W" pos="0.1 0 0"><geom name="w" size="0.1"/>
        <body name="C" pos="0.12 0 0"><joint type="hinge"/><geom name="c" size="0.1"/>
          <body name="G" pos="-0.07 0 0"><joint type="hinge"/><geom name="g" size="0.1"/></body>
        </body>
      </body>
    </body></worldbody></mujoco>)";
}

TEST(CollisionFilter, SameBodyWeldedAndParentChild) {
  // a1-a2 same body, a*-w welded, w-c and c-g parent-child: only the floor (the world is a
  // parent that does collide) and the grandparent pairs g-w, g-a2 remain
  Scene s(ChainModel(""));
  EXPECT_EQ(s.Collide(),
            (Names{"floor-a1", "floor-a2", "floor-w", "floor-c", "floor-g", "a2-g", "w-g"}));
}

TEST(CollisionFilter, FilterparentFlagOnlyLiftsTheParentFilter) {
  Scene s(ChainModel("<flag filterparent='disable'/>"));
  EXPECT_EQ(s.Collide(), (Names{"floor-a1", "floor-a2", "floor-w", "floor-c", "floor-g", "a2-g",
                                "w-c", "w-g", "c-g"}));
}

TEST(CollisionFilter, ContypeConaffinityExcludeAndExplicitPairs) {
  Scene s(R"(<mujoco><worldbody>
    <body pos="0 0 0"><freejoint/><geom name="p" size="0.1" contype="2" conaffinity="1"/></body>
    <body pos="0.15 0 0"><freejoint/><geom name="q" size="0.1" contype="2" conaffinity="1"/></body>
    <body pos="0 1 0"><freejoint/><geom name="r" size="0.1" contype="2" conaffinity="1"/></body>
    <body pos="0.15 1 0"><freejoint/><geom name="t" size="0.1" contype="1" conaffinity="2"/></body>
    <body pos="0 2 0"><freejoint/><geom name="u" size="0.1" contype="1" conaffinity="0"/></body>
    <body pos="0.15 2 0"><freejoint/><geom name="v" size="0.1" contype="0" conaffinity="1"/></body>
    <body pos="0 3 0"><freejoint/><geom name="x" size="0.1" contype="0" conaffinity="0"/></body>
    <body pos="0.15 3 0"><freejoint/><geom name="y" size="0.1"/></body>
    <body name="E1" pos="0 4 0"><freejoint/><geom name="e1" size="0.1"/></body>
    <body name="E2" pos="0.15 4 0"><freejoint/><geom name="e2" size="0.1"/></body>
  </worldbody><contact>
    <exclude body1="E2" body2="E1"/>
    <pair geom1="x" geom2="y" condim="1"/>
    <pair geom1="e2" geom2="e1" condim="6"/>
  </contact></mujoco>)");
  // p-q: no common bit; r-t and u-v (one way) share one; x with nothing; x-y and the excluded
  // E1-E2 only through their explicit pairs
  EXPECT_EQ(s.Collide(), (Names{"r-t", "u-v", "x-y", "e1-e2"}));
  EXPECT_EQ(s.Find("x", "y").dim, 1);
  EXPECT_EQ(s.Find("e1", "e2").dim, 6);
}

TEST(CollisionFilter, ExplicitPairsMergeInBodyOrderAndReplaceTheirDynamicTwin) {
  Scene s(R"(<mujoco><worldbody>
    <body pos="0 0 0"><freejoint/><geom name="a" size="0.1"/></body>
    <body pos="0.15 0 0"><freejoint/><geom name="b" size="0.1"/></body>
    <body pos="0.3 0 0"><freejoint/><geom name="c" size="0.1"/></body>
  </worldbody><contact><pair geom1="c" geom2="b" condim="4"/></contact></mujoco>)");
  EXPECT_EQ(s.Collide(), (Names{"a-b", "b-c"}));  // b-c once, with the pair's condim
  EXPECT_EQ(s.Find("b", "c").dim, 4);
  Scene pair_only(R"(<mujoco><option collision="predefined"/><worldbody>
    <body pos="0 0 0"><freejoint/><geom name="a" size="0.1"/></body>
    <body pos="0.15 0 0"><freejoint/><geom name="b" size="0.1"/></body>
    <body pos="0.3 0 0"><freejoint/><geom name="c" size="0.1"/></body>
  </worldbody><contact><pair geom1="c" geom2="b" condim="4"/></contact></mujoco>)");
  EXPECT_EQ(pair_only.Collide(), (Names{"b-c"}));
  Scene dynamic(R"(<mujoco><option collision="dynamic"/><worldbody>
    <body pos="0 0 0"><freejoint/><geom name="a" size="0.1"/></body>
    <body pos="0.15 0 0"><freejoint/><geom name="b" size="0.1"/></body>
    <body pos="0.3 0 0"><freejoint/><geom name="c" size="0.1" condim="1"/></body>
  </worldbody><contact><pair geom1="c" geom2="b" condim="4"/></contact></mujoco>)");
  EXPECT_EQ(dynamic.Collide(), (Names{"a-b", "b-c"}));
  EXPECT_EQ(dynamic.Find("b", "c").dim, 3);  // mixed from the geoms, the pair ignored
}

TEST(CollisionFilter, DisabledContactsOrConstraintsGiveNoContacts) {
  for (const char* flag : {"contact", "constraint"}) {
    Scene s(std::string("<mujoco><option><flag ") + flag + R"(='disable'/></option><worldbody>
      <body><freejoint/><geom name="a" size="0.1"/></body>
      <body pos="0.15 0 0"><freejoint/><geom name="b" size="0.1"/></body></worldbody></mujoco>)");
    s.d.ncon = 7;
    EXPECT_TRUE(s.Collide().empty()) << flag;
  }
}

// ---------------------------------------------------------------- contact parameters

// Pairs of balls 0.01 deep into each other, one pair per row of the rules measured on 2.2.2.
const char* kMixModel = R"(<mujoco>
  <option o_margin="0.05" o_solref="0.03 0.7" o_solimp="0.8 0.9 0.01 0.4 3">FLAGS</option>
  <worldbody>
    <body pos="0 0 0"><freejoint/><geom name="a1" size=".1" friction="0.5 0.01 0.002" solmix="1"
      solref="0.01 1" solimp="0.9 0.95 0.001 0.5 2" condim="3" margin="0.01" gap="0.005"/></body>
    <body pos="0.19 0 0"><freejoint/><geom name="a2" size=".1" friction="0.8 0.003 0.004" solmix="3"
      solref="0.05 0.5" solimp="0.5 0.6 0.01 0.3 4" condim="4" margin="0.02" gap="0.001"/></body>
    <body pos="0 1 0"><freejoint/><geom name="b1" size=".1" priority="2" friction="0.3 0.01 0.002"
      solref="0.01 1" condim="1" solimp="0.8 0.85 0.002 0.6 2"/></body>
    <body pos="0.19 1 0"><freejoint/><geom name="b2" size=".1" friction="0.8 0.003 0.004"
      solref="0.05 0.5" condim="6"/></body>
    <body pos="0 2 0"><freejoint/><geom name="c1" size=".1" solmix="0" solref="0.01 1"
      solimp="0.8 0.85 0.002 0.6 2"/></body>
    <body pos="0.19 2 0"><freejoint/><geom name="c2" size=".1" solmix="2" solref="0.05 0.5"/></body>
    <body pos="0 3 0"><freejoint/><geom name="d1" size=".1" solmix="0" solref="0.01 1"
      solimp="0.8 0.85 0.002 0.6 2"/></body>
    <body pos="0.19 3 0"><freejoint/><geom name="d2" size=".1" solmix="0" solref="0.05 0.5"/></body>
    <body pos="0 4 0"><freejoint/><geom name="e1" size=".1" solref="-1000 -10" solmix="1"/></body>
    <body pos="0.19 4 0"><freejoint/><geom name="e2" size=".1" solref="0.05 0.5" solmix="3"/></body>
    <body pos="0 5 0"><freejoint/><geom name="f1" size=".1" solref="-1000 -10"/></body>
    <body pos="0.19 5 0"><freejoint/><geom name="f2" size=".1" solref="-500 -20"/></body>
    <body pos="0 6 0"><freejoint/><geom name="h1" size=".1" margin="0.05" gap="0.04"/></body>
    <body pos="0.22 6 0"><freejoint/><geom name="h2" size=".1"/></body>
    <body pos="0 7 0"><freejoint/><geom name="i1" size=".1" friction="0 0 0"/></body>
    <body pos="0.19 7 0"><freejoint/><geom name="i2" size=".1" friction="0 0 0"/></body>
    <body pos="0 8 0"><freejoint/><geom name="j1" size=".1"/></body>
    <body pos="0.23 8 0"><freejoint/><geom name="j2" size=".1"/></body>
    <body pos="0 9 0"><freejoint/><geom name="k1" size=".1" margin="0.03" gap="0.02"/></body>
    <body pos="0.26 9 0"><freejoint/><geom name="k2" size=".1" margin="0.02" gap="0.01"/></body>
  </worldbody></mujoco>)";

std::string MixModel(const std::string& flags) {
  std::string xml = kMixModel;
  return xml.replace(xml.find("FLAGS"), 5, flags);
}

void ExpectArray(const double* v, std::vector<double> expected, const std::string& what) {
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(v[i], expected[i], 1e-14) << what << "[" << i << "]";
}

TEST(CollisionParams, MixingRulesMeasuredOnMujoco222) {
  Scene s(MixModel(""));
  s.Collide();
  ASSERT_EQ(s.d.ncon, 8);  // j1-j2 is 0.03 apart: beyond every margin
  // equal priority: condim and friction by maximum, solref/solimp weighted 1:3 by solmix,
  // margin and gap by maximum
  const Contact& a = s.Find("a1", "a2");
  EXPECT_EQ(a.dim, 4);
  ExpectArray(a.friction, {0.8, 0.8, 0.01, 0.004, 0.004}, "a friction");
  ExpectArray(a.solref, {0.25 * 0.01 + 0.75 * 0.05, 0.25 * 1 + 0.75 * 0.5}, "a solref");
  ExpectArray(a.solimp, {0.6, 0.6875, 0.00775, 0.35, 3.5}, "a solimp");
  EXPECT_NEAR(a.includemargin, 0.02 - 0.005, 1e-15);
  EXPECT_EQ(a.exclude, 0);
  // higher priority: every parameter of b1
  const Contact& b = s.Find("b1", "b2");
  EXPECT_EQ(b.dim, 1);
  ExpectArray(b.friction, {0.3, 0.3, 0.01, 0.002, 0.002}, "b friction");
  ExpectArray(b.solref, {0.01, 1}, "b solref");
  ExpectArray(b.solimp, {0.8, 0.85, 0.002, 0.6, 2}, "b solimp");
  // solmix 0 defers to the other geom; two zeros weigh equally
  ExpectArray(s.Find("c1", "c2").solref, {0.05, 0.5}, "c solref");
  ExpectArray(s.Find("c1", "c2").solimp, {0.9, 0.95, 0.001, 0.5, 2}, "c solimp");
  ExpectArray(s.Find("d1", "d2").solref, {0.03, 0.75}, "d solref");
  ExpectArray(s.Find("d1", "d2").solimp, {0.85, 0.9, 0.0015, 0.55, 2}, "d solimp");
  // a direct (negative) solref on either side: element-wise minimum, not mixed
  ExpectArray(s.Find("e1", "e2").solref, {-1000, -10}, "e solref");
  ExpectArray(s.Find("f1", "f2").solref, {-1000, -20}, "f solref");
  // in the gap: reported (0.02 < margin 0.05) but excluded (not below margin - gap = 0.01)
  const Contact& h = s.Find("h1", "h2");
  EXPECT_NEAR(h.dist, 0.02, 1e-14);
  EXPECT_NEAR(h.includemargin, 0.01, 1e-15);
  EXPECT_EQ(h.exclude, 1);
  // friction is clamped from below
  ExpectArray(s.Find("i1", "i2").friction, {kMinMu, kMinMu, kMinMu, kMinMu, kMinMu}, "i friction");
}

TEST(CollisionParams, OverrideReplacesMarginSolrefSolimpButNotFriction) {
  Scene s(MixModel("<flag override='enable'/>"));
  s.Collide();
  ASSERT_EQ(s.d.ncon, 9);  // o_margin 0.05 also catches j1-j2, 0.03 apart
  for (int k = 0; k < s.d.ncon; ++k) {
    const Contact& c = s.d.contact[k];
    ExpectArray(c.solref, {0.03, 0.7}, "override solref");
    ExpectArray(c.solimp, {0.8, 0.9, 0.01, 0.4, 3}, "override solimp");
  }
  EXPECT_NEAR(s.Find("j1", "j2").dist, 0.03, 1e-14);
  EXPECT_NEAR(s.Find("j1", "j2").includemargin, 0.05, 1e-15);
  EXPECT_NEAR(s.Find("a1", "a2").includemargin, 0.05 - 0.005, 1e-15);
  ExpectArray(s.Find("a1", "a2").friction, {0.8, 0.8, 0.01, 0.004, 0.004}, "friction kept");
}

// kEnableMarginSum (MuJoCo 3.12, measured with mjref3): margins and gaps add up, contacts are
// reported up to margin + gap and active below the margin.
TEST(CollisionParams, MarginSumAddsMarginsAndGapsAndTheGapLiesBeyondTheMargin) {
  Scene s(MixModel("<flag marginsum='enable'/>"));
  s.Collide();
  ASSERT_EQ(s.d.ncon, 9);  // k1-k2, 0.06 apart, within 0.05 + 0.03 (2.2.2's rule: margin 0.03)
  EXPECT_NEAR(s.Find("a1", "a2").includemargin, 0.01 + 0.02, 1e-15);
  // h: 0.02 apart, margin 0.05: active (2.2.2: in the gap, excluded, above)
  const Contact& h = s.Find("h1", "h2");
  EXPECT_NEAR(h.includemargin, 0.05, 1e-15);
  EXPECT_EQ(h.exclude, 0);
  // k: beyond the summed margin 0.05, within margin + gap 0.08: reported, excluded
  const Contact& k = s.Find("k1", "k2");
  EXPECT_NEAR(k.dist, 0.06, 1e-14);
  EXPECT_NEAR(k.includemargin, 0.05, 1e-15);
  EXPECT_EQ(k.exclude, 1);
  Scene plain(MixModel(""));
  plain.Collide();
  EXPECT_EQ(plain.d.ncon, 8);
}

TEST(CollisionParams, ContactFrameIsNormalThenMujocoTangents) {
  Scene s(MixModel(""));
  s.Collide();
  for (int k = 0; k < s.d.ncon; ++k) {
    const double* f = s.d.contact[k].frame;
    // normal +x: tangents world y and z
    ExpectArray(f, {1, 0, 0, 0, 1, 0, 0, 0, 1}, "frame");
  }
  // a normal near y: first tangent from world z, second = normal x first
  Scene t(R"(<mujoco><worldbody>
    <body><freejoint/><geom name="a" size="0.1"/></body>
    <body pos="0.06 0.18 0.03"><freejoint/><geom name="b" size="0.1"/></body></worldbody></mujoco>)");
  t.Collide();
  ASSERT_EQ(t.d.ncon, 1);
  const double* f = t.d.contact[0].frame;
  double n[3] = {0.06, 0.18, 0.03}, t1[3] = {0, 0, 1}, t2[3];
  Normalize3(n);
  AddScaled3(t1, n, -n[2]);
  Normalize3(t1);
  Cross3(t2, n, t1);
  ExpectArray(f, {n[0], n[1], n[2], t1[0], t1[1], t1[2], t2[0], t2[1], t2[2]}, "near-y frame");
}

TEST(CollisionParams, FullBufferKeepsTheFirstContactsAndWarnsPerPair) {
  std::string xml = MixModel("");
  xml.replace(xml.find("<worldbody>"), 11, "<size nconmax='3'/><worldbody>");
  Scene s(xml);
  s.Collide();
  EXPECT_EQ(s.d.ncon, 3);
  EXPECT_EQ(s.m().geom_name[s.d.contact[2].geom1], "c1");
  EXPECT_EQ(s.d.warning_count[static_cast<int>(Warning::kContactFull)], 5);  // d, e, f, h, i
  EXPECT_EQ(s.d.warning_index[static_cast<int>(Warning::kContactFull)], 3);
}

// ---------------------------------------------------------------- dispatch table

class NamedCollider : public BallCollider {
 public:
  explicit NamedCollider(std::vector<std::pair<GeomType, GeomType>> pairs)
      : pairs_(std::move(pairs)) {}
  std::vector<std::pair<GeomType, GeomType>> Pairs() const override { return pairs_; }

 private:
  std::vector<std::pair<GeomType, GeomType>> pairs_;
};

TEST(CollisionTable, FirstColliderDeclaringAPairWinsInEitherTypeOrder) {
  NamedCollider first({{GeomType::kSphere, GeomType::kPlane}});
  NamedCollider second(
      {{GeomType::kPlane, GeomType::kSphere}, {GeomType::kBox, GeomType::kSphere}});
  CollisionTable table;
  BuildCollisionTable({&first, &second}, table);
  EXPECT_EQ(table.pair[0][2], &first);
  EXPECT_EQ(table.pair[2][6], &second);
  EXPECT_EQ(table.pair[6][2], nullptr);
  EXPECT_EQ(table.pair[2][2], nullptr);
}

TEST(CollisionTable, CoverageErrorNamesTheTypesGeomsAndColliders) {
  const char* xml = R"(<mujoco><worldbody>
    <geom name="floor" type="plane" size="0 0 1"/><geom name="floor2" type="plane" size="0 0 1"/>
    <body><freejoint/><geom name="ball" size="0.1"/></body>
    <body><freejoint/><geom name="crate" type="box" size="0.1 0.1 0.1" CRATE/></body>
  </worldbody>PAIRS</mujoco>)";
  auto make = [&](const std::string& crate, const std::string& pairs, const std::string& option) {
    std::string s = xml;
    s.replace(s.find("CRATE"), 5, crate);
    s.replace(s.find("PAIRS"), 5, pairs);
    s.replace(s.find("<worldbody>"), 11, option + "<worldbody>");
    return LoadModelFromString(s);
  };
  BallCollider balls;
  CollisionTable table;
  BuildCollisionTable({&balls}, table);
  try {
    CheckCollisionCoverage(*make("", "", ""), table, {"balls", "other"});
    FAIL() << "expected a coverage error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("plane-box"), std::string::npos) << what;
    EXPECT_NE(what.find("sphere-box"), std::string::npos) << what;
    EXPECT_NE(what.find("'ball' and 'crate'"), std::string::npos) << what;
    EXPECT_NE(what.find("balls, other"), std::string::npos) << what;
    EXPECT_EQ(what.find("plane-plane"), std::string::npos) << "MuJoCo never collides planes";
  }
  // a box that collides with nothing needs no collider, unless an explicit pair names it
  EXPECT_NO_THROW(
      CheckCollisionCoverage(*make("contype='0' conaffinity='0'", "", ""), table, {"balls"}));
  const std::string pair = "<contact><pair geom1='ball' geom2='crate'/></contact>";
  EXPECT_THROW(
      CheckCollisionCoverage(*make("contype='0' conaffinity='0'", pair, ""), table, {"balls"}),
      Error);
  EXPECT_NO_THROW(CheckCollisionCoverage(
      *make("contype='0' conaffinity='0'", pair, "<option collision='dynamic'/>"), table,
      {"balls"}));
}

// ---------------------------------------------------------------- broad phase

// Random states: free bodies shuffled within a small region so that bodies of different
// humanoids interpenetrate, hinges anywhere in their range.
void Shuffle(const Model& m, Data& d, std::mt19937_64& gen, double spread) {
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(0, 1);
  for (int j = 0; j < m.njnt; ++j) {
    double* q = d.qpos.data() + m.jnt_qposadr[j];
    if (m.jnt_type[j] == JointType::kFree) {
      for (int c = 0; c < 3; ++c) q[c] = spread * nd(gen);
      q[2] = std::fabs(q[2]);
      for (int c = 3; c < 7; ++c) q[c] = nd(gen);
      NormalizeQuat(q + 3);
    } else if (m.jnt_type[j] == JointType::kBall) {
      for (int c = 0; c < 4; ++c) q[c] = nd(gen);
      NormalizeQuat(q);
    } else {
      const double* r = m.jnt_range.data() + 2 * j;
      q[0] = m.jnt_limited[j] ? r[0] + (r[1] - r[0]) * ud(gen) : nd(gen);
    }
  }
  Kinematics(m, d);
}

class BroadPhaseModels : public ::testing::TestWithParam<std::string> {};

TEST_P(BroadPhaseModels, EqualsEveryPairTestAtRandomStates) {
  auto model = LoadModel(test::TestModel("mujoco/" + GetParam()));
  for (bool override_margin : {false, true}) {
    Model m = *model;
    if (override_margin) {
      m.opt.enableflags |= kEnableOverride;
      m.opt.o_margin = 0.05;
    }
    Data d;
    AllocateData(m, d);
    std::mt19937_64 gen(17);
    std::vector<GeomPair> swept(200000);
    long total = 0;
    for (int s = 0; s < 20; ++s) {
      Shuffle(m, d, gen, s % 2 ? 0.5 : 2.0);
      const int n = BroadPhase(m, d, swept.data(), static_cast<int>(swept.size()));
      ASSERT_GE(n, 0);
      std::vector<std::pair<int, int>> sweep, brute;
      for (int k = 0; k < n; ++k) sweep.emplace_back(swept[k].g1, swept[k].g2);
      ForEachCandidateBruteForce(m, d, [&](int g1, int g2) {
        brute.emplace_back(g1, g2);
        return true;
      });
      ASSERT_EQ(sweep, brute) << GetParam() << " state " << s;
      total += n;
      EXPECT_EQ(d.arena.Mark(), 0u) << "scratch released";
    }
    EXPECT_GT(total, 200) << "too few candidates to be a test";
    RecordProperty(override_margin ? "candidates_override" : "candidates", std::to_string(total));
  }
}

INSTANTIATE_TEST_SUITE_P(Mujoco, BroadPhaseModels,
                         ::testing::Values("humanoid/22_humanoids.xml",
                                           "humanoid100/humanoid100.xml"));

TEST(BroadPhase, TooSmallOutputReportsOverflow) {
  auto model = LoadModel(test::TestModel("mujoco/humanoid/22_humanoids.xml"));
  Data d;
  AllocateData(*model, d);
  std::mt19937_64 gen(3);
  Shuffle(*model, d, gen, 0.3);
  std::vector<GeomPair> pairs(10);
  EXPECT_EQ(BroadPhase(*model, d, pairs.data(), 10), -1);
}

// Many balls in a heap: the contacts with a normal arena (sweep) and with an arena too small for
// the candidate list (every-pair fallback) are identical.
TEST(BroadPhase, FallbackWithoutScratchGivesTheSameContacts) {
  std::string xml =
      "<mujoco><size nconmax='2000'/><worldbody><geom name='floor' type='plane' size='0 0 1'/>";
  for (int i = 0; i < 80; ++i) {
    xml += "<body pos='" + std::to_string(0.05 * (i % 5)) + " " +
           std::to_string(0.05 * ((i / 5) % 4)) + " " + std::to_string(0.04 * (i / 20)) +
           "'><freejoint/><geom size='0.05'/></body>";
  }
  xml += "</worldbody></mujoco>";
  Scene a(xml), b(xml);
  b.d.arena.Reserve(BroadPhaseScratch(b.m()));  // no room for any candidate
  a.Collide();
  b.Collide();
  ASSERT_GT(a.d.ncon, 100);
  ASSERT_EQ(a.d.ncon, b.d.ncon);
  for (int k = 0; k < a.d.ncon; ++k) {
    EXPECT_EQ(a.d.contact[k].geom1, b.d.contact[k].geom1);
    EXPECT_EQ(a.d.contact[k].geom2, b.d.contact[k].geom2);
    EXPECT_EQ(a.d.contact[k].dist, b.d.contact[k].dist);
  }
}

// Models whose contype and conaffinity share no bit skip the broad phase (the filter would
// reject every candidate): explicit pairs still collide, and a model where one geom's contype
// meets another's conaffinity still finds its dynamic contacts.
TEST(CollisionTable, NoDynamicPairsWhenNoContypeMeetsAConaffinity) {
  auto make = [](const std::string& ball, const std::string& floor, const std::string& pairs) {
    return LoadModelFromString(
        "<mujoco><worldbody><geom name='floor' type='plane' size='0 0 1' " + floor +
        "/><body pos='0 0 0.05'><freejoint/><geom name='ball' size='0.1' " + ball +
        "/></body></worldbody>" + pairs + "</mujoco>");
  };
  const std::string pair = "<contact><pair geom1='floor' geom2='ball'/></contact>";
  struct Case {
    std::string ball, floor, pairs;
    bool possible;
    int contacts;  // the ball rests 0.05 into the floor
  };
  const Case cases[] = {
      {"", "", "", true, 1},
      {"contype='0'", "contype='0'", "", false, 0},
      {"contype='0'", "contype='0'", pair, false, 1},               // the explicit pair only
      {"contype='2' conaffinity='0'", "contype='0' conaffinity='2'", "", true, 1},
      {"contype='2' conaffinity='0'", "contype='0' conaffinity='1'", "", false, 0},
  };
  for (const Case& c : cases) {
    const std::shared_ptr<const Model> m = make(c.ball, c.floor, c.pairs);
    EXPECT_EQ(DynamicPairsPossible(*m), c.possible) << c.ball << " / " << c.floor;
    const Engine engine(m);
    Data d = engine.MakeData();
    engine.Forward(d);
    EXPECT_EQ(d.ncon, c.contacts) << c.ball << " / " << c.floor << " / " << c.pairs;
  }
}

}  // namespace
}  // namespace gauss
