// MuJoCo 3.x contact adhesion (geom and pair `adhesion`): the contact's value (collision.cc),
// the attraction in qfrc_passive (passive.cc) and the matching shift of the rows' reference
// acceleration (constraint_assembly.cc). Asserted: a resting contact's net force and
// acceleration do not change; in the gap band an adhesive contact keeps one frictionless row
// and pulls with exactly its adhesion; a pull smaller than the adhesion holds the body, a larger
// one tears it off; the geoms' values combine by priority, else by sum, and a pair's replaces
// them.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"

namespace gauss::test {
namespace {

// A 1 kg sphere on a vertical slide above a plane, gravity off, frictionless contacts.
std::string SlideModel(const std::string& plane, const std::string& sphere,
                       const std::string& extra = "") {
  return R"(<mujoco><option gravity="0 0 0"/><worldbody>
    <geom name="plane" type="plane" size="1 1 1" condim="1" )" + plane + R"(/>
    <body pos="0 0 0.1"><joint type="slide" axis="0 0 1"/>
      <geom name="ball" type="sphere" size="0.1" mass="1" condim="1" )" + sphere + R"(/></body>
    </worldbody>)" + extra + "</mujoco>";
}

struct Evaluated {
  double qacc, constraint, passive;  // the slide's
  int nefc, dim;
  double adhesion;  // of the first contact
};

// Forward at height z of the sphere's center above its resting height (negative: penetration).
Evaluated ForwardAt(const std::string& xml, double z) {
  const Engine engine(LoadModelFromString(xml, "adhesion.xml"));
  Data d = engine.MakeData();
  d.qpos[0] = z;
  engine.Forward(d);
  return {d.qacc[0], d.qfrc_constraint[0], d.qfrc_passive[0], d.nefc,
          d.ncon > 0 ? d.contact[0].dim : 0, d.ncon > 0 ? d.contact[0].adhesion : -1};
}

TEST(Adhesion, RestingPenetrationIsUnaffectedAndTheRowCarriesTheAttraction) {
  // adhesion 0 keeps both files 3.x ones (3.12's constraint weights of a sliding body)
  const Evaluated plain = ForwardAt(SlideModel("adhesion=\"0\"", ""), -0.001);
  const Evaluated sticky = ForwardAt(SlideModel("adhesion=\"1.5\"", ""), -0.001);
  ASSERT_EQ(plain.nefc, 1);
  ASSERT_EQ(sticky.nefc, 1);
  EXPECT_GT(plain.qacc, 1);  // pushed out of the floor
  EXPECT_NEAR(sticky.qacc, plain.qacc, 1e-12);
  // the attraction pulls the sphere down with the adhesion; the row pushes back as much more
  EXPECT_NEAR(sticky.passive, -1.5, 1e-12);
  EXPECT_NEAR(sticky.constraint, plain.constraint + 1.5, 1e-12);
}

TEST(Adhesion, InTheGapBandAContactPullsWithItsAdhesionThroughOneRow) {
  // gap 0.0025 each: contacts are reported up to 0.005 apart (summed, 3.x); at 0.002 the row
  // of an adhesive contact exerts no force and the attraction alone accelerates the sphere
  const std::string gap = "gap=\"0.0025\" ";
  const Evaluated plain = ForwardAt(SlideModel(gap, gap), 0.002);
  EXPECT_EQ(plain.nefc, 0);
  EXPECT_EQ(plain.qacc, 0);
  for (const char* condim : {"", "condim=\"3\" "}) {
    std::string xml = SlideModel(gap + "adhesion=\"0.7\" ", gap);
    if (*condim) xml.replace(xml.find("condim=\"1\" "), 11, condim);
    const Evaluated sticky = ForwardAt(xml, 0.002);
    EXPECT_EQ(sticky.nefc, 1) << condim;
    EXPECT_EQ(sticky.dim, 1) << condim;
    EXPECT_NEAR(sticky.qacc, -0.7, 1e-12) << condim;
    EXPECT_NEAR(sticky.constraint, 0, 1e-12) << condim;
  }
  // beyond the gap nothing is reported
  EXPECT_EQ(ForwardAt(SlideModel(gap + "adhesion=\"0.7\" ", gap), 0.006).nefc, 0);
}

// Height after 1 s of an upward pull `force` on a sphere resting on a floor of adhesion 2 and
// gap 0.01 (without a gap the contact, and so the attraction, ends at the first separation).
double HeightAfterPull(double force) {
  const Engine engine(
      LoadModelFromString(SlideModel("adhesion=\"2\" gap=\"0.01\"", ""), "pull.xml"));
  Data d = engine.MakeData();
  for (int k = 0; k < 500; ++k) {
    d.qfrc_applied[0] = force;
    engine.Step(d);
  }
  return d.qpos[0];
}

TEST(Adhesion, APullBelowTheAdhesionHoldsALargerOneTearsOff) {
  EXPECT_LT(std::abs(HeightAfterPull(1.6)), 1e-3);
  EXPECT_GT(HeightAfterPull(2.4), 0.1);  // 0.4 N net on 1 kg for most of a second
  EXPECT_LT(std::abs(HeightAfterPull(0.0)), 1e-3);
}

TEST(Adhesion, GeomsCombineByPriorityElseBySumAndAPairReplacesThem) {
  EXPECT_EQ(ForwardAt(SlideModel("adhesion=\"1\"", "adhesion=\"3\""), -0.001).adhesion, 4);
  EXPECT_EQ(ForwardAt(SlideModel("adhesion=\"1\" priority=\"1\"", "adhesion=\"3\""), -0.001)
                .adhesion, 1);
  EXPECT_EQ(ForwardAt(SlideModel("adhesion=\"1\"", "adhesion=\"3\" priority=\"2\""), -0.001)
                .adhesion, 3);
  const std::string pair =
      R"(<contact><pair geom1="plane" geom2="ball" condim="1" adhesion="0.5"/></contact>)";
  // the plane takes no part in dynamic collisions: the explicit pair alone collides the two
  const std::string xml = SlideModel("adhesion=\"1\" contype=\"0\" conaffinity=\"0\"",
                                     "adhesion=\"3\"", pair);
  EXPECT_EQ(ForwardAt(xml, -0.001).adhesion, 0.5);
}

TEST(Adhesion, NegativeAdhesionIsRefused) {
  try {
    LoadModelFromString(SlideModel("adhesion=\"-1\"", ""), "negative.xml");
    FAIL() << "a negative adhesion must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("adhesion"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gauss::test
