// CheckElfForLoader (elf_loader_checks.h): walks the file the way the dynamic loader does
// (program headers -> dynamic section -> the tables it points to, by virtual address) and
// checks every offset, count and index the loader would follow. Native class only, like
// elf_symbols.cc (ReadElfExports has already refused other machines' files).
#include "elf_loader_checks.h"

#include <elf.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gauss/error.h"

namespace gauss {
namespace {

#if UINTPTR_MAX == 0xffffffffffffffffu
using Ehdr = Elf64_Ehdr;
using Phdr = Elf64_Phdr;
using Shdr = Elf64_Shdr;
using Dyn = Elf64_Dyn;
using Sym = Elf64_Sym;
using Rela = Elf64_Rela;
using Rel = Elf64_Rel;
using Verdef = Elf64_Verdef;
using Verdaux = Elf64_Verdaux;
using Verneed = Elf64_Verneed;
using Vernaux = Elf64_Vernaux;
inline std::uint64_t RelocSymbol(std::uint64_t info) { return ELF64_R_SYM(info); }
#else
using Ehdr = Elf32_Ehdr;
using Phdr = Elf32_Phdr;
using Shdr = Elf32_Shdr;
using Dyn = Elf32_Dyn;
using Sym = Elf32_Sym;
using Rela = Elf32_Rela;
using Rel = Elf32_Rel;
using Verdef = Elf32_Verdef;
using Verdaux = Elf32_Verdaux;
using Verneed = Elf32_Verneed;
using Vernaux = Elf32_Vernaux;
inline std::uint64_t RelocSymbol(std::uint64_t info) { return ELF32_R_SYM(info); }
#endif

// Plugins are a few megabytes at most; a larger file is not read into memory.
constexpr std::uint64_t kMaxFileBytes = std::uint64_t{512} << 20;

// The whole file in memory, the loadable segments, and bounds-checked reads by file offset or
// by virtual address (translated through the PT_LOAD segment that holds it in the file).
class LoaderView {
 public:
  explicit LoaderView(const std::string& path) : path_(path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) Fail("cannot open file");
    const auto size = static_cast<std::uint64_t>(in.tellg());
    if (size > kMaxFileBytes) Fail("larger than any plugin library (refused)");
    bytes_.resize(static_cast<std::size_t>(size));
    in.seekg(0);
    in.read(bytes_.data(), static_cast<std::streamsize>(size));
    if (!in) Fail("read error");
  }

  // (offset, n) => the n bytes there copied into `out`; throws `what` if not inside the file.
  void At(std::uint64_t offset, std::uint64_t n, void* out, const char* what) const {
    if (offset > bytes_.size() || n > bytes_.size() - offset)
      Fail(std::string(what) + " outside the file");
    std::memcpy(out, bytes_.data() + offset, static_cast<std::size_t>(n));
  }

  // (virtual address, n) => the file offset of those n bytes; throws unless one loadable
  // segment holds all of them in the file (bytes only in memory are zero, never a table).
  std::uint64_t Offset(std::uint64_t address, std::uint64_t n, const std::string& what) const {
    for (const Phdr& load : loads_) {
      if (address < load.p_vaddr) continue;
      const std::uint64_t into = address - load.p_vaddr;
      if (into > load.p_filesz || n > load.p_filesz - into) continue;
      return load.p_offset + into;
    }
    Fail(what + " points outside the file's loaded contents");
  }

  template <typename T>
  T ReadAt(std::uint64_t address, const std::string& what) const {
    T value;
    At(Offset(address, sizeof(T), what), sizeof(T), &value, what.c_str());
    return value;
  }

  std::uint64_t size() const { return bytes_.size(); }
  // The dynamic symbol table's section header: the one place that states how many symbols
  // there are (the hash tables only cover the defined ones).
  void SetDynamicSymbols(const Shdr& table) { dynsym_ = table; }
  const Shdr& dynamic_symbols() const { return dynsym_; }
  void AddLoad(const Phdr& load) { loads_.push_back(load); }

  [[noreturn]] void Fail(const std::string& why) const {
    throw Error(path_ + ": damaged ELF file, refused before loading: " + why);
  }

