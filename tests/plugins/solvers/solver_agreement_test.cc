// Conformance suite of the constraint-solver plugins (spec "Constraint solver"), run for every
// solver plugin found in the build tree (newton, cg, pgs, and any later one) and both cones.
// No MuJoCo: the solvers are checked against each other and against the optimality conditions
// of the soft-constraint problem.
//
// Constraint models (limits, friction loss, equalities; contacts disabled) at random states:
//  - every solver at a tight tolerance (1e-20; 20000 iterations) reaches newton's qacc
//    (tolerance 1e-12) to 1e-6 relative, and its forces are the force law -ds/djar at its qacc;
//  - the cost recorded in the trace never increases (primal cost for primal solvers, dual cost
//    for dual ones), up to a round-off slack of 1e-12 relative;
//  - a tiny iteration limit stops the solver there with converged = false;
//  - with no constraint rows the solver returns qacc_smooth after 0 iterations.
// Hand-made contact lists (filled directly into Data::contact for a plane and two free boxes,
// then MakeConstraints and a solver through MakeProblem/FactoredInertia):
//  - row counts per condim and cone (1; pyramidal 2(n-1); elliptic n), types, ids, addresses,
//    residuals and margins; excluded contacts have no rows;
//  - Jacobian rows equal the contact frame applied to the relative velocity (translational and
//    angular) of the contact point, from finite differences of the bodies' motion;
//  - pyramidal edge rows equal J_n +- mu_k J_k built from the elliptic rows;
//  - forces satisfy their cones (elliptic: f_n >= |f_t / mu|; pyramidal edges >= 0), every
//    solver agrees with newton, and at the solution M qacc = qfrc_smooth + J' f;
//  - a box resting on four corner contacts at the equilibrium penetration gets qacc = 0 and
//    a total normal force equal to its weight.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "constraint_assembly.h"
#include "data_alloc.h"
#include "gauss/integrate.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "gauss/solver.h"
#include "gauss/sparse_inertia.h"
#include "pipeline.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

constexpr double kAgreement = 1e-6;      // qacc of any solver vs newton, relative
constexpr double kTightTolerance = 1e-20;
constexpr int kTightIterations = 20000;
constexpr double kCostSlack = 1e-12;     // allowed round-off rise of the trace cost, relative

// ---------------------------------------------------------------- solver plugins

