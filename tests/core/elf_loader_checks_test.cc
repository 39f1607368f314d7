// Tests of core/src/plugin/elf_loader_checks.cc: each kind of damage the dynamic loader would
// trust is put by hand into a copy of a test plugin (or of libstdc++, the one library at hand
// with version definitions), and must be refused with its reason; the undamaged files pass.
// The registry must list such a copy as skipped with that reason, without probing it.
#include "elf_loader_checks.h"

#include <dlfcn.h>
#include <elf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/registry.h"
#include "gauss/solver.h"
#include "support/test_support.h"

namespace gauss {
namespace {

namespace fs = std::filesystem;

std::string Good() { return test::TestPluginDir() + "/good/libgauss_test_good.so"; }

// The file of the C++ runtime this test runs with (it defines symbol versions).
std::string CxxRuntime() {
  Dl_info info{};
  dladdr(reinterpret_cast<void*>(&std::terminate), &info);
  return info.dli_fname ? info.dli_fname : "";
}

// A copy of an ELF file in memory with typed access to its tables by file offset.
struct Image {
  std::vector<char> bytes;
  template <typename T>
  T* At(std::uint64_t offset) {
    return reinterpret_cast<T*>(bytes.data() + offset);
  }
  Elf64_Ehdr* Header() { return At<Elf64_Ehdr>(0); }
  // (section type) => its header (the first of that type), or null.
  Elf64_Shdr* Section(std::uint32_t type) {
    for (int k = 0; k < Header()->e_shnum; ++k) {
      auto* section = At<Elf64_Shdr>(Header()->e_shoff + k * sizeof(Elf64_Shdr));
      if (section->sh_type == type) return section;
    }
    return nullptr;
  }
  // (tag) => the dynamic entry with that tag, or null.
  Elf64_Dyn* Dynamic(std::int64_t tag) {
    const Elf64_Shdr* dynamic = Section(SHT_DYNAMIC);
    for (std::uint64_t at = 0; at + sizeof(Elf64_Dyn) <= dynamic->sh_size;
         at += sizeof(Elf64_Dyn)) {
      auto* entry = At<Elf64_Dyn>(dynamic->sh_offset + at);
      if (entry->d_tag == tag) return entry;
    }
    return nullptr;
  }
};

Image Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}};
}

class ElfLoaderChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    scratch_ = fs::temp_directory_path() /
               ("gauss_elfload_" + std::to_string(getpid()) + "_" + info->name());
    fs::create_directories(scratch_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(scratch_, ec);
  }
  // (original, damage) => the message CheckElfForLoader refuses the damaged copy with, or
  // "accepted" (the copy is written as scratch/<dir>/libgauss_test_good.so).
  std::string Refusal(const std::string& original, const std::function<void(Image&)>& damage,
                      const std::string& dir = "copy") {
    Image image = Load(original);
    EXPECT_GT(image.bytes.size(), sizeof(Elf64_Ehdr));
    damage(image);
    fs::create_directories(scratch_ / dir);
    path_ = (scratch_ / dir / "libgauss_test_good.so").string();
    std::ofstream(path_, std::ios::binary)
        .write(image.bytes.data(), static_cast<long>(image.bytes.size()));
    try {
      CheckElfForLoader(path_);
    } catch (const Error& e) {
      return e.what();
    }
    return "accepted";
  }
  fs::path scratch_;
  std::string path_;
};

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(ElfLoaderChecksTest, UndamagedLibrariesPass) {
  EXPECT_NO_THROW(CheckElfForLoader(Good()));
  ASSERT_FALSE(CxxRuntime().empty());
  EXPECT_NO_THROW(CheckElfForLoader(CxxRuntime()));
  EXPECT_EQ(Refusal(Good(), [](Image&) {}), "accepted");
}

TEST_F(ElfLoaderChecksTest, VersionIndexThatNoVersionDefinesIsRefused) {
  const std::string why = Refusal(Good(), [](Image& image) {
    const Elf64_Shdr* versions = image.Section(SHT_GNU_versym);
    ASSERT_NE(versions, nullptr);
    image.At<std::uint16_t>(versions->sh_offset)[1] = 0x0077;  // symbol 1: index 119
  });
  EXPECT_TRUE(
      Contains(why, "symbol 1 has version index 119, which no version definition or need defines"))
      << why;
  EXPECT_TRUE(Contains(why, "damaged ELF file, refused before loading")) << why;
  // the hidden bit (0x8000) is not part of the index: 0x8001 is "global, hidden"
  EXPECT_EQ(Refusal(Good(),
                    [](Image& image) {
                      image.At<std::uint16_t>(image.Section(SHT_GNU_versym)->sh_offset)[1] = 0x8001;
                    }),
            "accepted");
}

