// Shared by constraint_test.cc, inverse_test.cc and contact_dynamics_test.cc: one model loaded
// by MuJoCo 2.2.2 and by Gauss with contacts disabled on both sides and the same solver settings
// (solver, tolerance, iterations, cone, dense Jacobian); random states chosen to exercise the
// constraint model: large perturbations that violate limits and equalities, states straddling
// the limits within their margins, and small perturbations of qpos0 whose residuals lie inside
// the solimp widths; and the pieces of the row comparisons.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

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

// The same solver settings on both sides: MuJoCo's options and Gauss's configuration.
inline void ApplySolverSetup(const SolverSetup& s, mjOption& opt, Config& config) {
  opt.solver = s.solver == "pgs" ? mjSOL_PGS : s.solver == "cg" ? mjSOL_CG : mjSOL_NEWTON;
  opt.tolerance = s.tolerance;
  opt.iterations = s.iterations;
  opt.cone = s.cone == Cone::kElliptic ? mjCONE_ELLIPTIC : mjCONE_PYRAMIDAL;
  opt.jacobian = mjJAC_DENSE;
  config.solver = s.solver;
  config.tolerance = s.tolerance;
  config.iterations = s.iterations;
  config.cone = s.cone;
  config.jacobian = s.jacobian;
  if (s.fwdinv) {
    opt.enableflags |= mjENBL_FWDINV;
    config.flags["fwdinv"] = true;
  }
}

// The pair's CopyInputs(/*warmstart=*/true) before mj_forward gives both the same warmstart.
struct ConstraintPair : ReferencePair {
  ConstraintPair(const std::string& path, const SolverSetup& s) {
    mj = LoadMujoco(path);
    if (!mj) return;
    Config config;
    mj->opt.disableflags |= mjDSBL_CONTACT;
    config.flags["contact"] = false;
    ApplySolverSetup(s, mj->opt, config);
    mjd = MakeMujocoData(mj.get());
    engine = std::make_unique<Engine>(LoadModel(path), config);
    d = engine->MakeData();
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
// humanoid and the Gymnasium models.
inline std::vector<std::string> ConstraintModels() {
  std::vector<std::string> out = {TestModel("constraints_limits.xml"),
                                  TestModel("constraints_equality.xml"),
                                  TestModel("constraints_soft.xml"),
                                  TestModel("constraints_planar_loop.xml"),
                                  MujocoSampleModel("humanoid/humanoid.xml")};
  for (const std::string& path : GymnasiumModels()) out.push_back(path);
  return out;
}

// Row i of Gauss's Jacobian as a dense vector (dense or CSR storage).
inline std::vector<double> GaussJacobianRow(const Model& m, const Data& d, int i) {
  std::vector<double> row(m.nv, 0.0);
  if (!d.efc_J_rownnz.empty()) {
    for (int p = d.efc_J_rowadr[i]; p < d.efc_J_rowadr[i] + d.efc_J_rownnz[i]; ++p) {
      row[d.efc_J_colind[p]] = d.efc_J[p];
    }
  } else {
    std::copy_n(d.efc_J.begin() + static_cast<long>(i) * m.nv, m.nv, row.begin());
  }
  return row;
}

// Index of the largest relative error |a - b| / max(1, |b|).
inline int WorstIndex(const double* a, const double* b, int n) {
  int worst = 0;
  double value = -1;
  for (int i = 0; i < n; ++i) {
    const double e = std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i]));
    if (e > value) {
      value = e;
      worst = i;
    }
  }
  return worst;
}

// "type:id type:id ..." of a row list, for failure messages.
template <class Type>
std::string RowList(const Type* type, const int* id, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += std::to_string(static_cast<int>(type[i])) + ":" + std::to_string(id[i]) + " ";
  }
  return out;
}

// The same rows on both sides at state s: nefc, ne, nf, then efc_type and efc_id row by row.
// False (after reporting) at the first mismatch, so that the caller can stop.
inline bool SameRows(const Data& d, const mjData* md, int s) {
  const int n = md->nefc;
  EXPECT_EQ(d.nefc, n) << "state " << s << "\n  gauss rows (type:id) "
                       << RowList(d.efc_type.data(), d.efc_id.data(), d.nefc)
                       << "\n  mujoco rows (type:id) " << RowList(md->efc_type, md->efc_id, n);
  EXPECT_EQ(d.ne, md->ne) << "state " << s;
  EXPECT_EQ(d.nf, md->nf) << "state " << s;
  if (d.nefc != n || d.ne != md->ne || d.nf != md->nf) return false;
  for (int i = 0; i < n; ++i) {
    const int type = static_cast<int>(d.efc_type[i]);  // numbered as mjtConstraint
    EXPECT_EQ(type, md->efc_type[i]) << "state " << s << " row " << i;
    EXPECT_EQ(d.efc_id[i], md->efc_id[i]) << "state " << s << " row " << i;
    if (type != md->efc_type[i] || d.efc_id[i] != md->efc_id[i]) return false;
  }
  return true;
}

