// Mesh assets in the MJCF compiler against closed forms: a box and a right tetrahedron read from
// binary STL, ASCII STL and OBJ (quads, negative indices) give the volume, centre of mass,
// inertia, geom frame, size and bound of the solid; MuJoCo's legacy mass rule (equivalent-box
// volume) and exactmeshinertia; meshes without faces use their convex hull; scale, refpos,
// refquat, default classes, meshdir and strippath; the hull stored in the Model; and a located
// error for every kind of bad mesh input. Tolerance 1e-6 relative: vertices are single
// precision, like MuJoCo's.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "gauss/error.h"
#include "gauss/math.h"
#include "gauss/mesh.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

using test::TestModel;

constexpr double kTol = 1e-6;

// A model with the given <asset> content and one free body holding `geom`, loaded as if it
// were tests/models/mesh_virtual.xml (so that meshdir="meshes" finds tests/models/meshes).
std::shared_ptr<const Model> Load(const std::string& compiler, const std::string& assets,
                                  const std::string& geom) {
  const std::string xml = "<mujoco><compiler meshdir=\"meshes\" " + compiler + "/><asset>" +
                          assets + "</asset><worldbody><body name=\"b\"><freejoint/>" + geom +
                          "</body></worldbody></mujoco>";
  return LoadModelFromString(xml, TestModel("mesh_virtual.xml"));
}

// Body 1's inertia tensor about its centre of mass, in the body frame.
void BodyTensor(const Model& m, double t[9]) {
  double r[9];
  math::QuatToMat(r, &m.body_iquat[4]);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      t[3 * i + j] = 0;
      for (int k = 0; k < 3; ++k) {
        t[3 * i + j] += r[3 * i + k] * m.body_inertia[3 + k] * r[3 * j + k];
      }
    }
  }
}

void ExpectRel(double got, double want, const char* what) {
  EXPECT_NEAR(got, want, kTol * std::max(1.0, std::fabs(want))) << what;
}

// The box 0.2 x 0.4 x 0.6 with corner (0.1, -0.3, 0.05), density 1000.
void ExpectBox(const Model& m) {
  ASSERT_EQ(m.nmesh, 1);
  const double mass = 1000 * 0.2 * 0.4 * 0.6;
  ExpectRel(m.body_mass[1], mass, "mass");
  ExpectRel(m.body_ipos[3], 0.2, "com x");
  ExpectRel(m.body_ipos[4], -0.1, "com y");
  ExpectRel(m.body_ipos[5], 0.35, "com z");
  // principal moments, decreasing: about x (0.4 x 0.6 face), y, z
  ExpectRel(m.body_inertia[3], mass * (0.16 + 0.36) / 12, "Ixx");
  ExpectRel(m.body_inertia[4], mass * (0.04 + 0.36) / 12, "Iyy");
  ExpectRel(m.body_inertia[5], mass * (0.04 + 0.16) / 12, "Izz");
  ExpectRel(m.geom_size[0], 0.1, "size x");
  ExpectRel(m.geom_size[1], 0.2, "size y");
  ExpectRel(m.geom_size[2], 0.3, "size z");
  ExpectRel(m.geom_rbound[0], std::sqrt(0.01 + 0.04 + 0.09), "rbound");
  // the mesh frame is the box's centre with axes along the box edges
  for (int k = 0; k < 3; ++k) ExpectRel(m.geom_pos[k], m.body_ipos[3 + k], "geom pos");
  double r[9];
  math::QuatToMat(r, &m.geom_quat[0]);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(std::fabs(r[4 * k]), 1, kTol) << "axis " << k;
}

TEST(MeshAssets, BoxFromBinaryStlAsciiStlAndObjQuads) {
  for (const char* file : {"box.stl", "box_ascii.stl", "box_quads.obj"}) {
    SCOPED_TRACE(file);
    for (const char* exact : {"false", "true"}) {  // a box is convex: both rules are exact
      auto m = Load(std::string("exactmeshinertia=\"") + exact + "\"",
                    std::string("<mesh name=\"box\" file=\"") + file + "\"/>",
                    "<geom type=\"mesh\" mesh=\"box\"/>");
      ExpectBox(*m);
      const MeshHull hull = GetMeshHull(*m, 0);
      EXPECT_EQ(hull.nvert, 8);
      EXPECT_EQ(hull.nface, 12);
    }
  }
}

// Right tetrahedron with legs a, b, c along x, y, z: V = abc/6, centre (a, b, c)/4, covariance
// of the uniform solid: var x = 3a^2/80, cov xy = -ab/80 (and so on).
struct Tet {
  double a = 0.3, b = 0.4, c = 0.5;
  double Volume() const { return a * b * c / 6; }
  void Covariance(double s[9]) const {
    const double l[3] = {a, b, c};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) s[3 * i + j] = (i == j ? 3.0 : -1.0) * l[i] * l[j] / 80;
    }
  }
};