 private:
  std::string path_;
  std::vector<char> bytes_;
  std::vector<Phdr> loads_;
  Shdr dynsym_{};
};

// The dynamic-section values the checks use, keyed by tag (the loader keeps the last one too).
// Tags that may repeat (DT_NEEDED) are checked through `names`, which keeps every one.
using DynamicTags = std::map<std::int64_t, std::uint64_t>;

// (file) => its dynamic tags, and in `names` the string offsets of every DT_NEEDED, DT_SONAME,
// DT_RPATH and DT_RUNPATH entry.
DynamicTags CheckHeadersAndDynamic(LoaderView& file, std::vector<std::uint64_t>& names) {
  Ehdr header;
  file.At(0, sizeof(header), &header, "ELF header");
  if (header.e_phentsize != sizeof(Phdr) || header.e_phnum == 0)
    file.Fail("no usable program header table");
  std::vector<Phdr> segments(header.e_phnum);
  file.At(header.e_phoff, std::uint64_t{header.e_phnum} * sizeof(Phdr), segments.data(),
          "program header table");
  if (header.e_shentsize != sizeof(Shdr) || header.e_shnum == 0)
    file.Fail("no usable section header table");
  std::vector<Shdr> sections(header.e_shnum);
  file.At(header.e_shoff, std::uint64_t{header.e_shnum} * sizeof(Shdr), sections.data(),
          "section header table");
  for (const Shdr& section : sections) {
    if (section.sh_type == SHT_DYNSYM) file.SetDynamicSymbols(section);
  }
  const Phdr* dynamic = nullptr;
  for (const Phdr& segment : segments) {
    if (segment.p_type == PT_LOAD) {
      if (segment.p_filesz > segment.p_memsz)
        file.Fail("a loadable segment larger in the file than in memory");
      if (segment.p_offset > file.size() || segment.p_filesz > file.size() - segment.p_offset) {
        file.Fail("a loadable segment runs past the end of the file");
      }
      file.AddLoad(segment);
    } else if (segment.p_type == PT_DYNAMIC) {
      if (dynamic) file.Fail("two dynamic segments");
      dynamic = &segment;
    }
  }
  if (!dynamic) file.Fail("no dynamic segment");
  if (dynamic->p_filesz < sizeof(Dyn) || dynamic->p_filesz % sizeof(Dyn) != 0) {
    file.Fail("dynamic segment of a bad size");
  }
  // the loader finds the dynamic section by address, so it must be loaded from the file too
  file.Offset(dynamic->p_vaddr, dynamic->p_filesz, "the dynamic segment");
  std::vector<Dyn> entries(dynamic->p_filesz / sizeof(Dyn));
  file.At(dynamic->p_offset, dynamic->p_filesz, entries.data(), "dynamic segment");
  DynamicTags tags;
  bool ended = false;
  for (const Dyn& entry : entries) {
    if (entry.d_tag == DT_NULL) {
      ended = true;
      break;
    }
    tags[entry.d_tag] = entry.d_un.d_val;
    if (entry.d_tag == DT_NEEDED || entry.d_tag == DT_SONAME || entry.d_tag == DT_RPATH ||
        entry.d_tag == DT_RUNPATH) {
      names.push_back(entry.d_un.d_val);
    }
  }
  if (!ended) file.Fail("dynamic section without its end marker");
  return tags;
}

// (tag) => its value, or `fallback` when absent.
std::uint64_t Tag(const DynamicTags& tags, std::int64_t tag, std::uint64_t fallback = 0) {
  auto it = tags.find(tag);
  return it == tags.end() ? fallback : it->second;
}

// The string table: every name offset the loader follows must start inside it.
struct Strings {
  std::uint64_t offset = 0, size = 0;
};

void CheckName(const LoaderView& file, const Strings& strings, std::uint64_t name,
               const std::string& what) {
  if (name >= strings.size) file.Fail(what + " has a name outside the string table");
}

// (tags) => the number of dynamic symbols, from the symbol hash table the loader uses.
std::uint64_t CheckHashTables(const LoaderView& file, const DynamicTags& tags) {
  std::uint64_t count = 0;
  if (tags.count(DT_HASH)) {
    const std::uint64_t at = Tag(tags, DT_HASH);
    const auto nbucket = file.ReadAt<std::uint32_t>(at, "the symbol hash table");
    const auto nchain = file.ReadAt<std::uint32_t>(at + 4, "the symbol hash table");
    const std::uint64_t words = 2 + std::uint64_t{nbucket} + nchain;
    const std::uint64_t offset = file.Offset(at, words * 4, "the symbol hash table");
    std::vector<std::uint32_t> table(static_cast<std::size_t>(words));
    file.At(offset, words * 4, table.data(), "hash table");
    for (std::size_t k = 2; k < table.size(); ++k) {
      if (table[k] >= nchain) file.Fail("the symbol hash table names a symbol beyond its chain");
    }
    count = nchain;
  }
  if (tags.count(DT_GNU_HASH)) {
    const std::uint64_t at = Tag(tags, DT_GNU_HASH);
    std::uint32_t head[4];  // nbuckets, symoffset, bloom words, bloom shift
    file.At(file.Offset(at, sizeof(head), "the GNU hash table"), sizeof(head), head,
            "GNU hash table");
    const std::uint64_t buckets_at =
        at + 16 + std::uint64_t{head[2]} * sizeof(void*);  // bloom words are addresses
    const std::uint64_t nbuckets = head[0];
    if (nbuckets == 0 || head[2] == 0 || (head[2] & (head[2] - 1)) != 0)
      file.Fail("damaged GNU hash table header");
    const std::uint64_t buckets_offset =
        file.Offset(buckets_at, nbuckets * 4, "the GNU hash buckets");
    std::vector<std::uint32_t> buckets(static_cast<std::size_t>(nbuckets));
    file.At(buckets_offset, nbuckets * 4, buckets.data(), "GNU hash buckets");
    const std::uint64_t chains_at = buckets_at + nbuckets * 4;
    std::uint64_t last = 0;
    for (std::uint32_t first : buckets) {
      if (first == 0) continue;
      if (first < head[1])
        file.Fail("a GNU hash bucket names a symbol below its first hashed symbol");
      // the chain of a bucket ends at the first value with its low bit set
      for (std::uint64_t symbol = first;; ++symbol) {
        const auto value =
            file.ReadAt<std::uint32_t>(chains_at + (symbol - head[1]) * 4, "a GNU hash chain");
        if (symbol > last) last = symbol;
        if (value & 1u) break;
      }
    }
    const std::uint64_t gnu_count = last == 0 ? head[1] : last + 1;
    if (count != 0 && gnu_count > count)
      file.Fail("the two symbol hash tables disagree on the symbol count");
    if (count == 0) count = gnu_count;
  }
  if (count == 0 && !tags.count(DT_HASH) && !tags.count(DT_GNU_HASH))
    file.Fail("no symbol hash table");
  return count;
}

// (relocation table address, byte size, entry size) => checks each entry's symbol index.
template <typename Entry>
void CheckRelocations(const LoaderView& file, std::uint64_t at, std::uint64_t bytes,
                      std::uint64_t symbols, const char* what) {
  if (bytes == 0) return;
  if (bytes % sizeof(Entry) != 0)
    file.Fail(std::string(what) + " has a size that is not a whole number of entries");
  const std::uint64_t offset = file.Offset(at, bytes, what);  // before sizing anything by it
  std::vector<Entry> entries(static_cast<std::size_t>(bytes / sizeof(Entry)));
  file.At(offset, bytes, entries.data(), what);
  for (const Entry& entry : entries) {
    if (RelocSymbol(entry.r_info) >= symbols)
      file.Fail(std::string(what) + " names a symbol beyond the symbol table");
  }
}

// (tags, symbol count) => the version indices .gnu.version_d and .gnu.version_r define, after
// walking both chains exactly as the loader does (to a zero "next" offset).
std::set<unsigned> CheckVersionChains(const LoaderView& file, const DynamicTags& tags,
                                      const Strings& strings) {
  std::set<unsigned> defined;
  if (tags.count(DT_VERDEF)) {
    const std::uint64_t count = Tag(tags, DT_VERDEFNUM);
    std::uint64_t at = Tag(tags, DT_VERDEF);
    for (std::uint64_t k = 0;; ++k) {
      if (k >= count) file.Fail("the version definitions (.gnu.version_d) run past their count");
      const auto def = file.ReadAt<Verdef>(at, "a version definition (.gnu.version_d)");
      if (def.vd_version != VER_DEF_CURRENT)
        file.Fail("a version definition of an unknown revision");
      if (def.vd_cnt == 0) file.Fail("a version definition without a name");
      std::uint64_t aux = at + def.vd_aux;
      for (unsigned n = 0; n < def.vd_cnt; ++n) {
        const auto name = file.ReadAt<Verdaux>(aux, "a version definition name (.gnu.version_d)");
        CheckName(file, strings, name.vda_name, "a version definition");
        if (n + 1 < def.vd_cnt && name.vda_next == 0)
          file.Fail("a version definition has fewer names than its count");
        aux += name.vda_next;
      }
      defined.insert(def.vd_ndx & 0x7fffu);
      if (def.vd_next == 0) break;
      at += def.vd_next;
    }
  }
  if (tags.count(DT_VERNEED)) {
    const std::uint64_t count = Tag(tags, DT_VERNEEDNUM);
    std::uint64_t at = Tag(tags, DT_VERNEED);
    for (std::uint64_t k = 0;; ++k) {
      if (k >= count) file.Fail("the version needs (.gnu.version_r) run past their count");
      const auto need = file.ReadAt<Verneed>(at, "a version need (.gnu.version_r)");
      if (need.vn_version != VER_NEED_CURRENT) file.Fail("a version need of an unknown revision");
      CheckName(file, strings, need.vn_file, "a version need");
      std::uint64_t aux = at + need.vn_aux;
      for (unsigned n = 0; n < need.vn_cnt; ++n) {
        const auto version = file.ReadAt<Vernaux>(aux, "a needed version (.gnu.version_r)");
        CheckName(file, strings, version.vna_name, "a needed version");
        defined.insert(version.vna_other & 0x7fffu);
        if (version.vna_next == 0) {
          if (n + 1 < need.vn_cnt) file.Fail("a version need has fewer versions than its count");
          break;
        }
        aux += version.vna_next;
      }
      if (need.vn_next == 0) break;
      at += need.vn_next;
    }
  }
  return defined;
}

}  // namespace

