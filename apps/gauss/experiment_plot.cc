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
#include <set>
#include <sstream>

#include "experiment_labels.h"
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

// The image files of a plot: <stem>.svg and/or <stem>.png (plot_format).
std::vector<std::string> Images(const ExperimentSpec& spec, const std::string& stem) {
  std::vector<std::string> out;
  if (spec.plot_format != "png") out.push_back(stem + ".svg");
  if (spec.plot_format != "svg") out.push_back(stem + ".png");
  return out;
}

// The terminal line of one image format.
std::string Terminal(const std::string& image) {
  if (image.size() > 4 && image.compare(image.size() - 4, 4, ".png") == 0) {
    return "set terminal pngcairo size 960,600 noenhanced font \"sans,11\"\n";
  }
  return "set terminal svg size 720,450 dynamic noenhanced font \"sans,11\" background \"white\"\n";
}

// The lines common to every script before its plot command: title, axis labels with units,
// log axes with scientific tick labels, equal aspect for a position path (x and y in metres).
std::string Preamble(const PlotSpec& plot, const std::string& title) {
  std::ostringstream gp;
  gp << "set title " << Quote(title) << "\n";
  gp << "set xlabel " << Quote(plot.xlabel.empty() ? ColumnLabel(plot.x) : plot.xlabel) << "\n";
  gp << "set ylabel " << Quote(plot.ylabel.empty() ? ColumnLabel(plot.y) : plot.ylabel) << "\n";
  gp << "set grid\nset key below\nset datafile missing \"nan\"\n";
  if (plot.logx) gp << "set logscale x\nset format x \"%.0e\"\n";
  if (plot.logy) gp << "set logscale y\nset format y \"%.0e\"\n";
  if (plot.kind == "trace" && ColumnUnit(plot.x) == "m" && ColumnUnit(plot.y) == "m") {
    gp << "set size ratio -1\n";  // a path in the plane: one metre is as long on both axes
  }
  return gp.str();
}

// (plot command) => the whole script: preamble, then the plot once per image format.
std::string Script(const ExperimentSpec& spec, const PlotSpec& plot, const std::string& stem,
                   const std::string& title, const std::string& setup, const std::string& command) {
  std::string gp = Preamble(plot, title) + setup;
  for (const std::string& image : Images(spec, stem)) {
    gp += Terminal(image) + "set output " + Quote(image) + "\n" + command + "unset output\n";
  }
  return gp;
}

// y statistics over the repeats of one (group, x): mean, min, max of the finite values.
struct Spread {
  double sum = 0, min = 0, max = 0;
  int n = 0;
  void Add(double y) {
    min = n ? std::min(min, y) : y;
    max = n ? std::max(max, y) : y;
    sum += y;
    ++n;
  }
  double Mean() const { return sum / n; }
};

// The bottom of a log axis: a decade below the smallest positive value (1e-16 when none is).
double LogFloor(const std::map<std::pair<std::string, std::string>, Spread>& cells) {
  double smallest = 0;
  for (const auto& [key, s] : cells) {
    for (double v : {s.Mean(), s.min}) {
      if (v > 0 && (smallest == 0 || v < smallest)) smallest = v;
    }
  }
  return smallest > 0 ? std::pow(10.0, std::floor(std::log10(smallest)) - 1) : 1e-16;
}

