// The shipped experiments of config/experiments/ run on reduced sweeps (seconds in CI) and
// their results say what the physics says: one row per run with finite metrics, the three
// solvers within tolerance of a converged Newton reference, RK4 more accurate than Euler on
// the pendulum but unstable on the stiff damped chain where Euler's implicit damping is not,
// and a pyramidal friction cone drifting sideways where the elliptic cone slides straight.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "experiment_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

namespace fs = std::filesystem;

// Every listed metric of every row is a finite number.
void ExpectFinite(const Table& t, const std::vector<std::string>& metrics) {
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    for (const std::string& m : metrics) {
      EXPECT_TRUE(std::isfinite(t.Number(static_cast<int>(r), m)))
          << "row " << r << " metric " << m << " = " << t.Text(static_cast<int>(r), m);
    }
  }
}

// The values of one column over all rows, as a set.
std::set<std::string> Values(const Table& t, const std::string& column) {
  std::set<std::string> out;
  for (std::size_t r = 0; r < t.rows.size(); ++r) out.insert(t.Text(static_cast<int>(r), column));
  return out;
}

TEST(ShippedExperiments, SolverComparisonAllSolversNearTheConvergedReference) {
  std::string out;
  const CliResult r = RunExperiment(
      "'" + ShippedExperiment("solver_comparison") + "' --duration 0.5 --repeats 1 --jobs 2", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 6u);  // 3 solvers x 2 cones x 1 repeat
  EXPECT_EQ(Values(t, "solver"), (std::set<std::string>{"pgs", "cg", "newton"}));
  EXPECT_EQ(Values(t, "cone"), (std::set<std::string>{"pyramidal", "elliptic"}));
  ExpectFinite(t, {"steps", "wall_time", "step_time_us", "steps_per_second", "solver_iter_mean",
                   "solver_iter_max", "solver_cost", "solver_gradient", "ncon_mean",
                   "penetration_max", "fwdinv_residual", "ref_error_max", "ref_error_mean"});
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const int row = static_cast<int>(i);
    const std::string solver = t.Text(row, "solver");
    SCOPED_TRACE(solver + " " + t.Text(row, "cone"));
    EXPECT_EQ(t.Text(row, "status"), "ok");
    EXPECT_EQ(t.Number(row, "steps"), 100);  // 0.5 s at humanoid.xml's 0.005 s
    EXPECT_GT(t.Number(row, "ncon_mean"), 1);  // the comparison is about contacts
    // Tolerances at MuJoCo's default budget (100 iterations, 1e-8): Newton converges, CG
    // nearly, PGS with pyramidal cones to about a percent on average (MuJoCo 2.2.2 itself: see
    // mjref's README). PGS with elliptic cones uses the spec's per-contact update, as MuJoCo
    // 2.2.2 does, which stalls far from the optimum on contact-rich states (MuJoCo's own PGS
    // is off by up to 36x on humanoid accelerations): only a gross bound here; the
    // pgs_elliptic experiment below compares it with exact block minimization.
    const double mean = t.Number(row, "ref_error_mean"), max = t.Number(row, "ref_error_max");
    if (solver == "newton") {
      EXPECT_LT(max, 1e-6);
      EXPECT_LT(t.Number(row, "fwdinv_residual"), 1e-5);
      EXPECT_LT(t.Number(row, "solver_iter_mean"), 10);
    } else if (solver == "cg") {
      EXPECT_LT(mean, 5e-3);
      EXPECT_LT(max, 5e-2);
    } else if (t.Text(row, "cone") == "pyramidal") {
      EXPECT_LT(mean, 5e-2);
      EXPECT_LT(max, 0.5);
    } else {
      EXPECT_LT(mean, 1);
    }
  }
  // Newton needs far fewer iterations than the first-order methods on the same states.
  const double newton = t.Number(t.Where({{"solver", "newton"}, {"cone", "pyramidal"}})[0], "solver_iter_mean");
  const double pgs = t.Number(t.Where({{"solver", "pgs"}, {"cone", "pyramidal"}})[0], "solver_iter_mean");
  EXPECT_GT(pgs, 5 * newton);
  EXPECT_TRUE(fs::exists(out + "/traces/run_0.csv"));
  EXPECT_TRUE(fs::exists(out + "/configs/point_0.yaml"));
  if (!FindGnuplotForTest().empty()) {
    for (const char* plot : {"iterations", "step_time", "reference_error", "cost_trace"}) {
      EXPECT_TRUE(IsSvg(out + "/plots/" + plot + ".svg")) << plot;
    }
  }
}

