// Plugin parameters: string key/value pairs from YAML (`<kind>.params`) or `--set`.
//
// A plugin declares the parameters it reads in its entry (ParamSpec: name, type, default,
// one-line description; gauss/plugin.h). The engine attaches the declaration (Declare) and
// refuses undeclared keys before the plugin sees them (CheckDeclared, listing the declared
// ones); the plugin reads them in Configure() with typed getters, whose one-argument forms
// return the declared default. Every getter names the key and the expected type in its error.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <string>

#include "gauss/export.h"

namespace gauss {

enum class ParamType : int { kBool = 0, kInt = 1, kDouble = 2, kString = 3 };

// "bool", "int", "double", "string".
GAUSS_API const char* ParamTypeName(ParamType type);

// One declared parameter. `default_value` is spelled as a user would write it ("false", "1.5").
struct ParamSpec {
  const char* name;
  ParamType type;
  const char* default_value;
  const char* description;  // one line
};

// A view of a plugin's declared parameters: an array of ParamSpec, or none (kNoParams).
struct ParamList {
  const ParamSpec* specs = nullptr;
  int count = 0;
  constexpr ParamList() = default;
  constexpr ParamList(const ParamSpec* s, int n) : specs(s), count(n) {}
  template <std::size_t N>
  constexpr ParamList(const ParamSpec (&s)[N]) : specs(s), count(static_cast<int>(N)) {}
};
inline constexpr ParamList kNoParams{};

class GAUSS_API Params {
 public:
  Params() = default;
  // `context` names where the parameters come from, e.g. "solver 'pgs' parameters".
  explicit Params(std::string context) : context_(std::move(context)) {}

  void Set(const std::string& key, const std::string& value) { values_[key] = value; }
  bool Has(const std::string& key) const { return values_.count(key) != 0; }
  bool empty() const { return values_.empty(); }
  const std::map<std::string, std::string>& values() const { return values_; }
  const std::string& context() const { return context_; }
  void set_context(std::string context) { context_ = std::move(context); }

  double GetDouble(const std::string& key, double fallback) const;
  int GetInt(const std::string& key, int fallback) const;
  bool GetBool(const std::string& key, bool fallback) const;
  std::string GetString(const std::string& key, const std::string& fallback) const;

  // The value of a declared parameter, its declared default when not set. Throws gauss::Error
  // when `key` is not declared (a plugin bug) or the value does not parse.
  double GetDouble(const std::string& key) const;
  int GetInt(const std::string& key) const;
  bool GetBool(const std::string& key) const;
  std::string GetString(const std::string& key) const;
  // The index of a declared keyword parameter's value in `choices`; throws gauss::Error naming
  // the choices when it is none of them.
  int GetChoice(const std::string& key, std::initializer_list<const char*> choices) const;

  // Attaches the plugin's declaration (kept by pointer: entries live as long as their library).
  void Declare(ParamList declared) { declared_ = declared; }
  const ParamList& declared() const { return declared_; }
  // Throws gauss::Error if a key is not declared, listing every declared parameter with its
  // type, default and description.
  void CheckDeclared() const;

 private:
  const ParamSpec& Spec(const std::string& key) const;

  std::string context_;
  std::map<std::string, std::string> values_;
  ParamList declared_;
};

// "name (type, default value): description", one declared parameter as users see it.
GAUSS_API std::string DescribeParam(const ParamSpec& spec);

}  // namespace gauss