// (selected rows) => data file and script of a summary plot. Returns false when no row has a
// finite y (nothing to draw). Repeats give the mean and min-max error bars; on a log y axis,
// values <= 0 are drawn at the axis floor with their own marker and legend entry.
bool WriteSummary(const ExperimentSpec& spec, const PlotSpec& plot, const ResultTable& results,
                  const std::vector<const std::vector<std::string>*>& rows, const std::string& stem,
                  const std::string& title) {
  const int xc = results.Column(plot.x), yc = results.Column(plot.y);
  const int gc = plot.group.empty() ? -1 : results.Column(plot.group);
  const std::vector<std::string> xs = Distinct(rows, xc), groups = Distinct(rows, gc);
  bool numeric = plot.style != "bars";
  double unused;
  for (const auto& x : xs) numeric = numeric && ParseNumber(x, &unused);
  std::map<std::pair<std::string, std::string>, Spread> cells;
  int max_n = 0;
  for (const auto* row : rows) {
    double y;
    if (!ParseNumber((*row)[yc], &y) || !std::isfinite(y)) continue;
    Spread& s = cells[{gc < 0 ? "" : (*row)[gc], (*row)[xc]}];
    s.Add(y);
    max_n = std::max(max_n, s.n);
  }
  if (cells.empty()) return false;
  const bool bars = max_n > 1;
  const double floor = plot.logy ? LogFloor(cells) : 0;
  bool zeros = false;
  std::set<std::string> zero_groups;  // groups with a value <= 0 on the log axis
  // (group, x) => "mean min max zero" with NaN for a missing cell; on a log axis a value <= 0
  // moves to the floor (mean: into the "zero" column, so that the line skips it)
  auto cell = [&](const std::string& g, const std::string& x) -> std::string {
    const auto it = cells.find({g, x});
    if (it == cells.end()) return "nan nan nan nan";
    const Spread& s = it->second;
    double mean = s.Mean(), zero = std::nan("");
    if (plot.logy && mean <= 0) {
      zero = floor;
      mean = numeric ? std::nan("") : floor;
      zeros = true;
      zero_groups.insert(g);
    }
    const double lo = plot.logy ? std::max(s.min, floor) : s.min;
    const double hi = plot.logy ? std::max(s.max, floor) : s.max;
    return FormatNumber(mean) + " " + FormatNumber(lo) + " " + FormatNumber(hi) + " " + FormatNumber(zero);
  };
  std::ofstream dat(stem + ".dat"), gp(stem + ".gp");
  const std::string label = plot.group.empty() ? ColumnLabel(plot.y) : plot.group + "=";
  std::ostringstream setup, command;
  std::string note;  // the legend's title: what the bars are, where zeros are
  if (bars) {
    note = "mean of up to " + std::to_string(max_n) + " runs; bars: min-max";
  }
  if (plot.logy) setup << "set yrange [" << FormatNumber(floor) << ":*]\n";
  if (numeric) {
    std::vector<std::string> sorted = xs;
    std::sort(sorted.begin(), sorted.end(), [](const std::string& a, const std::string& b) {
      return std::strtod(a.c_str(), nullptr) < std::strtod(b.c_str(), nullptr);
    });
    dat << "# columns: x mean min max zero-at-floor\n";
    for (std::size_t g = 0; g < groups.size(); ++g) {
      dat << "# " << (plot.group.empty() ? plot.y : plot.group + "=" + groups[g]) << "\n";
      for (const auto& x : sorted) dat << x << " " << cell(groups[g], x) << "\n";
      dat << "\n\n";
    }
    command << "plot ";
    const std::string style = plot.style == "points" ? "points pt 7" : "linespoints pt 7";
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const std::string block = Quote(stem + ".dat") + " index " + std::to_string(g);
      const std::string color = " lc " + std::to_string(g + 1);
      command << (g ? ", \\\n     " : "") << block << " using 1:2 with " << style << " lw 2"
              << color << " title " << Quote(plot.group.empty() ? label : label + groups[g]);
      if (bars) command << ", \\\n     " << block << " using 1:2:3:4 with yerrorbars" << color << " pt 7 notitle";
    }
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (!zero_groups.count(groups[g])) continue;
      const std::string name = plot.group.empty() ? ColumnLabel(plot.y) : label + groups[g];
      command << ", \\\n     " << Quote(stem + ".dat") << " index " << g
              << " using 1:5 with points pt 6 ps 1.6 lc " << g + 1 << " title "
              << Quote(name + ": exactly 0 (open circles, drawn at " + FormatNumber(floor) + ")");
    }
    command << "\n";
  } else {
    dat << Quote(plot.x);
    for (const auto& g : groups) {
      const std::string name = plot.group.empty() ? ColumnLabel(plot.y) : label + g;
      dat << " " << Quote(name) << " " << Quote(name + " min") << " " << Quote(name + " max") << " \"zero\"";
    }
    dat << "\n";
    for (const auto& x : xs) {
      dat << Quote(x);
      for (const auto& g : groups) dat << " " << cell(g, x);
      dat << "\n";
    }
    setup << "set style data histograms\nset style fill solid 0.85 border -1\nset boxwidth 0.9\n";
    setup << (bars ? "set style histogram errorbars gap 1 lw 1\n" : "set style histogram clustered gap 1\n");
    if (!plot.logy) setup << "set yrange [0:*]\n";
    if (zeros) {
      note += (note.empty() ? "" : "; ") + std::string("bars at the floor ") + FormatNumber(floor) +
              " are exactly 0";
    }
    const std::string n = std::to_string(groups.size() - 1);
    command << "plot for [i=0:" << n << "] " << Quote(stem + ".dat")
            << (bars ? " using 2+4*i:3+4*i:4+4*i:xtic(1)" : " using 2+4*i:xtic(1)")
            << " title columnheader(2+4*i)\n";
  }
  if (!note.empty()) setup << "set key title " << Quote(note) << "\n";
  gp << Script(spec, plot, stem, title, setup.str(), command.str());
  return true;
}

// (selected rows) => data file (one block per run, from its trace) and script of a trace plot.
bool WriteTracePlot(const ExperimentSpec& spec, const PlotSpec& plot, const std::string& dir,
                    const ResultTable& results,
                    const std::vector<const std::vector<std::string>*>& rows,
                    const std::string& stem, const std::string& title) {
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
  std::ostringstream command;
  command << "plot ";
  for (std::size_t i = 0; i < labels.size(); ++i) {
    command << (i ? ", \\\n     " : "") << Quote(stem + ".dat") << " index " << i
            << " using 1:2 with " << (plot.style == "points" ? "points pt 7" : "lines") << " lw 2 title "
            << Quote(labels[i]);
  }
  command << "\n";
  std::ofstream gp(stem + ".gp");
  gp << Script(spec, plot, stem, title, "", command.str());
  return true;
}

// Runs `gnuplot script` with its output in log; true on exit status 0.
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

}  // namespace

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
      std::string title = plot.title.empty()
                              ? spec.name + ": " + ColumnLabel(plot.y) + " vs " + ColumnLabel(plot.x)
                              : plot.title;
      if (!facet.empty()) title += " (" + plot.facet + "=" + facet + ")";
      const auto rows = Select(plot, results, facet);
      const bool written = plot.kind == "trace"
                               ? WriteTracePlot(spec, plot, dir, results, rows, stem, title)
                               : WriteSummary(spec, plot, results, rows, stem, title);
      if (!written) continue;
      out.scripts.push_back(stem + ".gp");
      if (gnuplot.empty()) continue;
      const std::vector<std::string> images = Images(spec, stem);
      bool drawn = RunGnuplot(gnuplot, stem + ".gp", log);
      for (const std::string& image : images) drawn = drawn && fs::exists(image);
      if (drawn) {
        out.images.insert(out.images.end(), images.begin(), images.end());
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
