// Physical contact scenes through the whole pipeline (collision with the primitive colliders,
// contact rows, newton, euler), each for the pyramidal and the elliptic friction cone. Each
// test compares the simulation with a prediction of classical mechanics or of the soft-contact
// model of the spec ("Constraint model": R = (1-d)/d * A_approx, aref = -b v - k d r):
//
// - StackOfThreeBoxesStaysStacked: three boxes placed touching on a plane keep their 12
//   contacts, each interface settles at the static penetration of the soft-contact model
//   (within 20%), every box stays within 1e-3 m of where it was placed over 5 s, and moves
//   less than 5e-5 m during the last 4 s. Bounds: the top box sinks by the sum of the three
//   interface penetrations, 4-6e-4 m, but MuJoCo 2.2.2's box-box collider (reproduced by
//   Gauss) reports face-face depths as half the geometric overlap in some configurations,
//   so an interface may sink twice its contact penetration: about 8e-4 m in all, plus a
//   transient overshoot of 1.5e-4 m, under 1e-3 m. After settling the lower boxes tilt by a
//   few 1e-4 rad (uneven corner loads), which puts a tangential load m g 1e-4 on the boxes
//   above and makes them creep at R f / b, about 2e-6 m/s: under 5e-5 m in 4 s.
// - SphereAndCapsuleRestOnA20DegreeSlope: friction 1 > tan 20 deg holds both. A resting sphere
//   rolls unless rolling friction stops it, so the sphere has condim 6 with rolling friction
//   0.2 (holding it needs more than radius * tan 20 deg = 0.036); the capsule lies along the
//   fall line, so its two end contacts stop it rolling (lying along a contour line it would
//   roll down like a cylinder). Soft friction is not static: with the velocity-only reference
//   acceleration of friction rows a tangential force f needs a slip speed v = R f / b
//   (measured below: SoftFrictionCreepMatchesTheSoftContactModel). The slope scene therefore
//   uses stiff contacts (d = 0.99, timeconst 0.01, impratio 100) whose predicted creep is below
//   5e-6 m/s; both bodies must move less than 1e-4 m over 5 s.
// - SphereWithoutRollingFrictionRollsDownTheSlope: the counter-example that motivates condim 6:
//   with condim 3 the sphere rolls without slipping, covering 5/14 g sin a t^2 (within 2%).
// - SoftFrictionCreepMatchesTheSoftContactModel: with default-like parameters a capsule on the
//   20 degree slope creeps at the predicted speed R_t f_t / b (within 5%).
// - BoxSlidesTheCoulombDistance: a box launched at v0 on a flat plane with friction mu stops
//   after v0^2 / (2 mu g) (within 5%); the same on a plane tilted below the friction angle:
//   v0^2 / (2 g (mu cos a - sin a)). The slide runs along a contact-frame tangent, where the
//   pyramidal cone's edge is exactly the Coulomb limit (checked in the test).
// - DroppedBoxRestsAtTheSoftContactPenetration: a box dropped onto a plane comes to rest with
//   the penetration at which R f = aref (zero velocity and acceleration), from solref, solimp,
//   the body's inverse weight 1/m and the load mg/4 on each corner (within 20%).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "gauss/engine.h"
#include "gauss/mjcf.h"

namespace gauss::test {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = 3.14159265358979323846;

const char* ConeName(Cone cone) { return cone == Cone::kElliptic ? "elliptic" : "pyramidal"; }

// One scene: an Engine from MJCF text with newton and the given cone, and its Data.
struct Scene {
  std::unique_ptr<Engine> engine;
  Data d;

