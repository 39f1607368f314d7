// Malformed experiment files are refused with a clear message (file:line, the key, what is
// valid) before any run starts: the output directory is never created, so no results.csv of a
// half-checked experiment can exist.
#include <gtest/gtest.h>

#include <filesystem>

#include "experiment_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

namespace fs = std::filesystem;

// An experiment on the pendulum: four fixed lines, then `sweep_and_extra` from line 5 on.
std::string Experiment(const std::string& sweep_and_extra) {
  return "name: broken\n"
         "models: [" + RepoModel("pendulum.xml") + "]\n"
         "steps: 10\n"
         "controls: zero\n" +
         sweep_and_extra;
}

// Runs the file and checks the refusal: status 1, the message parts, no output directory.
void ExpectRefused(const std::string& text, const std::vector<std::string>& message_parts) {
  const std::string file = WriteScratch("exp.yaml", text);
  std::string out;
  const CliResult r = RunExperiment("'" + file + "'", &out);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_FALSE(r.crashed);
  for (const std::string& part : message_parts) {
    EXPECT_NE(r.err.find(part), std::string::npos) << "missing '" << part << "' in: " << r.err;
  }
  EXPECT_FALSE(fs::exists(out)) << "the output directory was created before the refusal";
  EXPECT_EQ(r.out.find("runs:"), std::string::npos) << r.out;
}

TEST(ExperimentErrors, UnknownTopLevelKeyNamesLineAndValidKeys) {
  ExpectRefused(Experiment("sweep: {integrator: [euler]}\nsweeps: {timestep: [0.01]}\n"),
                {"exp.yaml:6:", "element 'sweeps': unknown key; valid keys: name, description, "
                                "models, config, set, sweep"});
}

TEST(ExperimentErrors, UnknownNestedKey) {
  ExpectRefused(Experiment("sweep: {integrator: [euler]}\nlimits: {wall_tim: 3}\n"),
                {"exp.yaml:6:", "element 'limits.wall_tim': unknown key; valid keys in 'limits': "
                                "wall_time, max_qvel"});
}

TEST(ExperimentErrors, EmptySweepIsRefused) {
  ExpectRefused(Experiment("sweep: {}\n"), {"the sweep is empty"});
  ExpectRefused(Experiment(""), {"the sweep is empty"});
  ExpectRefused(Experiment("sweep:\n  integrator: []\n"),
                {"exp.yaml:6:", "element 'sweep.integrator': empty sweep axis"});
}

TEST(ExperimentErrors, UnknownPluginIsRefusedBeforeAnyRun) {
  ExpectRefused(Experiment("sweep: {integrator: [euler, warp_drive]}\n"),
                {"sweep point 1 (model=pendulum integrator=warp_drive)",
                 "no integrator plugin named 'warp_drive'", "directories searched"});
}

TEST(ExperimentErrors, UnknownSweepKeyAndBadValueNameTheirLine) {
  ExpectRefused(Experiment("sweep:\n  timestpe: [0.01]\n"),
                {"exp.yaml:6:", "unknown key 'timestpe'", "timestep"});
  ExpectRefused(Experiment("sweep:\n  timestep: [0.01, fast]\n"),
                {"exp.yaml:6:", "expected a number, got 'fast'"});
  ExpectRefused(Experiment("sweep:\n  model: [a.xml]\n"), {"top-level 'models' list"});
}

TEST(ExperimentErrors, InconsistentSettingsAreRefused) {
  ExpectRefused(Experiment("sweep: {integrator: [euler]}\nduration: 1\n"),
                {"exactly one of 'duration'", "'steps'"});
  ExpectRefused(Experiment("sweep: {integrator: [euler]}\ninitial: {keyframe: nope}\n"),
                {"has no keyframe 'nope'"});
  ExpectRefused(Experiment("sweep: {integrator: [euler]}\nmetrics: {track_body: ghost}\n"),
                {"has no body 'ghost'"});
  ExpectRefused(Experiment("sweep: {solver: [cg, '*']}\nrepeats: 0\n"),
                {"exp.yaml:6:", "expected a number >= 1"});
  ExpectRefused(Experiment("sweep: {timestep: ['*']}\n"), {"only valid for integrator and solver"});
}

TEST(ExperimentErrors, PlotsAreCheckedBeforeTheRuns) {
  ExpectRefused(Experiment("sweep: {integrator: [euler]}\nplots:\n  - {name: p, x: timestep, y: speed}\n"),
                {"exp.yaml:7:", "plot 'p': x 'timestep' is not a results.csv column",
                 "valid: run, model, integrator, seed"});
  ExpectRefused(Experiment("sweep: {integrator: [euler]}\nplots:\n  - {name: p, kind: trace, x: time, y: energy}\n"),
                {"trace plot: enable traces"});
  ExpectRefused(Experiment("sweep: {integrator: [euler]}\ntraces: {every: 1}\nplots:\n"
                           "  - {name: p, kind: trace, x: time, y: qpos7}\n"),
                {"y 'qpos7' is not a trace column of model"});
}

TEST(ExperimentErrors, MissingFilesAreRefused) {
  const std::string file = WriteScratch("exp.yaml", "models: [no_such_model.xml]\nsteps: 1\nsweep: {integrator: [euler]}\n");
  const CliResult r = RunGauss("experiment '" + file + "' --out '" + ScratchDir() + "/out'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no_such_model.xml: model file not found"), std::string::npos) << r.err;
  const CliResult missing = RunGauss("experiment '" + ScratchDir() + "/absent.yaml'");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("absent.yaml: experiment file not found"), std::string::npos);
  const CliResult usage = RunGauss("experiment");
  EXPECT_EQ(usage.status, 2);
  EXPECT_NE(usage.err.find("missing the experiment file"), std::string::npos);
}

TEST(ExperimentErrors, YamlSyntaxErrorNamesTheLine) {
  ExpectRefused(Experiment("sweep: {integrator: [euler\n"), {"exp.yaml:", "YAML syntax error"});
}

}  // namespace
}  // namespace gauss::test
