// The dynamic symbol table of libgauss.so (core/CMakeLists.txt: hidden visibility, the public
// headers declared with default visibility, core/export_map.ld) holds the public API only:
//  - every defined dynamic symbol is in namespace gauss (functions, variables, and the vtables,
//    type_info and guard variables of gauss classes): no std::, boost::, Eigen or YAML
//    template instantiations, no C symbols;
//  - every name on the way (gauss::<A>::<B>...) is declared in a public header
//    (core/include/gauss, comments stripped), so no helper declared only in core/src leaks;
//  - the SDK's entry points are there (Engine::Step, LoadModel, PluginRegistry, gauss::Error's
//    type_info for catching across the boundary), and stages declared in core/src/pipeline.h
//    and data_alloc.h (Kinematics, AllocateData) are not.
// Read with `nm -D --defined-only -C` (binutils).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace gauss {
namespace {

// Demangled names of the defined dynamic symbols of `library`.
std::vector<std::string> DynamicSymbols(const std::string& library) {
  const std::string command = "nm -D --defined-only -C '" + library + "'";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr) << command;
  std::vector<std::string> names;
  if (!pipe) return names;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    std::string s(line);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    // "<address> <type> <name>"
    const std::size_t first = s.find(' '), second = s.find(' ', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    names.push_back(s.substr(second + 1));
  }
  EXPECT_EQ(pclose(pipe), 0) << command;
  return names;
}

// The identifiers of core/include/gauss/*.h, comments removed.
std::set<std::string> PublicHeaderIdentifiers() {
  std::set<std::string> words;
  const std::regex line_comment("//[^\n]*"), block_comment("/\\*[\\s\\S]*?\\*/");
  const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(GAUSS_SOURCE_DIR) + "/core/include/gauss")) {
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    std::string code = std::regex_replace(text.str(), block_comment, " ");
    code = std::regex_replace(code, line_comment, " ");
    for (std::sregex_iterator it(code.begin(), code.end(), identifier), end; it != end; ++it) {
      words.insert(it->str());
    }
  }
  return words;
}

// "gauss::A::B<...>::~C[abi:cxx11](args) const" => {"A", "B", "C"}: the scope and name,
// without template arguments, parameters, ABI tags, "operator" suffixes or destructor tildes.
std::vector<std::string> NameComponents(std::string name) {
  name = name.substr(0, name.find('('));
  std::string plain;
  int depth = 0;
  for (char c : name) {
    if (c == '<') ++depth;
    if (depth == 0) plain += c;
    if (c == '>') --depth;
  }
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= plain.size()) {
    std::size_t end = plain.find("::", begin);
    if (end == std::string::npos) end = plain.size();
    std::string part = plain.substr(begin, end - begin);
    if (!part.empty() && part[0] == '~') part.erase(0, 1);
    part = part.substr(0, part.find("[abi:"));  // ABI tag of functions returning std::string
    if (part.rfind("operator", 0) == 0) part = "operator";
    if (!part.empty()) parts.push_back(part);
    begin = end + 2;
  }
  if (!parts.empty() && parts[0] == "gauss") parts.erase(parts.begin());
  return parts;
}

TEST(ExportedSymbols, LibgaussExportsOnlyThePublicApi) {
  const std::vector<std::string> symbols = DynamicSymbols(GAUSS_CORE_LIBRARY);
  ASSERT_GT(symbols.size(), 100u) << GAUSS_CORE_LIBRARY;
  const std::set<std::string> declared = PublicHeaderIdentifiers();
  const std::vector<std::string> prefixes = {"gauss::", "typeinfo for gauss::",
                                             "typeinfo name for gauss::", "vtable for gauss::",
                                             "VTT for gauss::", "guard variable for gauss::"};
  int checked = 0;
  for (const std::string& symbol : symbols) {
    std::string name;
    for (const std::string& prefix : prefixes) {
      if (symbol.rfind(prefix, 0) == 0) name = symbol.substr(prefix.size() - 7);  // keep gauss::
    }
    if (name.empty()) {
      ADD_FAILURE() << "exported symbol outside namespace gauss: " << symbol;
      continue;
    }
    for (const std::string& part : NameComponents(name)) {
      if (part == "operator" || part == "(anonymous namespace)") continue;
      EXPECT_TRUE(declared.count(part))
          << "exported symbol not declared in core/include/gauss: " << symbol << " ('" << part
          << "')";
    }
    ++checked;
  }
  RecordProperty("exported_symbols", checked);
  auto exported = [&](const std::string& start) {
    for (const std::string& s : symbols) {
      if (s.rfind(start, 0) == 0) return true;
    }
    return false;
  };
  for (const char* api : {"gauss::Engine::Step(gauss::Data&) const", "gauss::LoadModel(",
                          "gauss::PluginRegistry::PluginRegistry()", "typeinfo for gauss::Error",
                          "vtable for gauss::ConstraintSolver"}) {
    EXPECT_TRUE(exported(api)) << api << " is not exported";
  }
  for (const char* internal : {"gauss::Kinematics(", "gauss::AllocateData("}) {
    EXPECT_FALSE(exported(internal)) << internal << " (core/src) is exported";
  }
}

}  // namespace
}  // namespace gauss
