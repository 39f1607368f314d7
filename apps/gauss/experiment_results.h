// The files of an experiment's output directory: results.csv (one tidy row per run), the
// per-run traces and the resolved configuration of every sweep point.
//
// results.csv is appended and flushed as each run finishes, so that an interrupted experiment
// (Ctrl-C, a killed job) leaves complete rows for every finished run; Finalize() rewrites it
// sorted by run id once the workers have stopped.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "experiment_run.h"
#include "experiment_spec.h"

namespace gauss::cli {

// The results as text cells, for plotting and tests: columns and one row per finished run.
struct ResultTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  // Index of a column, -1 if absent.
  int Column(const std::string& name) const;
};

// results.csv columns: run, model, the swept keys (file order), seed, status, reason, the
// metrics (kMetricNames) and config (the point's resolved configuration file).
std::vector<std::string> ResultColumns(const ExperimentSpec& spec);

// One run's identity in the experiment.
struct RunId {
  int id = 0;            // row number in results.csv (points x repeats, points outermost)
  int point = 0;
  int repeat = 0;
  std::uint64_t seed = 0;
};

// The `model` column value of each model: the file stem when the stems are distinct, the path
// as written in the experiment file otherwise.
std::vector<std::string> ModelLabels(const ExperimentSpec& spec);

// "%.12g" for finite numbers, "nan" otherwise (NaN marks a metric that does not apply).
std::string FormatNumber(double value);

class ResultsWriter {
 public:
  // Creates (truncates) dir/results.csv and writes the header. Throws gauss::Error.
  ResultsWriter(const ExperimentSpec& spec, const std::string& dir);
  ~ResultsWriter();
  ResultsWriter(const ResultsWriter&) = delete;
  ResultsWriter& operator=(const ResultsWriter&) = delete;

  // Appends and flushes the row of a finished run (thread-safe).
  void Add(const SweepPoint& point, const RunId& run, const RunResult& result,
           const std::string& config_file);
  // Rewrites results.csv with the rows sorted by run id, and returns them.
  ResultTable Finalize();
  const std::string& path() const { return path_; }

 private:
  std::vector<std::string> labels_;
  std::string path_;
  std::FILE* file_ = nullptr;
  std::mutex mutex_;
  ResultTable table_;
  std::vector<int> ids_;
};

// Writes dir/traces/run_<id>.csv: the columns and the rows of a run's trace.
void WriteTrace(const std::string& dir, int run_id, const std::vector<std::string>& columns,
                const std::vector<double>& trace);
std::string TracePath(const std::string& dir, int run_id);

// Writes dir/configs/point_<k>.yaml (the point's resolved configuration, loadable with
// `gauss run MODEL --config`) and returns its path relative to dir.
std::string WritePointConfig(const std::string& dir, const SweepPoint& point,
                             const std::string& model_path, const Engine& engine);

// Quotes a CSV cell when it holds a comma, a quote or a line break.
std::string CsvCell(const std::string& text);
// Splits one CSV line (as written by CsvCell) into cells.
std::vector<std::string> SplitCsvLine(const std::string& line);

}  // namespace gauss::cli
