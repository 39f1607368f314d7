// The `ccd` collider plugin: planes against ellipsoids (exact support point) and meshes
// (deepest hull vertex by hill climbing, checked against every vertex of MuJoCo's mug, and two
// more spanning the largest triangle), separated geoms (no contact, or within the margin one
// with the brute-force distance), multiccd (several points for a box mesh lying on a face, one
// for a sphere) and the MPR options. Reference geometry and fixture: ccd_fixture.h.
#include "ccd_fixture.h"

namespace gauss::ccd_test {
namespace {

// ---------------------------------------------------------------- planes

TEST_F(Ccd, EllipsoidPlaneIsExact) {
  Load("type=\"ellipsoid\" size=\"0.1 0.2 0.3\"", "type=\"sphere\" size=\"0.1\"");
  std::mt19937_64 gen(6);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < 50; ++i) {
    double q[4], p[3] = {nd(gen), nd(gen), 0.1 * nd(gen)};
    for (double& x : q) x = nd(gen);
    Pose(1, p, q);
    const double up[3] = {0, 0, 1}, down[3] = {0, 0, -1};
    double low[3];
    RefSupport(*model_, d_, 1, down, low);
    std::vector<Contact> out(4);
    const int n = plugin_->instance->Collide(*model_, d_, 0, 1, 0.05, out.data(), 4);
    if (low[2] > 0.05) {
      EXPECT_EQ(n, 0);
      continue;
    }
    ASSERT_EQ(n, 1);
    EXPECT_NEAR(out[0].dist, low[2], 1e-12);
    EXPECT_NEAR(out[0].pos[2], low[2] / 2, 1e-12);
    EXPECT_NEAR(out[0].pos[0], low[0], 1e-12);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(out[0].frame[k], up[k], 1e-15);
  }
}

// Plane against a box mesh: the deepest vertex (of all mesh vertices, found by brute force)
// first, then two more within the margin spanning the largest triangle: lying on a face, three
// corners of that face (half its area).
TEST_F(Ccd, MeshPlaneDeepestVertices) {
  Load("type=\"mesh\" mesh=\"box\"", "type=\"sphere\" size=\"0.1\"");
  std::mt19937_64 gen(7);
  std::normal_distribution<double> nd(0, 1);
  const double margin = 0.01;
  int three = 0;
  for (int i = 0; i < 200; ++i) {
    // even poses lie almost flat (tilts of a few mrad), odd ones are random
    double q[4] = {1, 0.003 * nd(gen), 0.003 * nd(gen), nd(gen)}, p[3] = {nd(gen), nd(gen), 0};
    if (i % 2) {
      for (double& x : q) x = nd(gen);
    }
    Pose(1, p, q);
    // every vertex's height, sorted
    const int k = model_->geom_dataid[1];
    std::vector<double> h;
    for (int v = 0; v < model_->mesh_vertnum[k]; ++v) {
      double x[3];
      MulMatVec3(x, &d_.geom_xmat[9], &model_->mesh_vert[3 * (model_->mesh_vertadr[k] + v)]);
      h.push_back(x[2] + d_.geom_xpos[5]);
    }
    std::sort(h.begin(), h.end());
    // lift the mesh so that its lowest vertex is 3 mm deep
    const double lift = -0.003 - h[0];
    p[2] = lift;
    Pose(1, p, q);
    for (double& x : h) x += lift;
    std::vector<Contact> out(8);
    const int n = plugin_->instance->Collide(*model_, d_, 0, 1, margin, out.data(), 8);
    const int within = static_cast<int>(std::count_if(h.begin(), h.end(),
                                                      [&](double x) { return x <= margin; }));
    ASSERT_GE(n, 1);
    ASSERT_LE(n, 3);
    EXPECT_NEAR(out[0].dist, h[0], 1e-12) << "pose " << i;
    for (int c = 0; c < n; ++c) {
      EXPECT_LE(out[c].dist, margin);
      EXPECT_NEAR(out[c].pos[2], out[c].dist / 2, 1e-12);
      EXPECT_EQ(out[c].frame[2], 1);
    }
    // almost flat on its 0.2 x 0.4 face (the mesh frame's z is the box's long side): three
    // corners of the face, a triangle of half its area
    if (within >= 4) {
      ASSERT_EQ(n, 3) << "pose " << i;
      double e1[3], e2[3], c[3];
      Sub3(e1, out[1].pos, out[0].pos);
      Sub3(e2, out[2].pos, out[0].pos);
      Cross3(c, e1, e2);
      EXPECT_NEAR(Norm3(c) / 2, 0.2 * 0.4 / 2, 1e-3) << "pose " << i;
      ++three;
    }
  }
  EXPECT_GT(three, 50);
}

// Hill climbing over a 1873-vertex hull finds the lowest vertex of MuJoCo's mug at any
// orientation (brute force over all 12 676 vertices).
TEST_F(Ccd, MugHullSupportIsTheLowestVertex) {
  const std::string xml =
      "<mujoco><compiler meshdir=\"" + test::TestModel("mujoco/mug") +
      "\"/><asset><mesh file=\"mug.obj\" scale=\".01 .01 .01\"/></asset><worldbody><geom "
      "type=\"plane\" size=\"0 0 1\"/><body><freejoint/><geom type=\"mesh\" mesh=\"mug\"/></body>"
      "</worldbody></mujoco>";
  model_ = LoadModelFromString(xml, test::TestModel("ccd_virtual.xml"));
  AllocateData(*model_, d_);
  std::mt19937_64 gen(8);
  std::normal_distribution<double> nd(0, 1);
  for (int i = 0; i < 100; ++i) {
    double q[4], p[3] = {0, 0, 0.01 * nd(gen)};
    for (double& x : q) x = nd(gen);
    Pose(1, p, q);
    double low = 1e300;
    for (int v = 0; v < model_->nmeshvert; ++v) {
      double x[3];
      MulMatVec3(x, &d_.geom_xmat[9], &model_->mesh_vert[3 * v]);
      low = std::min(low, x[2] + d_.geom_xpos[5]);
    }
    std::vector<Contact> out(4);
    const int n = plugin_->instance->Collide(*model_, d_, 0, 1, 1, out.data(), 4);
    ASSERT_GE(n, 1);
    EXPECT_NEAR(out[0].dist, low, 1e-9) << "pose " << i;
  }
}

// ---------------------------------------------------------------- margins, separation

TEST_F(Ccd, SeparatedGeomsGiveNoContactOrTheirDistanceWithinTheMargin) {
  const char* pairs[][2] = {
      {"type=\"cylinder\" size=\"0.15 0.2\"", "type=\"box\" size=\"0.1 0.2 0.25\""},
      {"type=\"sphere\" size=\"0.2\"", "type=\"cylinder\" size=\"0.15 0.2\""},
      {"type=\"ellipsoid\" size=\"0.1 0.2 0.3\"", "type=\"ellipsoid\" size=\"0.25 0.15 0.1\""},
      {"type=\"mesh\" mesh=\"oct\"", "type=\"mesh\" mesh=\"box\""}};
  std::mt19937_64 gen(9);
  for (auto& pair : pairs) {
    Load(pair[0], pair[1]);
    for (int i = 0; i < 10; ++i) {
      PressAtSupport(gen, -0.02);  // 2 cm apart along that direction, maybe less along others
      const Penetration ref = RefPenetration(*model_, d_, ga_, gb_);
      ASSERT_LT(ref.depth, 0);
      ASSERT_GE(ref.depth, -0.02 - 1e-9);
      EXPECT_TRUE(Collide(0).empty()) << pair[0] << " / " << pair[1];
      EXPECT_TRUE(Collide(-ref.depth - 1e-4).empty()) << pair[0] << " / " << pair[1];
      const std::vector<Contact> cs = Collide(-ref.depth + 0.002);
      ASSERT_EQ(cs.size(), 1u) << pair[0] << " / " << pair[1];
      EXPECT_NEAR(cs[0].dist, -ref.depth, kTol) << pair[0] << " / " << pair[1];
    }
  }
}

// ---------------------------------------------------------------- multiccd

// A box mesh lying on a box: MPR alone gives one point; multiccd adds points from the runs with
// the geoms tilted by 1e-3 rad, spread over the face, all with the first contact's distance.
TEST_F(Ccd, MulticcdGivesSeveralPointsForAMeshLyingOnAFace) {
  for (bool multi : {false, true}) {
    Load("type=\"box\" size=\"0.5 0.5 0.05\"", "type=\"mesh\" mesh=\"box\"",
         multi ? "><flag multiccd=\"enable\"/></option><option" : "");
    const double qa[4] = {1, 0, 0, 0}, pa[3] = {0, 0, -0.05};
    Pose(ga_, pa, qa);
    // the mesh's principal frame has its 0.6-long side along z: lay it on its 0.2 x 0.6 face
    const double qb[4] = {0.7071067811865476, 0.7071067811865476, 0, 0};
    double pb[3] = {0, 0, 0};
    Pose(gb_, pb, qb);
    double low[3];
    const double down[3] = {0, 0, -1};
    RefSupport(*model_, d_, gb_, down, low);
    pb[2] = -0.002 - low[2];  // the lowest face 2 mm into the box
    Pose(gb_, pb, qb);
    const std::vector<Contact> cs = Collide();
    if (!multi) {
      EXPECT_EQ(cs.size(), 1u);
      continue;
    }
    EXPECT_GE(cs.size(), 3u);
    EXPECT_LE(cs.size(), 5u);
    double spread = 0;
    for (const Contact& c : cs) {
      EXPECT_NEAR(c.dist, -0.002, 1e-6);
      EXPECT_NEAR(c.frame[2], 1, 1e-5);
      for (const Contact& o : cs) {
        double dif[3];
        Sub3(dif, c.pos, o.pos);
        spread = std::max(spread, Norm3(dif));
      }
    }
    EXPECT_GT(spread, 0.1);  // the face is 0.2 x 0.6
  }
  // spheres and ellipsoids touch at a point: no multiccd runs
  Load("type=\"sphere\" size=\"0.2\"", "type=\"mesh\" mesh=\"box\"",
       "><flag multiccd=\"enable\"/></option><option");
  std::mt19937_64 gen(12);
  for (int i = 0; i < 10; ++i) {
    PressAtSupport(gen, 0.002);
    EXPECT_EQ(Collide().size(), 1u);
  }
}

// ---------------------------------------------------------------- options and coverage

// mpr_iterations and mpr_tolerance reach libccd: two iterations stop short of the converged
// answer that 50 iterations and a tight tolerance reach.
TEST_F(Ccd, MprOptionsReachLibccd) {
  const char* options[2] = {"mpr_iterations=\"2\" mpr_tolerance=\"0.01\"",
                            "mpr_iterations=\"100\" mpr_tolerance=\"1e-12\""};
  std::vector<Contact> result[2];
  for (int k = 0; k < 2; ++k) {
    Load("type=\"ellipsoid\" size=\"0.1 0.2 0.3\"", "type=\"ellipsoid\" size=\"0.25 0.15 0.1\"",
         options[k]);
    std::mt19937_64 gen(13);
    for (int i = 0; i < 20; ++i) {
      const std::vector<double> m = PressAtSupport(gen, 0.0003);
      const std::vector<Contact> cs = Collide();
      result[k].push_back(cs.empty() ? Contact() : cs[0]);
      if (k == 1) {
        double touch[3];
        RefSupport(*model_, d_, ga_, m.data(), touch);
        CheckPressed(gb_, m.data(), touch, 0.0003, "tight tolerance, pose " + std::to_string(i));
      }
    }
  }
  int differ = 0;
  for (int i = 0; i < 20; ++i) {
    differ += std::fabs(result[0][i].dist - result[1][i].dist) > 1e-6;
  }
  EXPECT_GT(differ, 10);
}

}  // namespace
}  // namespace gauss::ccd_test
