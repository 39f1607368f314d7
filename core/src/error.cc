#include "gauss/error.h"

namespace gauss {

std::string Error::Format(const ErrorLocation& where, const std::string& message) {
  std::string out;
  if (!where.file.empty()) {
    out += where.file;
    if (where.line > 0) out += ":" + std::to_string(where.line);
    out += ": ";
  }
  if (!where.element.empty()) {
    out += "element '" + where.element + "'";
    if (!where.attribute.empty()) out += ", attribute '" + where.attribute + "'";
    out += ": ";
  } else if (!where.attribute.empty()) {
    out += "'" + where.attribute + "': ";
  }
  return out + message;
}

}  // namespace gauss

namespace gauss {

void FailDemand(const char* file, int line, const std::string& what) {
  throw Error(std::string(file) + ":" + std::to_string(line) + ": invariant violated: " + what);
}

}  // namespace gauss
