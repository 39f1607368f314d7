// A careful reader of the two ELF tables plugin discovery needs: the section names and the
// dynamic symbol table (.dynsym), with every offset and size checked against the file.
//
// Why not boost::dll::library_info alone: in Boost 1.74 it reads symbols only from the full
// symbol table (.symtab), which `strip` removes, pairs it with whichever string table comes last
// (names then come out right only by luck), and reads out of bounds, or crashes, on a damaged
// file. The registry therefore validates each file here first (so library_info is only ever
// shown well-formed files) and takes the symbols from .dynsym, the table the dynamic loader
// itself resolves get_alias() against.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace gauss {

struct ElfExports {
  std::vector<std::string> sections;  // section names, in section-header order
  // section name => exported (global or weak, default-visibility) .dynsym symbols defined in it
  std::map<std::string, std::vector<std::string>> symbols;
};

// (file) => its sections and exported symbols. Reads the file only, never loads it. Throws
// gauss::Error naming the file when it is not a well-formed ELF object of this machine's class
// and byte order.
ElfExports ReadElfExports(const std::string& file);

}  // namespace gauss
