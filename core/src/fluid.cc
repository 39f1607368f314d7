// Forces of the surrounding fluid (spec "Fluid forces"). Both models are stateless: the fluid
// is at rest (or moves with the uniform wind) and each body or geom feels a wrench that depends
// only on its own velocity relative to the medium.
//
// Inertia-box model (per body). The body is replaced by the uniform box with its mass and
// principal moments. In the inertial frame, with v and omega relative to the medium:
//   viscous (Stokes, sphere of diameter D = mean box side):
//       f = -3 pi D mu v,               tau = -pi D^3 mu omega
//   quadratic drag (density rho), per axis i with the other two sides j, k:
//       f_i   = -1/2 rho b_j b_k |v_i| v_i
//       tau_i = -rho b_i (b_j^4 + b_k^4) |omega_i| omega_i / 64
//
// Ellipsoid model (per geom with fluidshape="ellipsoid"; it replaces the box model for the
// whole body). The geom is replaced by an ellipsoid with semi-axes r; in the geom frame, with
// v, omega relative to the medium, V = 4/3 pi r_x r_y r_z and D = 2/3 (r_x + r_y + r_z):
//   added mass (potential flow, without the acceleration term, which would need qacc):
//       f += (rho m_A o v) x omega,    tau += (rho m_A o v) x v + (rho I_A o omega) x omega
//   Magnus lift:   f += C_M rho V omega x v
//   Kutta lift:    f += C_K rho A_proj cos(a) (n x v) x v, with n the unit normal of the
//                  ellipsoid's cross-section that projects onto the plane normal to v,
//                  A_proj that projected area and a the angle between v and n
//   drag:          f -= (3 pi D mu + rho |v| (C_blunt A_proj + C_slender (A_max - A_proj))) v
//                  with A_max = pi r_max r_mid
//   angular drag:  tau -= (pi D^3 mu + rho |w|) omega, with
//                  w_i = omega_i (C_angular I_i + C_slender (I_max - I_i)),
//                  I_i = 8/15 pi r_i max(r_j, r_k)^4 and I_max = 8/15 pi r_mid r_max^4
// m_A and I_A are the virtual mass and moment of inertia of the ellipsoid per unit density,
// computed when the model is compiled (EllipsoidFluidCoefficients).
//
// Every wrench acts at the body's center of mass (box) or at the geom's center (ellipsoid) and
// enters qfrc_passive through the body's Jacobian.
#include "fluid.h"

#include <algorithm>
#include <cmath>

#include "gauss/math.h"
#include "jacobian.h"

namespace gauss {

using namespace math;

namespace {

constexpr double kPi = 3.14159265358979323846;

double Pow4(double x) {
  const double x2 = x * x;
  return x2 * x2;
}

// Sides of the uniform box with body b's mass and principal moments.
void EquivalentBox(const Model& m, int b, double* box) {
  const double* inertia = m.body_inertia.data() + 3 * b;
  const double mass = m.body_mass[b];
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    // I_i = m (b_j^2 + b_k^2) / 12  =>  b_i^2 = 6 (I_j + I_k - I_i) / m
    box[i] = std::sqrt(std::max(kMinVal, inertia[j] + inertia[k] - inertia[i]) / mass * 6.0);
  }
}

// Velocity of the point `point` of body b relative to the medium (v) and the body's angular
// velocity (w), both expressed in the frame with rotation matrix `frame`.
void PointVelocityInFrame(const Model& m, const Data& d, int b, const double* point,
                          const double* frame, double* v, double* w) {
  const double* cvel = d.cvel.data() + 6 * b;
  double offset[3], lin[3], rel[3];
  Sub3(offset, point, d.subtree_com.data() + 3 * m.body_rootid[b]);
  Cross3(lin, cvel, offset);
  AddTo3(lin, cvel + 3);
  Sub3(rel, lin, m.opt.wind.data());
  MulMatTVec3(w, frame, cvel);
  MulMatTVec3(v, frame, rel);
}

bool HasEllipsoidGeom(const Model& m, int b) {
  const int first = m.body_geomadr[b];
  for (int g = first; g >= 0 && g < first + m.body_geomnum[b]; ++g) {
    if (m.geom_fluid[kNFluid * g] > 0) return true;
  }
  return false;
}

void InertiaBoxForces(const Model& m, Data& d, int b) {
  const Options& o = m.opt;
  double box[3];
  EquivalentBox(m, b, box);
  const double* ximat = d.ximat.data() + 9 * b;
  double v[3], w[3];
  PointVelocityInFrame(m, d, b, d.xipos.data() + 3 * b, ximat, v, w);

  double torque[3] = {0, 0, 0}, force[3] = {0, 0, 0};
  if (o.viscosity > 0) {
    const double diameter = (box[0] + box[1] + box[2]) / 3.0;
    for (int i = 0; i < 3; ++i) {
      torque[i] -= kPi * diameter * diameter * diameter * o.viscosity * w[i];
      force[i] -= 3.0 * kPi * diameter * o.viscosity * v[i];
    }
  }
  if (o.density > 0) {
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      force[i] -= 0.5 * o.density * box[j] * box[k] * std::fabs(v[i]) * v[i];
      const double bj2 = box[j] * box[j], bk2 = box[k] * box[k];
      torque[i] -= o.density * box[i] * (bj2 * bj2 + bk2 * bk2) * std::fabs(w[i]) * w[i] / 64.0;
    }
  }
  double world_force[3], world_torque[3];
  MulMatVec3(world_force, ximat, force);
  MulMatVec3(world_torque, ximat, torque);
  ApplyWrench(m, d, b, d.xipos.data() + 3 * b, world_force, world_torque, d.qfrc_passive.data());
}

