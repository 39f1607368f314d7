// The example plugins in use: a program built against the installed Gauss SDK that simulates
// with the five example plugins (found through GAUSS_PLUGIN_PATH) and checks that they change
// the simulation as their physics says:
//   - example_dcmotor: the motors reach the analytic steady speed and current, the current
//     rises with the electrical time constant, the current-limited motor never exceeds its limit;
//   - example_jacobi: converged, it slides the box like Newton for both friction cones; starved
//     of iterations it lets the box sink into the floor; a smaller omega needs more iterations;
//   - example_explicit_euler: the pendulum's energy grows, as forward Euler's does;
//   - example_sphere_plane: a dropped ball comes to rest on the plane as with `primitive`;
//   - example_kinetic_energy: a user sensor reads the kernel's kinetic energy.
// Prints one line per check and exits non-zero if any fails.
//
// usage: example_demo <examples/plugins/models dir> <gauss prefix>/share/gauss/models
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include <gauss/engine.h>
#include <gauss/mjcf.h>

namespace {

int failures = 0;

// Prints "ok"/"FAILED", the measured and expected values and what was checked.
void Check(bool ok, const std::string& what, double measured, double expected) {
  std::printf("%-6s %-64s measured %.6g, expected %.6g\n", ok ? "ok" : "FAILED", what.c_str(),
              measured, expected);
  failures += ok ? 0 : 1;
}

bool Near(double a, double b, double rel) { return std::fabs(a - b) <= rel * std::fabs(b); }

// DC motors: 6 V on both wheels from rest.
void MotorChecks(const std::string& path) {
  const gauss::Engine engine(gauss::LoadModel(path));
  const gauss::Model& m = engine.model();
  gauss::Data d = engine.MakeData();
  const double volts = 6, R = 2, L = 0.01, K = 0.1, b = 0.01, imax = 1;
  std::fill(d.ctrl.begin(), d.ctrl.end(), volts);
  const int steps_tau = static_cast<int>(std::lround(L / R / m.opt.timestep));
  double current_at_tau = 0, peak_limited = 0;
  for (int i = 0; i < static_cast<int>(1.0 / m.opt.timestep); ++i) {
    engine.Step(d);
    if (i + 1 == steps_tau) current_at_tau = d.act[0];
    peak_limited = std::max(peak_limited, std::fabs(d.act[1]));
  }
  std::printf("example_dcmotor on %s (%d actuators, plugin '%s')\n", path.c_str(), m.nu,
              m.actuator_plugin[0].c_str());
  const double w_free = K * volts / (K * K + R * b);
  Check(Near(d.qvel[0], w_free, 1e-3), "free motor: steady speed K V / (K^2 + R b) [rad/s]",
        d.qvel[0], w_free);
  Check(Near(d.act[0], b * w_free / K, 1e-3), "free motor: steady current b w / K [A]", d.act[0],
        b * w_free / K);
  const double rise = volts / R * (1 - std::exp(-1.0));
  Check(Near(current_at_tau, rise, 0.03), "free motor: current after L/R is (V/R)(1 - 1/e) [A]",
        current_at_tau, rise);
  Check(peak_limited <= imax * (1 + 1e-12), "limited motor: current never above imax [A]",
        peak_limited, imax);
  Check(Near(d.qvel[1], K * imax / b, 1e-3), "limited motor: steady speed K imax / b [rad/s]",
        d.qvel[1], K * imax / b);
}

// Result of sliding the box for 1 s from the "launch" keyframe.
struct Slide {
  double x = 0, y = 0, z = 0, penetration = 0, iterations = 0;
};

Slide SlideBox(const std::string& path, const std::string& solver, const std::string& cone,
               int iterations, const std::string& omega) {
  gauss::Config config;
  gauss::ApplySetting(config, "solver=" + solver);
  gauss::ApplySetting(config, "cone=" + cone);
  gauss::ApplySetting(config, "solver.iterations=" + std::to_string(iterations));
  gauss::ApplySetting(config, "solver.tolerance=1e-10");
  if (!omega.empty()) gauss::ApplySetting(config, "solver.params.omega=" + omega);
  const gauss::Engine engine(gauss::LoadModel(path), config);
  gauss::Data d = engine.MakeData();
  engine.ResetToKeyframe(d, 0);
  Slide s;
  const int steps = static_cast<int>(std::lround(1.0 / engine.options().timestep));
  for (int i = 0; i < steps; ++i) {
    engine.Step(d);
    s.iterations += d.solver_iter / static_cast<double>(steps);
    for (int c = 0; c < d.ncon; ++c) s.penetration = std::max(s.penetration, -d.contact[c].dist);
  }
  s.x = d.qpos[0];
  s.y = d.qpos[1];
  s.z = d.qpos[2];
  return s;
}

void JacobiChecks(const std::string& path) {
  std::printf("example_jacobi on %s\n", path.c_str());
  for (const std::string cone : {"pyramidal", "elliptic"}) {
    const Slide newton = SlideBox(path, "newton", cone, 100, "");
    const Slide jacobi = SlideBox(path, "example_jacobi", cone, 5000, "");
    const double dist = std::hypot(jacobi.x - newton.x, jacobi.y - newton.y);
    Check(dist < 2e-3, cone + ": converged Jacobi ends where Newton does [m]", dist, 0);
    Check(std::fabs(jacobi.z - 0.1) < 2e-3, cone + ": the box stays on the floor (z) [m]",
          jacobi.z, 0.1);
    const Slide starved = SlideBox(path, "example_jacobi", cone, 1, "");
    Check(starved.penetration > 5 * newton.penetration,
          cone + ": 1 Jacobi iteration lets the box sink in [m]", starved.penetration,
          5 * newton.penetration);
  }
  const Slide slow = SlideBox(path, "example_jacobi", "pyramidal", 5000, "0.4");
  const Slide fast = SlideBox(path, "example_jacobi", "pyramidal", 5000, "1.6");
  Check(slow.iterations > 1.5 * fast.iterations,
        "omega 0.4 needs more iterations per step than omega 1.6", slow.iterations,
        1.5 * fast.iterations);
}

// Largest |E(t) - E(0)| and the final E(T) - E(0) of the pendulum over 5 s.
struct Drift {
  double max = 0, final = 0;
};

Drift EnergyDrift(const std::string& path, const std::string& integrator) {
  gauss::Config config;
  gauss::ApplySetting(config, "integrator=" + integrator);
  gauss::ApplySetting(config, "flags.energy=true");
  const gauss::Engine engine(gauss::LoadModel(path), config);
  gauss::Data d = engine.MakeData();
  engine.Forward(d);
  const double e0 = d.energy[0] + d.energy[1];
  Drift drift;
  for (int i = 0; i < static_cast<int>(std::lround(5.0 / engine.options().timestep)); ++i) {
    engine.Step(d);  // energy of the state the step started from
    drift.final = d.energy[0] + d.energy[1] - e0;
    drift.max = std::max(drift.max, std::fabs(drift.final));
  }
  return drift;
}

void IntegratorChecks(const std::string& path) {
  std::printf("example_explicit_euler on %s\n", path.c_str());
  const Drift forward = EnergyDrift(path, "example_explicit_euler");
  const Drift semi = EnergyDrift(path, "euler");
  Check(forward.final > 10 * semi.max,
        "forward Euler gains energy, far beyond semi-implicit Euler's swing [J]", forward.final,
        10 * semi.max);
}

// A ball dropped on a plane: the example collider is the only collider (so any contact is its
// own) and must match the builtin `primitive`; the user sensor reads the kinetic energy.
void ColliderAndSensorChecks(const std::string& path) {
  std::printf("example_sphere_plane and example_kinetic_energy on %s\n", path.c_str());
  gauss::Model model = *gauss::LoadModel(path);
  model.sensor_plugin[0] = "example_kinetic_energy";  // the user sensor
  const auto shared = std::make_shared<const gauss::Model>(model);
  gauss::Config config;
  gauss::ApplySetting(config, "colliders=example_sphere_plane");
  gauss::ApplySetting(config, "flags.energy=true");
  const gauss::Engine engine(shared, config);
  gauss::ApplySetting(config, "colliders=primitive");
  const gauss::Engine builtin(shared, config);
  bool used = false;
  for (const auto& p : engine.PluginsInUse()) used = used || p.name == "example_sphere_plane";
  Check(used, "the engine uses example_sphere_plane", used, 1);
  gauss::Data d = engine.MakeData(), ref = builtin.MakeData();
  double sensor_error = 0, max_kinetic = 0, max_diff = 0;
  for (int i = 0; i < 1000; ++i) {
    engine.Step(d);
    builtin.Step(ref);
    // Step evaluates sensors and energy at the state it starts from
    sensor_error = std::max(sensor_error, std::fabs(d.sensordata[0] - d.energy[1]));
    max_kinetic = std::max(max_kinetic, d.energy[1]);
    for (std::size_t k = 0; k < d.qpos.size(); ++k) {
      max_diff = std::max(max_diff, std::fabs(d.qpos[k] - ref.qpos[k]));
    }
  }
  const double radius = model.geom_size[3 * 1];
  Check(std::fabs(d.qpos[2] - radius) < 2e-3, "the ball rests on the plane (z = radius) [m]",
        d.qpos[2], radius);
  Check(max_diff < 1e-6, "same trajectory as the primitive collider (max |dq|)", max_diff, 0);
  Check(max_kinetic > 1 && sensor_error <= 1e-12 * max_kinetic,
        "user sensor = kernel kinetic energy (max |difference|) [J]", sensor_error, 0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: example_demo EXAMPLE_MODELS_DIR GAUSS_MODELS_DIR\n");
    return 2;
  }
  const std::string examples = argv[1], models = argv[2];
  try {
    MotorChecks(examples + "/motor_wheels.xml");
    JacobiChecks(models + "/sliding_box.xml");
    IntegratorChecks(models + "/pendulum.xml");
    ColliderAndSensorChecks(examples + "/ball.xml");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "example_demo: %s\n", e.what());
    return 1;
  }
  std::printf("%s: %d check(s) failed\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
