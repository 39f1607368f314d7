// Reading an input file (model, included file, mesh, configuration, CSV) with the checks every
// input gets: it must be a regular file (not a directory, a device such as /dev/zero or a FIFO)
// and at most MaxInputBytes() long, so that a wrong path fails with a message instead of
// reading until memory runs out.
#pragma once

#include <cstdint>
#include <string>

namespace gauss {

// The input size cap: 256 MiB, or the byte count in the environment variable
// GAUSS_MAX_INPUT_BYTES (a positive integer) when set.
std::uint64_t MaxInputBytes();

// "" when `path` names a regular file within the cap, else why not ("is a directory, not a
// file", "is not a regular file (a device, a FIFO or a socket)", "is 300000000 bytes, more than
// the input size limit of ...", "file not found", or the OS error).
std::string InputFileProblem(const std::string& path);

// (path) => its whole content; false (and *reason set as above, or the OS error of open/read)
// when it cannot be read.
bool ReadInputFile(const std::string& path, std::string* text, std::string* reason);

}  // namespace gauss
