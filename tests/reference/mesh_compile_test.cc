// Mesh assets compiled by Gauss against MuJoCo 2.2.2: body mass, centre of mass and inertia
// tensor, geom frame, size and bounding radius of every mesh geom, and the mesh vertices
// placed in their bodies, on tests/models/mesh_assets.xml (every way of giving a mesh),
// mesh_exact.xml (compiler exactmeshinertia="true") and MuJoCo's own mug sample.
//
// Tolerance: 2e-6 relative (positions: relative to the body's largest vertex distance). MuJoCo
// stores mesh vertices as floats and transforms them in single precision, so its compiled
// numbers carry float round-off (measured: up to 3e-7 relative); Gauss rounds file coordinates
// the same way but transforms in double. Frames are compared through the placed vertices and
// the inertia tensors, which do not depend on how an eigen-solver orients equal moments; size
// and bounding radius, which do, are compared for meshes with distinct principal moments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "gauss/math.h"
#include "gauss/mesh.h"
#include "gauss/mjcf.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kRel = 2e-6;

// R diag(I) R' of principal moments I along the axes of quaternion q.
void Tensor(const double* q, const double* I, double t[9]) {
  double r[9];
  math::QuatToMat(r, q);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      t[3 * i + j] = 0;
      for (int k = 0; k < 3; ++k) t[3 * i + j] += r[3 * i + k] * I[k] * r[3 * j + k];
    }
  }
}

// Vertex v of a mesh placed in its body by the geom frame (pos, quat).
void Place(const double* pos, const double* quat, const double* v, double out[3]) {
  math::RotVecQuat(out, v, quat);
  math::AddTo3(out, pos);
}

// Largest distance between a vertex of `a` and its nearest vertex in `b` (both n x 3).
double SetDistance(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); i += 3) {
    double best = 1e300;
    for (std::size_t j = 0; j < b.size(); j += 3) {
      double d[3];
      math::Sub3(d, &a[i], &b[j]);
      best = std::min(best, math::Norm3(d));
    }
    worst = std::max(worst, best);
  }
  return worst;
}

// True when two principal moments of mesh k (closed, about its centre: the stored frame) are
// within 1e-4 of each other: its principal frame is then arbitrary about an axis, and so are
// geom_size and geom_rbound, which MuJoCo computes in that frame.
bool DegenerateMoments(const Model& m, int k) {
  const double* v = &m.mesh_vert[3 * m.mesh_vertadr[k]];
  double second[3] = {0, 0, 0};  // integrals of x^2, y^2, z^2 (signed tetrahedra at the origin)
  for (int t = 0; t < m.mesh_facenum[k]; ++t) {
    const int* f = &m.mesh_face[3 * (m.mesh_faceadr[k] + t)];
    const double *a = v + 3 * f[0], *b = v + 3 * f[1], *c = v + 3 * f[2];
    double n[3];
    math::Cross3(n, b, c);
    const double vol = math::Dot3(a, n) / 6;
    for (int i = 0; i < 3; ++i) {
      const double s = a[i] + b[i] + c[i];
      second[i] += vol / 20 * (s * s + a[i] * a[i] + b[i] * b[i] + c[i] * c[i]);
    }
  }
  const double I[3] = {second[1] + second[2], second[0] + second[2], second[0] + second[1]};
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) {
      if (std::fabs(I[i] - I[j]) < 1e-4 * std::max(std::fabs(I[i]), std::fabs(I[j]))) return true;
    }
  }
  return false;
}

// "1.2e-07" for the test report.
std::string Sci(double v) {
  std::ostringstream out;
  out << std::scientific << std::setprecision(1) << v;
  return out.str();
}

