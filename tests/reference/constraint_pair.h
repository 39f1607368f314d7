// Shared by constraint_test.cc and inverse_test.cc: one model loaded by MuJoCo 2.2.2 and by
// Gauss with contacts disabled on both sides and the same solver settings (solver, tolerance,
// iterations, cone, dense Jacobian), and random states chosen to exercise the constraint model:
// large perturbations that violate limits and equalities, states straddling the limits within
// their margins, and small perturbations of qpos0 whose residuals lie inside the solimp widths.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {

struct SolverSetup {
  std::string solver = "newton";
  double tolerance = 1e-12;
  int iterations = 1000;
  Cone cone = Cone::kPyramidal;
  JacobianType jacobian = JacobianType::kDense;  // Gauss side; MuJoCo always dense
  bool fwdinv = false;
};

inline int MujocoSolver(const std::string& name) {
  return name == "pgs" ? mjSOL_PGS : name == "cg" ? mjSOL_CG : mjSOL_NEWTON;
}

struct ConstraintPair {
  MjModelPtr mj;
  MjDataPtr mjd;
  std::unique_ptr<Engine> engine;
  Data d;

  ConstraintPair(const std::string& path, const SolverSetup& s) {
    mj = LoadMujoco(path);
    if (!mj) return;
    mj->opt.disableflags |= mjDSBL_CONTACT;
    mj->opt.solver = MujocoSolver(s.solver);
    mj->opt.tolerance = s.tolerance;
    mj->opt.iterations = s.iterations;
    mj->opt.cone = s.cone == Cone::kElliptic ? mjCONE_ELLIPTIC : mjCONE_PYRAMIDAL;
    mj->opt.jacobian = mjJAC_DENSE;
    if (s.fwdinv) mj->opt.enableflags |= mjENBL_FWDINV;
    mjd = MakeMujocoData(mj.get());
    Config config;
    config.flags["contact"] = false;
    if (s.fwdinv) config.flags["fwdinv"] = true;
    config.solver = s.solver;
    config.tolerance = s.tolerance;
    config.iterations = s.iterations;
    config.cone = s.cone;
    config.jacobian = s.jacobian;
    engine = std::make_unique<Engine>(LoadModel(path), config);
    d = engine->MakeData();
  }

  // MuJoCo's inputs of forward dynamics into Gauss, including the solver's warmstart. Call it
  // before mj_forward: MuJoCo overwrites qacc_warmstart with the solution it finds.
  void CopyInputs() {
    const mjModel* m = mj.get();
    d.time = mjd->time;
    std::copy_n(mjd->qpos, m->nq, d.qpos.begin());
    std::copy_n(mjd->qvel, m->nv, d.qvel.begin());
    std::copy_n(mjd->act, m->na, d.act.begin());
    std::copy_n(mjd->ctrl, m->nu, d.ctrl.begin());
    std::copy_n(mjd->qfrc_applied, m->nv, d.qfrc_applied.begin());
    std::copy_n(mjd->xfrc_applied, 6 * m->nbody, d.xfrc_applied.begin());
    std::copy_n(mjd->qacc_warmstart, m->nv, d.qacc_warmstart.begin());
  }
};

// Kinds of random states, cycled through by state index.
enum class StateKind { kLarge, kNearLimits, kSmall };
inline StateKind KindOfState(int s) {
  return s % 3 == 0 ? StateKind::kLarge : s % 3 == 1 ? StateKind::kNearLimits : StateKind::kSmall;
}

// Random unit axis.
inline void RandomAxis(std::mt19937_64& gen, double* axis) {
  std::normal_distribution<double> nd(0, 1);
  for (int c = 0; c < 3; ++c) axis[c] = nd(gen);
  mju_normalize3(axis);
}

