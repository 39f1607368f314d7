// GAUSS_INTERNAL hides a class that the kernel defines for itself but that a public class
// declares (a nested Impl, Engine::Plugins): a nested class takes the visibility of the class
// that encloses it, which is exported, so without the mark its members would be exported from
// libgauss.so too (tests/core/exported_symbols_test.cc fails on them).
#pragma once

#define GAUSS_INTERNAL __attribute__((visibility("hidden")))
