// Mesh convex hulls (core/src/mjcf/convex_hull.cc) against MuJoCo 2.2.2's qhull graphs: for
// every mesh of tests/models/mesh_assets.xml, mesh_exact.xml and MuJoCo's mug sample, the same
// hull vertices in the same order, each vertex's neighbours in the same order, and the same
// faces with the same orientation. That order decides which vertex a hill-climbing support
// function returns when two are equally far along a direction, hence where MPR goes next
// (tests/reference/ccd_reference_test.cc).
//
// Hull vertices are matched by position: MuJoCo repeats an OBJ mesh's vertices per face corner
// (so its vertex indices differ from Gauss's), and the two mesh frames differ by float
// round-off. Each vertex is placed in the body of a geom using the mesh (geom_pos, geom_quat of
// each side) and matched to the nearest vertex of the other side, within 1e-6 x the geom's
// bounding radius (float round-off of the frames is ~1e-7; distinct hull vertices of these
// meshes are >1e-3 x rbound apart).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "gauss/math.h"
#include "gauss/mesh.h"
#include "gauss/mjcf.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// MuJoCo 2.2.2's graph layout: [nv, nf, edge_adr(nv), vert_id(nv), edges with a -1 after each
// vertex's list (nv + 3nf), faces(3nf) as mesh vertex ids].
struct MujocoHull {
  int nvert, nface;
  const int* edge_adr;
  const int* vert_id;
  const int* edges;
  const int* faces;
};

MujocoHull GetMujocoHull(const mjModel* m, int k) {
  const int* g = m->mesh_graph + m->mesh_graphadr[k];
  MujocoHull h;
  h.nvert = g[0];
  h.nface = g[1];
  h.edge_adr = g + 2;
  h.vert_id = g + 2 + h.nvert;
  h.edges = g + 2 + 2 * h.nvert;
  h.faces = h.edges + h.nvert + 3 * h.nface;
  return h;
}

// Mesh vertex v of geom i placed in its body, Gauss and MuJoCo.
void PlaceGauss(const Model& m, int i, int v, double out[3]) {
  const int k = m.geom_dataid[i];
  math::RotVecQuat(out, &m.mesh_vert[3 * (m.mesh_vertadr[k] + v)], &m.geom_quat[4 * i]);
  math::AddTo3(out, &m.geom_pos[3 * i]);
}
void PlaceMujoco(const mjModel* m, int i, int v, double out[3]) {
  const int k = m->geom_dataid[i];
  const float* f = m->mesh_vert + 3 * (m->mesh_vertadr[k] + v);
  const double local[3] = {f[0], f[1], f[2]};
  math::RotVecQuat(out, local, m->geom_quat + 4 * i);
  math::AddTo3(out, m->geom_pos + 3 * i);
}

// Checks every mesh used by a geom; *compared: the number of meshes compared.
void CompareHulls(const std::string& path, int* compared) {
  SCOPED_TRACE(path);
  *compared = 0;
  MjModelPtr mj = LoadMujoco(path);
  ASSERT_TRUE(mj);
  auto model = LoadModel(path);
  EXPECT_EQ(model->nmesh, mj->nmesh);
  for (int k = 0; k < model->nmesh && k < mj->nmesh; ++k) {
    int geom = -1;
    for (int i = 0; i < model->ngeom && geom < 0; ++i) {
      if (model->geom_type[i] == GeomType::kMesh && model->geom_dataid[i] == k) geom = i;
    }
    if (geom < 0 || mj->mesh_graphadr[k] < 0) continue;
    SCOPED_TRACE("mesh " + model->mesh_name[k]);
    const MeshHull g = GetMeshHull(*model, k);
    const MujocoHull r = GetMujocoHull(mj.get(), k);
    ASSERT_EQ(g.nvert, r.nvert);
    ASSERT_EQ(g.nface, r.nface);
    // MuJoCo hull vertex i is Gauss hull vertex i: same place
    const double tol = 1e-6 * mj->geom_rbound[geom];
    for (int i = 0; i < g.nvert; ++i) {
      double pg[3], pm[3], d[3];
      PlaceGauss(*model, geom, g.vert_id[i], pg);
      PlaceMujoco(mj.get(), geom, r.vert_id[i], pm);
      math::Sub3(d, pg, pm);
      ASSERT_LE(math::Norm3(d), tol) << "hull vertex " << i << " of " << g.nvert;
    }
    // neighbours in the same order
    for (int i = 0; i < g.nvert; ++i) {
      std::vector<int> mine(g.edges + g.edge_adr[i], g.edges + g.edge_adr[i + 1]), theirs;
      for (const int* e = r.edges + r.edge_adr[i]; *e >= 0; ++e) theirs.push_back(*e);
      ASSERT_EQ(mine, theirs) << "neighbours of hull vertex " << i;
    }
    // faces: the same corners, in the same order (MuJoCo's are mesh vertex ids)
    for (int f = 0; f < 3 * g.nface; ++f) {
      double pg[3], pm[3], d[3];
      PlaceGauss(*model, geom, g.vert_id[g.faces[f]], pg);
      PlaceMujoco(mj.get(), geom, r.faces[f], pm);
      math::Sub3(d, pg, pm);
      ASSERT_LE(math::Norm3(d), tol) << "face " << f / 3 << " corner " << f % 3;
    }
    ++*compared;
  }
}

TEST(MeshHullReference, EveryWayOfGivingAMesh) {
  int compared = 0;
  CompareHulls(TestModel("mesh_assets.xml"), &compared);
  EXPECT_EQ(compared, 9);
}

TEST(MeshHullReference, ExactMeshInertia) {
  int compared = 0;
  CompareHulls(TestModel("mesh_exact.xml"), &compared);
  EXPECT_GT(compared, 0);
}

// The mug of MuJoCo's samples, made a colliding geom (in mug.xml it is visual only, and MuJoCo
// builds no graph for a mesh that never collides): 12 676 vertices, 24 544 faces.
TEST(MeshHullReference, MugSample) {
  const std::string path = ::testing::TempDir() + "gauss_mesh_hull_mug.xml";
  std::ofstream(path) << "<mujoco><compiler meshdir=\"" << MujocoSampleModel("mug")
                      << "\"/><asset><mesh file=\"mug.obj\" scale=\".01 .01 .01\"/></asset>"
                      << "<worldbody><body><freejoint/><geom type=\"mesh\" mesh=\"mug\"/></body>"
                      << "</worldbody></mujoco>";
  int compared = 0;
  CompareHulls(path, &compared);
  EXPECT_EQ(compared, 1);
}

}  // namespace
}  // namespace gauss::test
