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

const char* ParamTypeName(ParamType type) {
  switch (type) {
    case ParamType::kBool: return "bool";
    case ParamType::kInt: return "int";
    case ParamType::kDouble: return "double";
    case ParamType::kString: return "string";
  }
  return "?";
}

std::string DescribeParam(const ParamSpec& spec) {
  return std::string(spec.name) + " (" + ParamTypeName(spec.type) + ", default " +
         spec.default_value + "): " + spec.description;
}

void Params::CheckDeclared() const {
  for (const auto& entry : values_) {
    const std::string& key = entry.first;
    bool known = false;
    for (int k = 0; k < declared_.count; ++k) known = known || key == declared_.specs[k].name;
    if (known) continue;
    std::string list;
    for (int k = 0; k < declared_.count; ++k) list += "\n  " + DescribeParam(declared_.specs[k]);
    throw Error(Where(*this, key) + ": unknown parameter; declared parameters:" +
                (list.empty() ? std::string(" (none)") : list));
  }
}

const ParamSpec& Params::Spec(const std::string& key) const {
  for (int k = 0; k < declared_.count; ++k) {
    if (key == declared_.specs[k].name) return declared_.specs[k];
  }
  throw Error(Where(*this, key) + ": read by the plugin but not declared in its entry");
}

double Params::GetDouble(const std::string& key) const {
  Params fallback(context_);
  fallback.Set(key, Spec(key).default_value);
  return GetDouble(key, fallback.GetDouble(key, 0));
}

int Params::GetInt(const std::string& key) const {
  Params fallback(context_);
  fallback.Set(key, Spec(key).default_value);
  return GetInt(key, fallback.GetInt(key, 0));
}

bool Params::GetBool(const std::string& key) const {
  Params fallback(context_);
  fallback.Set(key, Spec(key).default_value);
  return GetBool(key, fallback.GetBool(key, false));
}

std::string Params::GetString(const std::string& key) const {
  return GetString(key, Spec(key).default_value);
}

int Params::GetChoice(const std::string& key, std::initializer_list<const char*> choices) const {
  const std::string value = GetString(key);
  std::string list;
  int index = 0;
  for (const char* choice : choices) {
    if (value == choice) return index;
    list += (index++ ? ", " : "") + std::string(choice);
  }
  throw Error(Where(*this, key) + ": '" + value + "' is not one of " + list);
}

}  // namespace gauss
