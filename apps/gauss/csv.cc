// CSV reading (whole file, numbers only, located errors) and row-by-row writing with "%.17g".
#include "csv.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "gauss/error.h"

namespace gauss::cli {
namespace {

std::string Trim(const std::string& text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

std::vector<std::string> SplitFields(const std::string& line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    fields.push_back(Trim(line.substr(start, comma == std::string::npos ? std::string::npos
                                                                         : comma - start)));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

// The name of a separator other than ',' that `text` contains (spreadsheets export ';' or tabs),
// or null.
const char* SeparatorHint(const std::string& text) {
  if (text.find(';') != std::string::npos) return "';'";
  if (text.find('\t') != std::string::npos) return "tabs";
  return nullptr;
}

}  // namespace

int CsvTable::Column(const std::string& name) const {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

// (file at `path`) => table; blank lines are skipped, "\r\n" endings accepted.
CsvTable ReadCsv(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw Error(ErrorLocation{path, 0, "", ""}, "is a directory, expected a CSV file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorLocation{path, 0, "", ""}, "cannot open CSV file");
  CsvTable table;
  table.path = path;
  std::string line;
  int line_number = 0;
  bool have_header = false;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (Trim(line).empty()) continue;
    std::vector<std::string> fields = SplitFields(line);
    if (!have_header && fields.size() == 1 && SeparatorHint(line) != nullptr) {
      throw Error(ErrorLocation{path, line_number, "", ""},
                  std::string("the header has no ',' but is separated by ") + SeparatorHint(line) +
                      ": Gauss CSV files separate columns with ','");
    }
    if (!have_header) {
      std::set<std::string> seen;
      for (const auto& name : fields) {
        if (name.empty()) {
          throw Error(ErrorLocation{path, line_number, "", ""}, "empty column name in the header");
        }
        if (!seen.insert(name).second) {
          throw Error(ErrorLocation{path, line_number, name, ""}, "column given twice");
        }
      }
      table.header = fields;
      have_header = true;
      continue;
    }
    if (fields.size() != table.header.size()) {
      throw Error(ErrorLocation{path, line_number, "", ""},
                  "row has " + std::to_string(fields.size()) + " fields, the header has " +
                      std::to_string(table.header.size()));
    }
    std::vector<double> row(fields.size());
    for (size_t i = 0; i < fields.size(); ++i) {
      const char* s = fields[i].c_str();
      char* end = nullptr;
      row[i] = std::strtod(s, &end);
      if (fields[i].empty() || *end != '\0') {
        throw Error(ErrorLocation{path, line_number, table.header[i], ""},
                    "expected a number, got '" + fields[i] + "'" +
                        (SeparatorHint(fields[i]) ? std::string("; columns are separated by ',', not ") +
                                                        SeparatorHint(fields[i])
                                                  : std::string()));
      }
    }
    table.rows.push_back(std::move(row));
    table.row_line.push_back(line_number);
  }
  if (!have_header) throw Error(ErrorLocation{path, 0, "", ""}, "empty CSV file (no header row)");
  return table;
}

std::vector<std::string> IndexedNames(const std::string& prefix, int n) {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

ColumnName SplitColumnName(const std::string& name) {
  size_t digits = name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
  ColumnName out;
  out.prefix = name.substr(0, digits);
  const std::string number = name.substr(digits);
  if (number.empty()) return out;  // index -1: no trailing digits
  // Leading zeros ("qpos01") and absurd lengths are never written by Gauss: index -2.
  const bool valid = number.size() <= 9 && !(number.size() > 1 && number[0] == '0');
  out.index = valid ? std::atoi(number.c_str()) : -2;
  return out;
}

CsvWriter::CsvWriter(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) throw Error(ErrorLocation{path, 0, "", ""}, "cannot open for writing");
}

CsvWriter::~CsvWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void CsvWriter::AddScalar(const std::string& name, std::function<double()> value) {
  groups_.push_back(Group{{name}, [value](double* out) { *out = value(); }});
}

void CsvWriter::AddGroup(const std::string& prefix, int count, Fill fill) {
  groups_.push_back(Group{IndexedNames(prefix, count), std::move(fill)});
}

void CsvWriter::WriteHeader() {
  if (header_written_) return;
  bool first = true;
  size_t width = 0;
  for (const auto& g : groups_) {
    for (const auto& name : g.names) {
      std::fprintf(file_, first ? "%s" : ",%s", name.c_str());
      first = false;
    }
    width += g.names.size();
  }
  std::fputc('\n', file_);
  buffer_.resize(width);
  header_written_ = true;
}

// (current values of every group) => one line of the file (after the header on first use).
void CsvWriter::WriteRow() {
  WriteHeader();
  size_t offset = 0;
  for (const auto& g : groups_) {
    if (!g.names.empty()) g.fill(buffer_.data() + offset);
    offset += g.names.size();
  }
  for (size_t i = 0; i < buffer_.size(); ++i) {
    std::fprintf(file_, i == 0 ? "%.17g" : ",%.17g", buffer_[i]);
  }
  std::fputc('\n', file_);
  ++rows_;
}

void CsvWriter::Close() {
  if (file_ == nullptr) return;
  WriteHeader();  // a file with no rows still names its columns
  const bool failed = std::ferror(file_) != 0;
  const bool close_failed = std::fclose(file_) != 0;
  file_ = nullptr;
  if (failed || close_failed) throw Error(ErrorLocation{path_, 0, "", ""}, "write error");
}

}  // namespace gauss::cli