TEST(ShippedExperiments, PgsExactBlocksReachTheReferenceWhereTheSpecUpdateStalls) {
  std::string out;
  const CliResult r = RunExperiment(
      "'" + ShippedExperiment("pgs_elliptic") + "' --duration 0.5 --repeats 1 --jobs 2", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 4u);  // exact_blocks false/true x 2 cones
  ExpectFinite(t, {"solver_iter_mean", "ref_error_max", "ref_error_mean"});
  auto row = [&](const char* exact, const char* cone) {
    const std::vector<int> rows = t.Where({{"solver.params.exact_blocks", exact}, {"cone", cone}});
    EXPECT_EQ(rows.size(), 1u) << exact << " " << cone;
    return rows.empty() ? 0 : rows[0];
  };
  // exact blocks: PGS at MuJoCo's budget within a few percent of Newton for both cones
  for (const char* cone : {"pyramidal", "elliptic"}) {
    SCOPED_TRACE(cone);
    EXPECT_EQ(t.Text(row("true", cone), "status"), "ok");
    EXPECT_LT(t.Number(row("true", cone), "ref_error_mean"), 5e-2);
    EXPECT_LT(t.Number(row("true", cone), "ref_error_max"), 0.5);
  }
  // the parameter changes only elliptic contacts (humanoid.xml has no equality constraints)
  EXPECT_EQ(t.Number(row("false", "pyramidal"), "ref_error_mean"),
            t.Number(row("true", "pyramidal"), "ref_error_mean"));
  EXPECT_EQ(t.Number(row("false", "pyramidal"), "solver_iter_mean"),
            t.Number(row("true", "pyramidal"), "solver_iter_mean"));
  // and there the spec's update ends further from the optimum (2.4x in this 0.5 s run; 20-100x
  // over the full 2 s, as the humanoid lies on the floor)
  EXPECT_GT(t.Number(row("false", "elliptic"), "ref_error_mean"),
            t.Number(row("true", "elliptic"), "ref_error_mean"));
}

TEST(ShippedExperiments, IntegratorStabilityRunsEveryIntegratorFound) {
  std::string out;
  const CliResult r = RunExperiment("'" + ShippedExperiment("integrator_stability") +
                                        "' --duration 1 --sweep timestep=0.002,0.02 --jobs 2",
                                    &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  const std::set<std::string> integrators = Values(t, "integrator");
  EXPECT_TRUE(integrators.count("euler") && integrators.count("rk4"));
  // every integrator found x 2 models x 2 timesteps
  ASSERT_EQ(t.rows.size(), 4 * integrators.size());
  EXPECT_NE(r.out.find("integrator[euler"), std::string::npos) << r.out;
  ExpectFinite(t, {"steps", "energy_initial", "energy_drift", "step_time_us"});
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    EXPECT_NE(t.Text(static_cast<int>(i), "status"), "failed") << t.Text(static_cast<int>(i), "reason");
  }
  auto row = [&](const char* model, const char* integrator, const char* h) {
    const std::vector<int> rows = t.Where({{"model", model}, {"integrator", integrator}, {"timestep", h}});
    EXPECT_EQ(rows.size(), 1u);
    return rows.empty() ? 0 : rows[0];
  };
  // pendulum: RK4's energy error is orders of magnitude below semi-implicit Euler's, and
  // grows with the timestep for both
  for (const char* h : {"0.002", "0.02"}) {
    EXPECT_LT(t.Number(row("pendulum", "rk4", h), "energy_drift"),
              1e-3 * t.Number(row("pendulum", "euler", h), "energy_drift"));
  }
  EXPECT_GT(t.Number(row("pendulum", "euler", "0.02"), "energy_drift"),
            5 * t.Number(row("pendulum", "euler", "0.002"), "energy_drift"));
  // damped chain at 0.02 s: explicit RK4 diverges within the first steps, Euler (implicit in
  // the damping) does not; at 0.002 s both are stable
  const int rk4 = row("damped_chain", "rk4", "0.02");
  EXPECT_EQ(t.Text(rk4, "status"), "diverged");
  EXPECT_EQ(t.Number(rk4, "diverged"), 1);
  EXPECT_LT(t.Number(rk4, "diverge_time"), 0.2);
  EXPECT_EQ(t.Number(row("damped_chain", "euler", "0.02"), "diverged"), 0);
  // the implicit integrators, when built, are stable there too
  for (const char* implicit : {"implicit", "implicitfast"}) {
    if (integrators.count(implicit)) {
      EXPECT_EQ(t.Number(row("damped_chain", implicit, "0.02"), "diverged"), 0) << implicit;
    }
  }
  EXPECT_EQ(t.Number(row("damped_chain", "rk4", "0.002"), "diverged"), 0);
  EXPECT_EQ(t.Number(row("damped_chain", "euler", "0.02"), "steps"), 50);
}

