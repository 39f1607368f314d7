// Contact dynamics through the whole pipeline against MuJoCo 2.2.2: collision (primitive
// colliders), contact constraint rows, the newton solver and the euler integrator together.
//
// Why: collision_test.cc checks the contact sets alone and constraint_test.cc the rows and the
// solution without contacts; only here are contact rows (frictionless, pyramidal edges, elliptic
// normal + friction rows) assembled from real contact sets and solved.
//
// 1. For MuJoCo's humanoid and the Gymnasium ant, half_cheetah, hopper, walker2d and humanoid,
//    both friction cones, newton at tolerance 1e-12 (at most 1000 iterations) on both sides, at
//    100 random states where many contacts occur (even states: bodies placed at random heights
//    near or into the floor with random velocities; odd states: sampled by simulating MuJoCo
//    from qpos0 with random initial velocities and random controls, so bodies lie, fall and
//    bounce on the floor):
//      ncon, the geom pair of every contact, nefc, efc_type, efc_id exactly;
//      efc_J, efc_pos, efc_margin, efc_R, efc_D, efc_KBIP, efc_vel, efc_aref to 1e-10;
//      qacc (and efc_force, qfrc_constraint) to 1e-6; both solvers converged.
//    Relative error: max |a - b| / max(1, |b|), b = MuJoCo's value.
// 2. 200-step euler trajectories of MuJoCo's humanoid dropped onto the floor (lowest point 5 mm
//    above it, falling at 1 m/s, tumbling): contact dynamics are chaotic (a contact appearing
//    one step earlier changes everything after it), so this asserts agreement to 1e-6 over the
//    first 20 steps - which include the impact and several contacts - and reports the time at
//    which qpos first differs by more than 1e-6.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "constraint_pair.h"

namespace gauss::test {
namespace {

constexpr double kRowTolerance = 1e-10;   // assembled rows and their parameters
constexpr double kSolveTolerance = 1e-6;  // qacc, efc_force, qfrc_constraint
constexpr int kStates = 100;

// The same model on both sides with contacts enabled and the same solver settings; its
// CopyInputs(/*warmstart=*/true) goes before mj_forward.
struct ContactPair : ReferencePair {
  MjDataPtr sim;  // MuJoCo data used to sample states by simulation