// Random state into MuJoCo's data (reset first):
//   kLarge: hinge/slide qpos0 + 0.8 N(0,1), uniformly random ball/free orientations, free
//           positions qpos0 + 0.5 N(0,1), qvel 1.5 N(0,1): limits and equalities violated;
//   kNearLimits: limited hinge/slide joints within margin + 0.03 of one of their bounds (both
//           sides of the bound), limited ball joints at an angle within margin + 0.05 of the
//           limit, others as kSmall;
//   kSmall: qpos0 perturbed by 0.01 N(0,1) (rotations by 0.01 rad), qvel 0.3 N(0,1): equality
//           residuals inside the solimp widths.
// Controls within their ranges; every other state random qfrc_applied and xfrc_applied.
inline void RandomConstraintState(const mjModel* m, mjData* d, std::mt19937_64& gen, int s) {
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(0, 1);
  mj_resetData(m, d);
  const StateKind kind = KindOfState(s);
  const double small = 0.01;
  for (int j = 0; j < m->njnt; ++j) {
    double* q = d->qpos + m->jnt_qposadr[j];
    const double* range = m->jnt_range + 2 * j;
    const bool limited = m->jnt_limited[j];
    const double band = m->jnt_margin[j] + 0.03;
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        for (int c = 0; c < 3; ++c) q[c] += (kind == StateKind::kLarge ? 0.5 : small) * nd(gen);
        q += 3;
        [[fallthrough]];
      case mjJNT_BALL: {
        if (kind == StateKind::kLarge) {
          for (int c = 0; c < 4; ++c) q[c] = nd(gen);
          mju_normalize4(q);
        } else if (kind == StateKind::kNearLimits && limited && m->jnt_type[j] == mjJNT_BALL) {
          double axis[3];
          RandomAxis(gen, axis);
          const double limit = std::max(range[0], range[1]);
          const double angle = std::max(0.0, limit + (2 * ud(gen) - 1) * (m->jnt_margin[j] + 0.05));
          mju_axisAngle2Quat(q, axis, angle);
        } else {
          double rot[3];
          for (int c = 0; c < 3; ++c) rot[c] = small * nd(gen);
          mju_quatIntegrate(q, rot, 1);
        }
        break;
      }
      default:
        if (kind == StateKind::kLarge) {
          q[0] += 0.8 * nd(gen);
        } else if (kind == StateKind::kNearLimits && limited) {
          q[0] = range[ud(gen) < 0.5 ? 0 : 1] + (2 * ud(gen) - 1) * band;
        } else {
          q[0] += small * nd(gen);
        }
    }
  }
  const double vscale = kind == StateKind::kLarge ? 1.5 : 0.3;
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = vscale * nd(gen);
  for (int i = 0; i < m->nu; ++i) {
    const double* r = m->actuator_ctrlrange + 2 * i;
    d->ctrl[i] = m->actuator_ctrllimited[i] ? r[0] + (r[1] - r[0]) * ud(gen) : nd(gen);
  }
  if (s % 2 == 1) {
    for (int i = 0; i < m->nv; ++i) d->qfrc_applied[i] = nd(gen);
    for (int i = 6; i < 6 * m->nbody; ++i) d->xfrc_applied[i] = nd(gen);
  }
}

// The models of the constraint cross-checks: the hand-written constraint models, MuJoCo's
// humanoid and the Gymnasium models (swimmer needs fluid forces, not implemented yet).
inline std::vector<std::string> ConstraintModels() {
  std::vector<std::string> out = {TestModel("constraints_limits.xml"),
                                  TestModel("constraints_equality.xml"),
                                  TestModel("constraints_soft.xml"),
                                  TestModel("constraints_planar_loop.xml"),
                                  MujocoSampleModel("humanoid/humanoid.xml")};
  for (const std::string& path : GymnasiumModels()) {
    if (path.find("swimmer") == std::string::npos) out.push_back(path);
  }
  return out;
}

// A readable test name from a model path ("constraints_limits", "gymnasium_ant", ...).
inline std::string ModelTestName(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') + 1);
  stem = stem.substr(0, stem.find('.'));
  std::string dir = path.substr(0, path.find_last_of('/'));
  dir = dir.substr(dir.find_last_of('/') + 1);
  std::string name = (dir == "models" ? "" : dir + "_") + stem;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace gauss::test
