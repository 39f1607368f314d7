// CSV input and output of the `gauss` program, in the conventions of the mjref reference tool:
// one header row of column names, numbers only, every double written with "%.17g" so that it
// reads back bit-identically.
//
// Columns are matched by header name, never by position, and named <prefix><index>
// (qpos0, qpos1, ..., ctrl3); ColumnGroups maps such names back to (prefix, index).
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace gauss::cli {

// A whole CSV file of numbers.
struct CsvTable {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;  // each of header.size() values
  std::vector<int> row_line;              // 1-based line in the file of each row

  // Index of the column named `name`, -1 if absent.
  int Column(const std::string& name) const;
};

// Reads a CSV file; throws gauss::Error naming the file, line and column for a missing file,
// an empty file, an empty or duplicate column name, a row with the wrong number of fields or a
// field that is not a number.
CsvTable ReadCsv(const std::string& path);

// "<prefix>0" .. "<prefix>{n-1}".
std::vector<std::string> IndexedNames(const std::string& prefix, int n);

// A column name split as <prefix><index>: "qacc_warmstart12" -> ("qacc_warmstart", 12).
// Without trailing digits, index is -1 ("time" -> ("time", -1)); digits that Gauss never
// writes (a leading zero as in "qpos01", or more than 9 digits) give index -2.
struct ColumnName {
  std::string prefix;
  int index = -1;
};
ColumnName SplitColumnName(const std::string& name);

// The temporary name an output is written under until it is complete: "<path>.part".
std::string PartPath(const std::string& path);

// Writes a CSV file row by row, built from column groups: each group is a name prefix, a
// count and a function filling that many values. Adding an output quantity is one AddGroup.
// The rows go to PartPath(path) and Close() renames it to `path`, so that `path` only ever holds
// a complete output; an object destroyed without Close (an error) removes the part file.
class CsvWriter {
 public:
  using Fill = std::function<void(double* out)>;

  // Opens PartPath(path) for writing; throws gauss::Error with the OS error if it cannot.
  explicit CsvWriter(const std::string& path);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  // A single column named `name` (count 1, no index suffix).
  void AddScalar(const std::string& name, std::function<double()> value);
  // Columns prefix0..prefix{count-1}.
  void AddGroup(const std::string& prefix, int count, Fill fill);
  // Columns with the given names (e.g. a matrix's "A_0_0", "A_0_1", ...).
  void AddNamed(std::vector<std::string> names, Fill fill);

  // Writes the header row (once; WriteRow and Close call it when needed).
  void WriteHeader();
  // Writes the header on the first call, then one row from the current values of the groups.
  void WriteRow();
  int rows() const { return rows_; }
  const std::string& path() const { return path_; }

  // Flushes, closes and renames the part file to path(); throws gauss::Error on a write
  // failure (e.g. disk full), with the OS error.
  void Close();
  // Flushes and closes, keeping the rows written so far in PartPath(path()) (an interrupted
  // run: the file ends with the last whole row; path() is not touched).
  void CloseIncomplete();

 private:
  struct Group {
    std::vector<std::string> names;
    Fill fill;
  };
  std::string path_;
  std::string part_path_;
  std::FILE* file_ = nullptr;
  std::vector<Group> groups_;
  std::vector<double> buffer_;
  bool header_written_ = false;
  int rows_ = 0;
};

}  // namespace gauss::cli
