// MuJoCo 3.12's box-box contacts (plugins/colliders/primitive/box_clip.cc, flag boxclip) against
// closed-form geometry and physics: face-on-face contacts are the corners of the overlap of the
// two faces, at the full penetration depth and midway between the faces; twisted squares give
// the octagon and nothing outside it; a centred stack gives a contact set symmetric about the
// axis; crossed edges give one contact at the crossing; boxes farther apart than the margin give
// none. A box resting on a box settles without drifting: the same four corner contacts step
// after step, penetration constant to 1e-9 and velocities below 1e-8, the contact forces
// symmetric. Tolerance 1e-12 on geometry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "data_alloc.h"
#include "gauss/collider.h"
#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "pipeline.h"

namespace gauss {
namespace {

constexpr double kTol = 1e-12;

class BoxClip : public ::testing::Test {
 protected:
  void SetUp() override {
    plugin_ = std::make_unique<PluginInstance<Collider>>(
        registry_.Create<Collider>(PluginKind::kCollider, "primitive"));
  }
  // Contacts between two world boxes given by MJCF attributes, with boxclip enabled.
  std::vector<Contact> Collide(const std::string& box1, const std::string& box2,
                               double margin = 0) {
    const std::string xml = "<mujoco><option><flag boxclip='enable'/></option><worldbody>"
                            "<geom type='box' " + box1 + "/><geom type='box' " + box2 +
                            "/></worldbody></mujoco>";
    model_ = LoadModelFromString(xml);
    AllocateData(*model_, d_);
    Kinematics(*model_, d_);
    std::vector<Contact> out(64);
    const int n = plugin_->instance->Collide(*model_, d_, 0, 1, margin, out.data(), 64);
    out.resize(n);
    return out;
  }

