// The one exception type for bad input (model files, configuration, plugins, CSV).
//
// Numerical trouble inside a step is not an exception: it is counted in Data::warning_count
// (see Engine::Step). Everything a user can get wrong before a step throws gauss::Error with
// the location and what was expected, so that the message alone is enough to fix the input.
#pragma once

#include <stdexcept>
#include <string>

namespace gauss {

struct ErrorLocation {
  std::string file;       // path of the file, "" if not from a file
  int line = 0;           // 1-based line, 0 if unknown
  std::string element;    // XML element / YAML key / CSV column, "" if not applicable
  std::string attribute;  // XML attribute, "" if not applicable
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
  Error(const ErrorLocation& where, const std::string& message)
      : std::runtime_error(Format(where, message)), where_(where) {}

  const ErrorLocation& where() const { return where_; }

  // "file:line: element 'joint', attribute 'type': message"
  static std::string Format(const ErrorLocation& where, const std::string& message);

 private:
  ErrorLocation where_;
};

// Throws gauss::Error "file:line: invariant violated: <what>" (with the location of the check).
[[noreturn]] void FailDemand(const char* file, int line, const std::string& what);

}  // namespace gauss

// GAUSS_DEMAND(condition, what): an invariant that holds for every valid input and that the
// code relies on. Checked in every build type (unlike assert, which vanishes in Release):
// when it fails, a gauss::Error names the source location and `what` was expected.
#define GAUSS_DEMAND(condition, what)                                  \
  do {                                                                 \
    if (!(condition)) ::gauss::FailDemand(__FILE__, __LINE__, (what)); \
  } while (false)