  ContactPair(const std::string& path, const SolverSetup& s, const std::string& integrator) {
    mj = LoadMujoco(path);
    if (!mj) return;
    Config config;
    ApplySolverSetup(s, mj->opt, config);
    if (!integrator.empty()) {
      mj->opt.integrator = integrator == "rk4" ? mjINT_RK4 : mjINT_EULER;
      config.integrator = integrator;
    }
    mjd = MakeMujocoData(mj.get());
    sim = MakeMujocoData(mj.get());
    engine = std::make_unique<Engine>(LoadModel(path), config);
    d = engine->MakeData();
  }
};

int WarningTotal(const mjData* d) {
  int n = 0;
  for (int w = 0; w < mjNWARNING; ++w) n += d->warning[w].number;
  return n;
}

// Simulated state: MuJoCo (with the pair's options) from qpos0 with qvel 0.5 N(0,1), stepped a
// random 20..400 steps under random controls redrawn every step; the sample is redrawn when
// MuJoCo warned (divergence, full buffers). The state, time and warmstart are copied into `d`.
void SimulatedState(const mjModel* m, mjData* sim, mjData* d, std::mt19937_64& gen) {
  std::normal_distribution<double> nd(0, 1);
  std::uniform_int_distribution<int> steps(20, 400);
  for (int attempt = 0; attempt < 20; ++attempt) {
    mj_resetData(m, sim);
    for (int i = 0; i < m->nv; ++i) sim->qvel[i] = 0.5 * nd(gen);
    const int n = steps(gen);
    for (int k = 0; k < n; ++k) {
      RandomControls(m, sim, gen);
      mj_step(m, sim);
    }
    if (WarningTotal(sim) == 0) break;
  }
  mj_resetData(m, d);
  d->time = sim->time;
  std::copy_n(sim->qpos, m->nq, d->qpos);
  std::copy_n(sim->qvel, m->nv, d->qvel);
  std::copy_n(sim->act, m->na, d->act);
  std::copy_n(sim->ctrl, m->nu, d->ctrl);
  std::copy_n(sim->qacc_warmstart, m->nv, d->qacc_warmstart);
}

// Contacts, rows and parameters; false (after reporting) at the first mismatch.
bool CompareRows(const ContactPair& p, int s, Worst& worst) {
  const mjData* md = p.mjd.get();
  const Data& d = p.d;
  EXPECT_EQ(d.ncon, md->ncon) << "state " << s << ContactList(d, md);
  if (d.ncon != md->ncon) return false;
  for (int k = 0; k < d.ncon; ++k) {
    const bool same = d.contact[k].geom1 == md->contact[k].geom1 &&
                      d.contact[k].geom2 == md->contact[k].geom2 &&
                      d.contact[k].dim == md->contact[k].dim;
    EXPECT_TRUE(same) << "state " << s << " contact " << k << ContactList(d, md);
    if (!same) return false;
  }
  if (!SameRows(d, md, s)) return false;
  return CompareRowValues(p, s, RowParameterFields(d, md), kRowTolerance, worst);
}

// The models whose contacts the primitive colliders handle completely: the pile adds box-box,
// box-capsule, box-sphere contacts and condim 4 and 6 (torsional and rolling friction rows).
std::vector<std::string> ContactModels() {
  return {TestModel("contact_pile.xml"), MujocoSampleModel("humanoid/humanoid.xml"),
          SharedModel("gymnasium/ant.xml"), SharedModel("gymnasium/half_cheetah.xml"),
          SharedModel("gymnasium/hopper.xml"), SharedModel("gymnasium/walker2d.xml"),
          SharedModel("gymnasium/humanoid.xml")};
}

// State s of a test's sequence into p.mjd: placed with motion (even s) or reached by
// simulation (odd s).
void SampleState(ContactPair& p, std::mt19937_64& gen, int s) {
  if (s % 2 == 0) {
    PlacedState(p.mj.get(), p.mjd.get(), gen, /*motion=*/true);
  } else {
    SimulatedState(p.mj.get(), p.sim.get(), p.mjd.get(), gen);
  }
}

// The pile (box-box, box-capsule, box-sphere; condim 3, 4, 6) and MuJoCo's humanoid.
std::vector<std::string> PileAndHumanoid() {
  return {TestModel("contact_pile.xml"), MujocoSampleModel("humanoid/humanoid.xml")};
}

// ---------------------------------------------------------------- forward at random states

// Rows and newton's solution of Gauss (configured by setup) equal MuJoCo's at kStates states:
// placed ones with motion and ones reached by simulation; prints and records the figures.
void CheckForwardAtStates(const std::string& path, const SolverSetup& setup) {
  const Cone cone = setup.cone;
  ContactPair p(path, setup, "");
  ASSERT_TRUE(p.mj);
  if (setup.jacobian == JacobianType::kSparse) {
    ASSERT_FALSE(p.d.efc_J_rownnz.empty()) << "jacobian=sparse did not select the CSR storage";
  }
  std::mt19937_64 gen(4242);
  Worst worst;
  int contacts = 0, contact_rows = 0, states_with_contacts = 0, max_ncon = 0;
  int iter_gauss = 0, iter_mujoco = 0;
  std::map<int, int> condims;
  for (int s = 0; s < kStates; ++s) {
    SampleState(p, gen, s);
    p.CopyInputs(/*warmstart=*/true);  // before mj_forward, which overwrites qacc_warmstart
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Forward(p.d);
    ASSERT_TRUE(CompareRows(p, s, worst)) << path;
    ASSERT_TRUE(CompareSolution(p, s, setup.iterations, kSolveTolerance, worst)) << path;
    contacts += p.d.ncon;
    max_ncon = std::max(max_ncon, p.d.ncon);
    states_with_contacts += p.d.ncon > 0;
    for (int k = 0; k < p.d.ncon; ++k) ++condims[p.d.contact[k].dim];
    for (int i = 0; i < p.d.nefc; ++i) {
      contact_rows += p.d.efc_type[i] >= ConstraintType::kContactFrictionless;
    }
    iter_gauss = std::max(iter_gauss, p.d.solver_iter);
    iter_mujoco = std::max(iter_mujoco, p.mjd->solver_iter);
  }
  // the test must have exercised contacts: most states have some, and many in total
  EXPECT_GE(states_with_contacts, kStates / 2) << path;
  EXPECT_GE(contacts, 2 * kStates) << path;
  std::string dims;
  for (const auto& [dim, count] : condims) {
    dims += std::to_string(dim) + ":" + std::to_string(count) + " ";
  }
  std::printf("[ measured ] %s %s contacts=%d (max %d, %d states with contacts, condim %s) "
              "contact rows=%d newton iterations max gauss=%d mujoco=%d",
              ModelTestName(path).c_str(), cone == Cone::kElliptic ? "elliptic" : "pyramidal",
              contacts, max_ncon, states_with_contacts, dims.c_str(), contact_rows, iter_gauss,
              iter_mujoco);
  for (const auto& [name, err] : worst.error) {
    std::printf(" %s=%.1e", name.c_str(), err);
    ::testing::Test::RecordProperty("max_rel_" + name, std::to_string(err));
  }
  std::printf("\n");
  ::testing::Test::RecordProperty("contacts", contacts);
}

class ContactForward : public ::testing::TestWithParam<std::tuple<std::string, Cone>> {};

TEST_P(ContactForward, RowsAndNewtonSolutionMatchMujocoAt100States) {
  SolverSetup setup;
  setup.cone = std::get<1>(GetParam());
  CheckForwardAtStates(std::get<0>(GetParam()), setup);
}

// The same with Gauss's sparse (CSR) Jacobian: newton then factors H = M + J'DJ as a sparse
// L D L' and, for pyramidal cones, follows row state changes by rank-one updates of it.
class ContactForwardSparse : public ::testing::TestWithParam<std::tuple<std::string, Cone>> {};

TEST_P(ContactForwardSparse, RowsAndNewtonSolutionMatchMujocoAt100States) {
  SolverSetup setup;
  setup.cone = std::get<1>(GetParam());
  setup.jacobian = JacobianType::kSparse;
  CheckForwardAtStates(std::get<0>(GetParam()), setup);
}

INSTANTIATE_TEST_SUITE_P(
    Models, ContactForward,
    ::testing::Combine(::testing::ValuesIn(ContactModels()),
                       ::testing::Values(Cone::kPyramidal, Cone::kElliptic)),
    ModelConeTestName);

INSTANTIATE_TEST_SUITE_P(
    Models, ContactForwardSparse,
    ::testing::Combine(::testing::ValuesIn(PileAndHumanoid()),
                       ::testing::Values(Cone::kPyramidal, Cone::kElliptic)),
    ModelConeTestName);

// ---------------------------------------------------------------- pgs, iterate for iterate

// pgs with its default (the spec's) updates is MuJoCo 2.2.2's algorithm: with a budget too small
// to converge (30 sweeps), Gauss and MuJoCo must stop at the same iterate, not just near the
// optimum. Elliptic cones exercise the ray update and the friction QCQP for condim 3, 4 and 6
// (the pile), pyramidal cones the scalar projections.
class PgsIterates : public ::testing::TestWithParam<std::tuple<std::string, Cone>> {};

TEST_P(PgsIterates, UnconvergedPgsStopsAtMujocosIterate) {
  const auto& [path, cone] = GetParam();
  SolverSetup setup;
  setup.solver = "pgs";
  setup.iterations = 30;
  setup.tolerance = 1e-8;
  setup.cone = cone;
  ContactPair p(path, setup, "");
  ASSERT_TRUE(p.mj);
  std::mt19937_64 gen(777);
  Worst worst;
  int capped = 0, contacts = 0;
  for (int s = 0; s < 60; ++s) {
    SampleState(p, gen, s);
    p.CopyInputs(/*warmstart=*/true);
    mj_forward(p.mj.get(), p.mjd.get());
    p.engine->Forward(p.d);
    ASSERT_TRUE(CompareRows(p, s, worst)) << path;
    EXPECT_EQ(p.d.solver_iter, p.mjd->solver_iter) << "state " << s;
    const double qacc = MaxRelError(p.d.qacc.data(), p.mjd->qacc, p.mj->nv);
    const double force = MaxRelError(p.d.efc_force.data(), p.mjd->efc_force, p.mjd->nefc);
    worst.Update("qacc", qacc);
    worst.Update("efc_force", force);
    EXPECT_LE(qacc, 1e-8) << "state " << s;
    EXPECT_LE(force, 1e-8) << "state " << s;
    capped += p.mjd->solver_iter == setup.iterations;
    contacts += p.d.ncon;
  }
  // the comparison must be about unconverged iterates on contact problems
  EXPECT_GT(capped, 5) << path;
  EXPECT_GT(contacts, 60) << path;
  std::printf("[ measured ] pgs %s %s: %d of 60 states at the 30-sweep cap, qacc=%.1e "
              "efc_force=%.1e\n",
              ModelTestName(path).c_str(), cone == Cone::kElliptic ? "elliptic" : "pyramidal",
              capped, worst.error["qacc"], worst.error["efc_force"]);
}

INSTANTIATE_TEST_SUITE_P(
    Models, PgsIterates,
    ::testing::Combine(::testing::ValuesIn(PileAndHumanoid()),
                       ::testing::Values(Cone::kPyramidal, Cone::kElliptic)),
    ModelConeTestName);

// ---------------------------------------------------------------- trajectories

// Lowest point of a geom above the floor (z), for spheres and capsules (all geoms of humanoid).
double GeomBottom(const mjModel* m, const mjData* d, int g) {
  const double* pos = d->geom_xpos + 3 * g;
  const double* mat = d->geom_xmat + 9 * g;
  const double r = m->geom_size[3 * g];
  switch (m->geom_type[g]) {
    case mjGEOM_SPHERE:
      return pos[2] - r;
    case mjGEOM_CAPSULE:
      return pos[2] - std::fabs(mat[8]) * m->geom_size[3 * g + 1] - r;  // axis = local z
    default:
      ADD_FAILURE() << "unexpected geom type " << m->geom_type[g];
      return 0;
  }
}

class ContactTrajectory : public ::testing::TestWithParam<Cone> {};

TEST_P(ContactTrajectory, HumanoidDroppedOnFloorAgreesOverFirst20EulerSteps) {
  SolverSetup setup;
  setup.cone = GetParam();
  ContactPair p(MujocoSampleModel("humanoid/humanoid.xml"), setup, "euler");
  ASSERT_TRUE(p.mj);
  const mjModel* m = p.mj.get();
  mjData* md = p.mjd.get();
  // tumbling humanoid: tilted by 60 degrees, joints away from qpos0, random spin
  std::mt19937_64 gen(11);
  std::normal_distribution<double> nd(0, 1);
  mj_resetData(m, md);
  const double axis[3] = {1, 0.3, 0};
  double unit[3] = {axis[0], axis[1], axis[2]};
  mju_normalize3(unit);
  mju_axisAngle2Quat(md->qpos + 3, unit, mjPI / 3);
  for (int j = 1; j < m->njnt; ++j) {
    const double* range = m->jnt_range + 2 * j;
    md->qpos[m->jnt_qposadr[j]] =
        0.5 * (range[0] + range[1]) + 0.2 * (range[1] - range[0]) * nd(gen);
  }
  for (int i = 0; i < m->nv; ++i) md->qvel[i] = 0.5 * nd(gen);
  md->qvel[2] = -1;  // falling at 1 m/s
  // lowest point 5 mm above the floor (geom 0 is the floor)
  mj_kinematics(m, md);
  double bottom = 1e9;
  for (int g = 1; g < m->ngeom; ++g) bottom = std::min(bottom, GeomBottom(m, md, g));
  md->qpos[2] += 0.005 - bottom;
  p.CopyInputs(/*warmstart=*/true);

  constexpr int kSteps = 200, kAsserted = 20;
  constexpr double kQposTolerance = 1e-6;
  double first_diverged = -1, worst_asserted = 0, worst_all = 0;
  int contacts_asserted = 0, max_ncon = 0;
  for (int k = 0; k < kSteps; ++k) {
    mj_step(m, md);
    p.engine->Step(p.d);
    double err = 0;
    for (int i = 0; i < m->nq; ++i) err = std::max(err, std::fabs(p.d.qpos[i] - md->qpos[i]));
    if (k < kAsserted) {
      worst_asserted = std::max(worst_asserted, err);
      contacts_asserted += md->ncon;
      EXPECT_EQ(p.d.ncon, md->ncon) << "step " << k;
    }
    max_ncon = std::max(max_ncon, md->ncon);
    worst_all = std::max(worst_all, err);
    if (first_diverged < 0 && err > kQposTolerance) first_diverged = md->time;
  }
  // The first 20 steps must include the impact: contacts in several steps.
  EXPECT_GE(contacts_asserted, 10) << "the humanoid did not reach the floor in 20 steps";
  EXPECT_LE(worst_asserted, kQposTolerance);
  // and it must actually have landed by the end (torso not far above the floor)
  EXPECT_GT(max_ncon, 3);
  std::printf("[ measured ] humanoid %s drop: max qpos error over 20 steps %.1e (%d contacts), "
              "over 200 steps %.1e; qpos first differs by 1e-6 at t=%s s of %.3f, max ncon %d\n",
              GetParam() == Cone::kElliptic ? "elliptic" : "pyramidal", worst_asserted,
              contacts_asserted, worst_all,
              first_diverged < 0 ? "never" : std::to_string(first_diverged).c_str(),
              kSteps * m->opt.timestep, max_ncon);
  RecordProperty("max_qpos_error_20_steps", std::to_string(worst_asserted));
  RecordProperty("max_qpos_error_200_steps", std::to_string(worst_all));
  RecordProperty("first_time_qpos_differs_1e-6",
                 first_diverged < 0 ? std::string("never") : std::to_string(first_diverged));
}

INSTANTIATE_TEST_SUITE_P(Cones, ContactTrajectory,
                         ::testing::Values(Cone::kPyramidal, Cone::kElliptic),
                         [](const ::testing::TestParamInfo<Cone>& info) {
                           return std::string(info.param == Cone::kElliptic ? "elliptic"
                                                                            : "pyramidal");
                         });

}  // namespace
}  // namespace gauss::test