void EllipsoidForces(const Model& m, Data& d, int b) {
  const int first = m.body_geomadr[b];
  for (int g = first; g < first + m.body_geomnum[b]; ++g) {
    const double* fluid = m.geom_fluid.data() + kNFluid * g;
    if (fluid[0] == 0) continue;
    double semiaxes[3];
    FluidSemiAxes(m.geom_type[g], m.geom_size.data() + 3 * g, semiaxes);
    const double* xpos = d.geom_xpos.data() + 3 * g;
    const double* xmat = d.geom_xmat.data() + 9 * g;
    double vel[6];
    GeomFluidVelocity(m, d, g, vel);
    double wrench[6] = {0, 0, 0, 0, 0, 0};
    EllipsoidFluidWrench(semiaxes, fluid, m.opt.density, m.opt.viscosity, vel, wrench);
    for (double& x : wrench) x *= fluid[0];
    double world_force[3], world_torque[3];
    MulMatVec3(world_torque, xmat, wrench);
    MulMatVec3(world_force, xmat, wrench + 3);
    ApplyWrench(m, d, b, xpos, world_force, world_torque, d.qfrc_passive.data());
  }
}

// Carlson's symmetric elliptic integral R_D(x, y, z) = 3/2 int_0^inf dt /
// (sqrt(t + x) sqrt(t + y) (t + z)^(3/2)), by the duplication theorem
// R_D(x, y, z) = 3 / (sqrt(z) (z + l)) + R_D(x', y', z') / 4 with l the sum of the pairwise
// products of the square roots and x' = (x + l) / 4 (and y', z'); once the three arguments agree
// to 1e-10, R_D is mu^(-3/2) with mu = (x + y + 3 z) / 5, which cancels the first-order term.
double CarlsonRD(double x, double y, double z) {
  double sum = 0, scale = 1;
  for (int iteration = 0; iteration < 60; ++iteration) {
    const double mu = (x + y + 3 * z) / 5;
    const double spread = std::max({std::fabs(x - mu), std::fabs(y - mu), std::fabs(z - mu)});
    if (spread <= 1e-10 * mu) break;
    const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
    const double l = sx * sy + sx * sz + sy * sz;
    sum += scale * 3 / (sz * (z + l));
    scale *= 0.25;
    x = 0.25 * (x + l);
    y = 0.25 * (y + l);
    z = 0.25 * (z + l);
  }
  const double mu = (x + y + 3 * z) / 5;
  return sum + scale / (mu * std::sqrt(mu));
}

