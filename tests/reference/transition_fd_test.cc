// TransitionFD against MuJoCo 2.2.2's mjd_transitionFD: A and B within 1e-5 relative
// (|a - b| <= 1e-5 max(1, |b|)), C and D (where the model has sensors) within 1e-4, at states
// reached by simulating from touching placements (so most states have contacts), with and
// without contacts, forward and centered differences, the same eps, euler and implicit.
//
// C and D are held to 1e-4: the sensor values themselves agree with MuJoCo's to round-off of
// differently ordered arithmetic (~1e-11 on sensors_all's wide random states), which a forward
// difference with eps = 1e-6 amplifies (measured 5.3e-5 forward, 1.3e-5 centered).
//
// Where MuJoCo 2.2.2 cannot be matched, and what is compared instead:
// - clock sensors: 2.2.2's mjd_transitionFD does not restore d->time between perturbed steps, so
//   its clock rows of C and D difference times that are h apart (values ~h/eps); TransitionFD
//   restores the time (its clock rows are 0). Those rows are left out and counted.
// - centered D: 2.2.2 differences the sensors of a control nudged both ways as
//   (minus - plus) / 2eps, the opposite sign of its B (and of TransitionFD's D). Those columns
//   of the reference are negated before comparing.
// - the implicit integrator on actuation_zoo.xml and sensors_all.xml: Gauss's `implicit` step
//   itself differs from 2.2.2's there (muscle and activation actuators: 50-step trajectories
//   differ by 2e-3 in qpos; a force-limited velocity actuator whose force is clamped: Gauss
//   drops its velocity derivative, 2.2.2 keeps it, 1.6e-3 in one entry of A), so these two
//   models are differenced with euler in both schemes.
//
// RK4: MuJoCo 2.2.2's mjd_transitionFD reuses the position and velocity stages that its RK4
// step has overwritten with the last Runge-Kutta stage, so its A and B are not the Jacobians of
// mj_step (MuJoCo 3 refuses RK4 there). TransitionFD runs full steps for rk4; it is checked
// against MuJoCo's own full-step finite differences of mj_step, and the 2.2.2 discrepancy is
// recorded as a test property.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>

#include "gauss/mjcf.h"
#include "gauss/transition_fd.h"
#include "mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

struct Jacobians {
  std::vector<double> A, B, C, D;
  explicit Jacobians(const mjModel* m)
      : A((2 * m->nv + m->na) * (2 * m->nv + m->na)),
        B((2 * m->nv + m->na) * m->nu),
        C(m->nsensordata * (2 * m->nv + m->na)),
        D(m->nsensordata * m->nu) {}
};

struct FdPair : ReferencePair {
  FdPair(const std::string& path, const std::string& integrator, bool contacts) {
    mj = LoadMujoco(path);
    if (!mj) return;
    mj->opt.integrator = integrator == "euler"      ? mjINT_EULER
                         : integrator == "implicit" ? mjINT_IMPLICIT
                                                    : mjINT_RK4;
    if (!contacts) mj->opt.disableflags |= mjDSBL_CONTACT;
    mjd = MakeMujocoData(mj.get());
    Config config;
    config.integrator = integrator;
    if (!contacts) config.flags["contact"] = false;
    engine = std::make_unique<Engine>(LoadModel(path), config);
    d = engine->MakeData();
  }
};

// Largest |a - b| / max(1, |b|).
double WorstRelative(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i])));
  }
  return worst;
}

// The next state of the mjData's state after one mj_step, restoring its inputs.
void MujocoNext(const mjModel* m, mjData* d, std::vector<double>& next) {
  std::vector<double> qpos(d->qpos, d->qpos + m->nq), qvel(d->qvel, d->qvel + m->nv),
      act(d->act, d->act + m->na), warm(d->qacc_warmstart, d->qacc_warmstart + m->nv);
  const double time = d->time;
  mj_step(m, d);
  next.assign(d->qpos, d->qpos + m->nq);
  next.insert(next.end(), d->qvel, d->qvel + m->nv);
  next.insert(next.end(), d->act, d->act + m->na);
  std::copy(qpos.begin(), qpos.end(), d->qpos);
  std::copy(qvel.begin(), qvel.end(), d->qvel);
  std::copy(act.begin(), act.end(), d->act);
  std::copy(warm.begin(), warm.end(), d->qacc_warmstart);
  d->time = time;
}

