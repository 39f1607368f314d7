// MJCF <composite> against MuJoCo 2.2.2.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "reference/model_compare.h"
#include "reference/mujoco_reference.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

std::vector<std::string> CompositeSamples() {
  std::vector<std::string> out;
  for (const char* name : {"composite/particle.xml", "composite/grid2pin.xml",
                           "composite/rope.xml", "composite/loop.xml", "composite/cloth.xml",
                           "composite/softbox.xml", "flag/flag.xml"}) {
    out.push_back(MujocoSampleModel(name));
  }
  return out;
}

void CheckCompiled(const std::string& path) {
  SCOPED_TRACE(path);
  std::cout << "  " << path;
  MjModelPtr mj = LoadMujoco(path);
  ASSERT_NE(mj, nullptr);
  std::shared_ptr<const Model> g;
  try {
    g = LoadModel(path);
  } catch (const Error& e) {
    FAIL() << "gauss refused a model MuJoCo accepts: " << e.what();
  }
  EXPECT_EQ(CompareModels(*g, mj.get()), "");
}

TEST(CompositeReference, SampleModelsCompileAsMujoco) {
  for (const std::string& path : CompositeSamples()) CheckCompiled(path);
}

}  // namespace
}  // namespace gauss::test
