// Mass properties of bodies: body_mass, body_ipos, body_iquat, body_inertia, body_subtreemass.
//
// Rules measured against MuJoCo 2.2.2:
//  - compiler inertiafromgeom: "true" always uses the geoms, "false" only <inertial> (no
//    inertial: no mass), "auto" (default) uses <inertial> when present, else the geoms. Only
//    geoms whose group is inside inertiagrouprange count.
//  - One counted geom: the body's inertial frame is the geom's frame. Several: masses add, the
//    center of mass is the mass-weighted mean (an error when their total mass is ~0), the
//    inertia tensors are rotated into the body frame, shifted to the center of mass
//    (parallel axes) and diagonalized; principal moments in decreasing order.
//  - <inertial fullinertia> is diagonalized too and must have positive eigenvalues.
//  - A body without any mass information (no inertial, no counted geom) gets body_ipos and
//    body_iquat equal to its own body_pos and body_quat (a MuJoCo quirk, harmless: no mass).
//  - Then, for every body but the world: mass = max(mass, boundmass) and each moment =
//    max(moment, boundinertia); the moments must satisfy the triangle inequality A + B >= C
//    (compared exactly), or balanceinertia="true" replaces them by their mean.
//  - A body with joints needs mass and all moments >= 1e-15, unless one of its direct
//    children without joints has them.
//  - settotalmass > 0 finally scales every mass and inertia so that the total is that value.
// MuJoCo clamps negative <inertial> masses and moments to zero; we refuse them instead.
//
// Principal axes, and why not a library eigen-solver: MuJoCo 2.2.2 diagonalizes with a cyclic
// Jacobi method whose rotations are accumulated in a quaternion and which stops as soon as a
// rotation's cosine exceeds 1 - 1e-12 (or the largest off-diagonal entry drops below 1e-12).
// That early stop leaves errors of order 1e-7 in its principal moments and axes, which then
// flow into every dynamics quantity. To reproduce MuJoCo's compiled inertias (and so its dynamics) to 1e-9,
// the same iteration is used here: same pivot choice, same rotation, same stopping rules,
// same final ordering (decreasing moments, each swap realized as a quarter turn of the frame).
#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "mjcf/compiler.h"
#include "mjcf/orientation.h"