// A by forward differences of whole mj_steps (no reused stages), from MuJoCo alone.
std::vector<double> MujocoFullStepA(const mjModel* m, mjData* d, double eps) {
  const int nv = m->nv, nx = 2 * nv + m->na;
  std::vector<double> A(nx * nx), next, plus, dq(nv);
  MujocoNext(m, d, next);
  for (int j = 0; j < nx; ++j) {
    std::vector<double> qpos(d->qpos, d->qpos + m->nq);
    if (j < nv) {
      std::vector<double> unit(nv, 0.0);
      unit[j] = 1;
      mj_integratePos(m, d->qpos, unit.data(), eps);
    } else if (j < 2 * nv) {
      d->qvel[j - nv] += eps;
    } else {
      d->act[j - 2 * nv] += eps;
    }
    MujocoNext(m, d, plus);
    std::copy(qpos.begin(), qpos.end(), d->qpos);
    if (j >= nv && j < 2 * nv) d->qvel[j - nv] -= eps;
    if (j >= 2 * nv) d->act[j - 2 * nv] -= eps;
    mj_differentiatePos(m, dq.data(), eps, next.data(), plus.data());
    for (int i = 0; i < nv; ++i) A[i * nx + j] = dq[i];
    for (int i = nv; i < nx; ++i) A[i * nx + j] = (plus[m->nq - nv + i] - next[m->nq - nv + i]) / eps;
  }
  return A;
}

// Zeroes the rows of clock sensors in both sensor Jacobians (cols columns each); returns how many.
int DropClockRows(const mjModel* m, std::vector<double>& mine, std::vector<double>& ref, int cols) {
  int rows = 0;
  for (int s = 0; s < m->nsensor; ++s) {
    if (m->sensor_type[s] != mjSENS_CLOCK) continue;
    const int adr = m->sensor_adr[s];
    std::fill_n(mine.begin() + adr * cols, cols, 0.0);
    std::fill_n(ref.begin() + adr * cols, cols, 0.0);
    ++rows;
  }
  return rows;
}

// Negates the columns of D whose control was nudged both ways (unlimited, or both nudges in
// range) - 2.2.2's sign for centered sensor differences.
void NegateCenteredControlColumns(const mjModel* m, const double* ctrl, double eps,
                                  std::vector<double>& D) {
  for (int j = 0; j < m->nu; ++j) {
    const double* r = m->actuator_ctrlrange + 2 * j;
    const bool both = !m->actuator_ctrllimited[j] ||
                      (ctrl[j] - eps >= r[0] && ctrl[j] + eps <= r[1]);
    if (!both) continue;
    for (int i = 0; i < m->nsensordata; ++i) D[i * m->nu + j] = -D[i * m->nu + j];
  }
}

// The states: touching placements (PlacedState), then 30 MuJoCo steps with random controls, so
// that qacc_warmstart is a solver's result and contacts are active.
void NextState(FdPair& r, std::mt19937_64& gen) {
  PlacedState(r.mj.get(), r.mjd.get(), gen, /*motion=*/true);
  for (int k = 0; k < 30; ++k) mj_step(r.mj.get(), r.mjd.get());
  mj_forward(r.mj.get(), r.mjd.get());  // ncon of this state (overwrites the warmstart)
  RandomControls(r.mj.get(), r.mjd.get(), gen);
}

using FdCase = std::tuple<std::string, std::string, bool, bool>;  // model, integrator,
                                                                  // contacts, centered
class TransitionFDReference : public ::testing::TestWithParam<FdCase> {};

