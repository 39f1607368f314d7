// gnuplot scripts for the experiment plots (experiment_plot.h).
//
// Two kinds of plot:
//  - summary: y = a results.csv column against x = another, one series per value of `group`.
//    A numeric x gives lines (sorted by x); a categorical x (solver names, cones) gives
//    clustered bars. Repeats of a point are averaged.
//  - trace: y against x from the per-step traces of each run (first seed only), one line per
//    run labelled by its `group` value.
#include "experiment_plot.h"

#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "gauss/error.h"

namespace gauss::cli {
namespace {

namespace fs = std::filesystem;

bool ParseNumber(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// A gnuplot double-quoted string literal.
std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// A file-name-safe version of a value ("0.001" stays, "a/b c" -> "a_b_c").
std::string Slug(const std::string& text) {
  std::string out;
  for (char c : text) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-') ? c : '_';
  return out;
}

// Rows of `results` a plot keeps: not failed, matching `where` and the facet value.
std::vector<const std::vector<std::string>*> Select(const PlotSpec& plot, const ResultTable& results,
                                                   const std::string& facet_value) {
  std::vector<const std::vector<std::string>*> out;
  const int status = results.Column("status");
  for (const auto& row : results.rows) {
    if (row[status] == "failed") continue;
    bool keep = true;
    for (const auto& [key, value] : plot.where) keep = keep && row[results.Column(key)] == value;
    if (!plot.facet.empty()) keep = keep && row[results.Column(plot.facet)] == facet_value;
    if (keep) out.push_back(&row);
  }
  return out;
}

// Distinct values of a column over rows, in order of first appearance.
std::vector<std::string> Distinct(const std::vector<const std::vector<std::string>*>& rows, int column) {
  std::vector<std::string> out;
  for (const auto* row : rows) {
    const std::string& v = column < 0 ? std::string() : (*row)[column];
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

// The lines common to every script: terminal, output, title, axes.
std::string Preamble(const ExperimentSpec& spec, const PlotSpec& plot, const std::string& image,
                     const std::string& title) {
  std::ostringstream gp;
  if (spec.plot_format == "png") {
    gp << "set terminal pngcairo size 720,450 noenhanced font \"sans,10\"\n";
  } else {
    gp << "set terminal svg size 720,450 dynamic noenhanced font \"sans,11\" background \"white\"\n";
  }
  gp << "set output " << Quote(image) << "\n";
  gp << "set title " << Quote(title) << "\n";
  gp << "set xlabel " << Quote(plot.x) << "\nset ylabel " << Quote(plot.y) << "\n";
  gp << "set grid\nset key outside right top\nset datafile missing \"nan\"\n";
  if (plot.logx) gp << "set logscale x\n";
  if (plot.logy) gp << "set logscale y\n";
  return gp.str();
}

// (selected rows) => data file and script of a summary plot. Returns false when no row has a
// finite y (nothing to draw).
bool WriteSummary(const ExperimentSpec& spec, const PlotSpec& plot, const ResultTable& results,
                  const std::vector<const std::vector<std::string>*>& rows, const std::string& stem,
                  const std::string& title, const std::string& image) {
  const int xc = results.Column(plot.x), yc = results.Column(plot.y);
  const int gc = plot.group.empty() ? -1 : results.Column(plot.group);
  const std::vector<std::string> xs = Distinct(rows, xc), groups = Distinct(rows, gc);
  bool numeric = plot.style != "bars";
  double unused;
  for (const auto& x : xs) numeric = numeric && ParseNumber(x, &unused);
  // mean of y per (group, x) over the repeats, ignoring NaN
  std::map<std::pair<std::string, std::string>, std::pair<double, int>> sums;
  bool any = false;
  for (const auto* row : rows) {
    double y;
    if (!ParseNumber((*row)[yc], &y) || !std::isfinite(y)) continue;
    auto& s = sums[{gc < 0 ? "" : (*row)[gc], (*row)[xc]}];
    s.first += y;
    ++s.second;
    any = true;
  }
  if (!any) return false;
  auto mean = [&](const std::string& g, const std::string& x) -> std::string {
    const auto it = sums.find({g, x});
    if (it == sums.end()) return "nan";
    return FormatNumber(it->second.first / it->second.second);
  };
  std::ofstream dat(stem + ".dat"), gp(stem + ".gp");
  gp << Preamble(spec, plot, image, title);
  const std::string label = plot.group.empty() ? plot.y : plot.group + "=";
  if (numeric) {
    std::vector<std::string> sorted = xs;
    std::sort(sorted.begin(), sorted.end(), [](const std::string& a, const std::string& b) {
      return std::strtod(a.c_str(), nullptr) < std::strtod(b.c_str(), nullptr);
    });
    gp << "plot ";
    for (std::size_t g = 0; g < groups.size(); ++g) {
      dat << "# " << (plot.group.empty() ? plot.y : plot.group + "=" + groups[g]) << "\n";
      for (const auto& x : sorted) dat << x << " " << mean(groups[g], x) << "\n";
      dat << "\n\n";
      const std::string style = plot.style == "points" ? "points pt 7" : "linespoints pt 7";
      gp << (g ? ", \\\n     " : "") << Quote(stem + ".dat") << " index " << g
         << " using 1:2 with " << style << " lw 2 title "
         << Quote(plot.group.empty() ? plot.y : label + groups[g]);
    }
    gp << "\n";
  } else {
    dat << Quote(plot.x);
    for (const auto& g : groups) dat << " " << Quote(plot.group.empty() ? plot.y : label + g);
    dat << "\n";
    for (const auto& x : xs) {
      dat << Quote(x);
      for (const auto& g : groups) dat << " " << mean(g, x);
      dat << "\n";
    }
    gp << "set style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid 0.85 border -1\nset boxwidth 0.9\nset yrange [*:*]\n";
    if (!plot.logy) gp << "set yrange [0:*]\n";
    gp << "plot for [i=2:" << groups.size() + 1 << "] " << Quote(stem + ".dat")
       << " using i:xtic(1) title columnheader(i)\n";
  }
  return true;
}

// (selected rows) => data file (one block per run, from its trace) and script of a trace plot.
bool WriteTracePlot(const ExperimentSpec& spec, const PlotSpec& plot, const std::string& dir,
                    const ResultTable& results,
                    const std::vector<const std::vector<std::string>*>& rows,
                    const std::string& stem, const std::string& title, const std::string& image) {
  const int gc = plot.group.empty() ? -1 : results.Column(plot.group);
  const int seed = results.Column("seed"), run = results.Column("run");
  std::ofstream dat(stem + ".dat");
  std::vector<std::string> labels;
  for (const auto* row : rows) {
    if ((*row)[seed] != std::to_string(spec.seed)) continue;  // first repeat only
    std::ifstream in(TracePath(dir, std::stoi((*row)[run])));
    std::string line;
    if (!std::getline(in, line)) continue;
    const std::vector<std::string> header = SplitCsvLine(line);
    const auto xi = std::find(header.begin(), header.end(), plot.x) - header.begin();
    const auto yi = std::find(header.begin(), header.end(), plot.y) - header.begin();
    if (xi == static_cast<long>(header.size()) || yi == static_cast<long>(header.size())) continue;
    labels.push_back(gc < 0 ? "run " + (*row)[run] : plot.group + "=" + (*row)[gc]);
    dat << "# " << labels.back() << "\n";
    while (std::getline(in, line)) {
      const std::vector<std::string> cells = SplitCsvLine(line);
      dat << cells[xi] << " " << cells[yi] << "\n";
    }
    dat << "\n\n";
  }
  if (labels.empty()) return false;
  std::ofstream gp(stem + ".gp");
  gp << Preamble(spec, plot, image, title) << "plot ";
  for (std::size_t i = 0; i < labels.size(); ++i) {
    gp << (i ? ", \\\n     " : "") << Quote(stem + ".dat") << " index " << i
       << " using 1:2 with " << (plot.style == "points" ? "points pt 7" : "lines") << " lw 2 title "
       << Quote(labels[i]);
  }
  gp << "\n";
  return true;
}

}  // namespace

bool RunGnuplot(const std::string& gnuplot, const std::string& script, const std::string& log) {
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    execl(gnuplot.c_str(), gnuplot.c_str(), script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return false;
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}


std::string FindGnuplot() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = dir + "/gnuplot";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

void CheckPlots(const ExperimentSpec& spec, const std::vector<std::string>& result_columns,
                const std::vector<std::vector<std::string>>& trace_columns) {
  auto has = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  auto join = [](const std::vector<std::string>& list) {
    std::string out;
    for (const auto& s : list) out += (out.empty() ? "" : ", ") + s;
    return out;
  };
  for (const PlotSpec& plot : spec.plots) {
    const ErrorLocation where{spec.file, plot.line, "plots", ""};
    std::vector<std::pair<std::string, std::string>> result_keys = {{"group", plot.group},
                                                                    {"facet", plot.facet}};
    for (const auto& w : plot.where) result_keys.push_back({"where", w.first});
    if (plot.kind == "summary") {
      result_keys.push_back({"x", plot.x});
      result_keys.push_back({"y", plot.y});
    } else {
      for (const auto& [key, column] : {std::pair{"x", plot.x}, std::pair{"y", plot.y}}) {
        for (std::size_t m = 0; m < trace_columns.size(); ++m) {
          if (has(trace_columns[m], column)) continue;
          throw Error(where, "plot '" + plot.name + "': " + key + " '" + column +
                                 "' is not a trace column of model " + spec.models[m] +
                                 "; valid: " + join(trace_columns[m]));
        }
      }
    }
    for (const auto& [key, column] : result_keys) {
      if (column.empty() || has(result_columns, column)) continue;
      throw Error(where, "plot '" + plot.name + "': " + key + " '" + column +
                             "' is not a results.csv column; valid: " + join(result_columns));
    }
  }
}

PlotOutput DrawPlots(const ExperimentSpec& spec, const std::string& dir, const ResultTable& results) {
  PlotOutput out;
  if (spec.plots.empty()) return out;
  const fs::path plots = fs::path(dir) / "plots";
  fs::create_directories(plots);
  const std::string gnuplot = FindGnuplot();
  const std::string log = (plots / "gnuplot.log").string();
  fs::remove(log);
  for (const PlotSpec& plot : spec.plots) {
    std::vector<std::string> facets = {""};
    if (!plot.facet.empty()) {
      std::vector<const std::vector<std::string>*> all;
      for (const auto& row : results.rows) all.push_back(&row);
      facets = Distinct(all, results.Column(plot.facet));
    }
    for (const std::string& facet : facets) {
      const std::string name = facet.empty() ? plot.name : plot.name + "_" + Slug(facet);
      const std::string stem = fs::absolute(plots / name).string();
      const std::string image = stem + "." + spec.plot_format;
      std::string title = plot.title.empty() ? spec.name + ": " + plot.y + " vs " + plot.x : plot.title;
      if (!facet.empty()) title += " (" + plot.facet + "=" + facet + ")";
      const auto rows = Select(plot, results, facet);
      const bool written = plot.kind == "trace"
                               ? WriteTracePlot(spec, plot, dir, results, rows, stem, title, image)
                               : WriteSummary(spec, plot, results, rows, stem, title, image);
      if (!written) continue;
      out.scripts.push_back(stem + ".gp");
      if (gnuplot.empty()) continue;
      if (RunGnuplot(gnuplot, stem + ".gp", log) && fs::exists(image)) {
        out.images.push_back(image);
      } else {
        out.note = "gnuplot failed on " + stem + ".gp (see " + log + ")";
      }
    }
  }
  if (gnuplot.empty() && !out.scripts.empty()) {
    out.note = "gnuplot not found (Debian package gnuplot-nox): plots not drawn; draw them later "
               "with: gnuplot " + (plots / "*.gp").string();
  }
  return out;
}

}  // namespace gauss::cli