TEST(MeshAssets, TetrahedronExactInertia) {
  auto m = Load("exactmeshinertia=\"true\"", "<mesh name=\"t\" file=\"tetrahedron.obj\"/>",
                "<geom type=\"mesh\" mesh=\"t\" density=\"2000\"/>");
  Tet tet;
  const double mass = 2000 * tet.Volume();
  ExpectRel(m->body_mass[1], mass, "mass");
  ExpectRel(m->body_ipos[3], tet.a / 4, "com x");
  ExpectRel(m->body_ipos[4], tet.b / 4, "com y");
  ExpectRel(m->body_ipos[5], tet.c / 4, "com z");
  double s[9], t[9];
  tet.Covariance(s);
  BodyTensor(*m, t);
  const double tr = s[0] + s[4] + s[8];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double want = mass * ((i == j ? tr : 0) - s[3 * i + j]);
      EXPECT_NEAR(t[3 * i + j], want, kTol * mass * tr) << i << "," << j;
    }
  }
}

// MuJoCo 2.2.2's default (legacy) rule: the same centre and moments per unit mass, but the mass
// of the box with the same principal moments per unit mass. For a uniform box of half-sizes h,
// var = h^2 / 3, so that box has volume 8 sqrt(27 det(covariance)).
TEST(MeshAssets, TetrahedronLegacyMassIsTheEquivalentBoxs) {
  auto legacy = Load("", "<mesh name=\"t\" file=\"tetrahedron.obj\"/>",
                     "<geom type=\"mesh\" mesh=\"t\"/>");
  auto exact = Load("exactmeshinertia=\"true\"", "<mesh name=\"t\" file=\"tetrahedron.obj\"/>",
                    "<geom type=\"mesh\" mesh=\"t\"/>");
  Tet tet;
  double s[9];
  tet.Covariance(s);
  const double det = s[0] * (s[4] * s[8] - s[5] * s[7]) - s[1] * (s[3] * s[8] - s[5] * s[6]) +
                     s[2] * (s[3] * s[7] - s[4] * s[6]);
  const double box_volume = 8 * std::sqrt(27 * det);
  ExpectRel(legacy->body_mass[1], 1000 * box_volume, "legacy mass");
  EXPECT_NEAR(box_volume / tet.Volume(), 1.3942740046, 1e-9);  // the same for every tetrahedron
  for (int k = 0; k < 3; ++k) {
    ExpectRel(legacy->body_ipos[3 + k], exact->body_ipos[3 + k], "centre");
    ExpectRel(legacy->body_inertia[3 + k] / legacy->body_mass[1],
              exact->body_inertia[3 + k] / exact->body_mass[1], "moments per unit mass");
  }
}

// A U-shaped prism (not star-shaped about its centre): exact mode integrates the solid; the
// legacy rule's absolute tetrahedron volumes do not.
TEST(MeshAssets, NonConvexMeshExactVersusLegacy) {
  auto exact = Load("exactmeshinertia=\"true\"", "<mesh name=\"u\" file=\"u_shape.stl\"/>",
                    "<geom type=\"mesh\" mesh=\"u\"/>");
  const double s = 0.1;  // the U is 3 x 1 x 2 cells of side s, with a 1 x 1 notch on top
  ExpectRel(exact->body_mass[1], 1000 * 5 * s * s * s, "mass");
  ExpectRel(exact->body_ipos[3], 1.5 * s, "com x");
  ExpectRel(exact->body_ipos[4], 0.5 * s, "com y");
  ExpectRel(exact->body_ipos[5], 0.9 * s, "com z");  // (3 x 0.5 + 2 x 1.5) / 5 cells
  auto legacy =
      Load("", "<mesh name=\"u\" file=\"u_shape.stl\"/>", "<geom type=\"mesh\" mesh=\"u\"/>");
  EXPECT_GT(std::fabs(legacy->body_ipos[5] - 0.9 * s), 1e-3);
  // its hull is the 3 x 1 x 2 box: 8 vertices
  EXPECT_EQ(GetMeshHull(*exact, 0).nvert, 8);
}