// The solver plugins found in the default search path (the build tree), sorted.
// Solvers of the soft-constraint problem; hard-contact solvers (kCapHardContact, e.g. ip)
// solve other physics on purpose and are tested on their own (ip_test.cc).
std::vector<std::string> SolverNames() {
  PluginRegistry registry;
  std::vector<std::string> names;
  for (const PluginInfo& info : registry.List()) {
    if (info.kind == PluginKind::kSolver && info.usable && !(info.capabilities & kCapHardContact)) {
      names.push_back(info.name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The solver configurations under test: every plugin with its defaults, and pgs with
// `exact_blocks` (named "pgs_exact_blocks"), whose block updates converge where the spec's
// elliptic update stalls.
std::vector<std::string> SolverVariants() {
  std::vector<std::string> names = SolverNames();
  if (std::find(names.begin(), names.end(), "pgs") != names.end()) {
    names.push_back("pgs_exact_blocks");
  }
  return names;
}

// One configured instance per variant, kept for the whole test program.
const ConstraintSolver& Solver(const std::string& variant) {
  static PluginRegistry registry;
  static std::map<std::string, PluginInstance<ConstraintSolver>> instances;
  auto it = instances.find(variant);
  if (it == instances.end()) {
    const bool exact = variant == "pgs_exact_blocks";
    const std::string name = exact ? "pgs" : variant;
    PluginInstance<ConstraintSolver> created =
        registry.Create<ConstraintSolver>(PluginKind::kSolver, name);
    Params params("solver '" + name + "' parameters");
    if (exact) params.Set("exact_blocks", "true");
    created.Configure(params);
    it = instances.emplace(variant, std::move(created)).first;
  }
  return *it->second.instance;
}

TEST(SolverPlugins, TheBuiltInSolversAreFound) {
  const std::vector<std::string> names = SolverNames();
  for (const char* name : {"cg", "newton", "pgs"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

// ---------------------------------------------------------------- problem set-up

struct Solution {
  std::vector<double> qacc;
  std::vector<double> force;
  std::vector<SolverIteration> trace;
  SolverResult result;
  double seconds = 0;
};

// A model (options editable) with a Data whose arena fits every solver plugin, evaluated up to
// the constraint problem without any solver.
class ProblemSetup {
 public:
  explicit ProblemSetup(std::shared_ptr<Model> model) : model_(std::move(model)) {
    std::size_t scratch = 0;
    for (const std::string& name : SolverNames()) scratch += Solver(name).ScratchDoubles(*model_);
    AllocateData(*model_, d, scratch);
  }

  const Model& m() const { return *model_; }

  // (qpos, qvel, qfrc_applied, contact[0..ncon)) => constraint rows, efc_aref, qfrc_smooth,
  // qacc_smooth: the kernel's position and velocity stages and the smooth acceleration.
  void Evaluate() {
    const Model& m = *model_;
    Kinematics(m, d);
    ComPosition(m, d);
    Tendons(m, d);
    CompositeInertia(m, d);
    FactorInertia(m, d);
    MakeConstraints(m, d);
    TendonVelocity(m, d);
    ComVelocity(m, d);
    PassiveForces(m, d);
    ReferenceAcceleration(m, d);
    RecursiveNewtonEuler(m, d, false, d.qfrc_bias.data());
    for (int i = 0; i < m.nv; ++i) {
      d.qfrc_smooth[i] = d.qfrc_passive[i] - d.qfrc_bias[i] + d.qfrc_applied[i];
    }
    std::copy(d.qfrc_smooth.begin(), d.qfrc_smooth.end(), d.qacc_smooth.begin());
    SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), d.qacc_smooth.data());
  }

  // The current problem solved by one plugin from qacc_smooth (no warmstart).
  Solution Solve(const std::string& name, double tolerance, int iterations) {
    const FactoredInertia ops(*model_, d);
    ConstraintProblem p = MakeProblem(*model_, d, ops);
    p.tolerance = tolerance;
    p.iterations = iterations;
    p.qacc_warmstart = nullptr;
    Solution s;
    s.qacc.assign(m().nv, std::numeric_limits<double>::quiet_NaN());
    s.force.assign(std::max(d.nefc, 1), std::numeric_limits<double>::quiet_NaN());
    s.trace.assign(iterations, SolverIteration());
    const auto start = std::chrono::steady_clock::now();
    s.result = Solver(name).Solve(p, d.arena, s.qacc.data(), s.force.data(), s.trace.data());
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s;
  }

  // Forces of the force law at acceleration qacc: -ds/djar at jar = J qacc - aref.
  std::vector<double> ForceLaw(const std::vector<double>& qacc) {
    const FactoredInertia ops(*model_, d);
    const ConstraintProblem p = MakeProblem(*model_, d, ops);
    std::vector<double> jar(d.nefc), force(d.nefc);
    MulJ(p, qacc.data(), jar.data());
    for (int i = 0; i < d.nefc; ++i) jar[i] -= d.efc_aref[i];
    ConstraintCost(p, jar.data(), force.data(), nullptr);
    return force;
  }

  // max_i |M qacc - qfrc_smooth - J' f|_i / max(1, max |qfrc_smooth|, max |J' f|)
  double MotionResidual(const Solution& s) {
    const FactoredInertia ops(*model_, d);
    const ConstraintProblem p = MakeProblem(*model_, d, ops);
    const int nv = m().nv;
    std::vector<double> Ma(nv), JTf(nv);
    ops.MulM(s.qacc.data(), Ma.data());
    MulJT(p, s.force.data(), JTf.data());
    double worst = 0, scale = 1;
    for (int i = 0; i < nv; ++i) {
      worst = std::max(worst, std::fabs(Ma[i] - d.qfrc_smooth[i] - JTf[i]));
      scale = std::max({scale, std::fabs(d.qfrc_smooth[i]), std::fabs(JTf[i])});
    }
    return worst / scale;
  }

  // Primal cost 1/2 (x - a0)' M (x - a0) + s(J x - aref) at x = qacc.
  double PrimalCost(const std::vector<double>& qacc) {
    const FactoredInertia ops(*model_, d);
    const ConstraintProblem p = MakeProblem(*model_, d, ops);
    const int nv = m().nv;
    std::vector<double> dx(nv), Mdx(nv), jar(std::max(d.nefc, 1));
    for (int i = 0; i < nv; ++i) dx[i] = qacc[i] - d.qacc_smooth[i];
    ops.MulM(dx.data(), Mdx.data());
    double cost = 0;
    for (int i = 0; i < nv; ++i) cost += 0.5 * dx[i] * Mdx[i];
    MulJ(p, qacc.data(), jar.data());
    for (int i = 0; i < d.nefc; ++i) jar[i] -= d.efc_aref[i];
    return cost + ConstraintCost(p, jar.data(), nullptr, nullptr);
  }

  // Dual cost 1/2 f' (J M^-1 J' + R) f + f' (J a0 - aref) (spec eq. 9).
  double DualCost(const std::vector<double>& force) {
    const FactoredInertia ops(*model_, d);
    const ConstraintProblem p = MakeProblem(*model_, d, ops);
    const int nv = m().nv, n = d.nefc;
    std::vector<double> v(nv), Av(n), Ja0(n);
    MulJT(p, force.data(), v.data());
    ops.SolveM(v.data());
    MulJ(p, v.data(), Av.data());
    MulJ(p, d.qacc_smooth.data(), Ja0.data());
    double cost = 0;
    for (int i = 0; i < n; ++i) {
      cost += force[i] * (0.5 * (Av[i] + d.efc_R[i] * force[i]) + Ja0[i] - d.efc_aref[i]);
    }
    return cost;
  }

  // Row i of the Jacobian, dense.
  std::vector<double> JacobianRow(int i) const {
    std::vector<double> row(m().nv, 0.0);
    if (!d.efc_J_rownnz.empty()) {
      for (int p = d.efc_J_rowadr[i]; p < d.efc_J_rowadr[i] + d.efc_J_rownnz[i]; ++p) {
        row[d.efc_J_colind[p]] = d.efc_J[p];
      }
    } else {
      std::copy_n(d.efc_J.begin() + static_cast<long>(i) * m().nv, m().nv, row.begin());
    }
    return row;
  }

  Data d;

 private:
  std::shared_ptr<Model> model_;
};

std::shared_ptr<Model> EditableModel(const std::string& path, Cone cone) {
  auto model = std::make_shared<Model>(*LoadModel(path));
  model->opt.cone = cone;
  return model;
}

// Random state of a contact-free constraint model: even states violate limits and equalities
// (hinge/slide qpos0 + 0.8 N(0,1), random orientations, qvel 1.5 N(0,1)), odd states stay near
// qpos0 (0.01 N(0,1), qvel 0.3 N(0,1)); random applied forces.
void RandomState(const Model& m, Data& d, std::mt19937_64& gen, int s) {
  std::normal_distribution<double> nd(0, 1);
  const bool large = s % 2 == 0;
  std::copy(m.qpos0.begin(), m.qpos0.end(), d.qpos.begin());
  for (int j = 0; j < m.njnt; ++j) {
    double* q = d.qpos.data() + m.jnt_qposadr[j];
    switch (m.jnt_type[j]) {
      case JointType::kFree:
        for (int c = 0; c < 3; ++c) q[c] += (large ? 0.5 : 0.01) * nd(gen);
        q += 3;
        [[fallthrough]];
      case JointType::kBall:
        if (large) {
          for (int c = 0; c < 4; ++c) q[c] = nd(gen);
          math::NormalizeQuat(q);
        } else {
          const double rot[3] = {0.01 * nd(gen), 0.01 * nd(gen), 0.01 * nd(gen)};
          math::QuatIntegrate(q, rot, 1);
        }
        break;
      default:
        q[0] += (large ? 0.8 : 0.01) * nd(gen);
    }
  }
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = (large ? 1.5 : 0.3) * nd(gen);
  for (int i = 0; i < m.nv; ++i) d.qfrc_applied[i] = nd(gen);
}

std::vector<std::string> ConstraintModels() {
  return {TestModel("constraints_limits.xml"), TestModel("constraints_equality.xml"),
          TestModel("constraints_soft.xml"), TestModel("constraints_planar_loop.xml"),
          TestModel("mujoco/humanoid/humanoid.xml")};
}

// A contact-free set-up of one of the constraint models.
std::unique_ptr<ProblemSetup> ContactFree(const std::string& path, Cone cone) {
  auto model = EditableModel(path, cone);
  model->opt.disableflags |= kDisableContact;
  return std::make_unique<ProblemSetup>(model);
}

std::string ConeName(Cone cone) { return cone == Cone::kElliptic ? "elliptic" : "pyramidal"; }

// ---------------------------------------------------------------- solvers on constraint models

class SolverConformance : public ::testing::TestWithParam<std::tuple<std::string, Cone>> {};

TEST_P(SolverConformance, ReachesNewtonsSolutionOnConstraintModels) {
  const auto& [name, cone] = GetParam();
  double worst_qacc = 0, worst_law = 0, worst_motion = 0, seconds = 0;
  int max_iter = 0, solves = 0, converged = 0;
  for (const std::string& path : ConstraintModels()) {
    auto setup = ContactFree(path, cone);
    std::mt19937_64 gen(31);
    for (int s = 0; s < 10; ++s) {
      RandomState(setup->m(), setup->d, gen, s);
      setup->Evaluate();
      if (setup->d.nefc == 0) continue;
      const Solution reference = setup->Solve("newton", 1e-12, 1000);
      ASSERT_TRUE(reference.result.converged) << path << " state " << s;
      const Solution tight = setup->Solve(name, kTightTolerance, kTightIterations);
      const double err = MaxRelError(tight.qacc.data(), reference.qacc.data(), setup->m().nv);
      EXPECT_LE(err, kAgreement) << name << " " << path << " state " << s << " iterations "
                                 << tight.result.iterations;
      // its forces are the force law at its acceleration
      const std::vector<double> law = setup->ForceLaw(tight.qacc);
      const double law_err = MaxRelError(tight.force.data(), law.data(), setup->d.nefc);
      EXPECT_LE(law_err, kAgreement) << name << " " << path << " state " << s;
      // and together they satisfy the equations of motion
      const double motion = setup->MotionResidual(tight);
      EXPECT_LE(motion, kAgreement) << name << " " << path << " state " << s;
      worst_qacc = std::max(worst_qacc, err);
      worst_law = std::max(worst_law, law_err);
      worst_motion = std::max(worst_motion, motion);
      max_iter = std::max(max_iter, tight.result.iterations);
      converged += tight.result.converged;
      seconds += tight.seconds;
      ++solves;
    }
  }
  ASSERT_GE(solves, 30);
  std::printf("[ measured ] %s %s: %d solves at tolerance 1e-20, max |qacc - newton| %.1e, "
              "force law %.1e, motion residual %.1e, max iterations %d, converged %d, "
              "%.3f ms per solve\n",
              name.c_str(), ConeName(cone).c_str(), solves, worst_qacc, worst_law, worst_motion,
              max_iter, converged, 1e3 * seconds / solves);
}

TEST_P(SolverConformance, StopsAtTheIterationLimitWithoutConverging) {
  const auto& [name, cone] = GetParam();
  auto setup = ContactFree(TestModel("constraints_limits.xml"), cone);
  std::mt19937_64 gen(8);
  RandomState(setup->m(), setup->d, gen, 0);
  setup->Evaluate();
  ASSERT_GE(setup->d.nefc, 10);
  for (int limit : {1, 2}) {
    const Solution s = setup->Solve(name, kTightTolerance, limit);
    EXPECT_EQ(s.result.iterations, limit) << name;
    EXPECT_FALSE(s.result.converged) << name;
    for (double v : s.qacc) EXPECT_TRUE(std::isfinite(v)) << name;
  }
}

TEST_P(SolverConformance, NoRowsGiveTheSmoothAccelerationWithoutIterating) {
  const auto& [name, cone] = GetParam();
  auto model = EditableModel(TestModel("constraints_equality.xml"), cone);
  model->opt.disableflags |= kDisableConstraint;
  ProblemSetup setup(model);
  std::mt19937_64 gen(3);
  RandomState(setup.m(), setup.d, gen, 0);
  setup.Evaluate();
  ASSERT_EQ(setup.d.nefc, 0);
  const Solution s = setup.Solve(name, 1e-8, 100);
  EXPECT_EQ(s.result.iterations, 0);
  for (int i = 0; i < setup.m().nv; ++i) EXPECT_EQ(s.qacc[i], setup.d.qacc_smooth[i]) << i;
}

// ---------------------------------------------------------------- hand-made contacts

// A plane (geom 0, world) and two free boxes (geom 1 on body 1, geom 2 on body 2). The geoms
// could collide, but nothing runs collision detection here: contacts are written by hand.
const char* kBoxes = R"(
<mujoco model="boxes_on_plane">
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="box1" pos="0 0 0.1">
      <freejoint/>
      <geom name="g1" type="box" size="0.1 0.1 0.1" mass="2"/>
    </body>
    <body name="box2" pos="0.03 -0.02 0.29" euler="10 20 30">
      <freejoint/>
      <geom name="g2" type="box" size="0.08 0.06 0.05" mass="0.7"/>
    </body>
  </worldbody>
</mujoco>)";

std::unique_ptr<ProblemSetup> Boxes(Cone cone) {
  auto model = std::make_shared<Model>(*LoadModelFromString(kBoxes));
  model->opt.cone = cone;
  model->opt.jacobian = JacobianType::kDense;
  return std::make_unique<ProblemSetup>(model);
}

// A contact with the given normal (tangents completing a right-handed frame).
Contact MakeContact(int geom1, int geom2, const double* pos, const double* normal, double dist,
                    int dim) {
  Contact c;
  c.geom1 = geom1;
  c.geom2 = geom2;
  c.dim = dim;
  c.dist = dist;
  c.includemargin = 0.01;
  math::Copy3(c.pos, pos);
  double n[3], t1[3], t2[3];
  math::Copy3(n, normal);
  math::Scale3(n, n, 1 / math::Norm3(n));
  const double other[3] = {std::fabs(n[0]) < 0.6 ? 1.0 : 0.0, std::fabs(n[0]) < 0.6 ? 0.0 : 1.0, 0};
  math::Cross3(t1, n, other);
  math::Scale3(t1, t1, 1 / math::Norm3(t1));
  math::Cross3(t2, n, t1);
  math::Copy3(c.frame, n);
  math::Copy3(c.frame + 3, t1);
  math::Copy3(c.frame + 6, t2);
  const double friction[5] = {0.9, 0.7, 0.05, 0.01, 0.02};
  std::copy(friction, friction + 5, c.friction);
  const double solref[kNRef] = {0.02, 1};
  const double solimp[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  std::copy(solref, solref + kNRef, c.solref);
  std::copy(solimp, solimp + kNImp, c.solimp);
  return c;
}

// Boxes in a random pose (box1 near the plane, box2 on box1) with random velocities, and six
// contacts of every condim: four plane-box1 (condim 1, 3, 4, 6) and two box1-box2 (3, 6), with
// distances on both sides of zero within the margin.
void RandomContactState(ProblemSetup& setup, std::mt19937_64& gen) {
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(0, 1);
  Data& d = setup.d;
  std::copy(setup.m().qpos0.begin(), setup.m().qpos0.end(), d.qpos.begin());
  for (int b = 0; b < 2; ++b) {
    double* q = d.qpos.data() + 7 * b;
    for (int c = 0; c < 3; ++c) q[c] += 0.01 * nd(gen);
    const double rot[3] = {0.1 * nd(gen), 0.1 * nd(gen), 0.1 * nd(gen)};
    math::QuatIntegrate(q + 3, rot, 1);
  }
  for (int i = 0; i < setup.m().nv; ++i) d.qvel[i] = 0.5 * nd(gen);
  const int dims[6] = {1, 3, 4, 6, 3, 6};
  d.ncon = 6;
  for (int k = 0; k < 6; ++k) {
    const bool on_plane = k < 4;
    double pos[3] = {0.1 * (2 * ud(gen) - 1), 0.1 * (2 * ud(gen) - 1), on_plane ? 0.0 : 0.2};
    double normal[3] = {0.2 * nd(gen), 0.2 * nd(gen), 1};
    const double dist = -0.01 + 0.015 * ud(gen);
    d.contact[k] = MakeContact(on_plane ? 0 : 1, on_plane ? 1 : 2, pos, normal, dist, dims[k]);
  }
}

TEST(ContactAssembly, RowCountsTypesAndResidualsPerCondimAndCone) {
  for (Cone cone : {Cone::kPyramidal, Cone::kElliptic}) {
    auto setup = Boxes(cone);
    std::mt19937_64 gen(4);
    RandomContactState(*setup, gen);
    // a seventh, excluded contact (in the gap) must produce no rows
    setup->d.contact[6] = setup->d.contact[1];
    setup->d.contact[6].exclude = 1;
    setup->d.ncon = 7;
    setup->Evaluate();
    const Data& d = setup->d;
    int expected_rows = 0;
    for (int k = 0; k < d.ncon; ++k) {
      const Contact& c = d.contact[k];
      if (c.exclude) {
        EXPECT_EQ(c.efc_address, -1) << ConeName(cone);
        continue;
      }
      const int rows = c.dim == 1 ? 1 : cone == Cone::kElliptic ? c.dim : 2 * (c.dim - 1);
      const ConstraintType type = c.dim == 1                ? ConstraintType::kContactFrictionless
                                  : cone == Cone::kElliptic ? ConstraintType::kContactElliptic
                                                            : ConstraintType::kContactPyramidal;
      ASSERT_EQ(c.efc_address, expected_rows) << ConeName(cone) << " contact " << k;
      for (int r = 0; r < rows; ++r) {
        const int i = c.efc_address + r;
        EXPECT_EQ(d.efc_type[i], type) << "contact " << k << " row " << r;
        EXPECT_EQ(d.efc_id[i], k) << "contact " << k << " row " << r;
        // the distance and margin are on the normal row (elliptic) or every edge (pyramidal)
        const bool normal_row = cone != Cone::kElliptic || r == 0;
        EXPECT_EQ(d.efc_pos[i], normal_row ? c.dist : 0) << "contact " << k << " row " << r;
        EXPECT_EQ(d.efc_margin[i], normal_row ? c.includemargin : 0) << "contact " << k;
      }
      expected_rows += rows;
    }
    // pyramidal: 1 + 4 + 6 + 10 + 4 + 10 rows; elliptic: 1 + 3 + 4 + 6 + 3 + 6
    EXPECT_EQ(d.nefc, cone == Cone::kElliptic ? 23 : 35) << ConeName(cone);
    EXPECT_EQ(d.nefc, expected_rows);
  }
}

// World position (and orientation) of body b's material point that is at `point` now, after
// moving qpos along qvel = e_dof for time h.
void MovedPoint(const Model& m, const Data& d, Data& probe, int dof, double h, int body,
                const double* point, double* moved, double* quat) {
  probe.qpos = d.qpos;
  std::vector<double> v(m.nv, 0.0);
  v[dof] = 1;
  IntegratePosition(m, probe.qpos.data(), v.data(), h);
  Kinematics(m, probe);
  double rel[3], local[3];
  math::Sub3(rel, point, d.xpos.data() + 3 * body);
  math::MulMatTVec3(local, d.xmat.data() + 9 * body, rel);
  math::MulMatVec3(moved, probe.xmat.data() + 9 * body, local);
  math::AddTo3(moved, probe.xpos.data() + 3 * body);
  math::Copy4(quat, probe.xquat.data() + 4 * body);
}

TEST(ContactAssembly, JacobianRowsAreTheFrameAppliedToTheRelativeVelocity) {
  auto setup = Boxes(Cone::kElliptic);
  std::mt19937_64 gen(12);
  RandomContactState(*setup, gen);
  setup->Evaluate();
  const Model& m = setup->m();
  const Data& d = setup->d;
  Data probe;
  AllocateData(m, probe);
  const double h = 1e-6;
  double worst = 0;
  for (int k = 0; k < d.ncon; ++k) {
    const Contact& c = d.contact[k];
    const int b1 = m.geom_bodyid[c.geom1], b2 = m.geom_bodyid[c.geom2];
    for (int dof = 0; dof < m.nv; ++dof) {
      // relative linear and angular velocity of body2's point w.r.t. body1's, for qvel = e_dof
      double lin[3] = {0, 0, 0}, ang[3] = {0, 0, 0};
      for (int side = 0; side < 2; ++side) {
        const int body = side == 0 ? b1 : b2;
        const double sign = side == 0 ? -1 : 1;
        double p_plus[3], p_minus[3], q_plus[4], q_minus[4], q_inv[4], dq[4];
        MovedPoint(m, d, probe, dof, h, body, c.pos, p_plus, q_plus);
        MovedPoint(m, d, probe, dof, -h, body, c.pos, p_minus, q_minus);
        math::NegQuat(q_inv, q_minus);
        math::MulQuat(dq, q_plus, q_inv);  // world-frame rotation over 2h: ~ (1, w h)
        for (int a = 0; a < 3; ++a) {
          lin[a] += sign * (p_plus[a] - p_minus[a]) / (2 * h);
          ang[a] += sign * dq[1 + a] / h;
        }
      }
      for (int r = 0; r < c.dim; ++r) {
        const double* axis = c.frame + 3 * (r % 3);
        const double expected = math::Dot3(axis, r < 3 ? lin : ang);
        const double got = setup->JacobianRow(c.efc_address + r)[dof];
        worst = std::max(worst, std::fabs(got - expected));
        EXPECT_NEAR(got, expected, 1e-7) << "contact " << k << " row " << r << " dof " << dof;
      }
    }
  }
  std::printf("[ measured ] contact Jacobian vs finite differences: max error %.1e\n", worst);
}

TEST(ContactAssembly, PyramidalEdgesAreNormalPlusMinusMuTimesFrictionRows) {
  auto elliptic = Boxes(Cone::kElliptic);
  auto pyramidal = Boxes(Cone::kPyramidal);
  std::mt19937_64 gen_a(21), gen_b(21);
  RandomContactState(*elliptic, gen_a);
  RandomContactState(*pyramidal, gen_b);
  elliptic->Evaluate();
  pyramidal->Evaluate();
  const int nv = elliptic->m().nv;
  for (int k = 0; k < elliptic->d.ncon; ++k) {
    const Contact& ce = elliptic->d.contact[k];
    const Contact& cp = pyramidal->d.contact[k];
    if (ce.dim == 1) continue;
    const std::vector<double> normal = elliptic->JacobianRow(ce.efc_address);
    for (int j = 1; j < ce.dim; ++j) {
      const std::vector<double> friction = elliptic->JacobianRow(ce.efc_address + j);
      const double mu = ce.friction[j - 1];
      const std::vector<double> plus = pyramidal->JacobianRow(cp.efc_address + 2 * (j - 1));
      const std::vector<double> minus = pyramidal->JacobianRow(cp.efc_address + 2 * (j - 1) + 1);
      for (int i = 0; i < nv; ++i) {
        EXPECT_NEAR(plus[i], normal[i] + mu * friction[i], 1e-14) << "contact " << k << " j " << j;
        EXPECT_NEAR(minus[i], normal[i] - mu * friction[i], 1e-14) << "contact " << k << " j " << j;
      }
    }
  }
}

// How far contact k's forces are outside their cone, relative to max(1, |f|): elliptic
// sqrt(sum (f_j / mu_j)^2) - f_n (and -f_n), pyramidal / frictionless -min(f).
double ConeViolation(const Data& d, const std::vector<double>& f, int k, Cone cone) {
  const Contact& c = d.contact[k];
  const double* fk = f.data() + c.efc_address;
  double size = 1, violation = 0;
  const int rows = c.dim == 1 ? 1 : cone == Cone::kElliptic ? c.dim : 2 * (c.dim - 1);
  for (int r = 0; r < rows; ++r) size = std::max(size, std::fabs(fk[r]));
  if (c.dim > 1 && cone == Cone::kElliptic) {
    double t = 0;
    for (int j = 1; j < c.dim; ++j) t += (fk[j] / c.friction[j - 1]) * (fk[j] / c.friction[j - 1]);
    violation = std::max(-fk[0], std::sqrt(t) - fk[0]);
  } else {
    for (int r = 0; r < rows; ++r) violation = std::max(violation, -fk[r]);
  }
  return violation / size;
}

// Contact problems: the primal cost at a solver's qacc may exceed newton's minimum by this much
// (relative): optimal to round-off.
constexpr double kCostGap = 1e-14;

// How close a solver's qacc gets to newton's on the contact states. The dual pgs with exact
// elliptic blocks stops where no block update lowers the dual cost in floating point: its
// cost is then optimal to a few 1e-15 relative (kCostGap checks it), but these states are
// stiff (23 rows on 12 dofs), so that cost precision leaves qacc only to a few 1e-6. Primal
// solvers, whose improvements are computed in closed form from the step, reach 1e-9.
double QaccAgreement(const std::string& name, Cone cone) {
  return name == "pgs_exact_blocks" && cone == Cone::kElliptic ? 1e-5 : kAgreement;
}

// pgs with the spec's elliptic update (MuJoCo 2.2.2's) moves a contact's force along the ray
// to its tip and then within the slice at fixed normal force; on stiff multi-contact states
// it stalls at a non-optimal point, so the optimality checks below do not apply to it (its
// distance to the optimum is measured and printed; its agreement with MuJoCo is tested in
// tests/reference).
bool ReachesOptimum(const std::string& name, Cone cone) {
  return !(name == "pgs" && cone == Cone::kElliptic);
}

TEST_P(SolverConformance, ContactForcesLieInTheirConesAndAgreeWithNewton) {
  const auto& [name, cone] = GetParam();
  auto setup = Boxes(cone);
  std::mt19937_64 gen(55);
  double worst_cone = 0, worst_qacc = 0, worst_motion = 0, worst_gap = 0;
  int on_boundary = 0, max_iter = 0;
  for (int s = 0; s < 20; ++s) {
    RandomContactState(*setup, gen);
    setup->Evaluate();
    ASSERT_GT(setup->d.nefc, 0);
    const Solution reference = setup->Solve("newton", 1e-12, 1000);
    ASSERT_TRUE(reference.result.converged) << "state " << s;
    const Solution sol = setup->Solve(name, kTightTolerance, kTightIterations);
    const double err = MaxRelError(sol.qacc.data(), reference.qacc.data(), setup->m().nv);
    worst_qacc = std::max(worst_qacc, err);
    // optimality itself: the primal cost at the solver's qacc equals newton's minimum
    const double optimum = setup->PrimalCost(reference.qacc);
    const double gap = (setup->PrimalCost(sol.qacc) - optimum) / std::max(1.0, std::fabs(optimum));
    worst_gap = std::max(worst_gap, gap);
    if (ReachesOptimum(name, cone)) {
      EXPECT_LE(err, QaccAgreement(name, cone)) << name << " state " << s;
      EXPECT_LE(gap, kCostGap) << name << " state " << s;
    }
    const double motion = setup->MotionResidual(sol);
    worst_motion = std::max(worst_motion, motion);
    EXPECT_LE(motion, kAgreement) << name << " state " << s;
    max_iter = std::max(max_iter, sol.result.iterations);
    for (int k = 0; k < setup->d.ncon; ++k) {
      const double v = ConeViolation(setup->d, sol.force, k, cone);
      worst_cone = std::max(worst_cone, v);
      EXPECT_LE(v, 1e-10) << name << " state " << s << " contact " << k;
      // sliding contacts: the force on the cone's boundary (elliptic) or an edge at zero
      const Contact& c = setup->d.contact[k];
      const double* fk = sol.force.data() + c.efc_address;
      if (c.dim > 1 && fk[0] > 1e-3) {
        if (cone == Cone::kElliptic) {
          double t = 0;
          for (int j = 1; j < c.dim; ++j) t += std::pow(fk[j] / c.friction[j - 1], 2);
          on_boundary += std::fabs(std::sqrt(t) - fk[0]) < 1e-6 * fk[0];
        } else {
          on_boundary += *std::min_element(fk, fk + 2 * (c.dim - 1)) == 0;
        }
      }
    }
  }
  // the states must exercise the cone constraint, not only its interior
  EXPECT_GT(on_boundary, 0) << name;
  std::printf("[ measured ] %s %s contacts: max |qacc - newton| %.1e, cost gap %.1e, cone "
              "violation %.1e, motion residual %.1e, %d contacts on the cone boundary, max "
              "iterations %d\n",
              name.c_str(), ConeName(cone).c_str(), worst_qacc, worst_gap, worst_cone,
              worst_motion, on_boundary, max_iter);
}

// Checks that the cost in the trace of one solve never rises by more than kCostSlack
// relative, that no recorded improvement is below -kCostSlack relative to the cost, and that
// the last recorded cost is the cost of the returned solution: the primal cost at qacc (primal
// solvers) or the dual cost at the forces (dual solvers), to 1e-9 relative. Returns the
// largest relative rise; counts the checked iterations.
double CheckTrace(ProblemSetup& setup, const Solution& sol, const std::string& what,
                  int* checked) {
  if (sol.result.iterations > 0) {
    const double last = sol.trace[sol.result.iterations - 1].cost;
    const double primal = setup.PrimalCost(sol.qacc), dual = setup.DualCost(sol.force);
    const double scale = std::max(1.0, std::fabs(last));
    EXPECT_TRUE(std::fabs(last - primal) <= 1e-9 * scale || std::fabs(last - dual) <= 1e-9 * scale)
        << what << ": last trace cost " << last << ", primal cost " << primal << ", dual cost "
        << dual;
  }
  double worst = 0;
  for (int k = 1; k < sol.result.iterations; ++k) {
    const double before = sol.trace[k - 1].cost, after = sol.trace[k].cost;
    const double scale = std::max(1.0, std::fabs(before));
    worst = std::max(worst, (after - before) / scale);
    EXPECT_LE(after - before, kCostSlack * scale)
        << what << " iteration " << k << ": " << before << " -> " << after;
    EXPECT_GE(sol.trace[k].improvement, -kCostSlack * scale) << what << " iteration " << k;
    ++*checked;
  }
  return worst;
}

TEST_P(SolverConformance, TraceCostNeverIncreases) {
  const auto& [name, cone] = GetParam();
  double worst_rise = 0;
  int checked = 0;
  for (const std::string& path : ConstraintModels()) {
    auto setup = ContactFree(path, cone);
    std::mt19937_64 gen(47);
    for (int s = 0; s < 6; ++s) {
      RandomState(setup->m(), setup->d, gen, s);
      setup->Evaluate();
      if (setup->d.nefc == 0) continue;
      const Solution sol = setup->Solve(name, 1e-14, 2000);
      const std::string what = name + " " + path + " state " + std::to_string(s);
      worst_rise = std::max(worst_rise, CheckTrace(*setup, sol, what, &checked));
    }
  }
  auto boxes = Boxes(cone);
  std::mt19937_64 gen(48);
  for (int s = 0; s < 6; ++s) {
    RandomContactState(*boxes, gen);
    boxes->Evaluate();
    const Solution sol = boxes->Solve(name, 1e-14, 2000);
    const std::string what = name + " contacts state " + std::to_string(s);
    worst_rise = std::max(worst_rise, CheckTrace(*boxes, sol, what, &checked));
  }
  EXPECT_GT(checked, 20) << "too few iterations to check monotonicity";
  std::printf("[ measured ] %s %s: %d iterations, largest relative cost rise %.1e\n",
              name.c_str(), ConeName(cone).c_str(), checked, worst_rise);
}

TEST_P(SolverConformance, RestingBoxNormalForceBalancesGravity) {
  const auto& [name, cone] = GetParam();
  auto setup = Boxes(cone);
  const Model& m = setup->m();
  Data& d = setup->d;
  // four corner contacts under box1 (upright at rest), constant impedance 0.9 so that the
  // force at rest is linear in the penetration
  auto place = [&](double dist) {
    std::copy(m.qpos0.begin(), m.qpos0.end(), d.qpos.begin());
    d.qpos[2] = 0.1 + dist;
    std::fill(d.qvel.begin(), d.qvel.end(), 0.0);
    d.ncon = 4;
    const double normal[3] = {0, 0, 1};
    for (int k = 0; k < 4; ++k) {
      const double pos[3] = {k % 2 ? 0.1 : -0.1, k / 2 ? 0.1 : -0.1, dist / 2};
      d.contact[k] = MakeContact(0, 1, pos, normal, dist, 3);
      d.contact[k].includemargin = 0;
      d.contact[k].solimp[0] = d.contact[k].solimp[1] = 0.9;
    }
    setup->Evaluate();
  };
  // total normal force of the force law at qacc = 0 (rows with a normal component: elliptic
  // normal rows, every pyramidal edge), proportional to -dist
  auto force_at_rest = [&]() {
    double total = 0;
    for (int i = 0; i < d.nefc; ++i) {
      const Contact& c = d.contact[d.efc_id[i]];
      if (cone == Cone::kElliptic && i != c.efc_address) continue;
      total += d.efc_D[i] * d.efc_aref[i];
    }
    return total;
  };
  const double weight = m.body_mass[1] * -m.opt.gravity[2];
  const double dist0 = -1e-3;
  place(dist0);
  const double dist = dist0 * weight / force_at_rest();
  place(dist);
  ASSERT_NEAR(force_at_rest(), weight, 1e-12 * weight);

  const Solution sol = setup->Solve(name, kTightTolerance, kTightIterations);
  double normal_total = 0, friction_max = 0;
  for (int k = 0; k < 4; ++k) {
    const Contact& c = d.contact[k];
    const double* fk = sol.force.data() + c.efc_address;
    if (cone == Cone::kElliptic) {
      normal_total += fk[0];
      friction_max = std::max({friction_max, std::fabs(fk[1]), std::fabs(fk[2])});
    } else {
      for (int r = 0; r < 4; ++r) normal_total += fk[r];
      // friction along direction j: mu_j (f_plus - f_minus)
      friction_max = std::max({friction_max, std::fabs(fk[0] - fk[1]), std::fabs(fk[2] - fk[3])});
    }
  }
  EXPECT_NEAR(normal_total, weight, 1e-6 * weight) << name;
  EXPECT_LE(friction_max, 1e-6 * weight) << name;
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(sol.qacc[i], 0, 1e-6) << name << " dof " << i;
  // the other box has no contact: free fall
  EXPECT_NEAR(sol.qacc[8], m.opt.gravity[2], 1e-9) << name;
  double qacc_max = 0;
  for (int i = 0; i < 6; ++i) qacc_max = std::max(qacc_max, std::fabs(sol.qacc[i]));
  std::printf("[ measured ] %s %s resting box: penetration %.3e, normal force %.12g (weight "
              "%.12g), max |qacc box1| %.1e, iterations %d\n",
              name.c_str(), ConeName(cone).c_str(), -dist, normal_total, weight, qacc_max,
              sol.result.iterations);
}

INSTANTIATE_TEST_SUITE_P(
    Plugins, SolverConformance,
    ::testing::Combine(::testing::ValuesIn(SolverVariants()),
                       ::testing::Values(Cone::kPyramidal, Cone::kElliptic)),
    [](const ::testing::TestParamInfo<std::tuple<std::string, Cone>>& info) {
      return std::get<0>(info.param) + "_" + ConeName(std::get<1>(info.param));
    });

}  // namespace
}  // namespace gauss::test
