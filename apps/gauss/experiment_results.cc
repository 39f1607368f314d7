// Output files of `gauss experiment` (experiment_results.h).
#include "experiment_results.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>

#include "common.h"
#include "gauss/error.h"

namespace gauss::cli {

namespace fs = std::filesystem;

int ResultTable::Column(const std::string& name) const {
  const auto it = std::find(columns.begin(), columns.end(), name);
  return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

std::vector<std::string> ResultColumns(const ExperimentSpec& spec) {
  std::vector<std::string> out = {"run", "model"};
  for (const SweepAxis& axis : spec.sweep) out.push_back(axis.key);
  for (const char* c : {"seed", "status", "reason"}) out.push_back(c);
  for (const char* metric : kMetricNames) out.push_back(metric);
  out.push_back("config");
  return out;
}

std::vector<std::string> ModelLabels(const ExperimentSpec& spec) {
  std::vector<std::string> stems;
  std::set<std::string> distinct;
  for (const std::string& m : spec.models) {
    stems.push_back(fs::path(m).stem().string());
    distinct.insert(stems.back());
  }
  return distinct.size() == stems.size() ? stems : spec.models;
}

std::string FormatNumber(double value) {
  if (!std::isfinite(value)) return "nan";
  char text[32];
  std::snprintf(text, sizeof(text), "%.12g", value);
  return text;
}

std::string CsvCell(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out + "\"";
}

std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else if (c != '\r') {
      cells.back() += c;
    }
  }
  return cells;
}

namespace {

// (cells) => "a,b,c\n"
std::string CsvLine(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + CsvCell(cells[i]);
  return line + "\n";
}

void WriteOrThrow(std::FILE* file, const std::string& text, const std::string& path) {
  if (std::fwrite(text.data(), 1, text.size(), file) != text.size() || std::fflush(file) != 0) {
    throw Error(ErrorLocation{path, 0, "", ""}, "error while writing");
  }
}

}  // namespace

ResultsWriter::ResultsWriter(const ExperimentSpec& spec, const std::string& dir)
    : labels_(ModelLabels(spec)), path_((fs::path(dir) / "results.csv").string()) {
  table_.columns = ResultColumns(spec);
  file_ = std::fopen(path_.c_str(), "w");
  if (!file_) throw Error(ErrorLocation{path_, 0, "", ""}, "cannot write the results");
  WriteOrThrow(file_, CsvLine(table_.columns), path_);
}

ResultsWriter::~ResultsWriter() {
  if (file_) std::fclose(file_);
}

// (point, run, result) => one row appended to results.csv and kept for Finalize.
void ResultsWriter::Add(const SweepPoint& point, const RunId& run, const RunResult& result,
                        const std::string& config_file) {
  std::vector<std::string> row = {std::to_string(run.id), labels_[point.model]};
  row.insert(row.end(), point.values.begin(), point.values.end());
  row.push_back(std::to_string(run.seed));
  row.push_back(RunStatusName(result.status));
  row.push_back(result.reason);
  for (double value : result.metrics) row.push_back(FormatNumber(value));
  row.push_back(config_file);
  std::lock_guard<std::mutex> lock(mutex_);
  WriteOrThrow(file_, CsvLine(row), path_);
  table_.rows.push_back(row);
  ids_.push_back(run.id);
}

ResultTable ResultsWriter::Finalize() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::size_t> order(ids_.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids_[a] < ids_[b]; });
  ResultTable sorted;
  sorted.columns = table_.columns;
  for (std::size_t i : order) sorted.rows.push_back(table_.rows[i]);
  // write a complete sorted copy first, then replace: a crash here still leaves one whole file
  const std::string tmp = path_ + ".tmp";
  std::FILE* out = std::fopen(tmp.c_str(), "w");
  if (!out) throw Error(ErrorLocation{tmp, 0, "", ""}, "cannot write the results");
  std::string text = CsvLine(sorted.columns);
  for (const auto& row : sorted.rows) text += CsvLine(row);
  const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  if (std::fclose(out) != 0 || !ok) throw Error(ErrorLocation{tmp, 0, "", ""}, "error while writing");
  std::fclose(file_);
  file_ = nullptr;
  fs::rename(tmp, path_);
  table_ = sorted;
  return sorted;
}

std::string TracePath(const std::string& dir, int run_id) {
  return (fs::path(dir) / "traces" / ("run_" + std::to_string(run_id) + ".csv")).string();
}

void WriteTrace(const std::string& dir, int run_id, const std::vector<std::string>& columns,
                const std::vector<double>& trace) {
  const std::string path = TracePath(dir, run_id);
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (!file) throw Error(ErrorLocation{path, 0, "", ""}, "cannot write the trace");
  std::string text = CsvLine(columns);
  const std::size_t n = columns.size();
  for (std::size_t r = 0; r + n <= trace.size(); r += n) {
    for (std::size_t c = 0; c < n; ++c) text += (c ? "," : "") + FormatNumber(trace[r + c]);
    text += "\n";
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !ok) {
    throw Error(ErrorLocation{path, 0, "", ""}, "error while writing the trace");
  }
}

std::string WritePointConfig(const std::string& dir, const SweepPoint& point,
                             const std::string& model_path, const Engine& engine) {
  const std::string relative = "configs/point_" + std::to_string(point.index) + ".yaml";
  const std::string path = (fs::path(dir) / relative).string();
  std::ofstream out(path);
  if (!out) throw Error(ErrorLocation{path, 0, "", ""}, "cannot write the configuration");
  out << "# Written by gauss " << Version() << " (gauss experiment), sweep point "
      << point.index << "\n";
  out << "# Model: " << fs::absolute(model_path).lexically_normal().string() << "\n";
  out << ResolvedConfigYaml(engine.config(), engine.options());
  out.close();
  if (!out) throw Error(ErrorLocation{path, 0, "", ""}, "error while writing");
  return relative;
}

}  // namespace gauss::cli
