// Shared by the `ccd` collider tests (ccd_test.cc, ccd_plane_test.cc): an independent
// reference geometry - closed-form support functions, the overlap of two geoms along a
// direction, a brute-force penetration search - and the test fixture that loads two geoms on
// free bodies, poses them and presses one into the other by a known depth.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "data_alloc.h"
#include "gauss/collider.h"
#include "gauss/math.h"
#include "gauss/mesh.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "pipeline.h"
#include "support/test_support.h"

namespace gauss::ccd_test {

using namespace math;

constexpr double kTol = 1e-3;
// Normals of MPR contacts between a smooth geom (sphere, capsule, ellipsoid, cylinder) and a
// flat one (box, mesh). MuJoCo 2.2.2's smooth-geom rule (normal.cc) replaces MPR's direction by
// the smooth geom's own normal at the MPR position, and so inherits that position's tangential
// error (MPR's portal stays wide on the flat parts of the Minkowski difference): measured up to
// 2.7e-3 (capsule on a mesh face), whatever the depth. Contacts between two smooth surfaces or
// two flat ones (a cylinder's cap and rim count as flat: the rule leaves them) meet kTol.
constexpr double kNormalTol = 3e-3;
// Penetration depths of the MPR tests. MPR's portal and the ellipsoid rule lose accuracy as the
// overlap grows (ellipsoid pairs: normal error 1e-3 at 0.5 mm, 5e-3 at 5 mm; docs/collision.md):
// the tests use resting-contact depths.
constexpr double kMinDepth = 0.0001, kMaxDepth = 0.0004;

// Geoms a (body 1) and b (body 2), each on a free body; meshes from tests/models/meshes.
inline std::string PairModel(const std::string& a, const std::string& b,
                             const std::string& option) {
  return "<mujoco><compiler meshdir=\"meshes\"/><option " + option +
         "/><asset><mesh name=\"box\" file=\"box.stl\"/><mesh name=\"oct\" file=\"octagon.stl\"/>"
         "<mesh name=\"tet\" file=\"tetrahedron.obj\"/></asset><worldbody>"
         "<geom name=\"floor\" type=\"plane\" size=\"0 0 1\"/>"
         "<body><freejoint/><geom name=\"a\" " + a + "/></body>"
         "<body><freejoint/><geom name=\"b\" " + b + "/></body></worldbody></mujoco>";
}

// ---------------------------------------------------------------- reference geometry

// Support point of geom g (world pose from d) along the unit world direction u, from closed
// forms; meshes: the farthest of all their vertices (not the hull).
inline void RefSupport(const Model& m, const Data& d, int g, const double u[3], double out[3]) {
  const double* R = d.geom_xmat.data() + 9 * g;
  const double* s = m.geom_size.data() + 3 * g;
  double l[3], p[3] = {0, 0, 0};
  MulMatTVec3(l, R, u);
  switch (m.geom_type[g]) {
    case GeomType::kSphere:
      Scale3(p, l, s[0]);
      break;
    case GeomType::kCapsule:
      Scale3(p, l, s[0]);
      p[2] += l[2] >= 0 ? s[1] : -s[1];
      break;
    case GeomType::kEllipsoid: {
      const double n = std::sqrt(s[0] * s[0] * l[0] * l[0] + s[1] * s[1] * l[1] * l[1] +
                                 s[2] * s[2] * l[2] * l[2]);
      for (int i = 0; i < 3; ++i) p[i] = s[i] * s[i] * l[i] / n;
      break;
    }
    case GeomType::kCylinder: {
      const double r = std::hypot(l[0], l[1]);
      if (r > 0) {
        p[0] = s[0] * l[0] / r;
        p[1] = s[0] * l[1] / r;
      }
      p[2] = l[2] >= 0 ? s[1] : -s[1];
      break;
    }
    case GeomType::kBox:
      for (int i = 0; i < 3; ++i) p[i] = l[i] >= 0 ? s[i] : -s[i];
      break;
    case GeomType::kMesh: {
      const int k = m.geom_dataid[g];
      double best = -1e300;
      for (int v = 0; v < m.mesh_vertnum[k]; ++v) {
        const double* x = &m.mesh_vert[3 * (m.mesh_vertadr[k] + v)];
        if (Dot3(x, l) > best) {
          best = Dot3(x, l);
          Copy3(p, x);
        }
      }
      break;
    }
    default:
      break;
  }
  MulMatVec3(out, R, p);
  AddTo3(out, d.geom_xpos.data() + 3 * g);
}

// Overlap of a and b along u (from a to b): positive when they overlap in that projection.
inline double Overlap(const Model& m, const Data& d, int a, int b, const double u[3]) {
  double pa[3], pb[3], nu[3] = {-u[0], -u[1], -u[2]};
  RefSupport(m, d, a, u, pa);
  RefSupport(m, d, b, nu, pb);
  return Dot3(pa, u) - Dot3(pb, u);
}

struct Penetration {
  double depth;     // minimum overlap over directions (negative: separated by -depth)
  double normal[3]; // its direction, from a to b
};

// Brute force: 4000 quasi-uniform directions, then a shrinking pattern search from the five
// best (`refine`; without it, 500 directions and a coarse search, for bisections).
// (poses, shapes) => minimum overlap and its direction
inline Penetration RefPenetration(const Model& m, const Data& d, int a, int b, bool refine = true) {
  const int n = refine ? 4000 : 500;
  std::vector<std::pair<double, int>> samples;
  auto dir = [n](int i, double u[3]) {
    const double z = 1 - (2 * i + 1.0) / n, r = std::sqrt(1 - z * z);
    const double phi = i * 2.399963229728653;  // golden angle
    u[0] = r * std::cos(phi);
    u[1] = r * std::sin(phi);
    u[2] = z;
  };
  for (int i = 0; i < n; ++i) {
    double u[3];
    dir(i, u);
    samples.push_back({Overlap(m, d, a, b, u), i});
  }
  std::partial_sort(samples.begin(), samples.begin() + 5, samples.end());
  Penetration best{1e300, {0, 0, 1}};
  for (int s = 0; s < (refine ? 5 : 2); ++s) {
    double u[3];
    dir(samples[s].second, u);
    double f = samples[s].first;
    // pattern search; the probe angles turn by the golden angle at every sweep, so that the
    // descent also follows valleys (kinks of the support functions) at any angle
    double phase = 0;
    for (double step = 0.05; step > (refine ? 1e-10 : 1e-4); step *= 0.7) {
      for (bool improved = true; improved;) {
        improved = false;
        phase += 2.399963229728653;
        double t1[3], t2[3], any[3] = {0.57, 0.61, 0.55};
        Cross3(t1, u, any);
        Normalize3(t1);
        Cross3(t2, u, t1);
        for (int k = 0; k < 16; ++k) {
          const double ang = phase + k * M_PI / 8;
          double v[3];
          for (int i = 0; i < 3; ++i) {
            v[i] = u[i] + step * (std::cos(ang) * t1[i] + std::sin(ang) * t2[i]);
          }
          Normalize3(v);
          const double fv = Overlap(m, d, a, b, v);
          if (fv < f) {
            f = fv;
            Copy3(u, v);
            improved = true;
          }
        }
      }
    }
    if (f < best.depth) {
      best.depth = f;
      Copy3(best.normal, u);
    }
  }
  return best;
}

// ---------------------------------------------------------------- fixture

class Ccd : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    registry_ = new PluginRegistry();
    plugin_ = new PluginInstance<Collider>(
        registry_->Create<Collider>(PluginKind::kCollider, "ccd"));
  }
  static void TearDownTestSuite() {
    delete plugin_;
    delete registry_;
  }

  void Load(const std::string& a, const std::string& b, const std::string& option = "") {
    model_ = LoadModelFromString(PairModel(a, b, option), test::TestModel("ccd_virtual.xml"));
    AllocateData(*model_, d_);
    ga_ = 1;
    gb_ = 2;
    // the collider takes the geom of smaller type first
    if (model_->geom_type[ga_] > model_->geom_type[gb_]) std::swap(ga_, gb_);
  }

  // Body of geom g at position p with orientation q (w, x, y, z, normalized here).
  void Pose(int g, const double p[3], const double q[4]) {
    const int adr = 7 * (model_->geom_bodyid[g] - 1);
    for (int i = 0; i < 3; ++i) d_.qpos[adr + i] = p[i];
    for (int i = 0; i < 4; ++i) d_.qpos[adr + 3 + i] = q[i];
    NormalizeQuat(&d_.qpos[adr + 3]);
    Kinematics(*model_, d_);
  }

  // Random orientation of geom g's body (its position unchanged).
  void RandomOrientation(int g, std::mt19937_64& gen) {
    std::normal_distribution<double> nd(0, 1);
    double q[4], p[3];
    for (double& x : q) x = nd(gen);
    const int adr = 7 * (model_->geom_bodyid[g] - 1);
    for (int i = 0; i < 3; ++i) p[i] = d_.qpos[adr + i];
    Pose(g, p, q);
  }

  // Moves geom o (keeping its orientation) so that its support point along -m lies `target`
  // below `touch`, a point of the other geom's surface with outward unit normal m: the two
  // geoms then overlap by `target` along m, and m is a stationary direction of the overlap, so
  // (target, m) is the penetration when o's support point is unique and `touch` lies inside a
  // face or on a smooth part of the other geom.
  void Press(int o, const double m[3], const double touch[3], double target) {
    const double down[3] = {-m[0], -m[1], -m[2]};
    double p[3];
    RefSupport(*model_, d_, o, down, p);
    const int adr = 7 * (model_->geom_bodyid[o] - 1);
    double pos[3], q[4];
    for (int i = 0; i < 3; ++i) pos[i] = d_.qpos[adr + i] + touch[i] - target * m[i] - p[i];
    for (int i = 0; i < 4; ++i) q[i] = d_.qpos[adr + 3 + i];
    Pose(o, pos, q);
  }

  // Random orientations; geom b pressed by `target` (negative: held apart) onto geom a at a's
  // support point along a random direction m. Returns m.
  std::vector<double> PressAtSupport(std::mt19937_64& gen, double target) {
    std::normal_distribution<double> nd(0, 1);
    RandomOrientation(ga_, gen);
    RandomOrientation(gb_, gen);
    std::vector<double> m = {nd(gen), nd(gen), nd(gen)};
    Normalize3(m.data());
    double touch[3];
    RefSupport(*model_, d_, ga_, m.data(), touch);
    Press(gb_, m.data(), touch, target);
    return m;
  }

  std::vector<Contact> Collide(double margin = 0) {
    std::vector<Contact> out(50);
    const int n = plugin_->instance->Collide(*model_, d_, ga_, gb_, margin, out.data(), 50);
    out.resize(n);
    for (Contact& c : out) Normalize3(c.frame);
    return out;
  }

  // The contact of geom o pressed by `target` into the other geom's surface at `touch` (outward
  // normal m) against the analytic penetration: depth `target`, normal m (from the geom 1 of
  // the pair to geom 2), position half-way along the normal. Returns the worst error.
  double CheckPressed(int o, const double m[3], const double touch[3], double target,
                      const std::string& what, double normal_tol = kTol) {
    const std::vector<Contact> cs = Collide();
    EXPECT_EQ(cs.size(), 1u) << what;
    if (cs.empty()) return 1;
    const Contact& c = cs[0];
    double n[3], dn[3];
    Scale3(n, m, o == gb_ ? 1 : -1);  // from geom 1 to geom 2
    Sub3(dn, c.frame, n);
    const double err_depth = std::fabs(-c.dist - target), err_normal = Norm3(dn);
    const double err_pos = std::fabs(Dot3(c.pos, m) - (Dot3(touch, m) - target / 2));
    EXPECT_LE(err_depth, kTol) << what << ": depth " << -c.dist << " vs " << target;
    EXPECT_LE(err_normal, normal_tol)
        << what << ": normal (" << c.frame[0] << ", " << c.frame[1] << ", " << c.frame[2]
        << ") vs (" << n[0] << ", " << n[1] << ", " << n[2] << ")";
    EXPECT_LE(err_pos, kTol) << what << ": position along the normal";
    return std::max({err_depth, err_normal, err_pos});
  }

  // Cross-check of the construction: the overlap along m is `target` and the brute-force
  // search over directions finds no smaller one.
  void CheckReferenceAgrees(int o, const double m[3], double target) {
    double n[3];
    Scale3(n, m, o == gb_ ? 1 : -1);
    EXPECT_NEAR(Overlap(*model_, d_, ga_, gb_, n), target, 1e-12);
    EXPECT_GE(RefPenetration(*model_, d_, ga_, gb_).depth, target - 1e-12);
  }

  static inline PluginRegistry* registry_ = nullptr;
  static inline PluginInstance<Collider>* plugin_ = nullptr;
  std::shared_ptr<const Model> model_;
  Data d_;
  int ga_ = 1, gb_ = 2;
};


// World position and axes (columns of geom_xmat) of geom g.
inline void Frame(const Data& d, int g, double c[3], double axis[3][3]) {
  const double* R = d.geom_xmat.data() + 9 * g;
  Copy3(c, d.geom_xpos.data() + 3 * g);
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 3; ++i) axis[k][i] = R[3 * i + k];
  }
}

// Shallow contacts between a cylinder (radius 0.15, half-height 0.2) and a box
// (0.1 x 0.2 x 0.25): box corners on the cap and on the side, the cylinder rim and the
// cylinder lying on its side on a box face.

}  // namespace gauss::ccd_test
