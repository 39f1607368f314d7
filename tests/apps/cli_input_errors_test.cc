// Input mistakes that used to be ignored or explained poorly: a directory given where a file
// is expected, a CSV separated by ';', a misspelt plugin name of any kind.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

const std::string kModel = TestModel("apps_pendulum.xml");

std::string Q(const std::string& path) { return "'" + path + "'"; }

// Runs gauss; expects exit status 1 and every needle in stderr.
void ExpectError(const std::string& args, const std::vector<std::string>& needles) {
  const CliResult r = RunGauss(args);
  EXPECT_FALSE(r.crashed) << args;
  EXPECT_EQ(r.status, 1) << args << "\nstderr: " << r.err << "\nstdout: " << r.out;
  for (const auto& n : needles) {
    EXPECT_NE(r.err.find(n), std::string::npos) << args << "\nexpected '" << n << "' in: " << r.err;
  }
}

TEST(CliInputErrors, DirectoryGivenForAnInputFile) {
  const std::string dir = ScratchDir() + "/a_directory";
  std::filesystem::create_directories(dir);
  ExpectError("run " + Q(kModel) + " --steps 1 --config " + Q(dir),
              {dir, "is a directory, expected a YAML configuration file"});
  ExpectError("run " + Q(kModel) + " --steps 1 --controls " + Q(dir),
              {dir, "is a directory, expected a CSV file"});
  ExpectError("run " + Q(kModel) + " --steps 1 --initial " + Q(dir),
              {dir, "is a directory, expected a CSV file"});
  ExpectError("forward " + Q(kModel) + " --states " + Q(dir) + " --out " + Q(ScratchDir() + "/o.csv"),
              {dir, "is a directory, expected a CSV file"});
  ExpectError("experiment " + Q(dir), {dir, "is a directory, expected an experiment file"});
  ExpectError("run " + Q(dir), {dir, "is a directory, expected an MJCF model file"});
}

TEST(CliInputErrors, SemicolonSeparatedCsvSuggestsTheSeparator) {
  ExpectError("run " + Q(kModel) + " --steps 1 --controls " +
                  Q(WriteScratch("semi.csv", "ctrl0;ctrl1\n1;0\n")),
              {"semi.csv:1", "separated by ';'", "separate columns with ','"});
  // a one-column header passes; the rows then carry the other separator
  ExpectError("run " + Q(kModel) + " --steps 1 --controls " +
                  Q(WriteScratch("semi_rows.csv", "ctrl0\n1;0\n")),
              {"semi_rows.csv:2", "expected a number, got '1;0'", "separated by ',', not ';'"});
  ExpectError("run " + Q(kModel) + " --steps 1 --controls " +
                  Q(WriteScratch("tabs.csv", "ctrl0\tctrl1\n1\t0\n")),
              {"tabs.csv:1", "separated by tabs"});
}

TEST(CliInputErrors, UnknownPluginNamesSuggestTheClosestOfTheirKind) {
  const std::string run = "run " + Q(kModel) + " --steps 1 --set ";
  ExpectError(run + "solver=newtn", {"no solver plugin named 'newtn'; did you mean 'newton'?"});
  ExpectError(run + "integrator=rk5", {"no integrator plugin named 'rk5'; did you mean 'rk4'?"});
  ExpectError(run + "integrator=implicitf",
              {"no integrator plugin named 'implicitf'; did you mean 'implicitfast'?"});
  ExpectError(run + "colliders=primitve",
              {"no collider plugin named 'primitve'; did you mean 'primitive'?"});
  // actuator dynamics named by the model
  const std::string model = WriteScratch(
      "act.xml", "<mujoco>\n  <worldbody>\n    <body><joint name=\"j\" type=\"hinge\"/><geom size=\"0.1\"/></body>\n"
                 "  </worldbody>\n  <actuator><general joint=\"j\" dyntype=\"builtn\"/></actuator>\n</mujoco>\n");
  ExpectError("run " + Q(model) + " --steps 1",
              {"no actuator plugin named 'builtn'; did you mean 'builtin'?"});
  // nothing close: no suggestion, the list of names instead
  const CliResult far = RunGauss(run + "solver=quantum_annealer");
  EXPECT_EQ(far.status, 1);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
  EXPECT_NE(far.err.find("solver plugins found: cg, ip, newton, pgs"), std::string::npos) << far.err;
}

}  // namespace
}  // namespace gauss::test
