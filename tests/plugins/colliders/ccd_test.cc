// The `ccd` collider plugin's convex pairs against geometry computed independently. Contacts
// are built with a known answer: a geom is pressed by a depth t (0.1-0.4 mm, resting-contact
// depths; geoms of 0.1-0.5 m) into a face or a smooth part of the other geom's surface whose
// outward normal m is known, so that the penetration is (t, m); the construction is
// cross-checked against a brute-force minimum over directions u of the overlap
// h_A(u) + h_B(-u) of closed-form support functions (every vertex for meshes; ccd_fixture.h).
// Depth, position along the normal and normal within 1e-3 for cylinder-box (corners on cap and
// side, rim and side on a face), sphere-cylinder, ellipsoid-ellipsoid, mesh-mesh and every
// convex type on box and mesh faces - but for normals between a smooth and a flat surface,
// within 3e-3 (see kNormalTol). And the pairs the plugin declares.
#include "ccd_fixture.h"

namespace gauss::ccd_test {
namespace {

// ---------------------------------------------------------------- convex pairs

TEST_F(Ccd, CylinderBox) {
  Load("type=\"cylinder\" size=\"0.15 0.2\"", "type=\"box\" size=\"0.1 0.2 0.25\"");
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<double> ud(-1, 1), depth(kMinDepth, kMaxDepth);
  double worst = 0;
  for (int i = 0; i < 80; ++i) {
    const int kind = i % 4;
    RandomOrientation(ga_, gen);
    RandomOrientation(gb_, gen);
    double c[3], ax[3][3], m[3], touch[3];
    const double t = depth(gen);
    int o = gb_;
    if (kind == 0) {  // a box corner on the cap, within half a radius of the axis
      Frame(d_, ga_, c, ax);
      Copy3(m, ax[2]);
      const double u = 0.07 * ud(gen), v = 0.07 * ud(gen);
      for (int k = 0; k < 3; ++k) touch[k] = c[k] + 0.2 * m[k] + u * ax[0][k] + v * ax[1][k];
    } else if (kind == 1) {  // a box corner on the side, away from the rims
      Frame(d_, ga_, c, ax);
      const double a = M_PI * ud(gen), z = 0.1 * ud(gen);
      for (int k = 0; k < 3; ++k) {
        m[k] = std::cos(a) * ax[0][k] + std::sin(a) * ax[1][k];
        touch[k] = c[k] + 0.15 * m[k] + z * ax[2][k];
      }
    } else {  // the rim (kind 2) or the side (kind 3, axis along the face) on a box face
      o = ga_;
      if (kind == 3) {
        Frame(d_, gb_, c, ax);
        // the cylinder's axis in the plane of the box's +z face: a line contact
        const double a = M_PI * ud(gen);
        double q[4], p[3] = {0, 0, 0}, axis[3];
        for (int k = 0; k < 3; ++k) axis[k] = std::cos(a) * ax[0][k] + std::sin(a) * ax[1][k];
        QuatZ2Vec(q, axis);
        Pose(ga_, p, q);
      }
      Frame(d_, gb_, c, ax);
      Copy3(m, ax[2]);
      const double u = 0.03 * ud(gen), v = 0.06 * ud(gen);
      for (int k = 0; k < 3; ++k) touch[k] = c[k] + 0.25 * m[k] + u * ax[0][k] + v * ax[1][k];
    }
    Press(o, m, touch, t);
    // the cylinder's side (kinds 1, 3) is smooth, the box flat
    const double tol = kind == 1 || kind == 3 ? kNormalTol : kTol;
    worst = std::max(worst, CheckPressed(o, m, touch, t, "cylinder-box kind " +
                                                            std::to_string(kind) + " pose " +
                                                            std::to_string(i), tol));
    if (i < 8) CheckReferenceAgrees(o, m, t);
  }
  RecordProperty("max_error", std::to_string(worst));
}

// A sphere (radius 0.2) pressed on the side and on the cap of a cylinder.
TEST_F(Ccd, SphereCylinder) {
  Load("type=\"sphere\" size=\"0.2\"", "type=\"cylinder\" size=\"0.15 0.2\"");
  std::mt19937_64 gen(2);
  std::uniform_real_distribution<double> ud(-1, 1), depth(kMinDepth, kMaxDepth);
  double worst = 0;
  for (int i = 0; i < 60; ++i) {
    RandomOrientation(gb_, gen);
    double c[3], ax[3][3], m[3], touch[3];
    Frame(d_, gb_, c, ax);
    if (i % 2 == 0) {  // side, away from the rims
      const double a = M_PI * ud(gen), z = 0.12 * ud(gen);
      for (int k = 0; k < 3; ++k) {
        m[k] = std::cos(a) * ax[0][k] + std::sin(a) * ax[1][k];
        touch[k] = c[k] + 0.15 * m[k] + z * ax[2][k];
      }
    } else {  // cap
      const double s = ud(gen) < 0 ? -1 : 1, u = 0.07 * ud(gen), v = 0.07 * ud(gen);
      for (int k = 0; k < 3; ++k) {
        m[k] = s * ax[2][k];
        touch[k] = c[k] + 0.2 * m[k] + u * ax[0][k] + v * ax[1][k];
      }
    }
    const double t = depth(gen);
    Press(ga_, m, touch, t);
    // side: two smooth surfaces; cap: the sphere on a flat face
    worst = std::max(worst, CheckPressed(ga_, m, touch, t, "sphere-cylinder pose " +
                                                               std::to_string(i),
                                         i % 2 == 0 ? kTol : kNormalTol));
    if (i < 6) CheckReferenceAgrees(ga_, m, t);
  }
  RecordProperty("max_error", std::to_string(worst));
}

// Two ellipsoids touching at the support points along a random direction.
TEST_F(Ccd, EllipsoidEllipsoid) {
  Load("type=\"ellipsoid\" size=\"0.1 0.2 0.3\"", "type=\"ellipsoid\" size=\"0.25 0.15 0.1\"");
  std::mt19937_64 gen(3);
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> depth(kMinDepth, kMaxDepth);
  double worst = 0;
  for (int i = 0; i < 60; ++i) {
    RandomOrientation(ga_, gen);
    RandomOrientation(gb_, gen);
    double m[3] = {nd(gen), nd(gen), nd(gen)}, touch[3];
    Normalize3(m);
    RefSupport(*model_, d_, ga_, m, touch);
    const double t = depth(gen);
    Press(gb_, m, touch, t);
    worst = std::max(worst, CheckPressed(gb_, m, touch, t, "ellipsoid-ellipsoid pose " +
                                                               std::to_string(i)));
    if (i < 6) CheckReferenceAgrees(gb_, m, t);
  }
  RecordProperty("max_error", std::to_string(worst));
}

// Corners of a box mesh pressed into faces of the octagonal prism mesh.
TEST_F(Ccd, MeshMesh) {
  Load("type=\"mesh\" mesh=\"oct\"", "type=\"mesh\" mesh=\"box\"");
  std::mt19937_64 gen(4);
  std::uniform_real_distribution<double> ud(0, 1), depth(kMinDepth, kMaxDepth);
  const MeshHull hull = GetMeshHull(*model_, model_->geom_dataid[ga_]);
  double worst = 0;
  for (int i = 0; i < 60; ++i) {
    RandomOrientation(ga_, gen);
    RandomOrientation(gb_, gen);
    // a random hull face, a random point well inside it
    const int f = static_cast<int>(ud(gen) * hull.nface) % hull.nface;
    double w[3] = {0.2 + ud(gen), 0.2 + ud(gen), 0.2 + ud(gen)}, local[3] = {0, 0, 0};
    const double sum = w[0] + w[1] + w[2];
    for (int k = 0; k < 3; ++k) AddScaled3(local, hull.Vertex(hull.faces[3 * f + k]), w[k] / sum);
    double e1[3], e2[3], ln[3], m[3], touch[3];
    Sub3(e1, hull.Vertex(hull.faces[3 * f + 1]), hull.Vertex(hull.faces[3 * f]));
    Sub3(e2, hull.Vertex(hull.faces[3 * f + 2]), hull.Vertex(hull.faces[3 * f]));
    Cross3(ln, e1, e2);
    Normalize3(ln);
    const double* R = d_.geom_xmat.data() + 9 * ga_;
    MulMatVec3(m, R, ln);
    MulMatVec3(touch, R, local);
    AddTo3(touch, d_.geom_xpos.data() + 3 * ga_);
    const double t = depth(gen);
    Press(gb_, m, touch, t);
    worst = std::max(worst, CheckPressed(gb_, m, touch, t, "mesh-mesh pose " + std::to_string(i)));
    if (i < 6) CheckReferenceAgrees(gb_, m, t);
  }
  RecordProperty("max_error", std::to_string(worst));
}

// Every convex geom type pressed into a box face, and into a mesh face.
TEST_F(Ccd, EveryConvexTypeOnBoxAndMeshFaces) {
  const char* shapes[] = {"type=\"sphere\" size=\"0.2\"", "type=\"capsule\" size=\"0.1 0.2\"",
                          "type=\"ellipsoid\" size=\"0.1 0.2 0.3\"",
                          "type=\"cylinder\" size=\"0.15 0.2\"",
                          "type=\"box\" size=\"0.1 0.2 0.25\"",
                          "type=\"mesh\" mesh=\"tet\""};
  std::mt19937_64 gen(10);
  std::uniform_real_distribution<double> ud(-1, 1), depth(kMinDepth, kMaxDepth);
  double worst = 0;
  for (const char* face : {"type=\"box\" size=\"0.3 0.25 0.2\"", "type=\"mesh\" mesh=\"box\""}) {
    for (const char* shape : shapes) {
      Load(face, shape);
      const int f = 1, o = 2;  // geom "a" has the face
      for (int i = 0; i < 12; ++i) {
        RandomOrientation(f, gen);
        RandomOrientation(o, gen);
        double c[3], ax[3][3], m[3], touch[3];
        Frame(d_, f, c, ax);
        const double* half = &model_->geom_size[3 * f];  // meshes: the box's half-sizes too
        const int k = i % 3;
        const double s = ud(gen) < 0 ? -1 : 1;
        const double u = 0.3 * ud(gen) * half[(k + 1) % 3], v = 0.3 * ud(gen) * half[(k + 2) % 3];
        for (int j = 0; j < 3; ++j) {
          m[j] = s * ax[k][j];
          touch[j] = c[j] + s * half[k] * ax[k][j] + u * ax[(k + 1) % 3][j] +
                     v * ax[(k + 2) % 3][j];
        }
        const double t = depth(gen);
        Press(o, m, touch, t);
        const GeomType type = model_->geom_type[o];
        const bool flat = type == GeomType::kBox || type == GeomType::kMesh;
        worst = std::max(worst, CheckPressed(o, m, touch, t, std::string(shape) + " on " + face +
                                                                 " pose " + std::to_string(i),
                                             flat ? kTol : kNormalTol));
      }
    }
  }
  RecordProperty("max_error", std::to_string(worst));
}

// ---------------------------------------------------------------- coverage

TEST(CcdPairs, ConvexPairsAndPlanesAgainstEllipsoidsAndMeshes) {
  PluginRegistry registry;
  auto ccd = registry.Create<Collider>(PluginKind::kCollider, "ccd");
  const auto pairs = ccd.instance->Pairs();
  auto has = [&](GeomType a, GeomType b) {
    return std::find(pairs.begin(), pairs.end(), std::make_pair(a, b)) != pairs.end();
  };
  using T = GeomType;
  const T solids[] = {T::kSphere, T::kCapsule, T::kEllipsoid, T::kCylinder, T::kBox, T::kMesh};
  for (T a : solids) {
    for (T b : solids) {
      if (a <= b) {
        EXPECT_TRUE(has(a, b)) << static_cast<int>(a) << "-" << static_cast<int>(b);
      }
    }
  }
  EXPECT_TRUE(has(T::kPlane, T::kEllipsoid));
  EXPECT_TRUE(has(T::kPlane, T::kMesh));
  EXPECT_FALSE(has(T::kPlane, T::kBox));  // analytic: the primitive plugin's
  EXPECT_FALSE(has(T::kPlane, T::kHfield));
  for (T b : solids) EXPECT_TRUE(has(T::kHfield, b)) << static_cast<int>(b);
  EXPECT_FALSE(has(T::kHfield, T::kHfield));
  EXPECT_EQ(pairs.size(), 21u + 2u + 6u);
}

}  // namespace
}  // namespace gauss::ccd_test
