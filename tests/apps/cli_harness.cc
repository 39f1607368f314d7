// Process and file helpers for the CLI tests (see cli_harness.h).
#include "cli_harness.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/test_support.h"

namespace gauss::test {

namespace fs = std::filesystem;

std::string ScratchDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "none";
  const fs::path dir = fs::path(::testing::TempDir()) / "gauss_cli_tests" / name;
  static std::string created;  // each test starts from an empty directory
  if (created != dir.string()) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    created = dir.string();
  }
  return dir.string();
}

std::string WriteScratch(const std::string& name, const std::string& text) {
  const std::string path = ScratchDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

CliResult RunGauss(const std::string& args) {
  const std::string dir = ScratchDir();
  const std::string out = dir + "/.stdout";
  const std::string err = dir + "/.stderr";
  const std::string command =
      "'" + BinaryDir() + "/gauss' " + args + " >'" + out + "' 2>'" + err + "'";
  const int raw = std::system(command.c_str());
  CliResult r;
  if (raw != -1 && WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
  // The shell reports a child killed by signal N as exit status 128+N.
  r.crashed = raw == -1 || !WIFEXITED(raw) || r.status >= 128;
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

double Csv::At(int row, const std::string& name) const {
  for (size_t c = 0; c < header.size(); ++c) {
    if (header[c] == name) return rows.at(row).at(c);
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

Csv ReadCsvFile(const std::string& path) {
  Csv csv;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream s(line);
    for (std::string f; std::getline(s, f, ',');) fields.push_back(f);
    if (first) {
      csv.header = fields;
      first = false;
      continue;
    }
    std::vector<double> row;
    for (const auto& f : fields) row.push_back(std::strtod(f.c_str(), nullptr));
    EXPECT_EQ(row.size(), csv.header.size()) << path << ": " << line;
    csv.rows.push_back(row);
  }
  return csv;
}

}  // namespace gauss::test
