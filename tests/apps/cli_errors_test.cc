// Bad input to the `gauss` program, one class per test: each must end with a message on
// stderr naming the problem and a non-zero exit status (1 for bad input, 2 for misuse of the
// command line), never a crash and never a half-written success.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "cli_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

const std::string kModel = TestModel("apps_pendulum.xml");

std::string Q(const std::string& path) { return "'" + path + "'"; }

// Runs `args`, expecting exit status `status` and every `needles` string on stderr.
void ExpectFailure(const std::string& args, int status, const std::vector<std::string>& needles) {
  const CliResult r = RunGauss(args);
  EXPECT_FALSE(r.crashed) << args << "\n" << r.err;
  EXPECT_EQ(r.status, status) << args << "\nstderr: " << r.err << "\nstdout: " << r.out;
  for (const auto& n : needles) {
    EXPECT_NE(r.err.find(n), std::string::npos) << args << "\nexpected '" << n << "' in: " << r.err;
  }
}

TEST(CliErrors, MissingModelFile) {
  ExpectFailure("run /nonexistent/model.xml --steps 1", 1,
                {"/nonexistent/model.xml", "not found"});
}

TEST(CliErrors, MalformedXmlNamesFileAndLine) {
  const std::string model = WriteScratch("malformed.xml",
                                         "<mujoco>\n"
                                         "  <worldbody>\n"
                                         "    <body name=\"b\">\n"
                                         "  </worldbody>\n"
                                         "</mujoco>\n");
  const CliResult r = RunGauss("run " + Q(model) + " --steps 1");
  EXPECT_FALSE(r.crashed);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("malformed\\.xml:[0-9]+"))) << r.err;
}

TEST(CliErrors, UnknownElement) {
  const std::string model = WriteScratch(
      "unknown.xml", "<mujoco>\n  <worldbody>\n    <gizmo name=\"g\"/>\n  </worldbody>\n</mujoco>\n");
  ExpectFailure("run " + Q(model) + " --steps 1", 1, {"unknown.xml", "gizmo"});
}

TEST(CliErrors, MissingInclude) {
  const std::string model = WriteScratch(
      "includer.xml", "<mujoco>\n  <include file=\"nowhere_to_be_found.xml\"/>\n</mujoco>\n");
  ExpectFailure("run " + Q(model) + " --steps 1", 1, {"nowhere_to_be_found.xml"});
}

TEST(CliErrors, UnknownPlugin) {
  ExpectFailure("run " + Q(kModel) + " --steps 1 --set integrator=no_such_integrator", 1,
                {"no_such_integrator"});
  const std::string cfg = WriteScratch("plugin.yaml", "integrator: no_such_one\n");
  ExpectFailure("bench " + Q(kModel) + " --steps 1 --config " + Q(cfg), 1, {"no_such_one"});
}

TEST(CliErrors, UnknownYamlKeyNamesFileLineAndValidKeys) {
  const std::string cfg =
      WriteScratch("typo.yaml", "timestep: 0.01\ncone: elliptic\nintegrater: rk4\n");
  ExpectFailure("run " + Q(kModel) + " --steps 1 --config " + Q(cfg), 1,
                {"typo.yaml:3", "integrater", "valid keys", "integrator"});
  const std::string bad_value = WriteScratch("value.yaml", "\ncone: round\n");
  ExpectFailure("forward " + Q(kModel) + " --states x.csv --out y.csv --config " + Q(bad_value), 1,
                {"value.yaml:2", "cone", "pyramidal, elliptic"});
  const std::string syntax = WriteScratch("syntax.yaml", "solver: [pgs\n");
  ExpectFailure("run " + Q(kModel) + " --config " + Q(syntax), 1, {"syntax.yaml:", "syntax"});
  ExpectFailure("run " + Q(kModel) + " --config /nonexistent/cfg.yaml", 1, {"/nonexistent/cfg.yaml"});
}

TEST(CliErrors, UnknownSetKeyListsValidKeys) {
  ExpectFailure("run " + Q(kModel) + " --steps 1 --set solver.iteration=5", 1,
                {"solver.iteration", "valid keys", "solver.iterations", "plugins.paths"});
  ExpectFailure("plugins --set plugin.paths=/tmp", 1, {"plugin.paths", "valid keys"});
  ExpectFailure("run " + Q(kModel) + " --steps 1 --set timestep=fast", 1, {"timestep", "a number"});
  ExpectFailure("run " + Q(kModel) + " --steps 1 --set timestep", 1, {"KEY=VALUE"});
}

