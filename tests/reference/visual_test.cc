// Cross-check of gauss/visual.h against MuJoCo 2.2.2's abstract visualizer (mjv_updateScene,
// which needs no OpenGL): the colour every geom, site and skin is drawn with (the geom/material
// rule), and the skin vertices posed by their bone bodies (mjv_updateSkin's scn.skinvert), at
// random states. MuJoCo keeps colours and skin vertices in single precision. Also: ray casting
// skips geoms whose material is invisible, as mj_ray does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "gauss/sensor_support.h"
#include "gauss/visual.h"
#include "reference/mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// MuJoCo's abstract scene of one state, with every geom and site group shown.
struct Scene {
  mjvScene scn;
  mjvOption opt;
  mjvCamera cam;
  explicit Scene(const mjModel* m) {
    mjv_defaultScene(&scn);
    mjv_makeScene(m, &scn, 10000);
    mjv_defaultOption(&opt);
    for (int i = 0; i < mjNGROUP; ++i) opt.geomgroup[i] = opt.sitegroup[i] = opt.skingroup[i] = 1;
    mjv_defaultCamera(&cam);
  }
  ~Scene() { mjv_freeScene(&scn); }
  void Update(const mjModel* m, mjData* d) {
    mjv_updateScene(m, d, &opt, nullptr, &cam, mjCAT_ALL, &scn);
  }
};

// Counts of drawn objects whose colour was compared, by kind.
struct Counts {
  int geoms = 0, sites = 0, skins = 0, material_coloured = 0;
};

// Every geom, site and skin in MuJoCo's scene has the colour Gauss says it is drawn with.
Counts CheckColours(const Model& g, const mjModel* mj, const mjvScene& scn) {
  Counts n;
  for (int i = 0; i < scn.ngeom; ++i) {
    const mjvGeom& v = scn.geoms[i];
    double rgba[4];
    int matid = -1;
    if (v.objtype == mjOBJ_GEOM && v.category != mjCAT_DECOR) {
      GeomRgba(g, v.objid, rgba);
      matid = mj->geom_matid[v.objid];
      ++n.geoms;
    } else if (v.objtype == mjOBJ_SITE) {
      SiteRgba(g, v.objid, rgba);
      matid = mj->site_matid[v.objid];
      ++n.sites;
    } else if (v.objtype == mjOBJ_SKIN) {
      SkinRgba(g, v.objid, rgba);
      matid = mj->skin_matid[v.objid];
      ++n.skins;
    } else {
      continue;
    }
    if (matid >= 0 && std::equal(rgba, rgba + 4, &g.mat_rgba[4 * matid])) ++n.material_coloured;
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(rgba[k], v.rgba[k], 1e-7) << "object type " << v.objtype << " id " << v.objid;
    }
  }
  return n;
}

// Gauss's skin vertices at its own forward pass of MuJoCo's state; returns the largest
// difference from scn.skinvert.
double SkinError(const Model& g, const Data& d, const mjvScene& scn) {
  double worst = 0;
  EXPECT_EQ(scn.nskin, g.nskin);
  for (int k = 0; k < g.nskin; ++k) {
    std::vector<double> vert(3 * g.skin_vertnum[k]);
    SkinVertices(g, k, d.xpos.data(), d.xquat.data(), vert.data());
    EXPECT_EQ(scn.skinvertnum[k], g.skin_vertnum[k]);
    for (int i = 0; i < 3 * g.skin_vertnum[k]; ++i) {
      worst = std::max(worst, std::fabs(vert[i] - scn.skinvert[3 * scn.skinvertadr[k] + i]));
    }
  }
  return worst;
}

