// Speed of forward simulation plus transition Jacobians (the Dojo paper's Table V setting):
// 1000 steps at h = 0.01 with random controls; at each state of that trajectory one step and
// its finite-difference A, B (forward differences, eps 1e-6). Gauss's TransitionFD (serial and
// over a 2-thread pool) against MuJoCo 2.2.2's mjd_transitionFD on the same states (euler,
// newton), run interleaved (Gauss 1 thread, MuJoCo, Gauss 2 threads, repeated) and reported as
// medians. A benchmark program, not a test (no timed assertions); docs/derivatives.md has the
// table. It lives here because only tests/reference may link MuJoCo.
//
//   build/bin/gauss_derivatives_speed [--repeats R] [--steps N] [--serial | --threaded]
//                                     [--solver-param KEY=VALUE]... MODEL.xml...
//
// --serial leaves out the 2-thread runs: for instruction counts under callgrind, which are
// fair on a loaded machine (inclusive counts of gauss::TransitionFD::Compute and
// mjd_transitionFD; see docs/derivatives.md). --threaded runs only Gauss over the 2-thread
// pool: under callgrind --separate-threads=yes, the instructions each thread executes.
// --solver-param sets a parameter of Gauss's newton (keep_factor=false: the count without the
// kept Hessian factor).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gauss/mjcf.h"
#include "gauss/thread_pool.h"
#include "gauss/transition_fd.h"
#include "mujoco_reference.h"

namespace {

using gauss::test::MjDataPtr;
using gauss::test::MjModelPtr;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Trajectory {
  std::vector<std::vector<double>> qpos, qvel, act, ctrl, warm;
};

// N steps of MuJoCo with controls N(0, 0.5) (clamped by the engine), recording each state.
Trajectory Record(const mjModel* m, mjData* d, int steps) {
  Trajectory tr;
  std::mt19937_64 gen(7);
  std::normal_distribution<double> nd(0, 0.5);
  mj_resetData(m, d);
  for (int k = 0; k < steps; ++k) {
    for (int a = 0; a < m->nu; ++a) d->ctrl[a] = nd(gen);
    tr.qpos.emplace_back(d->qpos, d->qpos + m->nq);
    tr.qvel.emplace_back(d->qvel, d->qvel + m->nv);
    tr.act.emplace_back(d->act, d->act + m->na);
    tr.ctrl.emplace_back(d->ctrl, d->ctrl + m->nu);
    tr.warm.emplace_back(d->qacc_warmstart, d->qacc_warmstart + m->nv);
    mj_step(m, d);
  }
  return tr;
}

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

enum class Variants { kAll, kSerial, kThreaded };

void Run(const std::string& path, int repeats, int steps, Variants variants,
         const gauss::Params& solver_params) {
  MjModelPtr m = gauss::test::LoadMujoco(path);
  if (!m) return;
  m->opt.timestep = 0.01;
  m->opt.integrator = mjINT_EULER;
  MjDataPtr md = gauss::test::MakeMujocoData(m.get());
  gauss::Config config;
  config.integrator = "euler";
  config.solver = "newton";
  config.solver_params = solver_params;
  gauss::ApplySetting(config, "timestep=0.01");
  const gauss::Engine engine(gauss::LoadModel(path), config);
  gauss::Data d = engine.MakeData();
  const Trajectory tr = Record(m.get(), md.get(), steps);
  const int nx = 2 * m->nv + m->na;
  std::vector<double> A(nx * nx), B(nx * m->nu);
  gauss::ThreadPool pool(2);
  gauss::TransitionFD serial(engine), parallel(engine, &pool);

  auto gauss_run = [&](gauss::TransitionFD& fd) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k) {
      std::copy(tr.qpos[k].begin(), tr.qpos[k].end(), d.qpos.begin());
      std::copy(tr.qvel[k].begin(), tr.qvel[k].end(), d.qvel.begin());
      std::copy(tr.act[k].begin(), tr.act[k].end(), d.act.begin());
      std::copy(tr.ctrl[k].begin(), tr.ctrl[k].end(), d.ctrl.begin());
      std::copy(tr.warm[k].begin(), tr.warm[k].end(), d.qacc_warmstart.begin());
      fd.Compute(d, {1e-6, false}, A.data(), B.data(), nullptr, nullptr);
    }
    return Seconds(t0);
  };
  auto mujoco_run = [&]() {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k) {
      std::copy(tr.qpos[k].begin(), tr.qpos[k].end(), md->qpos);
      std::copy(tr.qvel[k].begin(), tr.qvel[k].end(), md->qvel);
      std::copy(tr.act[k].begin(), tr.act[k].end(), md->act);
      std::copy(tr.ctrl[k].begin(), tr.ctrl[k].end(), md->ctrl);
      std::copy(tr.warm[k].begin(), tr.warm[k].end(), md->qacc_warmstart);
      mjd_transitionFD(m.get(), md.get(), 1e-6, 0, A.data(), B.data(), nullptr, nullptr);
    }
    return Seconds(t0);
  };
  std::vector<double> g1, mj, g2;
  for (int r = 0; r < repeats; ++r) {
    const bool threaded_only = variants == Variants::kThreaded;
    g1.push_back(threaded_only ? 0.0 : gauss_run(serial));
    mj.push_back(threaded_only ? 0.0 : mujoco_run());
    g2.push_back(variants == Variants::kSerial ? 0.0 : gauss_run(parallel));
  }
  const double tg1 = Median(g1), tmj = Median(mj), tg2 = Median(g2);
  // the targets (issue 14): mujoco / gauss-1t >= 1.25, mujoco / gauss-2t >= 1.8 x 1.25 = 2.25
  std::printf("%-14s nx=%3d nu=%2d  gauss-1t %8.1f ms  mujoco %8.1f ms  gauss-2t %8.1f ms  "
              "mujoco/gauss-1t %.2fx  mujoco/gauss-2t %.2fx  gauss 1t/2t %.2fx\n",
              path.substr(path.find_last_of('/') + 1).c_str(), nx, m->nu, 1e3 * tg1, 1e3 * tmj,
              1e3 * tg2, tmj / tg1, tmj / tg2, tg1 / tg2);
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 5, steps = 1000;
  Variants variants = Variants::kAll;
  std::vector<std::string> models;
  gauss::Params solver_params;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) {
      repeats = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--serial")) {
      variants = Variants::kSerial;
    } else if (!std::strcmp(argv[i], "--threaded")) {
      variants = Variants::kThreaded;
    } else if (!std::strcmp(argv[i], "--solver-param") && i + 1 < argc) {
      const std::string setting = argv[++i];
      const std::size_t eq = setting.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "--solver-param takes KEY=VALUE, not '%s'\n", setting.c_str());
        return 2;
      }
      solver_params.Set(setting.substr(0, eq), setting.substr(eq + 1));
    } else {
      models.push_back(argv[i]);
    }
  }
  if (models.empty()) {
    std::fprintf(stderr, "usage: gauss_derivatives_speed [--repeats R] [--steps N] "
                         "[--serial | --threaded] [--solver-param KEY=VALUE]... MODEL.xml...\n");
    return 2;
  }
  std::printf("%d steps at h = 0.01 (euler, newton), forward differences, medians of %d "
              "interleaved repeats\n", steps, repeats);
  for (const std::string& path : models) Run(path, repeats, steps, variants, solver_params);
  return 0;
}
