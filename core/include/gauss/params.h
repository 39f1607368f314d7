// Plugin parameters: string key/value pairs from YAML (`<kind>.params`) or `--set`.
//
// Plugins read them in Configure() with typed getters; every getter names the key and the
// expected type in its error, and Require() rejects keys the plugin does not know, listing the
// valid ones.
#pragma once

#include <initializer_list>
#include <map>
#include <string>

namespace gauss {

class Params {
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

  // Throws gauss::Error if a key outside `known` is present, listing the known keys.
  void Require(std::initializer_list<const char*> known) const;

 private:
  std::string context_;
  std::map<std::string, std::string> values_;
};

}  // namespace gauss