// Lamb's kappa_i = r_i r_j r_k int_0^inf dl / ((r_i^2 + l)^(3/2) sqrt(r_j^2 + l) sqrt(r_k^2 + l))
// = 2/3 r_i r_j r_k R_D(r_j^2, r_k^2, r_i^2): 2/3 for a sphere, -> 2 for a thin disc's normal.
double LambKappa(double ri, double rj, double rk) {
  return 2.0 / 3.0 * ri * rj * rk * CarlsonRD(rj * rj, rk * rk, ri * ri);
}

// Forward-mode dual number with the derivatives with respect to the six local velocities:
// evaluating the wrench on duals gives its exact Jacobian (EllipsoidFluidWrenchJacobian).
struct Dual6 {
  double v = 0;
  double d[6] = {0, 0, 0, 0, 0, 0};
  Dual6() = default;
  Dual6(double value) : v(value) {}  // NOLINT: constants mix with duals
};
Dual6 operator+(const Dual6& a, const Dual6& b) {
  Dual6 r(a.v + b.v);
  for (int i = 0; i < 6; ++i) r.d[i] = a.d[i] + b.d[i];
  return r;
}
Dual6 operator-(const Dual6& a, const Dual6& b) {
  Dual6 r(a.v - b.v);
  for (int i = 0; i < 6; ++i) r.d[i] = a.d[i] - b.d[i];
  return r;
}
Dual6 operator*(const Dual6& a, const Dual6& b) {
  Dual6 r(a.v * b.v);
  for (int i = 0; i < 6; ++i) r.d[i] = a.d[i] * b.v + a.v * b.d[i];
  return r;
}
Dual6 operator/(const Dual6& a, const Dual6& b) {
  Dual6 r(a.v / b.v);
  for (int i = 0; i < 6; ++i) r.d[i] = (a.d[i] - r.v * b.d[i]) / b.v;
  return r;
}
Dual6& operator+=(Dual6& a, const Dual6& b) { return a = a + b; }
Dual6& operator-=(Dual6& a, const Dual6& b) { return a = a - b; }
Dual6& operator*=(Dual6& a, const Dual6& b) { return a = a * b; }
Dual6 Sqrt(const Dual6& a) {
  Dual6 r(std::sqrt(a.v));
  // at 0 (a body at rest in the medium) the one-sided slope is infinite but multiplied by a
  // vanishing factor everywhere it is used (|v| v, |w| omega): take 0
  if (r.v > 0) {
    for (int i = 0; i < 6; ++i) r.d[i] = a.d[i] / (2 * r.v);
  }
  return r;
}
double Sqrt(double a) { return std::sqrt(a); }
// max(floor, a): the guard against division by zero; constant below the floor
Dual6 AtLeast(double floor, const Dual6& a) { return a.v < floor ? Dual6(floor) : a; }
double AtLeast(double floor, double a) { return std::max(floor, a); }

template <typename T>
void Cross(T* r, const T* a, const T* b) {
  r[0] = a[1] * b[2] - a[2] * b[1];
  r[1] = a[2] * b[0] - a[0] * b[2];
  r[2] = a[0] * b[1] - a[1] * b[0];
}