namespace gauss::mjcf {
namespace {

constexpr double kJacobiEps = 1e-12;
constexpr int kMaxSweeps = 500;

// D = R' A R with R the rotation of quaternion q. (q, a) => (d)
void RotatedTensor(const double q[4], const double a[9], double d[9]) {
  double r[9], ra[9];
  math::QuatToMat(r, q);
  math::MulMatTMat3(ra, r, a);
  math::MulMat3(d, ra, r);
}

struct MassProps {
  double mass = 0;
  double ipos[3] = {0, 0, 0};
  double iquat[4] = {1, 0, 0, 0};
  double inertia[3] = {0, 0, 0};
};

// Adds R diag(d) R' (R the rotation of q) to the tensor t stored as (xx yy zz xy xz yz).
void AddRotatedDiagonal(const double q[4], const double d[3], double t[6]) {
  double r[9];
  math::QuatToMat(r, q);
  const int pairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  for (int p = 0; p < 6; ++p) {
    const int i = pairs[p][0], j = pairs[p][1];
    t[p] += r[3 * i] * d[0] * r[3 * j] + r[3 * i + 1] * d[1] * r[3 * j + 1] +
            r[3 * i + 2] * d[2] * r[3 * j + 2];
  }
}

// Mass properties from the geoms of body b; false when no geom counts.
// (geom_* of b, geom mass/inertia) => (props)
bool FromGeoms(const CompileContext& c, int b, MassProps* out) {
  const Model& m = *c.m;
  const CompilerSpec& cmp = c.spec->compiler;
  std::vector<int> counted;
  for (int k = 0; k < m.body_geomnum[b]; ++k) {
    const int g = m.body_geomadr[b] + k;
    const int group = m.geom_group[g];
    if (group >= cmp.inertiagrouprange[0] && group <= cmp.inertiagrouprange[1]) {
      counted.push_back(g);
    }
  }
  MassProps& p = *out;
  if (counted.empty()) return false;
  if (counted.size() == 1) {
    const int g = counted[0];
    p.mass = c.geom_mass[g];
    math::Copy3(p.ipos, &m.geom_pos[3 * g]);
    math::Copy4(p.iquat, &m.geom_quat[4 * g]);
    math::Copy3(p.inertia, &c.geom_inertia[3 * g]);
    return true;
  }
  for (int g : counted) {
    p.mass += c.geom_mass[g];
    math::AddScaled3(p.ipos, &m.geom_pos[3 * g], c.geom_mass[g]);
  }
  if (p.mass < 1e-14) {
    throw Error(c.bodies[b]->src.Where(), "the geoms of this body have (almost) no mass, so its "
                                          "center of mass is undefined");
  }
  for (double& x : p.ipos) x /= p.mass;
  double t[6] = {0, 0, 0, 0, 0, 0};
  for (int g : counted) {
    const double mg = c.geom_mass[g];
    AddRotatedDiagonal(&m.geom_quat[4 * g], &c.geom_inertia[3 * g], t);
    // parallel axes: shift from the geom center to the body's center of mass
    double d[3];
    math::Sub3(d, &m.geom_pos[3 * g], p.ipos);
    t[0] += mg * (d[1] * d[1] + d[2] * d[2]);
    t[1] += mg * (d[0] * d[0] + d[2] * d[2]);
    t[2] += mg * (d[0] * d[0] + d[1] * d[1]);
    t[3] += -mg * d[0] * d[1];
    t[4] += -mg * d[0] * d[2];
    t[5] += -mg * d[1] * d[2];
  }
  if (PrincipalAxes(t, p.inertia, p.iquat) < 1e-14) {
    throw Error(c.bodies[b]->src.Where(),
                "the inertia of the geoms must have positive eigenvalues");
  }
  return true;
}

// Mass properties from <inertial>. (inertial spec) => (props)
MassProps FromInertial(const CompileContext& c, int b) {
  const InertialSpec& in = c.bodies[b]->inertial;
  const CompilerSpec& cmp = c.spec->compiler;
  MassProps p;
  p.mass = in.mass;
  math::Copy3(p.ipos, in.pos);
  if (in.has_full) {
    if (PrincipalAxes(in.fullinertia, p.inertia, p.iquat) < 1e-14) {  // MuJoCo's mjEPS
      throw Error(in.src.Where("fullinertia"), "the inertia matrix must have positive eigenvalues");
    }
  } else {
    OrientationToQuat(in.orient, cmp.degree, cmp.eulerseq, in.src, p.iquat);
    math::Copy3(p.inertia, in.diaginertia);
  }
  if (cmp.global) {
    double lp[3], lq[4];
    GlobalToLocal(&c.xpos[3 * b], &c.xquat[4 * b], p.ipos, p.iquat, lp, lq);
    math::Copy3(p.ipos, lp);
    math::Copy4(p.iquat, lq);
  }
  if (p.mass < 0 || p.inertia[0] < 0 || p.inertia[1] < 0 || p.inertia[2] < 0) {
    throw Error(in.src.Where(p.mass < 0 ? "mass" : "diaginertia"),
                "mass and inertia cannot be negative");
  }
  return p;
}

// Whether body b has mass and all principal moments >= mjMINVAL. (body_mass, body_inertia)
bool Massive(const Model& m, int b) {
  return m.body_mass[b] >= kMinVal && m.body_inertia[3 * b] >= kMinVal &&
         m.body_inertia[3 * b + 1] >= kMinVal && m.body_inertia[3 * b + 2] >= kMinVal;
}

}  // namespace

// (full tensor) => (moments, quat): Jacobi sweeps in quaternion form, then ordering.
double PrincipalAxes(const double full[6], double inertia[3], double quat[4]) {
  const double a[9] = {full[0], full[3], full[4], full[3], full[1], full[5],
                       full[4], full[5], full[2]};
  double q[4] = {1, 0, 0, 0};
  double moments[3] = {full[0], full[1], full[2]};
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double d[9];
    RotatedTensor(q, a, d);
    moments[0] = d[0];
    moments[1] = d[4];
    moments[2] = d[8];

    // pivot: the largest off-diagonal entry (row, col), rotating about the remaining axis
    int row = 1, col = 2, axis = 0;
    if (std::fabs(d[1]) > std::fabs(d[2]) && std::fabs(d[1]) > std::fabs(d[5])) {
      row = 0, col = 1, axis = 2;
    } else if (std::fabs(d[2]) > std::fabs(d[5])) {
      row = 0, col = 2, axis = 1;
    }
    const double off = d[3 * row + col];
    if (std::fabs(off) < kJacobiEps) break;

    // the 2x2 symmetric Schur rotation that zeroes the pivot
    const double tau = (d[4 * col] - d[4 * row]) / (2 * off);
    const double t = tau >= 0 ? 1 / (tau + std::sqrt(1 + tau * tau))
                              : -1 / (-tau + std::sqrt(1 + tau * tau));
    const double c = 1 / std::sqrt(1 + t * t);
    if (c > 1 - kJacobiEps) break;

    // as a quaternion about `axis`: sin(half angle) from cos(angle), signed for this frame
    double r[4] = {0, 0, 0, 0};
    double s = std::sqrt(0.5 - 0.5 * c);
    if (tau >= 0) s = -s;
    if (axis == 1) s = -s;
    r[axis + 1] = s;
    r[0] = std::sqrt(1 - s * s);
    math::NormalizeQuat(r);
    math::MulQuat(q, q, r);
    math::NormalizeQuat(q);
  }

