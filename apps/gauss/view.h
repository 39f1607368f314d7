// `gauss view`: the browser viewer (docs/viewer.md). The page is one HTML file holding the
// bundled page script (viewer/, inlined into the gauss binary at build time) and the scene
// JSON (view_scene.h), so it opens offline.
#pragma once

#include <string>
#include <vector>

#include "common.h"
#include "view_scene.h"

namespace gauss::cli {

// True when this gauss was built with the page script (CMake found npm).
bool ViewerAvailable();

// (page title, scene JSON) => the self-contained HTML page. Throws gauss::Error when the
// viewer was not built (ViewerAvailable() is false).
std::string ViewerPageHtml(const std::string& title, const std::string& scene_json);

// (model file, configuration, trajectories, the model camera to start with: a name, an index
// or "" for the free camera) => writes the page to `out_path`; throws gauss::Error on bad
// input (file, line, column) or when the page cannot be written, UsageError for an unknown
// camera.
void WriteViewerPage(const std::string& model_path, const Config& config,
                     const std::vector<ViewTrajectory>& trajectories, const std::string& out_path,
                     const std::string& camera = "");

// (title, table columns and rows, per row the page it links to ("" for none)) => writes a plain
// HTML page (no script) with the table, each linked row's first cell a link to its page. Used
// by `gauss experiment` for its index of run pages. Throws gauss::Error when it cannot write.
void WriteRunIndexPage(const std::string& out_path, const std::string& title,
                       const std::vector<std::string>& columns,
                       const std::vector<std::vector<std::string>>& rows,
                       const std::vector<std::string>& links);

// `gauss view MODEL --serve PORT`: serves the page on `bind`:`port` (port 0: any free port,
// printed on stdout) and simulates live until the process is stopped (view_serve.cc); the page
// starts with model camera `camera` (as in WriteViewerPage).
int ServeViewer(const CommonArgs& args, const std::string& bind, int port,
                const std::string& camera = "");

}  // namespace gauss::cli
