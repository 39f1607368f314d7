// Checks, before any dlopen, the parts of an ELF shared object that the dynamic loader trusts
// without bounds checks and that a damaged file can break in a way that crashes only sometimes.
//
// Why: the loader reads the program headers, the dynamic section and the tables it points to
// (symbols, strings, hashes, relocations, symbol versions) without checking them against the
// file. A symbol-version index beyond the defined versions makes it read uninitialised memory,
// so a damaged copy can load cleanly in the probe child and crash in the parent (or the other
// way round). Refusing such a file here makes a damaged file a deterministic, explained skip.
#pragma once

#include <string>

namespace gauss {

// (file) => nothing when the loader can read it safely; throws gauss::Error naming the file
// and the first damage found (e.g. "symbol 12 has version index 7, which no version defines").
// Reads the file only, never loads it.
void CheckElfForLoader(const std::string& file);

}  // namespace gauss
