#include "gauss/params.h"

#include <cstdlib>

#include "gauss/error.h"

namespace gauss {
namespace {

std::string Where(const Params& p, const std::string& key) {
  return (p.context().empty() ? std::string("parameter") : p.context()) + " '" + key + "'";
}

}  // namespace

double Params::GetDouble(const std::string& key, double fallback) const {
  auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const char* s = it->second.c_str();
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s || *end != '\0') {
    throw Error(Where(*this, key) + ": expected a number, got '" + it->second + "'");
  }
  return v;
}

int Params::GetInt(const std::string& key, int fallback) const {
  auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const char* s = it->second.c_str();
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0') {
    throw Error(Where(*this, key) + ": expected an integer, got '" + it->second + "'");
  }
  return static_cast<int>(v);
}

bool Params::GetBool(const std::string& key, bool fallback) const {
  auto it = values_.find(key);
  if (it == values_.end()) return fallback;
  const std::string& v = it->second;
  if (v == "true" || v == "1" || v == "enable" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "disable" || v == "no") return false;
  throw Error(Where(*this, key) + ": expected true or false, got '" + v + "'");
}

std::string Params::GetString(const std::string& key, const std::string& fallback) const {
  auto it = values_.find(key);
  return it == values_.end() ? fallback : it->second;
}

void Params::Require(std::initializer_list<const char*> known) const {
  for (const auto& [key, value] : values_) {
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (ok) continue;
    std::string list;
    for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
    throw Error(Where(*this, key) + ": unknown parameter; valid: " +
                (list.empty() ? std::string("(none)") : list));
  }
}

}  // namespace gauss