void CheckElfForLoader(const std::string& path) {
  LoaderView file(path);
  std::vector<std::uint64_t> names;
  const DynamicTags tags = CheckHeadersAndDynamic(file, names);

  if (!tags.count(DT_STRTAB) || !tags.count(DT_SYMTAB))
    file.Fail("no dynamic string or symbol table");
  Strings strings;
  strings.size = Tag(tags, DT_STRSZ);
  strings.offset = file.Offset(Tag(tags, DT_STRTAB), strings.size, "the dynamic string table");
  char last = 1;
  if (strings.size > 0)
    file.At(strings.offset + strings.size - 1, 1, &last, "dynamic string table");
  if (last != '\0')
    file.Fail("the dynamic string table does not end with a NUL (names would run off it)");
  for (std::uint64_t name : names) CheckName(file, strings, name, "a dynamic entry");
  if (Tag(tags, DT_SYMENT, sizeof(Sym)) != sizeof(Sym)) file.Fail("dynamic symbols of a bad size");

  const Shdr& dynsym = file.dynamic_symbols();
  if (dynsym.sh_entsize != sizeof(Sym) || dynsym.sh_addr != Tag(tags, DT_SYMTAB)) {
    file.Fail("the dynamic symbol table's section disagrees with the dynamic section");
  }
  const std::uint64_t symbols = dynsym.sh_size / sizeof(Sym);
  if (CheckHashTables(file, tags) > symbols)
    file.Fail("a symbol hash table covers more symbols than there are");
  const std::uint64_t symbols_at =
      file.Offset(Tag(tags, DT_SYMTAB), symbols * sizeof(Sym), "the dynamic symbol table");
  std::vector<Sym> table(static_cast<std::size_t>(symbols));
  file.At(symbols_at, symbols * sizeof(Sym), table.data(), "dynamic symbol table");
  for (std::size_t k = 0; k < table.size(); ++k) {
    CheckName(file, strings, table[k].st_name, "dynamic symbol " + std::to_string(k));
  }

  CheckRelocations<Rela>(file, Tag(tags, DT_RELA), Tag(tags, DT_RELASZ), symbols,
                         "the relocation table");
  CheckRelocations<Rel>(file, Tag(tags, DT_REL), Tag(tags, DT_RELSZ), symbols,
                        "the relocation table");
  if (tags.count(DT_JMPREL)) {
    const std::uint64_t bytes = Tag(tags, DT_PLTRELSZ);
    if (Tag(tags, DT_PLTREL, DT_RELA) == DT_RELA) {
      CheckRelocations<Rela>(file, Tag(tags, DT_JMPREL), bytes, symbols,
                             "the PLT relocation table");
    } else {
      CheckRelocations<Rel>(file, Tag(tags, DT_JMPREL), bytes, symbols, "the PLT relocation table");
    }
  }
  for (auto [address, size, what] :
       {std::make_tuple(DT_INIT_ARRAY, DT_INIT_ARRAYSZ, "the constructor list"),
        std::make_tuple(DT_FINI_ARRAY, DT_FINI_ARRAYSZ, "the destructor list")}) {
    if (tags.count(address)) file.Offset(Tag(tags, address), Tag(tags, size), what);
  }

  // Symbol versions: each index must be 0 (local), 1 (global) or one the chains define, else
  // the loader indexes its version array out of bounds (the nondeterministic crash of issue 19).
  if (tags.count(DT_VERSYM)) {
    const std::set<unsigned> defined = CheckVersionChains(file, tags, strings);
    const std::uint64_t versions_at =
        file.Offset(Tag(tags, DT_VERSYM), symbols * 2, "the symbol version table (.gnu.version)");
    std::vector<std::uint16_t> versions(static_cast<std::size_t>(symbols));
    file.At(versions_at, symbols * 2, versions.data(), "symbol version table");
    for (std::size_t k = 0; k < versions.size(); ++k) {
      const unsigned index = versions[k] & 0x7fffu;
      if (index > 1 && !defined.count(index)) {
        file.Fail("symbol " + std::to_string(k) + " has version index " + std::to_string(index) +
                  ", which no version definition or need defines (.gnu.version)");
      }
    }
  } else if (tags.count(DT_VERDEF) || tags.count(DT_VERNEED)) {
    CheckVersionChains(file, tags, strings);
  }
}

}  // namespace gauss
