// Plugin libraries are probed in a child process before they are loaded (core/src/
// plugin_probe.cc): a library whose load-time constructor crashes is refused with the signal and
// listed among the skipped files, and 300 byte-flipped copies of a working plugin never crash the
// process that lists them; each is either usable, refused or skipped with a reason.
#include "plugin_probe.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/registry.h"
#include "gauss/solver.h"
#include "support/test_support.h"

namespace gauss {
namespace {

namespace fs = std::filesystem;

std::string CaseDir(const std::string& name) { return test::TestPluginDir() + "/" + name; }

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(PluginProbe, HealthyLibraryPasses) {
  const std::string file = fs::canonical(CaseDir("good") + "/libgauss_test_good.so").string();
  const ProbeResult result = ProbePluginLibrary(file, {"gauss_actuator_test_gain"});
  EXPECT_TRUE(result.ok) << result.reason;
}

TEST(PluginProbe, CrashingConstructorIsReportedNotRun) {
  const std::string file =
      fs::canonical(CaseDir("crash_on_load") + "/libgauss_test_crash_on_load.so").string();
  const ProbeResult result = ProbePluginLibrary(file, {"gauss_solver_test_crash_on_load"});
  EXPECT_FALSE(result.ok);
  EXPECT_TRUE(Contains(result.reason, "crashed with SIGSEGV while being loaded")) << result.reason;
}

TEST(PluginProbe, RegistryListsAndSkipsALibraryThatCrashesWhenLoaded) {
  PluginRegistry registry;
  registry.AddSearchPath(CaseDir("crash_on_load"));
  registry.AddSearchPath(CaseDir("good"));
  bool refused = false, good = false;
  for (const PluginInfo& info : registry.List()) {
    if (info.name == "test_crash_on_load") {
      refused = Contains(info.description, "REFUSED") && Contains(info.description, "SIGSEGV");
    }
    if (info.name == "test_gain") good = info.description.rfind("REFUSED", 0) != 0;
  }
  EXPECT_TRUE(refused);
  EXPECT_TRUE(good);  // the healthy library next to it is still usable
  bool skipped = false;
  for (const std::string& line : registry.Skipped()) {
    skipped |= Contains(line, "libgauss_test_crash_on_load.so: crashed with SIGSEGV");
  }
  EXPECT_TRUE(skipped);
  try {
    registry.Create<ConstraintSolver>(PluginKind::kSolver, "test_crash_on_load");
    ADD_FAILURE() << "a library that crashes when loaded was loaded";
  } catch (const Error& e) {
    EXPECT_TRUE(Contains(e.what(), "crashed with SIGSEGV")) << e.what();
  }
}

// 300 byte-flipped copies (fixed seed) are each listed as usable, refused or skipped with a
// reason, and none crashes this process. Damage the dynamic loader would only trip over in some
// processes (symbol-version indices, version chains, hash and relocation tables) is refused by
// CheckElfForLoader before the probe, so the probe's load and the real load agree.
TEST(PluginProbe, ByteFlippedCopiesNeverCrashTheLister) {
  const std::string original = CaseDir("good") + "/libgauss_test_good.so";
  std::ifstream in(original, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  const fs::path root = fs::temp_directory_path() / ("gauss_flipped_" + std::to_string(getpid()));
  fs::remove_all(root);
  std::mt19937_64 gen(19);
  std::uniform_int_distribution<std::size_t> position(0, bytes.size() - 1);
  std::uniform_int_distribution<int> mask(1, 255);
  constexpr int kCopies = 300;
  int usable = 0, refused = 0, skipped = 0, probe_crashes = 0;
  for (int copy = 0; copy < kCopies; ++copy) {
    std::vector<char> flipped = bytes;
    for (int k = 0; k < 1 + copy % 4; ++k) {  // 1 to 4 flipped bytes
      flipped[position(gen)] ^= static_cast<char>(mask(gen));
    }
    const fs::path dir = root / std::to_string(copy);
    fs::create_directories(dir);
    std::ofstream(dir / "libgauss_test_good.so", std::ios::binary)
        .write(flipped.data(), static_cast<std::streamsize>(flipped.size()));
    PluginRegistry registry;
    registry.AddSearchPath(dir.string());
    bool listed_usable = false, listed_refused = false;
    for (const PluginInfo& info : registry.List()) {
      if (info.file.rfind(dir.string(), 0) != 0) continue;  // the build tree's own plugins
      (info.description.rfind("REFUSED", 0) == 0 ? listed_refused : listed_usable) = true;
    }
    bool listed_skipped = false;
    for (const std::string& line : registry.Skipped()) {
      if (line.rfind(dir.string(), 0) != 0) continue;
      listed_skipped = true;
      EXPECT_GT(line.size(), dir.string().size() + 20) << "a skip without a reason: " << line;
      probe_crashes += Contains(line, "probe process");
    }
    usable += listed_usable && !listed_refused;
    refused += listed_refused;
    skipped += listed_skipped && !listed_usable && !listed_refused;
    EXPECT_TRUE(listed_usable || listed_refused || listed_skipped)
        << "copy " << copy << " vanished without a word";
  }
  fs::remove_all(root);
  std::printf("byte-flipped copies: %d usable, %d refused, %d skipped (%d crashed or hung in a "
              "probe process)\n", usable, refused, skipped, probe_crashes);
  EXPECT_EQ(usable + refused + skipped, kCopies);
}

}  // namespace
}  // namespace gauss
