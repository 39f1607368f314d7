// Helpers of the experiment tests: running `gauss experiment` into a scratch directory and
// reading its results.csv (text cells: model names, statuses and reasons sit beside numbers).
#pragma once

#include <string>
#include <vector>

#include "cli_harness.h"

namespace gauss::test {

// results.csv (or a trace) as text cells, with typed access by column name.
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;

  // Index of a column; fails the test (and returns -1) when absent.
  int Column(const std::string& name) const;
  const std::string& Text(int row, const std::string& column) const;
  // The cell as a number; "nan" gives NaN, anything else unparsable fails the test.
  double Number(int row, const std::string& column) const;
  // Indices of the rows whose `column` equals each of the given values.
  std::vector<int> Where(const std::vector<std::pair<std::string, std::string>>& equal) const;
};
Table ReadTable(const std::string& path);

// A shipped experiment file, config/experiments/<name>.yaml.
std::string ShippedExperiment(const std::string& name);

// `gauss experiment <args> --out <ScratchDir()/out>`; returns the result, `out` the directory.
CliResult RunExperiment(const std::string& args, std::string* out);

// The gnuplot program on PATH, "" when absent (plots are then only scripts).
std::string FindGnuplotForTest();

// True when the file exists and is a non-empty SVG document.
bool IsSvg(const std::string& path);

}  // namespace gauss::test
