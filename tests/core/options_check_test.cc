// Numbers that can only make a run meaningless or exhaust memory are refused, with one
// validation whatever their source (core/src/options_check.cc, the MJCF number parser,
// core/src/input_file.cc): inf is refused wherever nan is, a zero or negative timestep and
// negative fluid density/viscosity are refused from MJCF, YAML and --set alike, iteration counts
// and buffer sizes beyond the documented maxima are refused, and only regular files within the
// input size limit are read.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <string>

#include "gauss/config.h"
#include "gauss/error.h"
#include "gauss/input_file.h"
#include "gauss/mjcf.h"
#include "options_check.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// MJCF of one free box with `option` attributes and `geom` attributes spliced in.
std::string Model(const std::string& option, const std::string& geom = "size=\"0.1 0.1 0.1\"",
                  const std::string& body = "pos=\"0 0 1\"", const std::string& joint = "") {
  return "<mujoco><option " + option + "/><worldbody><body " + body + "><joint type=\"hinge\" " +
         joint + "/><geom type=\"box\" " + geom + "/></body></worldbody></mujoco>";
}

// The message of the error loading `xml` throws ("" when it loads).
std::string LoadError(const std::string& xml) {
  try {
    LoadModelFromString(xml);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(OptionsCheck, InfIsRefusedWhereverNanIs) {
  ASSERT_EQ(LoadError(Model("")), "");
  const struct {
    std::string xml, attribute;
  } cases[] = {
      {Model("", "size=\"0.1 0.1 0.1\" mass=\"inf\""), "mass"},
      {Model("", "size=\"0.1 0.1 0.1\" density=\"-inf\""), "density"},
      {Model("", "size=\"inf 0.1 0.1\""), "size"},
      {Model("", "size=\"0.1 0.1 0.1\" friction=\"inf\""), "friction"},
      {Model("", "size=\"0.1 0.1 0.1\"", "pos=\"0 0 Infinity\""), "pos"},
      {Model("", "size=\"0.1 0.1 0.1\"", "pos=\"0 0 1\"", "damping=\"inf\""), "damping"},
      {Model("", "size=\"0.1 0.1 0.1\"", "pos=\"0 0 1\"", "stiffness=\"INF\""), "stiffness"},
      {Model("", "size=\"0.1 0.1 0.1\"", "pos=\"0 0 1\"", "armature=\"inf\""), "armature"},
      {Model("gravity=\"0 0 -inf\""), "gravity"},
  };
  for (const auto& c : cases) {
    const std::string error = LoadError(c.xml);
    EXPECT_TRUE(Contains(error, "attribute '" + c.attribute + "'")) << c.xml << "\n" << error;
    EXPECT_TRUE(Contains(error, "is not a finite number")) << error;
  }
  EXPECT_TRUE(Contains(LoadError(Model("", "size=\"0.1 0.1 0.1\" mass=\"nan\"")), "is not a number"));
}

TEST(OptionsCheck, OneValidationForMjcfYamlAndSet) {
  const struct {
    std::string mjcf_option, key, value, expected;
  } cases[] = {
      {"timestep=\"0\"", "timestep", "0", "timestep must be a finite number > 0, got 0"},
      {"timestep=\"-2\"", "timestep", "-2", "timestep must be a finite number > 0, got -2"},
      {"density=\"-1\"", "", "", "density must be a finite number >= 0, got -1"},
      {"viscosity=\"-0.5\"", "", "", "viscosity must be a finite number >= 0, got -0.5"},
      {"iterations=\"2147483647\"", "solver.iterations", "2147483647",
       "iterations must be in [0, 100000], got 2147483647"},
  };
  for (const auto& c : cases) {
    const std::string error = LoadError(Model(c.mjcf_option));
    EXPECT_TRUE(Contains(error, c.expected)) << c.mjcf_option << ": " << error;
    if (c.key.empty()) continue;  // fluid properties come from MJCF only
    Config config;
    Options options;
    try {
      ApplySetting(config, c.key + "=" + c.value);
      ApplyConfig(config, options);
      ADD_FAILURE() << "--set " << c.key << "=" << c.value << " accepted";
    } catch (const Error& e) {
      EXPECT_TRUE(Contains(e.what(), c.key == "timestep" ? "timestep" : "iterations must be in [0, 100000]"))
          << e.what();
    }
  }
  Options fine;
  EXPECT_EQ(CheckOptions(fine).field, nullptr);
  fine.iterations = kMaxSolverIterations;
  EXPECT_EQ(CheckOptions(fine).field, nullptr);
  fine.iterations = kMaxSolverIterations + 1;
  EXPECT_STREQ(CheckOptions(fine).field, "iterations");
}

TEST(OptionsCheck, BufferSizesBeyondTheirMaximaAreRefused) {
  const std::string xml = "<mujoco><size nconmax=\"2000000000\"/><worldbody/></mujoco>";
  EXPECT_TRUE(Contains(LoadError(xml), "2000000000 is beyond the limit of 1000000"))
      << LoadError(xml);
}

TEST(InputFile, OnlyRegularFilesWithinTheLimitAreRead) {
  std::string text, reason;
  EXPECT_FALSE(ReadInputFile("/dev/zero", &text, &reason));
  EXPECT_EQ(reason, "is not a regular file (a device, a FIFO or a socket)");
  EXPECT_FALSE(ReadInputFile("/tmp", &text, &reason));
  EXPECT_EQ(reason, "is a directory, not a file");
  const std::string path = test::RepoModel("double_pendulum.xml");
  ASSERT_TRUE(ReadInputFile(path, &text, &reason)) << reason;
  ASSERT_GT(text.size(), 100u);
  setenv("GAUSS_MAX_INPUT_BYTES", "100", 1);
  EXPECT_EQ(MaxInputBytes(), 100u);
  EXPECT_FALSE(ReadInputFile(path, &text, &reason));
  EXPECT_TRUE(Contains(reason, "more than the input size limit of 100 bytes")) << reason;
  try {
    LoadModel(path);
    ADD_FAILURE() << "a model beyond the input size limit was loaded";
  } catch (const Error& e) {
    EXPECT_TRUE(Contains(e.what(), "GAUSS_MAX_INPUT_BYTES")) << e.what();
  }
  unsetenv("GAUSS_MAX_INPUT_BYTES");
  EXPECT_EQ(MaxInputBytes(), 256u << 20);
}

TEST(InputFile, IncludeOfADeviceIsRefused) {
  const std::string xml = "<mujoco><include file=\"/dev/zero\"/><worldbody/></mujoco>";
  const std::string error = LoadError(xml);
  EXPECT_TRUE(Contains(error, "is not a regular file")) << error;
}

}  // namespace
}  // namespace gauss
