// The audit of every MJCF attribute the schema accepts (nothing silently ignored): each one is
// read by the parser (its name appears in the parser/compiler sources), belongs to an element
// the parser refuses as a whole, or is listed in docs/mjcf.md under "Parsed and ignored".
// And each <option> value the parser stores in Options is read by the kernel, a plugin or the
// command-line program, or is listed there too (stored but never read is a silent ignore).
#include "mjcf/schema.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "gauss/types.h"

namespace gauss::mjcf {
namespace {

namespace fs = std::filesystem;

const std::string kSource = GAUSS_SOURCE_DIR;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text of every file with one of `extensions` under `dirs` (recursively), except `skip`.
std::string Sources(const std::vector<std::string>& dirs, const std::set<std::string>& skip) {
  std::string out;
  for (const std::string& dir : dirs) {
    for (const auto& e : fs::recursive_directory_iterator(kSource + "/" + dir)) {
      const std::string ext = e.path().extension().string();
      if ((ext == ".cc" || ext == ".h") && !skip.count(e.path().filename().string())) {
        out += ReadText(e.path());
      }
    }
  }
  return out;
}

// docs/mjcf.md, section "Parsed and ignored": rows "| `element` | `attr` `attr` ... | why |"
// => (element name, attribute) pairs.
std::set<std::pair<std::string, std::string>> DocumentedIgnored() {
  std::set<std::pair<std::string, std::string>> out;
  std::istringstream in(ReadText(kSource + "/docs/mjcf.md"));
  bool inside = false;
  const std::regex row("^\\| `([a-z_/]+)` \\| ((?:`[a-z_0-9]+` ?)+) \\|");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) inside = line == "## Parsed and ignored";
    std::smatch m;
    if (!inside || !std::regex_search(line, m, row)) continue;
    const std::string attrs = m[2];
    const std::regex quoted("`([a-z_0-9]+)`");
    for (std::sregex_iterator it(attrs.begin(), attrs.end(), quoted), end;
         it != end; ++it) {
      out.insert({m[1], (*it)[1]});
    }
  }
  return out;
}

// True when `text` has ".name" or "->name" not followed by another identifier character.
bool AccessesMember(const std::string& text, const std::string& name) {
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    const bool after_ok = end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
    if (at > 0 && (text[at - 1] == '.' || text[at - 1] == '>') && after_ok) return true;
  }
  return false;
}

// Attributes the parser reads by a computed name rather than a literal: the <flag> names come
// from gauss::kDisableNames / kEnableNames, and equality joint1/joint2, tendon1/tendon2 are
// `element name + "1"` (parse_elements.cc).
bool ReadByName(const std::string& element, const std::string& attribute) {
  if (element == "flag") {
    for (const char* n : kDisableNames) if (attribute == n) return true;
    for (const char* n : kEnableNames) if (attribute == n) return true;
    return false;
  }
  return attribute == element + "1" || attribute == element + "2";
}

std::string LastName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

TEST(SchemaAudit, EveryAttributeIsReadRefusedOrDocumentedAsIgnored) {
  const std::string parser = Sources({"core/src/mjcf"}, {"schema.cc"});
  const auto ignored = DocumentedIgnored();
  ASSERT_GT(ignored.size(), 20u) << "docs/mjcf.md has no 'Parsed and ignored' table";
  const std::vector<SchemaAttribute> all = SchemaAttributes();
  ASSERT_GT(all.size(), 300u);
  std::set<std::pair<std::string, std::string>> in_schema;
  int read = 0;
  for (const SchemaAttribute& a : all) {
    const std::string element = LastName(a.element_path);
    in_schema.insert({element, a.attribute});
    if (a.refused_element) continue;  // the parser refuses the whole element
    if (parser.find("\"" + a.attribute + "\"") != std::string::npos || ReadByName(element, a.attribute)) {
      ++read;
      continue;
    }
    EXPECT_TRUE(ignored.count({element, a.attribute}))
        << "<" << a.element_path << " " << a.attribute
        << "> is accepted by the schema but never read by the parser: use it, refuse it, or "
           "list it in docs/mjcf.md under 'Parsed and ignored'";
  }
  EXPECT_GT(read, 250);
  for (const auto& [element, attribute] : ignored) {
    EXPECT_TRUE(in_schema.count({element, attribute}))
        << "docs/mjcf.md lists <" << element << " " << attribute << "> as ignored, but the "
        << "schema has no such attribute";
  }
}

// The <option> attributes land in gauss::Options; each field must be read somewhere outside the
// MJCF parser and the configuration code that copies it (or be documented as ignored).
TEST(SchemaAudit, EveryStoredOptionIsRead) {
  const std::string options = ReadText(kSource + "/core/include/gauss/options.h");
  const std::string users = Sources({"core/src", "plugins", "apps"},
                                    {"parse_model.cc", "config.cc", "config_apply.cc",
                                     "config_values.cc", "config_values.h"});
  // Options field => the <option> attribute it comes from, where the names differ
  const std::map<std::string, std::string> attribute_of = {
      {"ccd_tolerance", "mpr_tolerance"}, {"ccd_iterations", "mpr_iterations"}};
  const auto ignored = DocumentedIgnored();
  // data members: "  <type> name = value;" or "  <type> name{...};"
  const std::regex field("^\\s+[a-zA-Z_:<>, 0-9]+ ([a-z_0-9]+)(?: = [^;]+|\\{[^;]*\\})?;");
  int fields = 0;
  std::istringstream lines(options);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, field)) continue;
    const std::string name = m[1];
    ++fields;
    const bool used = AccessesMember(users, name);
    const auto mapped = attribute_of.find(name);
    const std::string attribute = mapped == attribute_of.end() ? name : mapped->second;
    EXPECT_TRUE(used || ignored.count({"option", attribute}))
        << "Options::" << name << " is stored from <option " << attribute
        << "> but never read: use it, refuse it, or document it as ignored";
  }
  EXPECT_GE(fields, 15);
}

}  // namespace
}  // namespace gauss::mjcf