template <typename T>
T Norm(const T* a) {
  return Sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

// The ellipsoid model's wrench (see the top of this file) on any scalar type.
template <typename T>
void WrenchOf(const double* r, const double* geom_fluid, double density, double viscosity,
              const T* vel, T* wrench) {
  const T* omega = vel;
  const T* v = vel + 3;
  const double c_blunt = geom_fluid[1], c_slender = geom_fluid[2], c_angular = geom_fluid[3];
  const double c_kutta = geom_fluid[4], c_magnus = geom_fluid[5];
  const double* virtual_mass = geom_fluid + 6;
  const double* virtual_inertia = geom_fluid + 9;
  T* torque = wrench;
  T* force = wrench + 3;

  // added mass: the fluid's virtual momenta p and L, and the gyroscopic-like terms they give
  T p[3], l[3], t[3];
  for (int i = 0; i < 3; ++i) {
    p[i] = density * virtual_mass[i] * v[i];
    l[i] = density * virtual_inertia[i] * omega[i];
  }
  Cross(t, p, omega);
  for (int i = 0; i < 3; ++i) force[i] += t[i];
  Cross(t, p, v);
  for (int i = 0; i < 3; ++i) torque[i] += t[i];
  Cross(t, l, omega);
  for (int i = 0; i < 3; ++i) torque[i] += t[i];

  const double r_max = std::max({r[0], r[1], r[2]});
  const double r_min = std::min({r[0], r[1], r[2]});
  const double r_mid = r[0] + r[1] + r[2] - r_max - r_min;
  const double volume = 4.0 / 3.0 * kPi * r[0] * r[1] * r[2];
  const T speed = Norm(v);

  // Magnus lift
  T magnus[3];
  Cross(magnus, omega, v);
  for (int i = 0; i < 3; ++i) force[i] += c_magnus * density * volume * magnus[i];

  // projected area and Kutta lift. n_i = (r_j r_k)^2 v_i is normal to the cross-section whose
  // projection along v is the ellipsoid's shadow: |n|^2 = sum (r_j r_k)^4 v_i^2 and
  // n.v = sum (r_j r_k)^2 v_i^2, so A_proj = pi sqrt(|n|^2 / n.v) (the lemma of the spec) and
  // cos(a) / |n| = n.v / (|v| |n|^2).
  T n[3];
  T n_norm2 = 0, n_dot_v = 0;
  for (int i = 0; i < 3; ++i) {
    const double rjk = r[(i + 1) % 3] * r[(i + 2) % 3];
    n[i] = rjk * rjk * v[i];
    n_norm2 += n[i] * n[i];
    n_dot_v += n[i] * v[i];
  }
  const T area = kPi * Sqrt(n_norm2 / AtLeast(kMinVal, n_dot_v));
  const T cos_over_norm = n_dot_v / AtLeast(kMinVal, speed * n_norm2);
  T circulation[3], kutta[3];
  Cross(circulation, n, v);
  for (T& x : circulation) x *= c_kutta * density * cos_over_norm * area;
  Cross(kutta, circulation, v);
  for (int i = 0; i < 3; ++i) force[i] += kutta[i];

  // linear and quadratic drag
  const double diameter = 2.0 / 3.0 * (r[0] + r[1] + r[2]);
  const double area_max = kPi * r_max * r_mid;
  const T drag = viscosity * 3 * kPi * diameter +
                 density * speed * (c_blunt * area + c_slender * (area_max - area));
  for (int i = 0; i < 3; ++i) force[i] -= drag * v[i];

  // angular drag: the moments of the ellipsoids swept by rotating about each axis
  const double inertia_max = 8.0 / 15.0 * kPi * r_mid * Pow4(r_max);
  T swept[3];
  for (int i = 0; i < 3; ++i) {
    const double reach = std::max(r[(i + 1) % 3], r[(i + 2) % 3]);
    const double inertia = 8.0 / 15.0 * kPi * r[i] * Pow4(reach);
    swept[i] = omega[i] * (c_angular * inertia + c_slender * (inertia_max - inertia));
  }
  const T angular_drag = viscosity * kPi * diameter * diameter * diameter + density * Norm(swept);
  for (int i = 0; i < 3; ++i) torque[i] -= angular_drag * omega[i];
}

}  // namespace

bool MediumActs(const Options& o) { return o.density > 0 || o.viscosity > 0; }

void FluidForces(const Model& m, Data& d) {
  if (!MediumActs(m.opt)) return;
  for (int b = 1; b < m.nbody; ++b) {
    if (m.body_mass[b] < kMinVal) continue;
    if (HasEllipsoidGeom(m, b)) {
      EllipsoidForces(m, d, b);
    } else {
      InertiaBoxForces(m, d, b);
    }
  }
}

bool UsesInertiaBoxFluid(const Model& m, int b) {
  return MediumActs(m.opt) && m.body_mass[b] >= kMinVal && !HasEllipsoidGeom(m, b);
}