  Scene(const std::string& xml, Cone cone) {
    Config config;
    config.solver = "newton";
    config.cone = cone;
    config.tolerance = 1e-10;
    config.iterations = 200;
    engine = std::make_unique<Engine>(LoadModelFromString(xml), config);
    d = engine->MakeData();
  }
  const Model& m() const { return engine->model(); }
  int Body(const std::string& name) const {
    const int b = m().BodyId(name);
    EXPECT_GE(b, 0) << name;
    return b;
  }
  const double* Pos(int body) const { return d.xpos.data() + 3 * body; }
  void Run(double seconds) {
    const int steps = static_cast<int>(std::lround(seconds / m().opt.timestep));
    for (int k = 0; k < steps; ++k) engine->Step(d);
  }
};

double Dist3(const double* a, const double* b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

// Exact decimal text of a number (std::to_string keeps only 6 decimals).
std::string Num(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", v);
  return text;
}
std::string Vec(const double* v) { return Num(v[0]) + " " + Num(v[1]) + " " + Num(v[2]); }

// ---------------------------------------------------------------- soft-contact predictions

// Impedance d(r) of solimp (dmin, dmax, width, midpoint, power), as the MJCF documentation
// defines it: d rises from dmin at r = 0 to dmax at |r| >= width along a two-piece power
// sigmoid whose pieces meet at `midpoint` (a fraction of the width).
double Impedance(const double solimp[5], double r) {
  const double dmin = solimp[0], dmax = solimp[1], width = solimp[2], mid = solimp[3],
               power = solimp[4];
  const double x = std::fabs(r) / width;
  if (x >= 1) return dmax;
  const double y = x <= mid ? std::pow(x, power) / std::pow(mid, power - 1)
                            : 1 - std::pow(1 - x, power) / std::pow(1 - mid, power - 1);
  return dmin + y * (dmax - dmin);
}

// Stiffness k of the reference acceleration for solref (timeconst, dampratio), scaled by dmax.
double Stiffness(const double solref[2], double dmax) {
  return 1 / (dmax * dmax * solref[0] * solref[0] * solref[1] * solref[1]);
}
double Damping(const double solref[2], double dmax) { return 2 / (dmax * solref[0]); }

// Static penetration (> 0) of a contact carrying normal force fn at rest, for a body of
// translational inverse weight `tran` against the world. At rest (v = 0, a = 0) every active
// row satisfies R f = aref = -k d(r) r:
//   elliptic: the normal row carries fn with R = (1-d)/d tran;
//   pyramidal: 2(condim-1) edge rows each carry fn / (2(condim-1)) with the edge regularizer of
//   MuJoCo 2.2.2 (R_edge = 2 mu^2 (1 + mu^2) tran (1-d)/d / impratio, which the reference tests
//   verify row by row).
// Solved for r by bisection (the left side grows with |r|, the right side shrinks).
double StaticPenetration(Cone cone, double fn, double tran, double mu, int condim,
                         double impratio, const double solref[2], const double solimp[5]) {
  const double k = Stiffness(solref, solimp[1]);
  auto residual = [&](double pen) {
    const double d = Impedance(solimp, pen);
    const double rn = (1 - d) / d * tran;
    double rf;  // R f of one row
    if (cone == Cone::kElliptic) {
      rf = rn * fn;
    } else {
      const int edges = 2 * (condim - 1);
      rf = 2 * mu * mu * (1 + mu * mu) * rn / impratio * fn / edges;
    }
    return k * d * pen - rf;
  };
  double lo = 0, hi = 1;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (residual(mid) < 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

class ContactScene : public ::testing::TestWithParam<Cone> {};

// ---------------------------------------------------------------- stack of boxes

TEST_P(ContactScene, StackOfThreeBoxesStaysStacked) {
  // boxes of half heights 0.1, 0.08, 0.06 placed exactly touching, slightly off-centre
  const std::string xml = R"(
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom type="plane" size="0 0 1" friction="1"/>
    <body name="b1" pos="0 0 0.1">
      <freejoint/><geom type="box" size="0.15 0.15 0.1" friction="1"/>
    </body>
    <body name="b2" pos="0.02 0.01 0.28">
      <freejoint/><geom type="box" size="0.12 0.12 0.08" friction="1"/>
    </body>
    <body name="b3" pos="-0.01 0.02 0.42">
      <freejoint/><geom type="box" size="0.09 0.09 0.06" friction="1"/>
    </body>
  </worldbody>
</mujoco>)";
  Scene s(xml, GetParam());
  const int b[3] = {s.Body("b1"), s.Body("b2"), s.Body("b3")};
  s.engine->Forward(s.d);
  double start[3][3], settled[3][3];
  for (int i = 0; i < 3; ++i) std::copy_n(s.Pos(b[i]), 3, start[i]);
  double worst[3] = {0, 0, 0}, late[3] = {0, 0, 0};
  int min_contacts = 1000;
  const int steps = static_cast<int>(std::lround(5.0 / s.m().opt.timestep));
  for (int k = 0; k < steps; ++k) {
    s.engine->Step(s.d);
    if (k + 1 == steps / 5) {
      for (int i = 0; i < 3; ++i) std::copy_n(s.Pos(b[i]), 3, settled[i]);
    }
    for (int i = 0; i < 3; ++i) {
      worst[i] = std::max(worst[i], Dist3(s.Pos(b[i]), start[i]));
      if (k + 1 > steps / 5) late[i] = std::max(late[i], Dist3(s.Pos(b[i]), settled[i]));
    }
    if (k > 10) min_contacts = std::min(min_contacts, s.d.ncon);
  }
  // Each interface (floor-b1, b1-b2, b2-b3) rests at the static penetration of its contacts
  // under the weight above it (default solref 0.02 1, solimp 0.9 0.95 0.001, 4 corners each
  // carrying a quarter of the load, inverse weight 1/m_below + 1/m_above).
  const double solref[2] = {0.02, 1}, solimp[5] = {0.9, 0.95, 0.001, 0.5, 2};
  double mass[3];
  for (int i = 0; i < 3; ++i) mass[i] = s.m().body_mass[b[i]];
  for (int i = 0; i < 3; ++i) {
    double load = 0;
    for (int j = i; j < 3; ++j) load += mass[j] * kG;
    const double tran = (i == 0 ? 0 : 1 / mass[i - 1]) + 1 / mass[i];
    const double expected = StaticPenetration(GetParam(), load / 4, tran, 1, 3, 1, solref, solimp);
    double sum = 0;
    int n = 0;
    for (int k = 0; k < s.d.ncon; ++k) {
      const Contact& c = s.d.contact[k];
      const int lower = s.m().geom_bodyid[c.geom1], upper = s.m().geom_bodyid[c.geom2];
      if (upper == b[i] && lower == (i == 0 ? 0 : b[i - 1])) {
        sum -= c.dist;
        ++n;
      }
    }
    EXPECT_EQ(n, 4) << "interface " << i;
    const double mean = sum / std::max(n, 1);
    std::printf("[ measured ] %s stack interface %d: mean contact penetration %.3e m, soft-contact "
                "equilibrium %.3e m (%+.1f%%)\n",
                ConeName(GetParam()), i, mean, expected, 100 * (mean / expected - 1));
    EXPECT_NEAR(mean, expected, 0.2 * expected) << "interface " << i;
  }
  std::printf("[ measured ] %s stack: max displacement from placement %.2e %.2e %.2e m, drift "
              "over the last 4 s %.1e %.1e %.1e m, min ncon %d\n",
              ConeName(GetParam()), worst[0], worst[1], worst[2], late[0], late[1], late[2],
              min_contacts);
  for (int i = 0; i < 3; ++i) {
    EXPECT_LE(worst[i], 1e-3) << "box " << i;
    EXPECT_LE(late[i], 5e-5) << "box " << i;
  }
  // all 12 contacts all along: nothing bounced, slid off or tipped
  EXPECT_GE(min_contacts, 12);
}

// ---------------------------------------------------------------- resting on a slope

// A plane tilted by `angle` degrees about the world x axis (it descends towards -y), with the
// given contact parameters on every geom, and `bodies` placed on it.
std::string SlopeXml(double angle_deg, const std::string& contact, const std::string& bodies,
                     double impratio) {
  return "<mujoco><option timestep=\"0.002\" impratio=\"" + Num(impratio) +
         "\"/><default><geom " + contact + "/></default><worldbody>"
         "<geom name=\"slope\" type=\"plane\" size=\"0 0 1\" euler=\"" +
         Num(angle_deg) + " 0 0\"/>" + bodies + "</worldbody></mujoco>";
}

// World position of a point at height `h` above the slope at slope coordinates (x, s) (s along
// the uphill direction).
void OnSlope(double angle, double x, double s, double h, double* out) {
  const double c = std::cos(angle), sn = std::sin(angle);
  out[0] = x;
  out[1] = s * c - h * sn;
  out[2] = s * sn + h * c;
}

TEST_P(ContactScene, SphereAndCapsuleRestOnA20DegreeSlope) {
  const double angle = 20 * kPi / 180;
  const double radius = 0.1, cap_radius = 0.05, cap_half = 0.15;
  double sphere_pos[3], capsule_pos[3];
  // placed 1e-7 m into the slope, so that they touch it from the first step
  OnSlope(angle, -0.5, 0, radius - 1e-7, sphere_pos);
  OnSlope(angle, 0.5, 0, cap_radius - 1e-7, capsule_pos);
  // capsule axis (local z) along the fall line: rotate z onto the uphill direction
  const std::string bodies =
      "<body name=\"sphere\" pos=\"" + Vec(sphere_pos) + "\"><freejoint/>"
      "<geom type=\"sphere\" size=\"0.1\" condim=\"6\" friction=\"1 0.02 0.2\"/></body>"
      "<body name=\"capsule\" pos=\"" + Vec(capsule_pos) + "\" euler=\"" +
      std::to_string(20 - 90) + " 0 0\"><freejoint/>"
      "<geom type=\"capsule\" size=\"" + Num(cap_radius) + " " +
      Num(cap_half) + "\" condim=\"3\"/></body>";
  // stiff contacts: constant impedance 0.99, time constant 0.01 (5 steps), impratio 100
  const std::string contact =
      "friction=\"1 0.02 0.2\" solref=\"0.01 1\" solimp=\"0.99 0.99 0.001\"";
  Scene s(SlopeXml(20, contact, bodies, 100), GetParam());
  const int sphere = s.Body("sphere"), capsule = s.Body("capsule");
  s.engine->Forward(s.d);
  ASSERT_EQ(s.d.ncon, 3) << "sphere and capsule must touch the slope (1 + 2 contacts)";
  const double start_sphere[3] = {s.Pos(sphere)[0], s.Pos(sphere)[1], s.Pos(sphere)[2]};
  const double start_capsule[3] = {s.Pos(capsule)[0], s.Pos(capsule)[1], s.Pos(capsule)[2]};
  double worst_sphere = 0, worst_capsule = 0, worst_angle = 0;
  const int steps = static_cast<int>(std::lround(5.0 / s.m().opt.timestep));
  for (int k = 0; k < steps; ++k) {
    s.engine->Step(s.d);
    worst_sphere = std::max(worst_sphere, Dist3(s.Pos(sphere), start_sphere));
    worst_capsule = std::max(worst_capsule, Dist3(s.Pos(capsule), start_capsule));
    // sphere rotation: |quaternion vector part| = sin(angle / 2)
    const double* q = s.d.qpos.data() + s.m().jnt_qposadr[s.m().body_jntadr[sphere]] + 3;
    const double sine = std::sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    worst_angle = std::max(worst_angle, 2 * std::asin(std::min(1.0, sine)));
  }
  // Predicted creep of the sphere (one contact; see SoftFrictionCreepMatchesTheSoftContactModel):
  // sliding R_t f_t / b with f_t = m g sin a, plus rolling R_roll tau / b * radius with the
  // torque tau = f_t radius and R_roll = R_t (mu / mu_roll)^2 (elliptic cone), both times
  // (1 + mu^2) for the pyramidal cone's edges.
  const double solref[2] = {0.01, 1}, d = 0.99, mu = 1, mu_roll = 0.2;
  const double base = (1 - d) / d * kG * std::sin(angle) / (Damping(solref, d) * 100);
  const double creep = base * (1 + std::pow(mu * radius / mu_roll, 2)) *
                       (GetParam() == Cone::kPyramidal ? 1 + mu * mu : 1);
  std::printf("[ measured ] %s slope 20 deg: sphere moved %.2e m (rotated %.2e rad; predicted "
              "creep %.1e m/s), capsule moved %.2e m in 5 s\n",
              ConeName(GetParam()), worst_sphere, worst_angle, creep, worst_capsule);
  EXPECT_LT(creep, 1e-5);  // the parameters above are what keeps the bodies in place
  EXPECT_LE(worst_sphere, 1e-4);
  EXPECT_LE(worst_capsule, 1e-4);
  EXPECT_LE(worst_angle, 1e-4 / radius);  // rolling by 1e-4 m at most
}

// Why the resting sphere needs rolling friction: the same sphere with condim 3 (sliding friction
// only, mu = 1 > 2/7 tan 20 deg, so no slip) rolls down the slope with the acceleration of a
// solid ball rolling without slipping, 5/7 g sin a: it covers 5/14 g sin a t^2 in t = 1 s
// (within 2%), spinning at its speed over its radius (within 1%).
TEST_P(ContactScene, SphereWithoutRollingFrictionRollsDownTheSlope) {
  const double angle = 20 * kPi / 180, radius = 0.1;
  double pos[3];
  OnSlope(angle, 0, 0, radius - 1e-7, pos);
  const std::string bodies = "<body name=\"sphere\" pos=\"" + Vec(pos) + "\"><freejoint/>"
                             "<geom type=\"sphere\" size=\"0.1\" condim=\"3\"/></body>";
  Scene s(SlopeXml(20, "friction=\"1\"", bodies, 1), GetParam());
  const int sphere = s.Body("sphere");
  s.engine->Forward(s.d);
  const double start[3] = {s.Pos(sphere)[0], s.Pos(sphere)[1], s.Pos(sphere)[2]};
  s.Run(1.0);
  const double travelled = Dist3(s.Pos(sphere), start);
  const double expected = 5.0 / 14.0 * kG * std::sin(angle);
  // rolling, not sliding: angular speed * radius = speed of the centre
  const double* v = s.d.qvel.data() + s.m().jnt_dofadr[s.m().body_jntadr[sphere]];
  const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  const double spin = std::sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
  std::printf("[ measured ] %s sphere without rolling friction: %.4f m in 1 s, rolling without "
              "slipping %.4f m (%+.2f%%), speed %.4f m/s, spin * radius %.4f m/s\n",
              ConeName(GetParam()), travelled, expected, 100 * (travelled / expected - 1), speed,
              spin * radius);
  EXPECT_NEAR(travelled, expected, 0.02 * expected);
  EXPECT_NEAR(spin * radius, speed, 0.01 * speed);
  EXPECT_LT(s.Pos(sphere)[2], start[2]);
}

// Soft friction creeps: on a slope below the friction angle a body slides at the speed where
// the friction rows' force equals aref / R, i.e. v = R_t f_t / b per contact. With the default
// solref (0.02 1) and a constant impedance d = 0.9 (dmin = dmax: d independent of the load), a
// capsule on two contacts (each f_t = m g sin a / 2, R_t = (1-d)/d / (m impratio) for the elliptic
// cone's friction rows, and (1 + mu^2) times that in the pyramidal cone's edges: see
// StaticPenetration) creeps at a constant, predictable speed. This is why the resting scene
// above needs stiff contacts.
TEST_P(ContactScene, SoftFrictionCreepMatchesTheSoftContactModel) {
  const double angle = 20 * kPi / 180, mu = 1, cap_radius = 0.05, cap_half = 0.15;
  double capsule_pos[3];
  OnSlope(angle, 0, 0, cap_radius - 1e-7, capsule_pos);
  const std::string bodies =
      "<body name=\"capsule\" pos=\"" + Vec(capsule_pos) + "\" euler=\"" +
      std::to_string(20 - 90) + " 0 0\"><freejoint/>"
      "<geom type=\"capsule\" size=\"" + Num(cap_radius) + " " +
      Num(cap_half) + "\"/></body>";
  const std::string contact = "friction=\"1\" solref=\"0.02 1\" solimp=\"0.9 0.9 0.001\"";
  Scene s(SlopeXml(20, contact, bodies, 1), GetParam());
  const int capsule = s.Body("capsule");
  s.Run(1.0);  // transient
  ASSERT_EQ(s.d.ncon, 2);
  // the first contact tangent is the fall line (the capsule's axis hint)
  const double fall[3] = {0, std::cos(angle), std::sin(angle)};
  const double* t1 = s.d.contact[0].frame + 3;
  EXPECT_GT(std::fabs(t1[0] * fall[0] + t1[1] * fall[1] + t1[2] * fall[2]), 1 - 1e-9);
  const double y0 = s.Pos(capsule)[1], z0 = s.Pos(capsule)[2];
  s.Run(2.0);
  const double moved = std::hypot(s.Pos(capsule)[1] - y0, s.Pos(capsule)[2] - z0);
  const double speed = moved / 2.0;
  const double solref[2] = {0.02, 1};
  const double d = 0.9, b = Damping(solref, d);
  const double m = s.m().body_mass[capsule];
  const double ft = m * kG * std::sin(angle) / 2;
  double rt = (1 - d) / d / m;
  if (GetParam() == Cone::kPyramidal) rt *= 1 + mu * mu;
  const double predicted = rt * ft / b;
  std::printf("[ measured ] %s creep on 20 deg: %.4e m/s, predicted %.4e m/s\n",
              ConeName(GetParam()), speed, predicted);
  EXPECT_NEAR(speed, predicted, 0.05 * predicted);
  EXPECT_LT(s.Pos(capsule)[2], z0);  // downhill
}

// ---------------------------------------------------------------- sliding box

// A box (half size 0.1) on a plane tilted by `angle_deg` about x, launched downhill (or along
// -y on a flat plane) at v0 with friction mu on both geoms; returns the distance travelled until
// it stopped (speed below 1e-3 m/s) and checks the slide direction against the contact frames.
double SlideDistance(Cone cone, double angle_deg, double mu, double v0, int* contacts) {
  const double angle = angle_deg * kPi / 180;
  double pos[3];
  OnSlope(angle, 0, 0, 0.1 - 1e-7, pos);  // touching the plane (1e-7 m into it)
  const std::string fr = "friction=\"" + Num(mu) + " 0.005 0.0001\"";
  const std::string bodies = "<body name=\"box\" pos=\"" + Vec(pos) + "\" euler=\"" +
                             Num(angle_deg) + " 0 0\"><freejoint/>"
                             "<geom type=\"box\" size=\"0.1 0.1 0.1\" " + fr + "/></body>";
  Scene s(SlopeXml(angle_deg, fr, bodies, 1), cone);
  const int box = s.Body("box");
  const double* q = s.d.qpos.data() + s.m().jnt_qposadr[s.m().body_jntadr[box]];
  double* v = s.d.qvel.data() + s.m().jnt_dofadr[s.m().body_jntadr[box]];
  const double down[3] = {0, -std::cos(angle), -std::sin(angle)};
  for (int c = 0; c < 3; ++c) v[c] = v0 * down[c];
  s.engine->Forward(s.d);
  *contacts = s.d.ncon;
  // downhill is a contact-frame tangent (tangent 1 = world y made orthogonal to the normal),
  // so the pyramid's edges bound the friction force along the slide at exactly mu fn
  for (int k = 0; k < s.d.ncon; ++k) {
    const double* f = s.d.contact[k].frame;
    const double along = std::max(std::fabs(f[3] * down[0] + f[4] * down[1] + f[5] * down[2]),
                                  std::fabs(f[6] * down[0] + f[7] * down[1] + f[8] * down[2]));
    EXPECT_GT(along, 1 - 1e-9) << "contact " << k << ": slide not along a frame tangent";
  }
  const double start[3] = {q[0], q[1], q[2]};
  for (int k = 0; k < 20000; ++k) {
    s.engine->Step(s.d);
    if (std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) < 1e-3) break;
  }
  EXPECT_LT(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), 1e-3) << "the box did not stop";
  // no tipping or spinning
  const double* quat = q + 3;
  double upright[4];
  const double half = 0.5 * angle;
  upright[0] = std::cos(half);
  upright[1] = std::sin(half);
  EXPECT_GT(std::fabs(quat[0] * upright[0] + quat[1] * upright[1] + quat[2] * 0 + quat[3] * 0),
            std::cos(0.01)) << "the box rotated by more than 0.02 rad";
  return Dist3(q, start);
}

TEST_P(ContactScene, BoxSlidesTheCoulombDistanceOnAFlatPlane) {
  const double mu = 0.5, v0 = 2;
  int contacts = 0;
  const double dist = SlideDistance(GetParam(), 0, mu, v0, &contacts);
  const double expected = v0 * v0 / (2 * mu * kG);
  std::printf("[ measured ] %s flat slide: %.4f m, Coulomb %.4f m (%+.2f%%)\n",
              ConeName(GetParam()), dist, expected, 100 * (dist / expected - 1));
  EXPECT_EQ(contacts, 4);
  EXPECT_NEAR(dist, expected, 0.05 * expected);
}

TEST_P(ContactScene, BoxSlidesTheCoulombDistanceDownASlopeBelowTheFrictionAngle) {
  const double mu = 0.5, v0 = 1.5, angle_deg = 10;  // friction angle atan(0.5) = 26.6 deg
  const double a = angle_deg * kPi / 180;
  int contacts = 0;
  const double dist = SlideDistance(GetParam(), angle_deg, mu, v0, &contacts);
  const double expected = v0 * v0 / (2 * kG * (mu * std::cos(a) - std::sin(a)));
  std::printf("[ measured ] %s slide down 10 deg: %.4f m, Coulomb %.4f m (%+.2f%%)\n",
              ConeName(GetParam()), dist, expected, 100 * (dist / expected - 1));
  EXPECT_EQ(contacts, 4);
  EXPECT_NEAR(dist, expected, 0.05 * expected);
}

// ---------------------------------------------------------------- dropped box

TEST_P(ContactScene, DroppedBoxRestsAtTheSoftContactPenetration) {
  const double half = 0.1, mu = 0.7;
  const double solref[2] = {0.02, 1}, solimp[5] = {0.8, 0.95, 0.002, 0.5, 2};
  const std::string xml = R"(
<mujoco>
  <option timestep="0.002"/>
  <default><geom friction="0.7" solref="0.02 1" solimp="0.8 0.95 0.002 0.5 2"/></default>
  <worldbody>
    <geom type="plane" size="0 0 1"/>
    <body name="box" pos="0 0 0.4"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
  </worldbody>
</mujoco>)";
  Scene s(xml, GetParam());
  const int box = s.Body("box");
  s.Run(3.0);
  ASSERT_EQ(s.d.ncon, 4);
  double speed = 0;
  for (int i = 0; i < 6; ++i) speed = std::max(speed, std::fabs(s.d.qvel[i]));
  EXPECT_LT(speed, 1e-6) << "the box is not at rest after 3 s";
  const double penetration = half - s.Pos(box)[2];
  const double m = s.m().body_mass[box];
  // each corner carries mg/4; the box's translational inverse weight is 1/m
  const double expected =
      StaticPenetration(GetParam(), m * kG / 4, 1 / m, mu, 3, 1, solref, solimp);
  double worst_dist = 0;
  for (int k = 0; k < s.d.ncon; ++k) {
    worst_dist = std::max(worst_dist, std::fabs(-s.d.contact[k].dist - penetration));
  }
  std::printf("[ measured ] %s drop: penetration %.4e m, soft-contact equilibrium %.4e m "
              "(%+.2f%%)\n",
              ConeName(GetParam()), penetration, expected, 100 * (penetration / expected - 1));
  EXPECT_NEAR(penetration, expected, 0.2 * expected);
  EXPECT_LT(worst_dist, 1e-9) << "the box is not level";
}

INSTANTIATE_TEST_SUITE_P(Cones, ContactScene, ::testing::Values(Cone::kPyramidal, Cone::kElliptic),
                         [](const ::testing::TestParamInfo<Cone>& info) {
                           return std::string(ConeName(info.param));
                         });

}  // namespace
}  // namespace gauss::test
