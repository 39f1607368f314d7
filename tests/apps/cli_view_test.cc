// `gauss run --contacts` and `gauss view --out` through the built binary: the contacts file
// (columns, physics of a resting box), the page's embedded scene and the errors for bad input.
// The page itself is exercised in a real browser by tests/viewer (label "browser").
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "cli_harness.h"
#include "gauss/math.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

std::string Q(const std::string& path) { return "'" + path + "'"; }

#ifdef GAUSS_HAVE_VIEWER
constexpr bool kHaveViewer = true;
#else
constexpr bool kHaveViewer = false;  // no npm at configure time: gauss cannot write pages
#endif

// The scene JSON that `gauss view` puts into the page (JSON is YAML, so yaml-cpp reads it).
YAML::Node PageScene(const std::string& html) {
  const std::string open = "<script id=\"gauss-scene\" type=\"application/json\">";
  const std::size_t begin = html.find(open);
  EXPECT_NE(begin, std::string::npos) << "no scene in the page";
  if (begin == std::string::npos) return YAML::Node();
  const std::size_t end = html.find("</script>", begin);
  return YAML::Load(html.substr(begin + open.size(), end - begin - open.size()));
}

// The rows of an experiment's results.csv as column => cell (cells here hold no commas).
std::vector<std::map<std::string, std::string>> ResultRows(const std::string& path) {
  std::istringstream text(ReadFile(path));
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  for (std::string line; std::getline(text, line);) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    rows.emplace_back();
    for (std::size_t c = 0; c < cells.size() && c < header.size(); ++c) rows.back()[header[c]] = cells[c];
  }
  return rows;
}

// sliding_box.xml: a 1 kg box starts resting on the floor (no keyframe in `gauss run`). Once
// settled, the normal forces of its contacts carry its weight, along the floor's +z normal,
// with no friction force.
TEST(CliRunContacts, RestingBoxContactsCarryItsWeight) {
  const std::string out = ScratchDir() + "/box.csv";
  const CliResult r = RunGauss("run " + Q(RepoModel("sliding_box.xml")) +
                               " --duration 1 --every 50 --out " + Q(out) + " --contacts");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("contacts: " + out + ".contacts.csv"), std::string::npos) << r.out;
  const Csv traj = ReadCsvFile(out);
  const Csv contacts = ReadCsvFile(out + ".contacts.csv");
  EXPECT_EQ(contacts.header,
            (std::vector<std::string>{"row", "time", "geom1", "geom2", "pos0", "pos1", "pos2",
                                      "normal0", "normal1", "normal2", "dist", "force_normal",
                                      "force_tangent"}));
  std::map<int, double> weight_carried;  // row => sum of normal forces
  for (std::size_t i = 0; i < contacts.rows.size(); ++i) {
    const int row = static_cast<int>(contacts.At(i, "row"));
    ASSERT_GE(row, 0);
    ASSERT_LT(row, static_cast<int>(traj.rows.size()));
    EXPECT_EQ(contacts.At(i, "time"), traj.At(row, "time"));
    EXPECT_EQ(contacts.At(i, "geom1"), 0);  // floor
    EXPECT_EQ(contacts.At(i, "geom2"), 1);  // box
    EXPECT_NEAR(contacts.At(i, "normal2"), 1, 1e-12);
    EXPECT_NEAR(contacts.At(i, "pos2"), 0, 1e-3);
    EXPECT_GE(contacts.At(i, "force_normal"), 0);
    EXPECT_NEAR(contacts.At(i, "force_tangent"), 0, 1e-6);
    weight_carried[row] += contacts.At(i, "force_normal");
  }
  const int last = static_cast<int>(traj.rows.size()) - 1;
  ASSERT_TRUE(weight_carried.count(last)) << "no contacts in the last row";
  EXPECT_NEAR(weight_carried[last], 9.81, 1e-3 * 9.81);
}

TEST(CliRunContacts, NeedsOut) {
  const CliResult r = RunGauss("run " + Q(RepoModel("sliding_box.xml")) + " --steps 2 --contacts");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--contacts needs --out"), std::string::npos) << r.err;
}