TEST_P(TransitionFDReference, MatchesMjdTransitionFD) {
  const auto& [path, integrator, contacts, centered] = GetParam();
  FdPair r(path, integrator, contacts);
  ASSERT_TRUE(r.mj);
  const mjModel* m = r.mj.get();
  const bool sensors = m->nsensordata > 0;
  TransitionFD fd(*r.engine);
  Jacobians mine(m), ref(m);
  const double eps = 1e-6;
  std::mt19937_64 gen(41);
  double worst_ab = 0, worst_cd = 0;
  int contact_states = 0, clock_rows = 0;
  for (int s = 0; s < 8; ++s) {
    NextState(r, gen);
    contact_states += r.mjd->ncon > 0;
    r.engine->Reset(r.d);
    r.CopyInputs(/*warmstart=*/true);
    fd.Compute(r.d, {eps, centered}, mine.A.data(), mine.B.data(),
               sensors ? mine.C.data() : nullptr, sensors ? mine.D.data() : nullptr);
    mjd_transitionFD(m, r.mjd.get(), eps, centered, ref.A.data(), ref.B.data(),
                     sensors ? ref.C.data() : nullptr, sensors ? ref.D.data() : nullptr);
    worst_ab = std::max({worst_ab, WorstRelative(mine.A, ref.A), WorstRelative(mine.B, ref.B)});
    if (sensors && centered) NegateCenteredControlColumns(m, r.mjd->ctrl, eps, ref.D);
    if (sensors) {
      clock_rows = DropClockRows(m, mine.C, ref.C, 2 * m->nv + m->na);
      DropClockRows(m, mine.D, ref.D, m->nu);
      worst_cd = std::max({worst_cd, WorstRelative(mine.C, ref.C), WorstRelative(mine.D, ref.D)});
    }
  }
  RecordProperty("worst_AB", std::to_string(worst_ab));
  RecordProperty("worst_CD", std::to_string(worst_cd));
  RecordProperty("contact_states", contact_states);
  RecordProperty("clock_rows_left_out", clock_rows);
  EXPECT_LE(worst_ab, 1e-5) << path;
  EXPECT_LE(worst_cd, 1e-4) << path;
  const bool contact_free = path.find("swimmer") != std::string::npos ||
                            path.find("reacher") != std::string::npos ||
                            path.find("inverted_") != std::string::npos ||
                            path.find("sensors_all") != std::string::npos ||
                            path.find("actuation_zoo") != std::string::npos;
  if (contacts && !contact_free) {
    EXPECT_GT(contact_states, 0) << path << ": the states should include contacts";
  }
}

std::vector<FdCase> Cases() {
  std::vector<FdCase> out;
  std::vector<std::string> models = GymnasiumModels();
  models.push_back(TestModel("sensors_all.xml"));
  models.push_back(TestModel("actuation_zoo.xml"));
  models.push_back(MujocoSampleModel("humanoid/humanoid.xml"));
  for (const std::string& model : models) {
    const bool zoo = model.find("actuation_zoo") != std::string::npos ||
                     model.find("sensors_all") != std::string::npos;
    for (bool centered : {false, true}) {
      out.emplace_back(model, centered && !zoo ? "implicit" : "euler", true, centered);
    }
    out.emplace_back(model, "euler", false, false);
  }
  return out;
}

std::string CaseName(const ::testing::TestParamInfo<FdCase>& info) {
  // "<folder>_<file>": the Gymnasium and the MuJoCo sample humanoid share a file name
  std::string name = std::get<0>(info.param);
  const std::size_t slash = name.find_last_of('/');
  name = name.substr(name.find_last_of('/', slash - 1) + 1);
  name = name.substr(0, name.find('.')) + "_" + std::get<1>(info.param) +
         (std::get<2>(info.param) ? "_contacts" : "_nocontacts") +
         (std::get<3>(info.param) ? "_centered" : "_forward");
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Models, TransitionFDReference, ::testing::ValuesIn(Cases()), CaseName);

TEST(TransitionFDReferenceRk4, MatchesMujocoFullStepDifferences) {
  FdPair r(SharedModel("gymnasium/hopper.xml"), "rk4", true);
  ASSERT_TRUE(r.mj);
  const mjModel* m = r.mj.get();
  TransitionFD fd(*r.engine);
  EXPECT_FALSE(fd.reuses_stages());
  Jacobians mine(m), stepfd(m);
  std::mt19937_64 gen(5);
  double worst_full = 0, worst_222 = 0;
  for (int s = 0; s < 6; ++s) {
    NextState(r, gen);
    r.engine->Reset(r.d);
    r.CopyInputs(/*warmstart=*/true);
    fd.Compute(r.d, {1e-6, false}, mine.A.data(), nullptr, nullptr, nullptr);
    const std::vector<double> full = MujocoFullStepA(m, r.mjd.get(), 1e-6);
    mjd_transitionFD(m, r.mjd.get(), 1e-6, 0, stepfd.A.data(), nullptr, nullptr, nullptr);
    worst_full = std::max(worst_full, WorstRelative(mine.A, full));
    worst_222 = std::max(worst_222, WorstRelative(mine.A, stepfd.A));
  }
  RecordProperty("worst_vs_full_step_fd", std::to_string(worst_full));
  RecordProperty("worst_vs_mjd_transitionFD_222", std::to_string(worst_222));
  std::printf("rk4 hopper: vs MuJoCo full-step FD %.3g, vs 2.2.2 mjd_transitionFD %.3g\n",
              worst_full, worst_222);
  EXPECT_LE(worst_full, 1e-5);
}

}  // namespace
}  // namespace gauss::test