bool FluidDamping(const Model& m, const Data& d, int b, double* dforce, double* dtorque) {
  if (!UsesInertiaBoxFluid(m, b)) return false;
  const Options& o = m.opt;
  double box[3], v[3], w[3];
  EquivalentBox(m, b, box);
  PointVelocityInFrame(m, d, b, d.xipos.data() + 3 * b, d.ximat.data() + 9 * b, v, w);
  const double diameter = (box[0] + box[1] + box[2]) / 3.0;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double bj2 = box[j] * box[j], bk2 = box[k] * box[k];
    // d/dv of -c v (viscous) and of -c |v| v (quadratic drag) = -c and -2 c |v|
    dforce[i] = -3.0 * kPi * diameter * o.viscosity - o.density * box[j] * box[k] * std::fabs(v[i]);
    dtorque[i] = -kPi * diameter * diameter * diameter * o.viscosity -
                 2.0 * o.density * box[i] * (bj2 * bj2 + bk2 * bk2) * std::fabs(w[i]) / 64.0;
  }
  return true;
}

void FluidSemiAxes(GeomType type, const double* size, double* semiaxes) {
  switch (type) {
    case GeomType::kSphere:
      semiaxes[0] = semiaxes[1] = semiaxes[2] = size[0];
      return;
    case GeomType::kCapsule:
      semiaxes[0] = semiaxes[1] = size[0];
      semiaxes[2] = size[1] + size[0];
      return;
    case GeomType::kCylinder:
      semiaxes[0] = semiaxes[1] = size[0];
      semiaxes[2] = size[1];
      return;
    default:
      for (int i = 0; i < 3; ++i) semiaxes[i] = size[i];
  }
}

void EllipsoidFluidCoefficients(GeomType type, const double* size, const double* fluidcoef,
                                double* geom_fluid) {
  double r[3];
  FluidSemiAxes(type, size, r);
  const double volume = 4.0 / 3.0 * kPi * r[0] * r[1] * r[2];
  double kappa[3];
  for (int i = 0; i < 3; ++i) kappa[i] = LambKappa(r[i], r[(i + 1) % 3], r[(i + 2) % 3]);

  geom_fluid[0] = 1;
  for (int i = 0; i < 5; ++i) geom_fluid[1 + i] = fluidcoef[i];
  for (int i = 0; i < 3; ++i) {
    // translation along i moves m_A,i = V kappa_i / (2 - kappa_i) of fluid per unit density
    geom_fluid[6 + i] = volume * kappa[i] / std::max(kMinVal, 2 - kappa[i]);
    // rotation about i: I_A,i = V/5 (r_j^2 - r_k^2)^2 (kappa_k - kappa_j) /
    //   (2 (r_j^2 - r_k^2) + (r_j^2 + r_k^2)(kappa_j - kappa_k)); numerator and denominator have
    // the same sign, so both are taken in magnitude (zero for an axis of symmetry)
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double rj2 = r[j] * r[j], rk2 = r[k] * r[k];
    const double numerator = (rj2 - rk2) * (rj2 - rk2) * std::fabs(kappa[k] - kappa[j]);
    const double denominator =
        std::fabs(2 * (rj2 - rk2) + (rj2 + rk2) * (kappa[j] - kappa[k]));
    geom_fluid[9 + i] = volume / 5 * numerator / std::max(kMinVal, denominator);
  }
}

void EllipsoidFluidWrench(const double* semiaxes, const double* geom_fluid, double density,
                          double viscosity, const double* vel, double* wrench) {
  WrenchOf(semiaxes, geom_fluid, density, viscosity, vel, wrench);
}

void EllipsoidFluidWrenchJacobian(const double* semiaxes, const double* geom_fluid,
                                  double density, double viscosity, const double* vel,
                                  double* jacobian) {
  Dual6 dual_vel[6], dual_wrench[6];
  for (int i = 0; i < 6; ++i) {
    dual_vel[i] = Dual6(vel[i]);
    dual_vel[i].d[i] = 1;
  }
  WrenchOf(semiaxes, geom_fluid, density, viscosity, dual_vel, dual_wrench);
  for (int a = 0; a < 6; ++a) {
    for (int b = 0; b < 6; ++b) jacobian[6 * a + b] = dual_wrench[a].d[b];
  }
}

bool GeomFluidVelocity(const Model& m, const Data& d, int g, double* vel) {
  if (m.geom_fluid[kNFluid * g] == 0) return false;
  PointVelocityInFrame(m, d, m.geom_bodyid[g], d.geom_xpos.data() + 3 * g,
                       d.geom_xmat.data() + 9 * g, vel + 3, vel);
  return true;
}

}  // namespace gauss
