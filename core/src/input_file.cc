// Input files (gauss/input_file.h): stat first, then read at most the cap.
#include "gauss/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace gauss {

std::uint64_t MaxInputBytes() {
  constexpr std::uint64_t kDefault = 256ull << 20;
  const char* env = std::getenv("GAUSS_MAX_INPUT_BYTES");
  if (env == nullptr || *env == '\0') return kDefault;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(env, &end, 10);
  if (errno != 0 || *end != '\0' || v == 0 || env[0] == '-') return kDefault;
  return v;
}

std::string InputFileProblem(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    return errno == ENOENT ? std::string("file not found") : std::string(std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return "is a directory, not a file";
  if (!S_ISREG(st.st_mode)) return "is not a regular file (a device, a FIFO or a socket)";
  const std::uint64_t cap = MaxInputBytes();
  if (static_cast<std::uint64_t>(st.st_size) > cap) {
    return "is " + std::to_string(st.st_size) + " bytes, more than the input size limit of " +
           std::to_string(cap) + " bytes (raise it with the environment variable "
           "GAUSS_MAX_INPUT_BYTES)";
  }
  return "";
}

bool ReadInputFile(const std::string& path, std::string* text, std::string* reason) {
  *reason = InputFileProblem(path);
  if (!reason->empty()) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *reason = std::string("cannot open the file for reading: ") + std::strerror(errno);
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return true;
}

}  // namespace gauss