// Without faces (inline vertices, one inside) the mesh is its convex hull.
TEST(MeshAssets, MeshWithoutFacesIsItsHull) {
  const std::string corners = "0 0 0  0.3 0 0  0 0.4 0  0 0 0.5";
  auto cloud = Load("exactmeshinertia=\"true\"",
                    "<mesh name=\"c\" vertex=\"" + corners + "  0.05 0.05 0.05\"/>",
                    "<geom type=\"mesh\" mesh=\"c\"/>");
  Tet tet;
  ExpectRel(cloud->body_mass[1], 1000 * tet.Volume(), "mass");
  ExpectRel(cloud->body_ipos[5], tet.c / 4, "com z");
  EXPECT_EQ(cloud->mesh_facenum[0], 4);
  EXPECT_EQ(cloud->mesh_vertnum[0], 5);
  EXPECT_EQ(GetMeshHull(*cloud, 0).nvert, 4);
}

// Reference frame first, then scale: v <- scale * R(refquat)' (v - refpos); the geom frame
// absorbs the mesh frame, so the solid stays where the file puts it relative to refpos.
TEST(MeshAssets, ScaleRefposRefquatAndDefaults) {
  Tet tet;
  auto m = Load("exactmeshinertia=\"true\"",
                "</asset><default><mesh scale=\"2 2 2\"/><default class=\"s\"><mesh "
                "scale=\"1 3 1\"/></default></default><asset>"
                "<mesh name=\"d\" file=\"tetrahedron.obj\"/>"
                "<mesh name=\"s\" class=\"s\" file=\"tetrahedron.obj\" refpos=\"0.1 0 0\"/>"
                "<mesh name=\"q\" file=\"tetrahedron.obj\" scale=\"1 1 1\" refquat=\"0 0 0 1\"/>",
                "<geom type=\"mesh\" mesh=\"d\"/>");
  ASSERT_EQ(m->nmesh, 3);
  EXPECT_NEAR(m->body_mass[1], 1000 * 8 * tet.Volume(), kTol * 1000);  // default scale 2
  ExpectRel(m->body_ipos[3], 2 * tet.a / 4, "scaled centre");

  auto s = Load("exactmeshinertia=\"true\"",
                "</asset><default class=\"main\"><default class=\"s\"><mesh scale=\"1 3 1\"/>"
                "</default></default><asset>"
                "<mesh name=\"s\" class=\"s\" file=\"tetrahedron.obj\" refpos=\"0.1 0 0\"/>",
                "<geom type=\"mesh\" mesh=\"s\"/>");
  ExpectRel(s->body_mass[1], 3000 * tet.Volume(), "class scale");
  ExpectRel(s->body_ipos[3], tet.a / 4 - 0.1, "refpos then scale: x");
  ExpectRel(s->body_ipos[4], 3 * tet.b / 4, "refpos then scale: y");

  // refquat = rotation by pi about z: the solid appears rotated by -pi (x, y negated)
  auto q = Load("exactmeshinertia=\"true\"",
                "<mesh name=\"q\" file=\"tetrahedron.obj\" refquat=\"0 0 0 1\"/>",
                "<geom type=\"mesh\" mesh=\"q\"/>");
  ExpectRel(q->body_ipos[3], -tet.a / 4, "refquat x");
  ExpectRel(q->body_ipos[4], -tet.b / 4, "refquat y");
  ExpectRel(q->body_ipos[5], tet.c / 4, "refquat z");
}

// The mesh name defaults to the file's stem; strippath drops the directories of the file name;
// an absolute path ignores meshdir.
TEST(MeshAssets, NamesAndPaths) {
  auto m = Load("strippath=\"true\"", "<mesh file=\"no/such/dir/box.stl\"/>",
                "<geom type=\"mesh\" mesh=\"box\"/>");
  EXPECT_EQ(m->mesh_name[0], "box");
  ExpectBox(*m);
  const std::string abs = TestModel("meshes/box.stl");
  auto a = Load("", "<mesh name=\"b\" file=\"" + abs + "\"/>", "<geom type=\"mesh\" mesh=\"b\"/>");
  ExpectBox(*a);
}

// Every vertex of the mesh is inside or on every hull face, faces point outwards.
TEST(MeshAssets, StoredHullEnclosesTheMesh) {
  auto m = LoadModel(TestModel("mesh_assets.xml"));
  for (int k = 0; k < m->nmesh; ++k) {
    const MeshHull hull = GetMeshHull(*m, k);
    ASSERT_GE(hull.nvert, 4) << m->mesh_name[k];
    EXPECT_EQ(hull.edge_adr[hull.nvert], 3 * hull.nface) << m->mesh_name[k];
    for (int f = 0; f < hull.nface; ++f) {
      const double *a = hull.Vertex(hull.faces[3 * f]), *b = hull.Vertex(hull.faces[3 * f + 1]),
                   *c = hull.Vertex(hull.faces[3 * f + 2]);
      double u[3], w[3], n[3];
      math::Sub3(u, b, a);
      math::Sub3(w, c, a);
      math::Cross3(n, u, w);
      math::Normalize3(n);
      for (int v = 0; v < m->mesh_vertnum[k]; ++v) {
        double d[3];
        math::Sub3(d, &m->mesh_vert[3 * (m->mesh_vertadr[k] + v)], a);
        EXPECT_LE(math::Dot3(d, n), 1e-9) << m->mesh_name[k] << " face " << f << " vertex " << v;
      }
    }
  }
}

