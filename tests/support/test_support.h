// Helpers shared by the test executables: where the models are, and small comparisons.
#pragma once

#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/model.h"

namespace gauss::test {

// A model shipped in the repository's models/ directory.
std::string RepoModel(const std::string& name);
// A model in tests/models/ (small hand-written test models).
std::string TestModel(const std::string& name);
// A model in ../shared/models/ (e.g. "gymnasium/ant.xml").
std::string SharedModel(const std::string& name);
// A model of the MuJoCo sample set (/usr/share/mujoco/model/...), e.g. "humanoid/humanoid.xml".
std::string MujocoSampleModel(const std::string& name);
// Every .xml file in ../shared/models/gymnasium, sorted.
std::vector<std::string> GymnasiumModels();

// The build tree's directory of test-only plugins.
std::string TestPluginDir();
// The build tree's bin/ directory (the gauss executable).
std::string BinaryDir();

// The kinematic tree of the body named `body` (fails the test and returns -1 when absent).
int Tree(const Model& m, const char* body);

// Whether a and b hold the same doubles bit for bit (+0 and -0 differ; for checks that an
// optimisation or a thread count changes no bit of a result).
bool SameBits(const std::vector<double>& a, const std::vector<double>& b);

// max_i |a_i - b_i| / max(1, |b_i|)
double MaxRelError(const double* a, const double* b, int n);

// A CSV text without one column (by header name; the text unchanged if it has none). Traces
// are deterministic except their wall-clock column step_rate, which comparisons drop.
std::string DropCsvColumn(const std::string& csv, const std::string& column);

// The message of the gauss::Error that f() throws, or "" when it throws none.
template <class F>
std::string ErrorMessage(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace gauss::test