TEST_F(ElfLoaderChecksTest, VersionNeedChainLeavingTheFileIsRefused) {
  const std::string why = Refusal(Good(), [](Image& image) {
    image.At<Elf64_Verneed>(image.Section(SHT_GNU_verneed)->sh_offset)->vn_next = 0x7fff0000;
  });
  EXPECT_TRUE(Contains(why, "a version need (.gnu.version_r) points outside the file")) << why;
}

TEST_F(ElfLoaderChecksTest, VersionNeedCountsMustMatchTheChains) {
  std::string why = Refusal(Good(), [](Image& image) {
    image.At<Elf64_Verneed>(image.Section(SHT_GNU_verneed)->sh_offset)->vn_cnt = 9;
  });
  EXPECT_TRUE(Contains(why, "a version need has fewer versions than its count")) << why;
  why = Refusal(Good(), [](Image& image) { image.Dynamic(DT_VERNEEDNUM)->d_un.d_val = 1; });
  EXPECT_TRUE(Contains(why, "the version needs (.gnu.version_r) run past their count")) << why;
  why = Refusal(Good(), [](Image& image) {
    auto* need = image.At<Elf64_Verneed>(image.Section(SHT_GNU_verneed)->sh_offset);
    image.At<Elf64_Vernaux>(image.Section(SHT_GNU_verneed)->sh_offset + need->vn_aux)->vna_name =
        0xffffff;
  });
  EXPECT_TRUE(Contains(why, "a needed version has a name outside the string table")) << why;
}

TEST_F(ElfLoaderChecksTest, VersionDefinitionChainsAreChecked) {
  const std::string runtime = CxxRuntime();
  std::string why = Refusal(runtime, [](Image& image) {
    const Elf64_Shdr* defs = image.Section(SHT_GNU_verdef);
    ASSERT_NE(defs, nullptr);
    image.At<Elf64_Verdef>(defs->sh_offset)->vd_next = 0x7fff0000;
  });
  EXPECT_TRUE(Contains(why, "a version definition (.gnu.version_d) points outside the file"))
      << why;
  why = Refusal(runtime, [](Image& image) {
    image.At<Elf64_Verdef>(image.Section(SHT_GNU_verdef)->sh_offset)->vd_aux = 0x7fff0000;
  });
  EXPECT_TRUE(Contains(why, "a version definition name (.gnu.version_d) points outside the file"))
      << why;
  why = Refusal(runtime, [](Image& image) { image.Dynamic(DT_VERDEFNUM)->d_un.d_val = 2; });
  EXPECT_TRUE(Contains(why, "the version definitions (.gnu.version_d) run past their count"))
      << why;
  // an index only a (now removed) definition gave is refused in .gnu.version
  why = Refusal(runtime, [](Image& image) {
    auto* def = image.At<Elf64_Verdef>(image.Section(SHT_GNU_verdef)->sh_offset);
    def = image.At<Elf64_Verdef>(image.Section(SHT_GNU_verdef)->sh_offset + def->vd_next);
    def->vd_ndx = 0x7000;  // the second definition (index 2) now defines 0x7000 instead
  });
  EXPECT_TRUE(Contains(why, "has version index 2, which no version definition or need defines"))
      << why;
}

TEST_F(ElfLoaderChecksTest, HeaderTablesOutsideTheFileAreRefused) {
  std::string why = Refusal(Good(), [](Image& image) { image.Header()->e_phoff = 0x7fffffff; });
  EXPECT_TRUE(Contains(why, "program header table outside the file")) << why;
  why = Refusal(Good(), [](Image& image) { image.Header()->e_shoff = 0x7fffffff; });
  EXPECT_TRUE(Contains(why, "section header table outside the file")) << why;
  why = Refusal(Good(), [](Image& image) {
    for (int k = 0; k < image.Header()->e_phnum; ++k) {
      auto* segment = image.At<Elf64_Phdr>(image.Header()->e_phoff + k * sizeof(Elf64_Phdr));
      if (segment->p_type == PT_LOAD) {
        segment->p_filesz += image.bytes.size();
        segment->p_memsz += image.bytes.size();
        break;
      }
    }
  });
  EXPECT_TRUE(Contains(why, "a loadable segment runs past the end of the file")) << why;
}

