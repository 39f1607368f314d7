#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace gauss::test {

std::string RepoModel(const std::string& name) { return std::string(GAUSS_SOURCE_DIR) + "/models/" + name; }
std::string TestModel(const std::string& name) { return std::string(GAUSS_SOURCE_DIR) + "/tests/models/" + name; }
std::string SharedModel(const std::string& name) { return std::string(GAUSS_SHARED_DIR) + "/models/" + name; }
std::string MujocoSampleModel(const std::string& name) { return "/usr/share/mujoco/model/" + name; }

std::vector<std::string> GymnasiumModels() {
  std::vector<std::string> out;
  // called while tests are being listed: a missing folder must not abort the whole program
  // (the tests that load shared models then fail, naming the path)
  std::error_code error;
  std::filesystem::directory_iterator it(SharedModel("gymnasium"), error);
  if (error) {
    std::fprintf(stderr, "warning: no Gymnasium models at %s (%s); set -DGAUSS_SHARED_DIR\n",
                 SharedModel("gymnasium").c_str(), error.message().c_str());
    return out;
  }
  for (const auto& entry : it) {
    if (entry.path().extension() == ".xml") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string TestPluginDir() { return GAUSS_TEST_PLUGIN_DIR; }
std::string BinaryDir() { return std::string(GAUSS_BINARY_DIR) + "/bin"; }

int Tree(const Model& m, const char* body) {
  for (int b = 0; b < m.nbody; ++b) {
    if (m.body_name[b] == body) return m.body_treeid[b];
  }
  ADD_FAILURE() << "no body " << body;
  return -1;
}

bool SameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

double MaxRelError(const double* a, const double* b, int n) {
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i])));
  }
  return worst;
}

std::string DropCsvColumn(const std::string& csv, const std::string& column) {
  std::istringstream in(csv);
  std::string line, out;
  int drop = -1;
  bool header = true;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    std::string cell;
    while (std::getline(fields, cell, ',')) cells.push_back(cell);
    if (header) {
      for (std::size_t c = 0; c < cells.size(); ++c) {
        if (cells[c] == column) drop = static_cast<int>(c);
      }
      header = false;
    }
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (static_cast<int>(c) == drop) continue;
      if (!out.empty() && out.back() != '\n') out += ',';
      out += cells[c];
    }
    out += '\n';
  }
  return out;
}

}  // namespace gauss::test
