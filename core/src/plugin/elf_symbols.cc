// Reads the section names and the exported .dynsym symbols of an ELF shared object, with every
// offset and size checked against the file, so that a damaged or hostile file yields an error
// message rather than a crash (see elf_symbols.h for why the registry needs this). Native class
// and byte order only: a plugin for another machine could not be loaded anyway.
#include "elf_symbols.h"

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <fstream>

#include "gauss/error.h"

namespace gauss {
namespace {

#if UINTPTR_MAX == 0xffffffffffffffffu
using Ehdr = Elf64_Ehdr;
using Shdr = Elf64_Shdr;
using Sym = Elf64_Sym;
constexpr unsigned char kElfClass = ELFCLASS64;
inline unsigned char SymBind(unsigned char info) { return ELF64_ST_BIND(info); }
inline unsigned char SymVisibility(unsigned char other) { return ELF64_ST_VISIBILITY(other); }
#else
using Ehdr = Elf32_Ehdr;
using Shdr = Elf32_Shdr;
using Sym = Elf32_Sym;
constexpr unsigned char kElfClass = ELFCLASS32;
inline unsigned char SymBind(unsigned char info) { return ELF32_ST_BIND(info); }
inline unsigned char SymVisibility(unsigned char other) { return ELF32_ST_VISIBILITY(other); }
#endif

// Larger tables than this are taken as damage, not read (plugin tables are a few kilobytes).
constexpr std::uint64_t kMaxTableBytes = std::uint64_t{64} << 20;

// The whole-file view the reader needs: bounds-checked reads at absolute offsets.
class ElfFile {
 public:
  explicit ElfFile(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_) Fail("cannot open file");
    in_.seekg(0, std::ios::end);
    size_ = static_cast<std::uint64_t>(in_.tellg());
  }

  // (offset, n bytes) => out; throws if the range is not inside the file.
  void Read(std::uint64_t offset, std::uint64_t n, void* out) {
    if (offset > size_ || n > size_ - offset) Fail("truncated or damaged ELF file");
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
    if (!in_) Fail("read error");
  }

  // (section header) => its bytes, refusing implausibly large tables.
  std::vector<char> ReadSection(const Shdr& section) {
    if (section.sh_size > kMaxTableBytes) Fail("implausibly large ELF section");
    std::vector<char> bytes(static_cast<std::size_t>(section.sh_size));
    if (!bytes.empty()) Read(section.sh_offset, section.sh_size, bytes.data());
    return bytes;
  }

  [[noreturn]] void Fail(const std::string& why) const { throw Error(path_ + ": " + why); }

 private:
  std::string path_;
  std::ifstream in_;
  std::uint64_t size_ = 0;
};

// (string table, offset) => the NUL-terminated string there, or "" if it runs off the table.
std::string StringAt(const std::vector<char>& table, std::uint64_t offset) {
  if (offset >= table.size()) return "";
  const char* begin = table.data() + offset;
  const void* end = std::memchr(begin, '\0', table.size() - offset);
  return end ? std::string(begin, static_cast<const char*>(end)) : std::string();
}

}  // namespace

ElfExports ReadElfExports(const std::string& path) {
  ElfFile file(path);
  Ehdr header;
  file.Read(0, sizeof(header), &header);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) file.Fail("not an ELF file");
  const unsigned char native_order = [] {
    const std::uint16_t probe = 1;
    unsigned char first;
    std::memcpy(&first, &probe, 1);
    return first == 1 ? ELFDATA2LSB : ELFDATA2MSB;
  }();
  if (header.e_ident[EI_CLASS] != kElfClass || header.e_ident[EI_DATA] != native_order) {
    file.Fail("ELF class or byte order of another machine");
  }
  if (header.e_shentsize != sizeof(Shdr) || header.e_shnum == 0) {
    file.Fail("no usable ELF section table");
  }

  // Pass 1: section headers and their names. The name table must end with a NUL, because
  // library_info walks it string by string up to its end.
  std::vector<Shdr> sections(header.e_shnum);
  file.Read(header.e_shoff, std::uint64_t{header.e_shnum} * sizeof(Shdr), sections.data());
  if (header.e_shstrndx >= sections.size()) file.Fail("bad section-name table index");
  const std::vector<char> names = file.ReadSection(sections[header.e_shstrndx]);
  if (names.empty() || names.back() != '\0') file.Fail("damaged section-name table");
  ElfExports out;
  for (const Shdr& section : sections) {
    if (section.sh_name >= names.size()) file.Fail("section name outside the name table");
    out.sections.push_back(StringAt(names, section.sh_name));
  }

  // Pass 2: the dynamic symbol table, with its own string table (sh_link).
  for (const Shdr& table : sections) {
    if (table.sh_type != SHT_DYNSYM) continue;
    if (table.sh_entsize != sizeof(Sym) || table.sh_link >= sections.size()) {
      file.Fail("damaged dynamic symbol table");
    }
    const std::vector<char> raw = file.ReadSection(table);
    const std::vector<char> strings = file.ReadSection(sections[table.sh_link]);
    for (std::size_t offset = 0; offset + sizeof(Sym) <= raw.size(); offset += sizeof(Sym)) {
      Sym symbol;
      std::memcpy(&symbol, raw.data() + offset, sizeof(Sym));
      const unsigned char bind = SymBind(symbol.st_info);
      if (symbol.st_shndx == SHN_UNDEF || symbol.st_shndx >= sections.size() ||
          (bind != STB_GLOBAL && bind != STB_WEAK) ||
          SymVisibility(symbol.st_other) != STV_DEFAULT) {
        continue;  // undefined, special (absolute, common) or not exported
      }
      std::string name = StringAt(strings, symbol.st_name);
      if (!name.empty()) out.symbols[out.sections[symbol.st_shndx]].push_back(std::move(name));
    }
  }
  return out;
}

}  // namespace gauss