TEST(VisualReference, SkinVerticesAndColoursMatchMujoco) {
  const std::string path = TestModel("compile_skin.xml");
  MjModelPtr mj = LoadMujoco(path);
  ASSERT_NE(mj, nullptr);
  MjDataPtr mjd = MakeMujocoData(mj.get());
  auto engine = std::make_unique<Engine>(LoadModel(path));
  Data d = engine->MakeData();
  const Model& g = engine->model();
  ASSERT_EQ(g.nskin, 3);
  Scene scene(mj.get());
  std::mt19937_64 gen(18);
  RandomStateOptions o;
  o.spread = 1.5;
  double worst = 0;
  for (int s = 0; s < 20; ++s) {
    RandomState(mj.get(), mjd.get(), gen, o);
    mj_forward(mj.get(), mjd.get());
    engine->Reset(d);
    CopyForwardInputs(mj.get(), mjd.get(), d, false);
    engine->Forward(d);
    scene.Update(mj.get(), mjd.get());
    const Counts n = CheckColours(g, mj.get(), scene.scn);
    // 4 geoms, 2 sites, 3 skins; floor, post, lower link, tip site and sleeve skin take their
    // material's colour, the upper link's own rgba wins over its material
    EXPECT_EQ(n.geoms, 4);
    EXPECT_EQ(n.sites, 2);
    EXPECT_EQ(n.skins, 3);
    EXPECT_EQ(n.material_coloured, 5);
    worst = std::max(worst, SkinError(g, d, scene.scn));
  }
  std::cout << "skin vertices: largest difference from MuJoCo " << worst << " m\n";
  // MuJoCo poses the skins in single precision
  EXPECT_LT(worst, 1e-6);
}

// The colours of the models with materials: the Gymnasium models and MuJoCo's humanoid.
TEST(VisualReference, MaterialColoursOfShippedModelsMatchMujoco) {
  std::vector<std::string> models = GymnasiumModels();
  models.push_back(MujocoSampleModel("humanoid/humanoid.xml"));
  models.push_back(MujocoSampleModel("tendon_arm/arm26.xml"));
  int material_coloured = 0;
  for (const std::string& path : models) {
    SCOPED_TRACE(path);
    MjModelPtr mj = LoadMujoco(path);
    ASSERT_NE(mj, nullptr);
    MjDataPtr mjd = MakeMujocoData(mj.get());
    std::shared_ptr<const Model> g = LoadModel(path);
    mj_forward(mj.get(), mjd.get());
    Scene scene(mj.get());
    scene.Update(mj.get(), mjd.get());
    const Counts n = CheckColours(*g, mj.get(), scene.scn);
    // every geom is in the scene but the invisible ones (drawn alpha 0)
    int visible = 0;
    for (int i = 0; i < g->ngeom; ++i) {
      double rgba[4];
      GeomRgba(*g, i, rgba);
      visible += rgba[3] != 0;
    }
    EXPECT_EQ(n.geoms, visible);
    EXPECT_GE(visible, g->ngeom - 1);
    material_coloured += n.material_coloured;
  }
  EXPECT_GT(material_coloured, 20);
}

// Ray (the rangefinder's ray casting) skips invisible geoms as mj_ray does: by the material's
// alpha when the geom has a material, whatever its own rgba. A vertical ray through three
// spheres: a (material alpha 0) is skipped, b (own rgba alpha 0, material alpha 1) is hit.
TEST(VisualReference, RaySkipsGeomsMadeInvisibleByTheirMaterial) {
  const std::string path = ::testing::TempDir() + "/ray_materials.xml";
  std::ofstream(path) << R"(<mujoco><asset><material name="clear" rgba="1 1 1 0"/>
  <material name="solid" rgba="1 0 0 1"/></asset><worldbody>
  <body pos="0 0 1"><freejoint/><geom name="a" size="0.1" material="clear"/></body>
  <body pos="0 0 2"><freejoint/><geom name="b" size="0.1" material="solid" rgba="1 1 1 0"/></body>
  <body pos="0 0 3"><freejoint/><geom name="c" size="0.1"/></body></worldbody></mujoco>)";
  MjModelPtr mj = LoadMujoco(path);
  ASSERT_NE(mj, nullptr);
  MjDataPtr mjd = MakeMujocoData(mj.get());
  mj_forward(mj.get(), mjd.get());
  auto engine = std::make_unique<Engine>(LoadModel(path));
  Data d = engine->MakeData();
  engine->Forward(d);
  const double pnt[3] = {0, 0, 0}, vec[3] = {0, 0, 1};
  int mj_geom = -2, geom = -2;
  const double expected = mj_ray(mj.get(), mjd.get(), pnt, vec, nullptr, 1, -1, &mj_geom);
  const double got = Ray(engine->model(), d, pnt, vec, nullptr, true, -1, &geom);
  EXPECT_EQ(mj_geom, 1);
  EXPECT_EQ(geom, mj_geom);
  EXPECT_NEAR(got, expected, 1e-12);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gauss::test
