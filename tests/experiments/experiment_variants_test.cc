// Sweeps that give a parameter to one plugin only: the `variants` axis (named groups of
// settings), its results.csv column, --sweep on it, and its errors.
#include <gtest/gtest.h>

#include <filesystem>

#include "experiment_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// The damped chain: euler with and without implicit damping differ (the damping is strong),
// rk4 has no such parameter and must not receive it.
std::string VariantsExperiment() {
  return WriteScratch(
      "exp.yaml", "models: [" + RepoModel("damped_chain.xml") + "]\n"
                  "sweep:\n"
                  "  variants:\n"
                  "    euler_implicit_damping: {integrator: euler, integrator.params.implicit_damping: true}\n"
                  "    euler_explicit_damping: {integrator: euler, integrator.params.implicit_damping: false}\n"
                  "    rk4: {integrator: rk4}\n"
                  "  timestep: [0.0005, 0.001]\n"
                  "steps: 50\n"
                  "set: {flags.energy: true}\n");
}

TEST(ExperimentVariants, EachVariantGetsItsOwnSettings) {
  std::string out;
  const CliResult r = RunExperiment("'" + VariantsExperiment() + "'", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("x variant[euler_implicit_damping,euler_explicit_damping,rk4] x "
                       "timestep[0.0005,0.001] = 6 points"),
            std::string::npos) << r.out;
  const Table t = ReadTable(out + "/results.csv");
  ASSERT_EQ(t.rows.size(), 6u);
  EXPECT_EQ(t.Text(0, "variant"), "euler_implicit_damping");
  EXPECT_EQ(t.Text(5, "variant"), "rk4");
  for (int row = 0; row < 6; ++row) EXPECT_EQ(t.Text(row, "status"), "ok") << t.Text(row, "reason");
  // the parameter reached euler: the two euler variants differ, and each point's resolved
  // configuration says what it ran
  EXPECT_NE(t.Text(0, "energy_final"), t.Text(2, "energy_final"));
  const std::string config0 = ReadFile(out + "/" + t.Text(0, "config"));
  const std::string config2 = ReadFile(out + "/" + t.Text(2, "config"));
  const std::string config4 = ReadFile(out + "/" + t.Text(4, "config"));
  EXPECT_NE(config0.find("implicit_damping: true"), std::string::npos) << config0;
  EXPECT_NE(config2.find("implicit_damping: false"), std::string::npos) << config2;
  EXPECT_NE(config4.find("integrator:\n  name: rk4"), std::string::npos) << config4;
  EXPECT_EQ(config4.find("implicit_damping"), std::string::npos) << config4;
}

TEST(ExperimentVariants, SweepOverrideSelectsVariantsByName) {
  std::string out;
  const CliResult r = RunExperiment("'" + VariantsExperiment() + "' --sweep variant=rk4,euler_explicit_damping --dry-run", &out);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("run 0: model=damped_chain variant=rk4 timestep=0.0005"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("run 2: model=damped_chain variant=euler_explicit_damping timestep=0.0005"),
            std::string::npos) << r.out;
  const CliResult unknown = RunExperiment("'" + VariantsExperiment() + "' --sweep variant=rk5", &out);
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("no variant 'rk5' in the experiment file (it has euler_implicit_damping, "
                             "euler_explicit_damping, rk4)"),
            std::string::npos) << unknown.err;
}

TEST(ExperimentVariants, BadVariantsAreRefusedWithTheirLine) {
  auto refused = [](const std::string& sweep, const std::string& message) {
    const std::string file = WriteScratch(
        "bad.yaml", "models: [" + RepoModel("pendulum.xml") + "]\nsteps: 5\nsweep:\n" + sweep);
    std::string out;
    const CliResult r = RunExperiment("'" + file + "'", &out);
    EXPECT_EQ(r.status, 1) << sweep;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  };
  // a plugin parameter given to the wrong plugin is still an error, naming the point
  refused("  variants:\n    a: {integrator: euler}\n    b: {integrator: rk4, integrator.params.implicit_damping: true}\n",
          "sweep point 1 (model=pendulum variant=b): integrator 'rk4' parameters "
          "'implicit_damping': unknown parameter");
  refused("  variants: [euler, rk4]\n", "expected a map of keys");
  refused("  variants: {a: {}}\n", "a variant needs at least one setting");
  refused("  variant: [a]\n", "the variant axis is written 'variants:'");
}

}  // namespace
}  // namespace gauss::test
