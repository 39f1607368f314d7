// Running the `gauss` binary from tests: exit status, stdout and stderr of one invocation, a
// scratch directory per test, and a small CSV reader for the files the program writes.
#pragma once

#include <string>
#include <vector>

namespace gauss::test {

struct CliResult {
  int status = -1;       // exit status; -1 if the process did not exit normally (a crash)
  bool crashed = false;  // killed by a signal
  std::string out;       // stdout
  std::string err;       // stderr
};

// Runs `bin/gauss <args>` (args already shell-quoted where needed) with stdout and stderr
// captured to files in the scratch directory.
CliResult RunGauss(const std::string& args);

// A fresh, empty directory for the current test (under ::testing::TempDir()).
std::string ScratchDir();
// Writes `text` to ScratchDir()/name and returns the path.
std::string WriteScratch(const std::string& name, const std::string& text);
std::string ReadFile(const std::string& path);

// A CSV file as written by gauss: header names and numeric rows.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  // Value of column `name` in row `row`; fails the test if the column is absent.
  double At(int row, const std::string& name) const;
};
Csv ReadCsvFile(const std::string& path);

}  // namespace gauss::test
