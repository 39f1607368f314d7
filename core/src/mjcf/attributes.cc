// Attribute value parsing: numbers, integers, keywords and booleans, with errors that name the
// file, line, element and attribute and say what was expected.
//
// Numbers are parsed strictly: a token must be a complete decimal floating-point literal
// ("1", "-.5", "1e-3", "inf"); hexadecimal and "nan" are refused, as are trailing characters
// ("1e-3x"), which MuJoCo 2.2.2 also refuses. Integers must be whole numbers in int range
// (MuJoCo silently truncates "3.5" to 3; we refuse it).
#include "mjcf/attributes.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>

namespace gauss::mjcf {
namespace {

// Splits on XML whitespace.
std::vector<std::string> Tokens(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// Parses one decimal number token; throws a located error when it is not one, when it is not
// finite (nan, inf) or beyond the range of double.
double ParseNumber(const XmlElement& e, const std::string& attr, const std::string& tok) {
  bool bad = tok.find_first_of("xXpP") != std::string::npos ||
             tok.find("nan") != std::string::npos || tok.find("NAN") != std::string::npos ||
             tok.find("NaN") != std::string::npos;
  char* end = nullptr;
  errno = 0;
  const double v = bad ? 0 : std::strtod(tok.c_str(), &end);
  if (bad || end == tok.c_str() || *end != '\0') {
    throw Error(e.Where(attr), "'" + tok + "' is not a number");
  }
  if (errno == ERANGE && std::isinf(v)) {
    throw Error(e.Where(attr), "'" + tok + "' is out of the range of double");
  }
  if (!std::isfinite(v)) {  // "inf", "infinity": every MJCF number must be finite, like NaN
    throw Error(e.Where(attr), "'" + tok + "' is not a finite number");
  }
  return v;
}

// Parses one base-10 integer token in int range; throws a located error otherwise.
int ParseInt(const XmlElement& e, const std::string& attr, const std::string& tok) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(tok.c_str(), &end, 10);
  if (end == tok.c_str() || *end != '\0') {
    throw Error(e.Where(attr), "expected an integer, found '" + tok + "'");
  }
  if (errno == ERANGE || v < INT_MIN || v > INT_MAX) {
    throw Error(e.Where(attr), "integer '" + tok + "' is out of range");
  }
  return static_cast<int>(v);
}

// "1 value" / "n values", for messages.
std::string Count(int n) { return n == 1 ? "1 value" : std::to_string(n) + " values"; }

// Checks the number of tokens against the exact / prefix rule.
void CheckCount(const XmlElement& e, const std::string& attr, int found, int n, bool exact) {
  if (found == 0) {
    throw Error(e.Where(attr), "expected " + std::string(exact ? "" : "1 to ") + Count(n) +
                                   ", found none");
  }
  if (exact && found != n) {
    throw Error(e.Where(attr), "expected " + Count(n) + ", found " + std::to_string(found));
  }
  if (found > n) {
    throw Error(e.Where(attr), "expected at most " + Count(n) + ", found " + std::to_string(found));
  }
}

}  // namespace

// (attribute text) => (out[0..count)); see attributes.h for the exact / prefix rule.
int ReadNumbers(const XmlElement& e, const std::string& attr, double* out, int n, bool exact) {
  const std::string* v = e.Find(attr);
  if (!v) return 0;
  const std::vector<std::string> toks = Tokens(*v);
  CheckCount(e, attr, static_cast<int>(toks.size()), n, exact);
  for (std::size_t i = 0; i < toks.size(); ++i) out[i] = ParseNumber(e, attr, toks[i]);
  return static_cast<int>(toks.size());
}

bool ReadNumber(const XmlElement& e, const std::string& attr, double* out) {
  return ReadNumbers(e, attr, out, 1, true) == 1;
}

bool ReadNumberList(const XmlElement& e, const std::string& attr, std::vector<double>* out) {
  const std::string* v = e.Find(attr);
  if (!v) return false;
  const std::vector<std::string> toks = Tokens(*v);
  if (toks.empty()) throw Error(e.Where(attr), "expected at least 1 value, found none");
  out->clear();
  for (const std::string& t : toks) out->push_back(ParseNumber(e, attr, t));
  return true;
}

int ReadInts(const XmlElement& e, const std::string& attr, int* out, int n, bool exact) {
  const std::string* v = e.Find(attr);
  if (!v) return 0;
  const std::vector<std::string> toks = Tokens(*v);
  CheckCount(e, attr, static_cast<int>(toks.size()), n, exact);
  for (std::size_t i = 0; i < toks.size(); ++i) out[i] = ParseInt(e, attr, toks[i]);
  return static_cast<int>(toks.size());
}

bool ReadInt(const XmlElement& e, const std::string& attr, int* out) {
  return ReadInts(e, attr, out, 1, true) == 1;
}

// (attribute text) => (*out = index of the keyword); the error lists the valid keywords.
bool ReadKeyword(const XmlElement& e, const std::string& attr,
                 const std::vector<std::string>& keywords, int* out) {
  const std::string* v = e.Find(attr);
  if (!v) return false;
  for (std::size_t i = 0; i < keywords.size(); ++i) {
    if (*v == keywords[i]) {
      *out = static_cast<int>(i);
      return true;
    }
  }
  std::string valid;
  for (std::size_t i = 0; i < keywords.size(); ++i) valid += (i ? ", " : "") + keywords[i];
  throw Error(e.Where(attr), "invalid value '" + *v + "'; expected one of: " + valid);
}

bool ReadBool(const XmlElement& e, const std::string& attr, bool* out) {
  int k = 0;
  if (!ReadKeyword(e, attr, {"false", "true"}, &k)) return false;
  *out = k == 1;
  return true;
}

bool ReadLimited(const XmlElement& e, const std::string& attr, int* out) {
  return ReadKeyword(e, attr, {"false", "true", "auto"}, out);
}

bool ReadString(const XmlElement& e, const std::string& attr, std::string* out) {
  const std::string* v = e.Find(attr);
  if (!v) return false;
  *out = *v;
  return true;
}

const std::string& RequireAttribute(const XmlElement& e, const std::string& attr) {
  const std::string* v = e.Find(attr);
  if (!v) throw Error(e.Where(attr), "required attribute missing");
  return *v;
}

void NotSupported(const XmlElement& e, const std::string& what, const std::string& attr) {
  throw Error(e.Where(attr), "not supported yet: " + what);
}

}  // namespace gauss::mjcf