TEST(CliErrors, BadStatesCsv) {
  const std::string out = ScratchDir() + "/out.csv";
  auto forward = [&](const std::string& states) {
    return "forward " + Q(kModel) + " --states " + Q(states) + " --out " + Q(out);
  };
  ExpectFailure(forward(WriteScratch("col.csv", "qpos0,qpso1\n0,0\n")), 1,
                {"col.csv", "qpso1", "unknown column"});
  ExpectFailure(forward(WriteScratch("range.csv", "qpos0,qpos99\n0,0\n")), 1,
                {"range.csv", "qpos99", "out of range", "qpos0..qpos1"});
  ExpectFailure(forward(WriteScratch("number.csv", "qpos0,qvel0\n0,0\n0.5,fast\n")), 1,
                {"number.csv:3", "qvel0", "fast"});
  ExpectFailure(forward(WriteScratch("fields.csv", "qpos0,qvel0\n0,0\n1\n")), 1,
                {"fields.csv:3", "1 fields"});
  ExpectFailure(forward(WriteScratch("dup.csv", "qpos0,qpos0\n0,0\n")), 1, {"dup.csv", "twice"});
  ExpectFailure(forward(WriteScratch("empty.csv", "")), 1, {"empty.csv", "empty"});
  ExpectFailure(forward(ScratchDir() + "/missing.csv"), 1, {"missing.csv", "cannot open"});
}

TEST(CliErrors, BadControlsCsv) {
  auto run = [&](const std::string& controls) {
    return "run " + Q(kModel) + " --steps 2 --controls " + Q(controls);
  };
  ExpectFailure(run(WriteScratch("name.csv", "torque\n1\n")), 1,
                {"name.csv", "torque", "ctrl0"});
  ExpectFailure(run(WriteScratch("range.csv", "ctrl0,ctrl1\n1,2\n")), 1,
                {"range.csv", "ctrl1", "out of range", "nu=1"});
  ExpectFailure(run(WriteScratch("rows.csv", "ctrl0\n")), 1, {"rows.csv", "no control rows"});
  ExpectFailure(run(WriteScratch("value.csv", "ctrl0\n1\nx\n")), 1, {"value.csv:3", "ctrl0"});
  const std::string passive = WriteScratch(
      "passive.xml",
      "<mujoco>\n  <worldbody>\n    <body>\n      <joint type=\"hinge\"/>\n"
      "      <geom type=\"sphere\" size=\"0.1\"/>\n    </body>\n  </worldbody>\n</mujoco>\n");
  ExpectFailure("run " + Q(passive) + " --steps 1 --controls " +
                    Q(WriteScratch("c.csv", "ctrl0\n1\n")),
                1, {"no actuators"});
}

TEST(CliErrors, UnwritableOutput) {
  ExpectFailure("run " + Q(kModel) + " --steps 1 --out /nonexistent/dir/traj.csv", 1,
                {"/nonexistent/dir/traj.csv"});
}

TEST(CliErrors, CommandLineMisuseExitsWithTwo) {
  ExpectFailure("", 2, {"usage"});
  ExpectFailure("simulate " + Q(kModel), 2, {"unknown command 'simulate'"});
  ExpectFailure("run", 2, {"missing the model file", "--help"});
  ExpectFailure("run " + Q(kModel) + " --steps 5 --duration 1", 2, {"--steps", "--duration"});
  ExpectFailure("run " + Q(kModel) + " --stepz 5", 2, {"stepz"});
  ExpectFailure("run " + Q(kModel) + " --steps many", 2, {"many"});
  ExpectFailure("run " + Q(kModel) + " --every 0", 2, {"--every"});
  ExpectFailure("run " + Q(kModel) + " extra.xml", 2, {"gauss run"});
  ExpectFailure("forward " + Q(kModel) + " --out o.csv", 2, {"states"});
  ExpectFailure("bench " + Q(kModel) + " --repeat 0", 2, {"--repeat"});
  // nothing was written by the failed runs
  EXPECT_FALSE(std::filesystem::exists("o.csv"));
}

}  // namespace
}  // namespace gauss::test