// The page holds the model and one frame per trajectory row (poses of every body but the world),
// the legend's configuration summary and the recorded contacts.
TEST(CliView, PageEmbedsModelTrajectoryAndContacts) {
  if (!kHaveViewer) GTEST_SKIP() << "gauss was built without the viewer (no npm)";
  const std::string dir = ScratchDir();
  const CliResult run = RunGauss("run " + Q(RepoModel("pile.xml")) + " --duration 0.6 --every 20 --out " +
                                 Q(dir + "/pile.csv") + " --contacts --set solver=pgs");
  ASSERT_EQ(run.status, 0) << run.err;
  const CliResult view = RunGauss("view " + Q(RepoModel("pile.xml")) + " --traj " + Q(dir + "/pile.csv") +
                                  " --out " + Q(dir + "/page.html"));
  ASSERT_EQ(view.status, 0) << view.err;
  const std::string html = ReadFile(dir + "/page.html");
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  EXPECT_EQ(html.find("src="), std::string::npos) << "the page must not load other files";
  const YAML::Node scene = PageScene(html);
  ASSERT_TRUE(scene["model"]) << "scene JSON not readable";
  EXPECT_EQ(scene["model"]["name"].as<std::string>(), "pile");
  const int nbody = static_cast<int>(scene["model"]["bodies"].size());
  EXPECT_EQ(nbody, 6);  // world + 5 bodies
  EXPECT_EQ(scene["model"]["geoms"].size(), 9u);  // floor, ramp, 2 boxes, capsule, ball, dumbbell (3)
  const Csv traj = ReadCsvFile(dir + "/pile.csv");
  const Csv contacts = ReadCsvFile(dir + "/pile.csv.contacts.csv");
  const YAML::Node t = scene["trajectories"][0];
  EXPECT_EQ(t["label"].as<std::string>(), "pile.csv");
  EXPECT_NE(t["summary"].as<std::string>().find("solver=pgs"), std::string::npos);
  ASSERT_EQ(t["time"].size(), traj.rows.size());
  EXPECT_EQ(t["poses"].size(), traj.rows.size() * 7 * (nbody - 1));
  EXPECT_EQ(t["contacts"].size(), contacts.rows.size() * 9);
  // Body 4 (the ball, free joint qpos21..27) at the last row: position and orientation.
  const int last = static_cast<int>(traj.rows.size()) - 1;
  for (int k = 0; k < 7; ++k) {
    const double drawn = t["poses"][7 * (nbody - 1) * last + 7 * 3 + k].as<double>();
    EXPECT_NEAR(drawn, traj.At(last, "qpos" + std::to_string(21 + k)), 1e-6) << k;
  }
}

