// `gauss view MODEL [--traj A.csv]... (--out PAGE.html | --serve PORT)` (view.h).
#include "view.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "gauss/error.h"

namespace gauss::cli {

// The minified page script, generated at build time from viewer/ (apps/gauss/CMakeLists.txt);
// empty when the build had no npm.
extern const char kViewerBundle[];

namespace {

const char* kUsage =
    "usage: gauss view MODEL.xml [--traj TRAJ.csv]... (--out PAGE.html | --serve PORT)\n"
    "                  [--bind ADDR] [--camera NAME] [--config CFG.yaml] [--set KEY=VALUE]...\n\n"
    "Shows MODEL.xml in a web browser. --out writes one self-contained HTML page that plays\n"
    "the trajectories (CSV files with time and qpos columns, as written by `gauss run --out`;\n"
    "their TRAJ.csv.config.yaml and TRAJ.csv.contacts.csv are picked up from beside them);\n"
    "several --traj are drawn ghosted over each other or side by side. --serve simulates the\n"
    "model live and serves the page on http://127.0.0.1:PORT/ (pause, step, reset and the\n"
    "solver, integrator and timestep from the page); --bind changes the listening address.\n"
    "The page looks through the free (orbit) camera or any camera of the model (a menu;\n"
    "--camera picks the one it starts with).";

// Text as HTML character data (no markup).
std::string HtmlText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// Writes `text` to `path`. Throws gauss::Error naming the file.
void WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(ErrorLocation{path, 0, "", ""}, "cannot open for writing");
  out << text;
  out.close();
  if (!out) throw Error(ErrorLocation{path, 0, "", ""}, "error while writing");
}

}  // namespace

bool ViewerAvailable() { return kViewerBundle[0] != '\0'; }

std::string ViewerPageHtml(const std::string& title, const std::string& scene_json) {
  if (!ViewerAvailable()) {
    throw Error("this gauss was built without the browser viewer (npm was not found when CMake "
                "configured the build; see docs/viewer.md)");
  }
  std::string html =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  html += HtmlText(title);
  html += "</title></head>\n<body>\n<script id=\"gauss-scene\" type=\"application/json\">";
  html += scene_json;  // JsonString escapes '<', so no "</script>" can occur inside
  html += "</script>\n<script>";
  html += kViewerBundle;
  html += "</script>\n</body></html>\n";
  return html;
}

void WriteViewerPage(const std::string& model_path, const Config& config,
                     const std::vector<ViewTrajectory>& trajectories, const std::string& out_path,
                     const std::string& camera) {
  const std::shared_ptr<const Model> model = LoadModelFile(model_path);
  const int camera_index = ViewCameraIndex(*model, camera);
  const Engine engine(model, config);
  Data d = engine.MakeData();
  engine.Forward(d);
  std::string scene = "{\"live\":false,\"camera\":" + std::to_string(camera_index) +
                      ",\"model\":" + ModelJson(engine.model(), model_path);
  scene += ",\"rest\":[";
  AppendBodyPoses(engine.model(), d, scene);
  scene += "],\"restSkins\":[";
  AppendSkinVertices(engine.model(), d, scene);
  scene += "],\"restCameras\":[";
  AppendCameraPoses(engine.model(), d, scene);
  scene += "],\"trajectories\":[";
  for (std::size_t i = 0; i < trajectories.size(); ++i) {
    if (i) scene += ',';
    scene += TrajectoryJson(engine, d, trajectories[i]);
  }
  scene += "]}";
  WriteTextFile(out_path, ViewerPageHtml("Gauss: " + engine.model().name, scene));
}

void WriteRunIndexPage(const std::string& out_path, const std::string& title,
                       const std::vector<std::string>& columns,
                       const std::vector<std::vector<std::string>>& rows,
                       const std::vector<std::string>& links) {
  std::string html =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
      HtmlText(title) +
      "</title>\n<style>body{font:14px sans-serif;margin:1em}table{border-collapse:collapse}"
      "td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}th{background:#eee}"
      "</style></head>\n<body>\n<h1>" + HtmlText(title) +
      "</h1>\n<p>Each linked run opens its own viewer page (its trace and configuration).</p>"
      "\n<table>\n<tr>";
  for (const std::string& c : columns) html += "<th>" + HtmlText(c) + "</th>";
  html += "</tr>\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    html += "<tr>";
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      const std::string cell = HtmlText(rows[r][c]);
      const bool link = c == 0 && r < links.size() && !links[r].empty();
      html += "<td>" + (link ? "<a href=\"" + HtmlText(links[r]) + "\">" + cell + "</a>" : cell) +
              "</td>";
    }
    html += "</tr>\n";
  }
  WriteTextFile(out_path, html + "</table>\n</body></html>\n");
}

int ViewCommand(const std::vector<std::string>& argv) {
  CommonArgs args;
  std::vector<std::string> traj_paths;
  std::string out_path, bind = "127.0.0.1", camera;
  int port = -1;
  po::options_description desc("Options");
  desc.add_options()
      ("traj", po::value<std::vector<std::string>>(&traj_paths)->value_name("TRAJ.csv")->composing(),
       "a trajectory to play (repeatable: each one is drawn and named in the legend)")
      ("out", po::value<std::string>(&out_path)->value_name("PAGE.html"),
       "write the self-contained page")
      ("serve", po::value<int>(&port)->value_name("PORT"),
       "simulate live and serve the page on PORT (0: any free port, printed)")
      ("bind", po::value<std::string>(&bind)->value_name("ADDR")->default_value("127.0.0.1"),
       "with --serve: the address to listen on (default loopback only)")
      ("camera", po::value<std::string>(&camera)->value_name("NAME"),
       "start with the view of the model camera NAME (or its index) instead of the free camera");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, true, args, vm)) return 0;
  const bool serve = vm.count("serve") > 0;
  if (out_path.empty() == !serve) throw UsageError("give exactly one of --out and --serve");
  if (serve && (port < 0 || port > 65535)) throw UsageError("--serve PORT must be in 0..65535");
  if (serve) {
    if (!traj_paths.empty()) throw UsageError("--traj is for --out pages; --serve simulates live");
    return ServeViewer(args, bind, port, camera);
  }
  std::vector<ViewTrajectory> trajectories;
  for (const std::string& p : traj_paths) trajectories.push_back(TrajectoryWithSidecars(p));
  WriteViewerPage(args.model, BuildConfig(args), trajectories, out_path, camera);
  std::printf("page: %s (%zu trajectories)\n", out_path.c_str(), trajectories.size());
  return 0;
}

}  // namespace gauss::cli