// Largest relative error of each compared quantity over all states.
struct Worst {
  std::map<std::string, double> error;
  void Update(const std::string& name, double value) { error[name] = std::max(error[name], value); }
};

// Row quantities of both sides, compared after SameRows: name, Gauss's values, MuJoCo's, count
// (nefc, or 4 nefc for efc_KBIP).
using RowFields = std::vector<std::tuple<const char*, const double*, const double*, int>>;

// The row parameters every cross-check compares: efc_pos, efc_margin, efc_R, efc_D, efc_KBIP,
// efc_vel, efc_aref.
inline RowFields RowParameterFields(const Data& d, const mjData* md) {
  const int n = md->nefc;
  return {{"efc_pos", d.efc_pos.data(), md->efc_pos, n},
          {"efc_margin", d.efc_margin.data(), md->efc_margin, n},
          {"efc_R", d.efc_R.data(), md->efc_R, n},
          {"efc_D", d.efc_D.data(), md->efc_D, n},
          {"efc_KBIP", d.efc_KBIP.data(), md->efc_KBIP, 4 * n},
          {"efc_vel", d.efc_vel.data(), md->efc_vel, n},
          {"efc_aref", d.efc_aref.data(), md->efc_aref, n}};
}

// Each of `fields`, then efc_J (Gauss's rows from either storage), to `tolerance` in relative
// error at state s, recording the worst of each; false when any exceeds the tolerance.
inline bool CompareRowValues(const ReferencePair& p, int s, const RowFields& fields,
                             double tolerance, Worst& worst) {
  const mjModel* m = p.mj.get();
  const mjData* md = p.mjd.get();
  const Data& d = p.d;
  const int n = md->nefc;
  bool ok = true;
  for (const auto& [name, a, b, count] : fields) {
    const double err = MaxRelError(a, b, count);
    worst.Update(name, err);
    const int k = WorstIndex(a, b, count);
    EXPECT_LE(err, tolerance) << name << ", state " << s << ", element " << k << " (row type "
                              << (count == n ? md->efc_type[k] : md->efc_type[k / 4])
                              << "): gauss " << (count ? a[k] : 0) << " mujoco "
                              << (count ? b[k] : 0);
    ok = ok && err <= tolerance;
  }
  double jerr = 0;
  int jrow = 0;
  for (int i = 0; i < n; ++i) {
    const std::vector<double> row = GaussJacobianRow(p.engine->model(), d, i);
    const double e = MaxRelError(row.data(), md->efc_J + static_cast<long>(i) * m->nv, m->nv);
    if (e > jerr) {
      jerr = e;
      jrow = i;
    }
  }
  worst.Update("efc_J", jerr);
  EXPECT_LE(jerr, tolerance) << "efc_J, state " << s << " row " << jrow << " (type "
                             << md->efc_type[jrow] << ")";
  return ok && jerr <= tolerance;
}

// The solution at state s: qacc, efc_force and qfrc_constraint to `tolerance` in relative error
// (the worst recorded), and both newton solvers stopped by their tolerance before `iterations`.
// False when a value exceeds the tolerance.
inline bool CompareSolution(const ReferencePair& p, int s, int iterations, double tolerance,
                            Worst& worst) {
  const mjModel* m = p.mj.get();
  const mjData* md = p.mjd.get();
  const Data& d = p.d;
  const double qacc = MaxRelError(d.qacc.data(), md->qacc, m->nv);
  const double force = MaxRelError(d.efc_force.data(), md->efc_force, md->nefc);
  const double qfrc = MaxRelError(d.qfrc_constraint.data(), md->qfrc_constraint, m->nv);
  worst.Update("qacc", qacc);
  worst.Update("efc_force", force);
  worst.Update("qfrc_constraint", qfrc);
  EXPECT_LE(qacc, tolerance) << "qacc, state " << s << " (ncon " << md->ncon << ")";
  EXPECT_LE(force, tolerance) << "efc_force, state " << s;
  EXPECT_LE(qfrc, tolerance) << "qfrc_constraint, state " << s;
  EXPECT_LT(d.solver_iter, iterations) << "Gauss newton did not converge, state " << s;
  EXPECT_LT(md->solver_iter, iterations) << "MuJoCo newton did not converge, state " << s;
  return qacc <= tolerance && force <= tolerance && qfrc <= tolerance;
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

// Test name of a (model path, cone) parameter: "humanoid_humanoid_elliptic", ...
inline std::string ModelConeTestName(
    const ::testing::TestParamInfo<std::tuple<std::string, Cone>>& info) {
  return ModelTestName(std::get<0>(info.param)) +
         (std::get<1>(info.param) == Cone::kElliptic ? "_elliptic" : "_pyramidal");
}

}  // namespace gauss::test
