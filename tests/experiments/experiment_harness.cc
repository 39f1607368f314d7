// Helpers of the experiment tests (experiment_harness.h).
#include "experiment_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>

#include "support/test_support.h"

namespace gauss::test {
namespace {

// One CSV line into cells; double quotes group a cell that holds commas ("" is a quote).
std::vector<std::string> SplitLine(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

}  // namespace

int Table::Column(const std::string& name) const {
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c] == name) return static_cast<int>(c);
  }
  ADD_FAILURE() << "no column '" << name << "'";
  return -1;
}

const std::string& Table::Text(int row, const std::string& column) const {
  static const std::string missing;
  const int c = Column(column);
  return c < 0 ? missing : rows.at(row).at(c);
}

double Table::Number(int row, const std::string& column) const {
  const std::string& text = Text(row, column);
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  EXPECT_TRUE(!text.empty() && end == text.c_str() + text.size())
      << "row " << row << " column " << column << ": '" << text << "' is not a number";
  return value;
}

std::vector<int> Table::Where(const std::vector<std::pair<std::string, std::string>>& equal) const {
  std::vector<int> out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    bool keep = true;
    for (const auto& [column, value] : equal) keep = keep && Text(static_cast<int>(r), column) == value;
    if (keep) out.push_back(static_cast<int>(r));
  }
  return out;
}

Table ReadTable(const std::string& path) {
  Table t;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::string line;
  if (std::getline(in, line)) t.columns = SplitLine(line);
  while (std::getline(in, line)) {
    t.rows.push_back(SplitLine(line));
    EXPECT_EQ(t.rows.back().size(), t.columns.size()) << path << ": incomplete row: " << line;
  }
  return t;
}

std::string ShippedExperiment(const std::string& name) {
  return std::string(GAUSS_SOURCE_DIR) + "/config/experiments/" + name + ".yaml";
}

CliResult RunExperiment(const std::string& args, std::string* out) {
  const std::string dir = ScratchDir() + "/out";
  if (out) *out = dir;
  return RunGauss("experiment " + args + " --out '" + dir + "'");
}

std::string FindGnuplotForTest() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, end - start) + "/gnuplot";
    if (end > start && std::filesystem::exists(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

bool IsSvg(const std::string& path) {
  const std::string text = ReadFile(path);
  return text.find("<svg") != std::string::npos && text.find("</svg>") != std::string::npos;
}

}  // namespace gauss::test