  // decreasing order by three neighbour swaps (0-1, 1-2, 0-1); each swap of moments i, i+1 is
  // a quarter turn about the third axis
  for (int pass = 0; pass < 3; ++pass) {
    const int i = pass % 2;
    if (moments[i] < moments[i + 1]) {
      std::swap(moments[i], moments[i + 1]);
      double r[4] = {0.707106781186548, 0, 0, 0};
      r[(i + 2) % 3 + 1] = r[0];
      math::MulQuat(q, q, r);
      math::NormalizeQuat(q);
    }
  }
  for (int k = 0; k < 3; ++k) inertia[k] = moments[k];
  math::Copy4(quat, q);
  return moments[2];
}

// (bodies, geoms, compiler) => (body_mass, body_ipos, body_iquat, body_inertia,
// body_subtreemass)
void CompileBodyInertia(CompileContext* c) {
  Model& m = *c->m;
  const CompilerSpec& cmp = c->spec->compiler;
  const int nb = m.nbody;
  m.body_mass.assign(nb, 0);
  m.body_ipos.assign(3 * nb, 0);
  m.body_iquat.assign(4 * nb, 0);
  m.body_inertia.assign(3 * nb, 0);
  m.body_iquat[0] = 1;

  for (int b = 1; b < nb; ++b) {
    const BodySpec& s = *c->bodies[b];
    MassProps p;
    const bool use_inertial =
        cmp.inertiafromgeom == 0 || (cmp.inertiafromgeom == 2 && s.has_inertial);
    bool defined = false;
    if (use_inertial) {
      if (s.has_inertial) p = FromInertial(*c, b);
      defined = s.has_inertial;
    } else {
      defined = FromGeoms(*c, b, &p);
    }
    if (!defined) {
      // no mass information: MuJoCo 2.2.2 copies the body frame (pos, quat in the parent)
      // into the (massless) inertial frame
      math::Copy3(p.ipos, &m.body_pos[3 * b]);
      math::Copy4(p.iquat, &m.body_quat[4 * b]);
    }
    p.mass = std::max(p.mass, cmp.boundmass);
    for (double& i : p.inertia) i = std::max(i, cmp.boundinertia);
    double* in = p.inertia;
    if (in[0] + in[1] < in[2] || in[0] + in[2] < in[1] || in[1] + in[2] < in[0]) {
      if (!cmp.balanceinertia) {
        throw Error(s.src.Where(), "the principal moments of inertia must satisfy A + B >= C; "
                                   "use compiler balanceinertia=\"true\" to fix");
      }
      const double mean = (in[0] + in[1] + in[2]) / 3;
      in[0] = in[1] = in[2] = mean;
    }
    m.body_mass[b] = p.mass;
    math::Copy3(&m.body_ipos[3 * b], p.ipos);
    math::Copy4(&m.body_iquat[4 * b], p.iquat);
    math::Copy3(&m.body_inertia[3 * b], p.inertia);
  }

  // moving bodies need mass, possibly carried by a static (jointless) direct child
  for (int b = 1; b < nb; ++b) {
    if (m.body_jntnum[b] == 0 || Massive(m, b)) continue;
    bool rescued = false;
    for (int k = b + 1; k < nb && !rescued; ++k) {
      rescued = m.body_parentid[k] == b && m.body_jntnum[k] == 0 && Massive(m, k);
    }
    if (!rescued) {
      throw Error(c->bodies[b]->src.Where(),
                  "mass and inertia of moving bodies must be larger than 1e-15 (MuJoCo's "
                  "mjMINVAL): give this body a geom with mass or an <inertial>");
    }
  }

  if (cmp.settotalmass > 0) {
    double total = 0;
    for (int b = 1; b < nb; ++b) total += m.body_mass[b];
    if (total > kMinVal) {
      const double scale = cmp.settotalmass / total;
      for (int b = 1; b < nb; ++b) {
        m.body_mass[b] *= scale;
        for (int k = 0; k < 3; ++k) m.body_inertia[3 * b + k] *= scale;
      }
    }
  }

  m.body_subtreemass = m.body_mass;
  for (int b = nb - 1; b > 0; --b) m.body_subtreemass[m.body_parentid[b]] += m.body_subtreemass[b];
}

}  // namespace gauss::mjcf
