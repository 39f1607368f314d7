// Tests of core/src/elf_symbols.cc, the checked ELF reader behind plugin discovery: it finds
// the exported entries of each section (also in stripped libraries), and damaged files give
// gauss::Error, never a crash, and never reach boost::dll::library_info unchecked.
#include "elf_symbols.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <boost/dll/library_info.hpp>

#include "gauss/error.h"
#include "support/test_support.h"

namespace gauss {
namespace {

namespace fs = std::filesystem;

std::string Stripped() { return test::TestPluginDir() + "/stripped/libgauss_test_stripped.so"; }
std::string Good() { return test::TestPluginDir() + "/good/libgauss_test_good.so"; }

std::vector<char> ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class ElfSymbolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    scratch_ = fs::temp_directory_path() /
               ("gauss_elf_" + std::to_string(getpid()) + "_" + info->name());
    fs::create_directories(scratch_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(scratch_, ec);
  }
  // Writes `bytes` to a scratch file and returns its path.
  std::string Write(const std::string& name, const std::vector<char>& bytes) {
    const std::string path = (scratch_ / name).string();
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<long>(bytes.size()));
    return path;
  }
  fs::path scratch_;
};

TEST_F(ElfSymbolsTest, FindsEntriesOfEachSection) {
  ElfExports stripped = ReadElfExports(Stripped());
  EXPECT_EQ(stripped.symbols["gsensor"], (std::vector<std::string>{"gauss_sensor_test_constant"}));
  EXPECT_EQ(std::count(stripped.sections.begin(), stripped.sections.end(), "gsensor"), 1);
  EXPECT_EQ(std::count(stripped.sections.begin(), stripped.sections.end(), ".symtab"), 0);
  EXPECT_EQ(stripped.symbols.count("gintegr"), 0u);

  ElfExports good = ReadElfExports(Good());
  EXPECT_EQ(good.symbols["gintegr"], (std::vector<std::string>{"gauss_integrator_test_clock"}));
  EXPECT_EQ(good.symbols["gactuat"], (std::vector<std::string>{"gauss_actuator_test_gain"}));
  EXPECT_EQ(good.symbols["gsolver"], (std::vector<std::string>{"gauss_solver_test_pyramidal"}));
  EXPECT_EQ(good.symbols.count("gsensor"), 0u);
  // The plugin class itself is hidden (gauss_add_plugin builds with hidden visibility): the
  // factory and descriptor are reachable only through the entry.
  for (const auto& [section, names] : good.symbols) {
    for (const std::string& name : names) EXPECT_EQ(name.find("TestGain"), std::string::npos);
  }
}

TEST_F(ElfSymbolsTest, NonElfAndTruncatedFilesAreErrors) {
  EXPECT_THROW(ReadElfExports((scratch_ / "absent.so").string()), Error);
  EXPECT_THROW(ReadElfExports(Write("text.so", {'h', 'i', '\n'})), Error);
  std::vector<char> bytes = ReadAll(Stripped());
  ASSERT_GT(bytes.size(), 1000u);
  bytes.resize(bytes.size() / 2);  // the section table sits at the end of the file
  try {
    ReadElfExports(Write("half.so", bytes));
    ADD_FAILURE() << "a truncated file was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("half.so: truncated or damaged ELF file"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(ElfSymbolsTest, SectionTableOffsetOutsideFileIsAnError) {
  std::vector<char> bytes = ReadAll(Stripped());
  ASSERT_GE(bytes.size(), sizeof(Elf64_Ehdr));
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  header.e_shoff = ~Elf64_Off{0} - 16;  // would wrap around without the overflow check
  std::memcpy(bytes.data(), &header, sizeof(header));
  EXPECT_THROW(ReadElfExports(Write("far.so", bytes)), Error);
}

TEST_F(ElfSymbolsTest, RandomDamageNeverCrashes) {
  // Corrupts bytes of the section table and of the tables it points to; each result must be
  // either a list of names or a gauss::Error, and a file that passes must not upset
  // library_info (which would crash on some of these). Run under valgrind to see invalid reads.
  const std::vector<char> original = ReadAll(Stripped());
  Elf64_Ehdr header;
  std::memcpy(&header, original.data(), sizeof(header));
  ASSERT_LT(header.e_shoff, original.size());
  std::mt19937 rng(20240521);
  std::uniform_int_distribution<std::size_t> where(header.e_shoff, original.size() - 1);
  std::uniform_int_distribution<int> byte(0, 255);
  int errors = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<char> bytes = original;
    for (int k = 0; k < 4; ++k) bytes[where(rng)] = static_cast<char>(byte(rng));
    const std::string path = Write("damaged.so", bytes);
    try {
      const ElfExports exports = ReadElfExports(path);
      for (const auto& [section, names] : exports.symbols) {
        for (const std::string& name : names) EXPECT_LT(name.size(), bytes.size());
      }
      // What the registry does next: a file that passed must be safe for library_info too.
      boost::dll::library_info(path).sections();
    } catch (const std::exception&) {  // gauss::Error, or library_info's own (caught the same)
      ++errors;
    }
  }
  EXPECT_GT(errors, 0);  // the damage did reach the reader's checks
}

}  // namespace
}  // namespace gauss