TEST(ShippedExperiments, FrictionConePyramidalDriftsEllipticSlidesStraight) {
  std::string out;
  const CliResult r = RunExperiment("'" + ShippedExperiment("friction_cone") + "' --jobs 2", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 6u);  // 2 cones x 3 solvers
  ExpectFinite(t, {"track_x", "track_y", "track_z", "track_travel", "track_drift",
                   "penetration_max", "solver_iter_mean"});
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const int row = static_cast<int>(i);
    SCOPED_TRACE(t.Text(row, "cone") + " " + t.Text(row, "solver"));
    EXPECT_EQ(t.Text(row, "status"), "ok");
    // the box stays on the floor and stops after sliding about v^2 / (2 mu g) = 0.41 m
    EXPECT_NEAR(t.Number(row, "track_z"), 0.1, 2e-3);
    EXPECT_GT(t.Number(row, "track_travel"), 0.3);
    EXPECT_LT(t.Number(row, "track_travel"), 0.7);
    if (t.Text(row, "cone") == "elliptic") {
      EXPECT_NEAR(t.Number(row, "track_travel"), 4.0 / (2 * 0.5 * 9.81), 0.02);
      EXPECT_LT(std::fabs(t.Number(row, "track_drift")), 5e-3);
    } else {
      EXPECT_GT(std::fabs(t.Number(row, "track_drift")), 0.03);
    }
  }
  // the path plot reads the traces of the newton runs
  EXPECT_TRUE(fs::exists(out + "/traces/run_0.csv"));
  if (!FindGnuplotForTest().empty()) {
    EXPECT_TRUE(IsSvg(out + "/plots/path.svg"));
  }
}

// variational_energy.yaml, 20k of its 100k steps: the variational integrator ends where it
// started in energy (bounded error, no drift), rk4 has lost energy steadily, euler wandered.
TEST(ShippedExperiments, VariationalEnergyStaysWhereRk4Drifts) {
  std::string out;
  const CliResult r = RunExperiment(
      "'" + ShippedExperiment("variational_energy") + "' --steps 20000 --jobs 2", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 3u);
  ExpectFinite(t, {"energy_initial", "energy_final", "energy_drift"});
  auto final_error = [&](const char* integrator) -> double {
    const std::vector<int> rows = t.Where({{"integrator", integrator}});
    EXPECT_EQ(rows.size(), 1u);
    if (rows.empty()) return std::nan("");
    EXPECT_EQ(t.Text(rows[0], "status"), "ok");
    return std::fabs(t.Number(rows[0], "energy_final") - t.Number(rows[0], "energy_initial"));
  };
  const double variational = final_error("variational");
  EXPECT_LT(variational, 0.1 * final_error("rk4"));   // 0.0012 J vs 0.44 J of 67.5 J
  EXPECT_LT(variational, 1e-3 * final_error("euler"));
}

// variational_drop.yaml at 100 and 500 Hz over 1 s: with newton, the tilted box lands and
// settles flat with either integrator, at the same height.
TEST(ShippedExperiments, VariationalDropSettlesLikeEuler) {
  std::string out;
  const CliResult r = RunExperiment("'" + ShippedExperiment("variational_drop") +
                                        "' --duration 1 --sweep timestep=0.01,0.002 --jobs 2",
                                    &out);
  ASSERT_EQ(r.status, 0) << r.err;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 4u);  // 2 integrators x 2 timesteps
  ExpectFinite(t, {"track_z", "penetration_max"});
  for (const char* h : {"0.01", "0.002"}) {
    const std::vector<int> euler = t.Where({{"integrator", "euler"}, {"timestep", h}});
    const std::vector<int> variational = t.Where({{"integrator", "variational"}, {"timestep", h}});
    ASSERT_EQ(euler.size(), 1u);
    ASSERT_EQ(variational.size(), 1u);
    EXPECT_EQ(t.Text(variational[0], "status"), "ok") << t.Text(variational[0], "reason");
    EXPECT_NEAR(t.Number(variational[0], "track_z"), 0.05, 2e-3) << h;
    EXPECT_NEAR(t.Number(variational[0], "track_z"), t.Number(euler[0], "track_z"), 1e-4) << h;
  }
}

}  // namespace
}  // namespace gauss::test