  PluginRegistry registry_;
  std::unique_ptr<PluginInstance<Collider>> plugin_;
  std::shared_ptr<const Model> model_;
  Data d_;
};

// Full precision for numbers spliced into MJCF.
std::string Num(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

// Index of the contact at (x, y) in the plane, -1 if none.
int Find(const std::vector<Contact>& cs, double x, double y) {
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (std::fabs(cs[i].pos[0] - x) < kTol && std::fabs(cs[i].pos[1] - y) < kTol) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

TEST_F(BoxClip, StackedBoxesGiveTheSmallerFaceCornersAtFullDepth) {
  // a small box 0.01 deep in a large one: its four bottom corners, dist -0.01 (2.2.2: -0.005)
  const auto cs = Collide("size='0.5 0.5 0.1'", "size='0.1 0.2 0.05' pos='0.1 0 0.14'");
  ASSERT_EQ(cs.size(), 4u);
  for (double x : {0.0, 0.2}) {
    for (double y : {-0.2, 0.2}) {
      const int i = Find(cs, x, y);
      ASSERT_GE(i, 0) << x << " " << y;
      EXPECT_NEAR(cs[i].dist, -0.01, kTol);
      EXPECT_NEAR(cs[i].pos[2], 0.095, kTol);  // midway between z = 0.1 and z = 0.09
      EXPECT_NEAR(cs[i].frame[0], 0, kTol);
      EXPECT_NEAR(cs[i].frame[1], 0, kTol);
      EXPECT_NEAR(cs[i].frame[2], 1, kTol);  // from box 1 to box 2
    }
  }
  // separated by 0.05: none within margin 0.04, four within margin 0.06 with dist 0.05
  EXPECT_TRUE(Collide("size='0.5 0.5 0.1'", "size='0.1 0.2 0.05' pos='0.1 0 0.2'", 0.04).empty());
  const auto near = Collide("size='0.5 0.5 0.1'", "size='0.1 0.2 0.05' pos='0.1 0 0.2'", 0.06);
  ASSERT_EQ(near.size(), 4u);
  for (const Contact& c : near) EXPECT_NEAR(c.dist, 0.05, kTol);
}

TEST_F(BoxClip, TwistedSquaresGiveTheOctagonOnly) {
  // equal cubes, the upper one turned 45 degrees: the regular octagon where the faces overlap,
  // and no corner outside it (2.2.2 adds one of the turned cube's corners)
  const auto cs = Collide("size='0.1 0.1 0.1'", "size='0.1 0.1 0.1' pos='0 0 0.19' euler='0 0 45'");
  ASSERT_EQ(cs.size(), 8u);
  const double t = 0.1 * (std::sqrt(2.0) - 1);  // half side of the octagon
  for (const Contact& c : cs) {
    EXPECT_NEAR(c.dist, -0.01, kTol);
    EXPECT_NEAR(c.pos[2], 0.095, kTol);
    const double ax = std::fabs(c.pos[0]), ay = std::fabs(c.pos[1]);
    EXPECT_NEAR(std::max(ax, ay), 0.1, kTol);
    EXPECT_NEAR(std::min(ax, ay), t, kTol);
  }
}

TEST_F(BoxClip, CentredStackGivesASymmetricContactSet) {
  // turned 30 degrees about the common vertical axis: the contact set maps onto itself under a
  // half turn about that axis, every contact with the same depth
  const auto cs = Collide("size='0.2 0.15 0.1'", "size='0.12 0.1 0.1' pos='0 0 0.197' euler='0 0 30'");
  ASSERT_GE(cs.size(), 4u);
  for (const Contact& c : cs) {
    EXPECT_NEAR(c.dist, -0.003, kTol);
    EXPECT_GE(Find(cs, -c.pos[0], -c.pos[1]), 0) << c.pos[0] << " " << c.pos[1];
  }
}

TEST_F(BoxClip, CrossedEdgesGiveOneContactAtTheCrossing) {
  // box 2 turned 45 degrees about x on box 1 turned 45 degrees about y: edges crossing at right
  // angles above the origin, 0.02 deep
  const double r = 0.1 * std::sqrt(2.0);
  const auto cs = Collide("size='0.1 0.1 0.1' euler='0 45 0'",
                          "size='0.1 0.1 0.1' pos='0 0 " + Num(2 * r - 0.02) +
                              "' euler='45 0 0'");
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_NEAR(cs[0].dist, -0.02, kTol);
  EXPECT_NEAR(cs[0].pos[0], 0, kTol);
  EXPECT_NEAR(cs[0].pos[1], 0, kTol);
  EXPECT_NEAR(cs[0].pos[2], r - 0.01, kTol);
  EXPECT_NEAR(std::fabs(cs[0].frame[2]), 1, kTol);
}

TEST(BoxClipPhysics, BoxRestingOnBoxDoesNotDrift) {
  // a box dropped 1 mm onto a fixed box settles: afterwards the same four corner contacts,
  // a constant penetration (the soft contact's equilibrium) and no motion (frictionless
  // contacts, condim 1: only symmetric normals keep it from sliding or turning)
  const std::string xml =
      "<mujoco><size memory='1M'/><worldbody>"
      "<geom type='box' size='0.3 0.3 0.1' condim='1'/>"
      "<body pos='0.05 -0.02 0.201' euler='0 0 20'><freejoint/>"
      "<geom type='box' size='0.1 0.08 0.1' condim='1'/></body></worldbody></mujoco>";
  const auto model = LoadModelFromString(xml);
  ASSERT_TRUE(model->opt.Enabled(kEnableBoxClip));
  const Engine engine(model);
  Data d = engine.MakeData();
  for (int k = 0; k < 1000; ++k) engine.Step(d);
  const double z_settled = d.qpos[2];
  double worst_dz = 0, worst_v = 0;
  for (int k = 0; k < 1000; ++k) {
    engine.Step(d);
    worst_dz = std::max(worst_dz, std::fabs(d.qpos[2] - z_settled));
    for (int i = 0; i < 6; ++i) worst_v = std::max(worst_v, std::fabs(d.qvel[i]));
    ASSERT_EQ(d.ncon, 4);
  }
  EXPECT_LT(worst_dz, 1e-9);
  EXPECT_LT(worst_v, 1e-8);
  EXPECT_LT(z_settled, 0.2);        // penetrating: the soft contact carries the weight
  EXPECT_GT(z_settled, 0.2 - 1e-3);
  EXPECT_NEAR(d.qpos[0], 0.05, 1e-9);  // no sliding
  EXPECT_NEAR(d.qpos[1], -0.02, 1e-9);
  // the four contacts carry the weight equally (the box's centre is above the patch's centre),
  // together its weight
  double normal_force[4], total = 0;
  for (int c = 0; c < 4; ++c) {
    EXPECT_NEAR(d.contact[c].dist, d.contact[0].dist, 1e-12);
    normal_force[c] = d.efc_force[d.contact[c].efc_address];
    total += normal_force[c];
  }
  EXPECT_NEAR(total, -model->body_mass[1] * model->opt.gravity[2], 1e-6);
  for (int c = 1; c < 4; ++c) EXPECT_NEAR(normal_force[c], normal_force[0], 1e-6 * normal_force[0]);
}

}  // namespace
}  // namespace gauss
