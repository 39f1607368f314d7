// Counting replacement of the global allocation functions (alloc_counter.h).
#include "support/alloc_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define GAUSS_ALLOC_COUNTER_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GAUSS_ALLOC_COUNTER_UNDER_ASAN 1
#endif
#endif

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

#ifndef GAUSS_ALLOC_COUNTER_UNDER_ASAN
void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace gauss::test {

#ifdef GAUSS_ALLOC_COUNTER_UNDER_ASAN
bool AllocationCountAvailable() { return false; }
std::string AllocationCountUnavailable() {
  return "allocation count unavailable under AddressSanitizer (a replaced operator new would "
         "mix with ASan's allocator)";
}
#else
bool AllocationCountAvailable() { return true; }
std::string AllocationCountUnavailable() { return ""; }
#endif

long AllocationCount() { return g_allocations.load(); }

}  // namespace gauss::test