TEST_F(ElfLoaderChecksTest, DynamicEntriesPointingOutsideTheFileAreRefused) {
  std::string why =
      Refusal(Good(), [](Image& image) { image.Dynamic(DT_STRTAB)->d_un.d_ptr = 0x7fff0000; });
  EXPECT_TRUE(Contains(why, "the dynamic string table points outside the file")) << why;
  why = Refusal(Good(), [](Image& image) { image.Dynamic(DT_NEEDED)->d_un.d_val = 0xfffff; });
  EXPECT_TRUE(Contains(why, "a dynamic entry has a name outside the string table")) << why;
  why = Refusal(Good(),
                [](Image& image) { image.Dynamic(DT_RELASZ)->d_un.d_val = 0x7fff0000 * 24ull; });
  EXPECT_TRUE(Contains(why, "the relocation table points outside the file")) << why;
  why =
      Refusal(Good(), [](Image& image) { image.Dynamic(DT_INIT_ARRAY)->d_un.d_ptr = 0x7fff0000; });
  EXPECT_TRUE(Contains(why, "the constructor list points outside the file")) << why;
  why = Refusal(Good(), [](Image& image) { image.Dynamic(DT_VERSYM)->d_un.d_ptr = 0x7fff0000; });
  EXPECT_TRUE(Contains(why, "the symbol version table (.gnu.version) points outside the file"))
      << why;
}

TEST_F(ElfLoaderChecksTest, SymbolIndicesBeyondTheTableAreRefused) {
  std::string why = Refusal(Good(), [](Image& image) {
    const std::uint64_t jmprel = image.Dynamic(DT_JMPREL)->d_un.d_ptr;  // address == offset here
    auto* relocation = image.At<Elf64_Rela>(jmprel);
    relocation->r_info = ELF64_R_INFO(5000, ELF64_R_TYPE(relocation->r_info));
  });
  EXPECT_TRUE(Contains(why, "the PLT relocation table names a symbol beyond the symbol table"))
      << why;
  why = Refusal(Good(), [](Image& image) {
    const std::uint64_t at = image.Dynamic(DT_GNU_HASH)->d_un.d_ptr;
    const auto* head = image.At<std::uint32_t>(at);
    image.At<std::uint32_t>(at + 16 + head[2] * 8)[0] = 1;  // bucket 0 names symbol 1
  });
  EXPECT_TRUE(Contains(why, "a GNU hash bucket names a symbol below its first hashed symbol"))
      << why;
}

TEST_F(ElfLoaderChecksTest, RegistrySkipsADamagedCopyWithItsReasonWithoutProbingIt) {
  Refusal(
      Good(),
      [](Image& image) {
        image.At<std::uint16_t>(image.Section(SHT_GNU_versym)->sh_offset)[1] = 0x0077;
      },
      "registry");
  PluginRegistry registry;
  registry.AddSearchPath((scratch_ / "registry").string());
  for (const PluginInfo& info : registry.List()) {
    EXPECT_NE(info.file, path_) << "a damaged copy was listed: " << info.description;
  }
  bool skipped = false;
  for (const std::string& line : registry.Skipped()) {
    if (line.rfind(path_, 0) != 0) continue;
    skipped = true;
    EXPECT_EQ(line,
              path_ +
                  ": damaged ELF file, refused before loading: symbol 1 has version index 119, "
                  "which no version definition or need defines (.gnu.version)");
  }
  EXPECT_TRUE(skipped);
}

// A file damaged after the scan is checked again before it is loaded: an error naming it.
TEST_F(ElfLoaderChecksTest, FileDamagedAfterTheScanIsRefusedWhenRequested) {
  Refusal(
      Good(), [](Image&) {}, "later");
  PluginRegistry registry;
  registry.AddSearchPath((scratch_ / "later").string());
  ASSERT_TRUE(registry.Skipped().empty() ||
              registry.Skipped().front().rfind(path_, 0) != 0);  // scanned, not skipped
  Refusal(
      Good(),
      [](Image& image) {
        image.At<std::uint16_t>(image.Section(SHT_GNU_versym)->sh_offset)[1] = 0x0077;
      },
      "later");
  try {
    registry.Create<ConstraintSolver>(PluginKind::kSolver, "test_pyramidal");
    ADD_FAILURE() << "a file damaged after the scan was loaded";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot load plugin library " + path_ +
                  ": damaged ELF file, refused before loading: "
                  "symbol 1 has version index 119, which no version definition or need defines "
                  "(.gnu.version)");
  }
}

}  // namespace
}  // namespace gauss
