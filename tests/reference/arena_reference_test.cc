// The scratch-arena check of tests/core/arena_test.cc on MuJoCo's sample models
// (/usr/share/mujoco/model, hence the `reference` label; MuJoCo itself is not run): every
// sample Gauss loads, simulated for 200 steps (60 for the many-body ones, 20 above 200 dofs)
// with every discovered solver x integrator pair, stays within the arena the declared plans
// sized, never grows it and allocates nothing on the heap after the first step.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/scratch_check.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// Every sample model file Gauss loads (some samples use features it refuses; those are skipped
// here, their errors are tested elsewhere).
std::vector<std::string> SampleModels() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(MujocoSampleModel(""), ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().extension() != ".xml") continue;
    try {
      LoadModel(it->path().string());
    } catch (const Error&) {
      continue;
    }
    out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class SampleScratchPlans : public ::testing::TestWithParam<std::string> {};

TEST_P(SampleScratchPlans, EverySolverAndIntegratorStaysWithinTheArena) {
  const std::string& path = GetParam();
  // fewer steps for the big ones (the composite samples: up to 3000 dofs, x every pair)
  const auto model = LoadModel(path);
  const int steps = model->nv > 200 ? 20 : model->nbody > 50 ? 60 : 200;
  const ScratchRun run = CheckScratch(path, steps);
  EXPECT_GE(run.combinations + run.refused, 12);
  RecordProperty("combinations", run.combinations);
  RecordProperty("with_contacts", run.with_contacts);
  RecordProperty("worst_use", std::to_string(run.worst_use));
}

INSTANTIATE_TEST_SUITE_P(Samples, SampleScratchPlans, ::testing::ValuesIn(SampleModels()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = std::filesystem::path(info.param)
                                                  .lexically_relative(MujocoSampleModel(""))
                                                  .replace_extension("")
                                                  .string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(SampleScratchPlans, SamplesAreThere) { EXPECT_GE(SampleModels().size(), 5u); }

}  // namespace
}  // namespace gauss::test