// Loads a bad mesh model and checks the located error.
void ExpectMeshError(const std::string& assets, const std::string& geom, const std::string& attr,
                     const std::string& fragment, const std::string& compiler = "") {
  SCOPED_TRACE(assets + " " + geom);
  try {
    Load(compiler, assets, geom);
    FAIL() << "loaded but should be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.where().file, TestModel("mesh_virtual.xml")) << e.what();
    EXPECT_EQ(e.where().attribute, attr) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(MeshAssets, BadInputIsLocated) {
  const std::string geom = "<geom type=\"mesh\" mesh=\"x\"/>";
  ExpectMeshError("<mesh name=\"x\" file=\"missing.stl\"/>", geom, "file",
                  "mesh file 'missing.stl' not found: tried /");
  ExpectMeshError("<mesh name=\"x\" file=\"box.ply\"/>", geom, "file", "unknown file type");
  // 200 bytes that are neither a binary STL (size does not match the header) nor ASCII
  ExpectMeshError("<mesh name=\"x\" file=\"corrupt.stl\"/>", geom, "file",
                  "neither a binary STL");
  ExpectMeshError("<mesh name=\"x\" file=\"bad_index.obj\"/>", geom, "file",
                  "line 7: face index '5'");
  ExpectMeshError("<mesh name=\"x\" file=\"bad_ascii.stl\"/>", geom, "file",
                  "line 4: expected 3 numbers after 'vertex'");
  ExpectMeshError("<mesh name=\"x\" vertex=\"0 0 0 1 0 0 0 1 0 1 1 0\"/>", geom, "vertex",
                  "mesh 'x': no convex hull: all vertices lie in a plane");
  ExpectMeshError("<mesh name=\"x\" vertex=\"0 0 0 1 1 1 2 2 2 3 3 3\"/>", geom, "vertex",
                  "mesh 'x': no convex hull: all vertices lie on a line");
  ExpectMeshError("<mesh name=\"x\" vertex=\"1 2 3 1 2 3 1 2 3 1 2 3\"/>", geom, "vertex",
                  "mesh 'x': no convex hull: all vertices coincide");
  ExpectMeshError("<mesh file=\"flat.obj\"/>", "<geom type=\"mesh\" mesh=\"flat\"/>", "file",
                  "mesh 'flat' (file 'flat.obj'): no convex hull: all vertices lie in a plane "
                  "(the mesh has no volume); qhull: QH");
  ExpectMeshError("<mesh name=\"x\" vertex=\"0 0 0 1 0 0 0 1 0\"/>", geom, "vertex",
                  "at least 4 vertices");
  ExpectMeshError("<mesh name=\"x\" vertex=\"0 0 0 1 0 0 0 1 0 0 0 1\" face=\"0 1 4\"/>", geom,
                  "face", "out of range");
  ExpectMeshError("<mesh name=\"x\" vertex=\"0 0 0 1 0 0 0 1 0 0 0 1 0\"/>", geom, "vertex",
                  "multiple of 3");
  ExpectMeshError("<mesh vertex=\"0 0 0 1 0 0 0 1 0 0 0 1\"/>", geom, "name", "needs a name");
  // inward-facing triangles: negative volume, refused in exact mode (the legacy rule takes
  // absolute volumes)
  ExpectMeshError("<mesh name=\"x\" vertex=\"0 0 0 1 0 0 0 1 0 0 0 1\" face=\"0 1 2 0 3 1 0 2 3 "
                  "1 3 2\"/>",
                  geom, "vertex", "volume is too small", "exactmeshinertia=\"true\"");
  ExpectMeshError("<mesh name=\"x\" file=\"box.stl\"/><mesh name=\"x\" file=\"box.stl\"/>", geom,
                  "name", "already used");
  ExpectMeshError("<mesh name=\"x\" file=\"box.stl\"/>", "<geom type=\"mesh\"/>", "mesh",
                  "needs the mesh attribute");
  ExpectMeshError("<mesh name=\"x\" file=\"box.stl\"/>", "<geom type=\"mesh\" mesh=\"y\"/>",
                  "mesh", "unknown mesh 'y'");
  ExpectMeshError("<mesh name=\"x\" file=\"box.stl\"/>",
                  "<geom type=\"box\" size=\"1 1 1\" mesh=\"x\"/>", "mesh",
                  "fitting a primitive geom to a mesh");
}

}  // namespace
}  // namespace gauss
