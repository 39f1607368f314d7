// Counting the calls of the global operator new, for the tests that assert that a step (engine,
// collision, sensors, actuation, the experiment run loop) allocates nothing on the heap.
//
// alloc_counter.cc replaces the global allocation functions (new, new[], delete, delete[]) of
// every executable it is linked into: they count and forward to malloc/free. Only the test
// executables that check allocations link it (gauss_alloc_counter in tests/CMakeLists.txt).
// Under AddressSanitizer the replacement is left out - it would mix with ASan's own allocator
// and ASan reports alloc-dealloc-mismatch - and the count is unavailable: such tests skip with
// AllocationCountUnavailable() as the reason.
#pragma once

#include <string>

namespace gauss::test {

// Whether this executable counts allocations.
bool AllocationCountAvailable();

// Why not, for GTEST_SKIP (empty when allocations are counted).
std::string AllocationCountUnavailable();

// Calls of operator new and new[] in this process so far (0 when unavailable).
long AllocationCount();

}  // namespace gauss::test
