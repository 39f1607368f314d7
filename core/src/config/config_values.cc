// Strict parsers and formatters for configuration values (see config_values.h).
#include "config_values.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gauss::config_detail {

bool ParseDouble(const std::string& text, double* out) {
  const std::string t = Trim(text);
  if (t.empty()) return false;
  const char* s = t.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  if (end == s || *end != '\0' || errno == ERANGE || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool ParseInt(const std::string& text, int* out) {
  const std::string t = Trim(text);
  if (t.empty()) return false;
  const char* s = t.c_str();
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE || v < INT_MIN || v > INT_MAX) return false;
  *out = static_cast<int>(v);
  return true;
}

bool ParseBool(const std::string& text, bool* out) {
  const std::string t = Trim(text);
  if (t == "true" || t == "enable") {
    *out = true;
    return true;
  }
  if (t == "false" || t == "disable") {
    *out = false;
    return true;
  }
  return false;
}

bool ParseCone(const std::string& text, Cone* out) {
  if (text == "pyramidal") *out = Cone::kPyramidal;
  else if (text == "elliptic") *out = Cone::kElliptic;
  else return false;
  return true;
}

bool ParseJacobian(const std::string& text, JacobianType* out) {
  if (text == "dense") *out = JacobianType::kDense;
  else if (text == "sparse") *out = JacobianType::kSparse;
  else if (text == "auto") *out = JacobianType::kAuto;
  else return false;
  return true;
}

const char* ConeName(Cone cone) { return cone == Cone::kElliptic ? "elliptic" : "pyramidal"; }

const char* JacobianName(JacobianType jacobian) {
  switch (jacobian) {
    case JacobianType::kDense: return "dense";
    case JacobianType::kSparse: return "sparse";
    case JacobianType::kAuto: return "auto";
  }
  return "auto";
}

bool IsPluginName(const std::string& text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string PluginNameProblem(const std::string& text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string message = "'" + text +
                        "' is not a plugin name (lowercase letters, digits and '_'; "
                        "`gauss plugins` lists the installed ones)";
  if (lower != text && IsPluginName(lower)) message += "; did you mean '" + lower + "'?";
  return message;
}

std::vector<std::string> FlagNames() {
  std::vector<std::string> names;
  for (const char* n : kDisableNames) names.emplace_back(n);
  for (const char* n : kEnableNames) names.emplace_back(n);
  return names;
}

bool IsFlagName(const std::string& name) {
  for (const auto& n : FlagNames()) {
    if (n == name) return true;
  }
  return false;
}

// (options.disableflags, options.enableflags) => same, with the bit of `name` set or cleared.
void SetFlag(Options& options, const std::string& name, bool enabled) {
  for (int i = 0; i < kNumDisableBits; ++i) {
    if (name != kDisableNames[i]) continue;
    if (enabled) options.disableflags &= ~(1u << i);
    else options.disableflags |= 1u << i;
  }
  for (int i = 0; i < kNumEnableBits; ++i) {
    if (name != kEnableNames[i]) continue;
    if (enabled) options.enableflags |= 1u << i;
    else options.enableflags &= ~(1u << i);
  }
}

bool GetFlag(const Options& options, const std::string& name) {
  for (int i = 0; i < kNumDisableBits; ++i) {
    if (name == kDisableNames[i]) return (options.disableflags & (1u << i)) == 0;
  }
  for (int i = 0; i < kNumEnableBits; ++i) {
    if (name == kEnableNames[i]) return (options.enableflags & (1u << i)) != 0;
  }
  return false;
}

// Tries increasing precision until the text reads back bit-identically, so that 0.002 prints
// as "0.002" and not "0.002000000000000000042" while the round trip stays exact.
std::string FormatDouble(double value) {
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  if (Trim(text).empty()) return out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    out.push_back(Trim(text.substr(start, comma == std::string::npos ? std::string::npos
                                                                      : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string Trim(const std::string& text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

}  // namespace gauss::config_detail
