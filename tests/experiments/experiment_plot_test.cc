// The plots of an experiment (experiment_plot.cc): labels with units, min-max error bars over
// repeats, scientific ticks and zeros at the floor on log axes, equal aspect for position
// paths, SVG and PNG images. The scripts and data files are checked; the images when gnuplot
// is installed.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "experiment_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

namespace fs = std::filesystem;

// The sliding box with two solvers x two timesteps x two seeds of initial velocity noise; the
// reference is newton, so newton's reference error is exactly 0 and pgs's is not.
const char* kPlots =
    "plots:\n"
    "  - {name: err, x: timestep, y: ref_error_max, group: solver, logy: true}\n"
    "  - {name: err_bars, x: solver, y: ref_error_max, logy: true}\n"
    "  - {name: iters, x: timestep, y: solver_iter_mean, group: solver, xlabel: step size h,"
    " ylabel: iterations, title: Iterations per step}\n"
    "  - {name: path, kind: trace, x: track_x, y: track_y, group: solver, where: {timestep: 0.002}}\n";

class ExperimentPlots : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string file = WriteScratch(
        "exp.yaml", "name: plots\nmodels: [" + RepoModel("sliding_box.xml") + "]\n"
                    "sweep: {solver: [newton, pgs], timestep: [0.002, 0.004]}\n"
                    "duration: 0.3\nrepeats: 2\nseed: 1\n"
                    "initial: {keyframe: launch, qvel_noise: 0.2}\n"
                    "reference: {solver: newton}\n"
                    "metrics: {sample_every: 5, track_body: box}\ntraces: {every: 5}\n" +
                        std::string(kPlots));
    const CliResult r = RunExperiment("'" + file + "' --jobs 2", &out_);
    ASSERT_EQ(r.status, 0) << r.err;
    results_ = ReadTable(out_ + "/results.csv");
  }
  std::string Script(const std::string& name) const { return ReadFile(out_ + "/plots/" + name + ".gp"); }

  std::string out_;
  Table results_;
};

TEST_F(ExperimentPlots, LabelsWithUnitsAndOverrides) {
  const std::string err = Script("err");
  EXPECT_NE(err.find("set xlabel \"timestep h (s)\""), std::string::npos) << err;
  EXPECT_NE(err.find("set ylabel \"max relative qacc error vs reference\""), std::string::npos) << err;
  EXPECT_NE(err.find("set title \"plots: max relative qacc error vs reference vs timestep h (s)\""),
            std::string::npos) << err;
  const std::string iters = Script("iters");
  EXPECT_NE(iters.find("set xlabel \"step size h\""), std::string::npos) << iters;
  EXPECT_NE(iters.find("set ylabel \"iterations\""), std::string::npos) << iters;
  EXPECT_NE(iters.find("set title \"Iterations per step\""), std::string::npos) << iters;
}

TEST_F(ExperimentPlots, RepeatsGiveMeanAndMinMaxBars) {
  const std::string iters = Script("iters");
  EXPECT_NE(iters.find("set key title \"mean of up to 2 runs; bars: min-max\""), std::string::npos) << iters;
  EXPECT_NE(iters.find("with yerrorbars"), std::string::npos) << iters;
  // pgs at 0.004: the data line holds mean, min and max of the two seeds' rows
  const std::vector<int> rows = results_.Where({{"solver", "pgs"}, {"timestep", "0.004"}});
  ASSERT_EQ(rows.size(), 2u);
  const double a = results_.Number(rows[0], "solver_iter_mean"), b = results_.Number(rows[1], "solver_iter_mean");
  ASSERT_NE(a, b) << "the seeds should give different runs";
  const std::string dat = ReadFile(out_ + "/plots/iters.dat");
  const std::size_t block = dat.find("# solver=pgs\n");
  ASSERT_NE(block, std::string::npos) << dat;
  std::istringstream in(dat.substr(dat.find("0.004 ", block)));
  double x, mean, lo, hi;
  in >> x >> mean >> lo >> hi;
  EXPECT_NEAR(mean, (a + b) / 2, 1e-9 * std::fabs(a + b));
  EXPECT_NEAR(lo, std::min(a, b), 1e-9 * std::fabs(a));
  EXPECT_NEAR(hi, std::max(a, b), 1e-9 * std::fabs(a));
}

TEST_F(ExperimentPlots, LogAxesHaveScientificTicksAndZerosAtTheFloor) {
  for (const int row : results_.Where({{"solver", "newton"}})) {
    ASSERT_EQ(results_.Number(row, "ref_error_max"), 0.0);  // the premise: exact zeros
  }
  double smallest = 1;
  for (const int row : results_.Where({{"solver", "pgs"}})) {
    const double e = results_.Number(row, "ref_error_max");
    ASSERT_GT(e, 0.0);
    smallest = std::min(smallest, e);
  }
  const double floor = std::pow(10.0, std::floor(std::log10(smallest)) - 1);
  const std::string err = Script("err");
  EXPECT_NE(err.find("set logscale y\nset format y \"%.0e\""), std::string::npos) << err;
  std::ostringstream range;
  range << "set yrange [" << floor << ":*]";
  EXPECT_NE(err.find(range.str()), std::string::npos) << err;
  EXPECT_NE(err.find("using 1:5 with points pt 6"), std::string::npos) << err;
  EXPECT_NE(err.find("title \"solver=newton: exactly 0 (open circles, drawn at "), std::string::npos) << err;
  EXPECT_EQ(err.find("title \"solver=pgs: exactly 0"), std::string::npos) << err;
  // newton's points: no mean on the line (nan), the zero column at the floor
  const std::string dat = ReadFile(out_ + "/plots/err.dat");
  const std::size_t block = dat.find("# solver=newton\n");
  ASSERT_NE(block, std::string::npos) << dat;
  std::istringstream in(dat.substr(block + 16));
  std::string x, mean, lo, hi;
  double zero;
  in >> x >> mean >> lo >> hi >> zero;
  EXPECT_EQ(mean, "nan");
  EXPECT_DOUBLE_EQ(zero, floor);
  // bars: a zero bar stands at the floor with a note
  const std::string bars = Script("err_bars");
  EXPECT_NE(bars.find("are exactly 0"), std::string::npos) << bars;
  EXPECT_NE(bars.find("set style histogram errorbars"), std::string::npos) << bars;
}

TEST_F(ExperimentPlots, PathsAreDrawnAtEqualAspectAndImagesInBothFormats) {
  EXPECT_NE(Script("path").find("set size ratio -1"), std::string::npos);
  EXPECT_EQ(Script("err").find("set size ratio"), std::string::npos);
  if (FindGnuplotForTest().empty()) GTEST_SKIP() << "gnuplot is not installed: scripts only";
  for (const char* name : {"err", "err_bars", "iters", "path"}) {
    EXPECT_TRUE(IsSvg(out_ + "/plots/" + name + ".svg")) << name;
    std::ifstream png(out_ + "/plots/" + std::string(name) + ".png", std::ios::binary);
    char magic[8] = {};
    png.read(magic, 8);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG") << name;
  }
}

}  // namespace
}  // namespace gauss::test