// Compares every mesh-related compiled quantity; returns the worst relative difference.
double CompareMeshModel(const std::string& path) {
  SCOPED_TRACE(path);
  MjModelPtr mj = LoadMujoco(path);
  if (!mj) return 1;
  auto model = LoadModel(path);
  const Model& g = *model;
  EXPECT_EQ(g.nbody, mj->nbody);
  EXPECT_EQ(g.ngeom, mj->ngeom);
  EXPECT_EQ(g.nmesh, mj->nmesh);
  if (g.nbody != mj->nbody || g.ngeom != mj->ngeom || g.nmesh != mj->nmesh) return 1;
  double worst = 0;
  auto check = [&worst](double diff, double scale, const std::string& what) {
    const double rel = diff / std::max(scale, 1e-300);
    worst = std::max(worst, rel);
    EXPECT_LE(rel, kRel) << what << ": difference " << diff << " at scale " << scale;
  };

  for (int k = 0; k < g.nmesh; ++k) {
    EXPECT_EQ(g.mesh_name[k], std::string(mj->names + mj->name_meshadr[k]));
  }
  for (int b = 1; b < g.nbody; ++b) {
    const std::string name = "body " + g.body_name[b];
    check(std::fabs(g.body_mass[b] - mj->body_mass[b]), mj->body_mass[b], name + " mass");
    double tg[9], tm[9];
    Tensor(&g.body_iquat[4 * b], &g.body_inertia[3 * b], tg);
    Tensor(mj->body_iquat + 4 * b, mj->body_inertia + 3 * b, tm);
    for (int i = 0; i < 9; ++i) {
      check(std::fabs(tg[i] - tm[i]), tm[0] + tm[4] + tm[8], name + " inertia tensor");
    }
  }
  for (int i = 0; i < g.ngeom; ++i) {
    EXPECT_EQ(g.geom_dataid[i], mj->geom_dataid[i]) << "geom " << i;
    if (g.geom_type[i] != GeomType::kMesh) continue;
    const std::string name = "mesh geom " + std::to_string(i);
    const double scale = mj->geom_rbound[i];
    const bool frame_defined = !DegenerateMoments(g, g.geom_dataid[i]);
    if (frame_defined) {
      check(std::fabs(g.geom_rbound[i] - mj->geom_rbound[i]), scale, name + " rbound");
    }
    for (int c = 0; c < 3; ++c) {
      if (frame_defined) {
        check(std::fabs(g.geom_size[3 * i + c] - mj->geom_size[3 * i + c]), scale, name + " size");
      }
      check(std::fabs(g.geom_pos[3 * i + c] - mj->geom_pos[3 * i + c]), scale, name + " pos");
      const int b = g.geom_bodyid[i];
      check(std::fabs(g.body_ipos[3 * b + c] - mj->body_ipos[3 * b + c]), scale, name + " ipos");
    }
    // the mesh placed in its body: same point sets (MuJoCo's OBJ meshes repeat vertices)
    const int k = g.geom_dataid[i];
    std::vector<double> vg, vm;
    for (int v = 0; v < g.mesh_vertnum[k]; ++v) {
      double p[3];
      Place(&g.geom_pos[3 * i], &g.geom_quat[4 * i], &g.mesh_vert[3 * (g.mesh_vertadr[k] + v)], p);
      vg.insert(vg.end(), p, p + 3);
    }
    for (int v = 0; v < mj->mesh_vertnum[k]; ++v) {
      const float* f = mj->mesh_vert + 3 * (mj->mesh_vertadr[k] + v);
      const double local[3] = {f[0], f[1], f[2]};
      double p[3];
      Place(mj->geom_pos + 3 * i, mj->geom_quat + 4 * i, local, p);
      vm.insert(vm.end(), p, p + 3);
    }
    if (vg.size() * vm.size() < 4e8) {  // the mug: 12 676 x 73 632 vertices
      check(std::max(SetDistance(vg, vm), SetDistance(vm, vg)), scale, name + " placed vertices");
    }
  }
  return worst;
}

TEST(MeshCompileReference, EveryWayOfGivingAMesh) {
  const double worst = CompareMeshModel(TestModel("mesh_assets.xml"));
  RecordProperty("max_rel_error", Sci(worst));
}

TEST(MeshCompileReference, ExactMeshInertia) {
  const double worst = CompareMeshModel(TestModel("mesh_exact.xml"));
  RecordProperty("max_rel_error", Sci(worst));
}

TEST(MeshCompileReference, MugSample) {
  const double worst = CompareMeshModel(MujocoSampleModel("mug/mug.xml"));
  RecordProperty("max_rel_error", Sci(worst));
}

// Convex hulls of meshes without nearly coplanar vertices: the same vertex and face counts as
// MuJoCo's qhull graphs (both triangulate coplanar facets).
TEST(MeshCompileReference, HullSizesOfSimpleMeshes) {
  MjModelPtr mj = LoadMujoco(TestModel("mesh_assets.xml"));
  ASSERT_TRUE(mj);
  auto model = LoadModel(TestModel("mesh_assets.xml"));
  for (int k = 0; k < model->nmesh; ++k) {
    ASSERT_GE(mj->mesh_graphadr[k], 0);
    const int* graph = mj->mesh_graph + mj->mesh_graphadr[k];
    const MeshHull hull = GetMeshHull(*model, k);
    EXPECT_EQ(hull.nvert, graph[0]) << model->mesh_name[k];
    EXPECT_EQ(hull.nface, graph[1]) << model->mesh_name[k];
  }
}

}  // namespace
}  // namespace gauss::test