// tests/models/view_cameras.xml: the page lists the model's cameras, starts with the one
// --camera names, and carries every camera's pose per frame; the rider camera is the falling
// box's recorded position plus its offset, looking along +x (MJCF xyaxes "0 -1 0 0 0 1").
TEST(CliView, PageEmbedsTheModelCamerasPosedPerFrame) {
  if (!kHaveViewer) GTEST_SKIP() << "gauss was built without the viewer (no npm)";
  const std::string dir = ScratchDir();
  const std::string model = Q(TestModel("view_cameras.xml"));
  ASSERT_EQ(RunGauss("run " + model + " --duration 0.5 --every 20 --out " + Q(dir + "/c.csv")).status, 0);
  const CliResult view = RunGauss("view " + model + " --traj " + Q(dir + "/c.csv") + " --out " +
                                  Q(dir + "/c.html") + " --camera watch");
  ASSERT_EQ(view.status, 0) << view.err;
  const YAML::Node scene = PageScene(ReadFile(dir + "/c.html"));
  ASSERT_TRUE(scene["model"]) << "scene JSON not readable";
  EXPECT_EQ(scene["camera"].as<int>(), 0);
  const YAML::Node cams = scene["model"]["cameras"];
  ASSERT_EQ(cams.size(), 2u);
  EXPECT_EQ(cams[0]["name"].as<std::string>(), "watch");
  EXPECT_EQ(cams[1]["fovy"].as<double>(), 50);
  EXPECT_EQ(scene["restCameras"].size(), 14u);
  const Csv traj = ReadCsvFile(dir + "/c.csv");
  const YAML::Node poses = scene["trajectories"][0]["cameras"];
  ASSERT_EQ(poses.size(), traj.rows.size() * 14);
  // the rider's local frame in the world: x = (0,-1,0), y = (0,0,1), z = x cross y = (-1,0,0)
  const double rotation[9] = {0, 0, -1, -1, 0, 0, 0, 1, 0};
  double q[4];
  math::MatToQuat(q, rotation);
  for (std::size_t r = 0; r < traj.rows.size(); ++r) {
    const std::size_t k = 14 * r + 7;
    EXPECT_NEAR(poses[k].as<double>(), traj.At(r, "qpos0") + 0.15, 1e-6) << r;
    EXPECT_NEAR(poses[k + 1].as<double>(), traj.At(r, "qpos1"), 1e-6) << r;
    EXPECT_NEAR(poses[k + 2].as<double>(), traj.At(r, "qpos2"), 1e-6) << r;
    const double sign = poses[k + 3].as<double>() * q[0] < 0 ? -1 : 1;
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(sign * poses[k + 3 + c].as<double>(), q[c], 1e-6) << r;
  }
  // an unknown camera is a usage error naming the model's cameras
  const CliResult bad = RunGauss("view " + model + " --out " + Q(dir + "/x.html") + " --camera nope");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("its cameras: watch, rider"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.html"));
}

TEST(CliView, Errors) {
  const std::string dir = ScratchDir();
  ASSERT_EQ(RunGauss("run " + Q(RepoModel("pile.xml")) + " --steps 2 --out " + Q(dir + "/pile.csv")).status, 0);
  const std::string pendulum = Q(RepoModel("pendulum.xml"));
  // a trajectory of another model
  CliResult r = RunGauss("view " + pendulum + " --traj " + Q(dir + "/pile.csv") + " --out " + Q(dir + "/p.html"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(dir + "/pile.csv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("qpos"), std::string::npos) << r.err;
  // a missing trajectory file
  r = RunGauss("view " + pendulum + " --traj " + Q(dir + "/none.csv") + " --out " + Q(dir + "/p.html"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("none.csv"), std::string::npos) << r.err;
  // neither or both outputs
  EXPECT_EQ(RunGauss("view " + pendulum).status, 2);
  EXPECT_EQ(RunGauss("view " + pendulum + " --out " + Q(dir + "/p.html") + " --serve 0").status, 2);
  EXPECT_EQ(RunGauss("view " + pendulum + " --serve 70000").status, 2);
  r = RunGauss("view " + pendulum + " --serve 0 --bind not-an-address");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("not-an-address"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/p.html"));
}

// `gauss experiment` with traces writes a page per model that plays each run, named in the
// legend by its sweep point.
TEST(CliView, ExperimentWritesAViewerPage) {
  if (!kHaveViewer) GTEST_SKIP() << "gauss was built without the viewer (no npm)";
  const std::string dir = ScratchDir() + "/exp";
  const CliResult r = RunGauss("experiment " + Q(RepoModel("../config/experiments/friction_cone.yaml")) +
                               " --out " + Q(dir) + " --duration 0.05 --no-plots -j 1");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = dir + "/viewer_sliding_box.html";
  ASSERT_TRUE(std::filesystem::exists(page)) << r.out;
  const YAML::Node scene = PageScene(ReadFile(page));
  ASSERT_EQ(scene["trajectories"].size(), 6u);  // 2 cones x 3 solvers
  EXPECT_EQ(scene["trajectories"][0]["label"].as<std::string>().rfind("run 0: ", 0), 0u);
  EXPECT_NE(scene["trajectories"][0]["summary"].as<std::string>().find("cone=pyramidal"), std::string::npos);

  // one page per run, each playing that run's own trace with its point's configuration, and
  // an index that links every run to its page
  const auto results = ResultRows(dir + "/results.csv");
  ASSERT_EQ(results.size(), 6u);
  const std::string index = ReadFile(dir + "/viewer/index.html");
  std::vector<double> final_y;
  for (int k = 0; k < 6; ++k) {
    SCOPED_TRACE("run " + std::to_string(k));
    const std::string name = "run_" + std::to_string(k) + ".html";
    EXPECT_NE(index.find("<a href=\"" + name + "\">" + std::to_string(k) + "</a>"),
              std::string::npos);
    const YAML::Node run_scene = PageScene(ReadFile(dir + "/viewer/" + name));
    ASSERT_EQ(run_scene["trajectories"].size(), 1u);
    const YAML::Node t = run_scene["trajectories"][0];
    EXPECT_EQ(t["label"].as<std::string>().rfind("run " + std::to_string(k) + ": ", 0), 0u);
    const std::string summary = t["summary"].as<std::string>();
    const std::string point = ReadFile(dir + "/" + results[k].at("config"));
    for (const char* key : {"cone", "solver"}) {
      EXPECT_NE(summary.find(std::string(key) + "=" + results[k].at(key)), std::string::npos)
          << summary;
    }
    EXPECT_EQ(t["config"].as<std::string>(), point);
    // the box (the only body) in the last frame is where run k's trace puts it
    const Csv trace = ReadCsvFile(dir + "/traces/run_" + std::to_string(k) + ".csv");
    const std::size_t nframe = t["time"].size();
    ASSERT_EQ(nframe, trace.rows.size());
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(t["poses"][7 * (nframe - 1) + i].as<double>(),
                  trace.At(nframe - 1, "qpos" + std::to_string(i)), 1e-6);
    }
    final_y.push_back(t["poses"][7 * (nframe - 1) + 1].as<double>());
  }
  // the runs differ (pyramidal vs elliptic), so a page showing another run's trace would fail
  const auto [lo, hi] = std::minmax_element(final_y.begin(), final_y.end());
  EXPECT_GT(*hi - *lo, 1e-5);
}

}  // namespace
}  // namespace gauss::test
