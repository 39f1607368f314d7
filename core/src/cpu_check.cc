// The CPU check of a build compiled for AVX (GAUSS_ENABLE_AVX, cmake/GaussCodegen.cmake): on a
// CPU without AVX the first AVX instruction would kill the process with SIGILL, somewhere in
// the kernel's static initialization or the first time step, with nothing to say why. This
// constructor runs before any other initializer of the program or library that holds the
// kernel (priority 101, the first one not reserved) and stops with a message instead.
//
// This file is compiled without AVX and without LTO (core/CMakeLists.txt), so that the check
// itself runs on any x86-64 CPU; it calls only C functions, never an inline function that the
// linker could take from a file compiled with AVX.
#include <cstdio>
#include <cstdlib>

#if defined(GAUSS_REQUIRE_AVX)
namespace {

__attribute__((constructor(101))) void RefuseCpuWithoutAvx() {
  __builtin_cpu_init();  // constructors may run before libgcc has filled in the CPU model
  // GAUSS_PRETEND_CPU_WITHOUT_AVX (any value) takes this CPU for one without AVX: the test of
  // this check (tests/codegen/avx_cpu_check_test.sh), which has no such CPU at hand.
  if (__builtin_cpu_supports("avx") && !std::getenv("GAUSS_PRETEND_CPU_WITHOUT_AVX")) return;
  std::fputs(
      "gauss: this build of Gauss was compiled for CPUs with AVX (GAUSS_ENABLE_AVX=ON) and this "
      "CPU does not support AVX; rebuild with cmake -DGAUSS_ENABLE_AVX=OFF\n",
      stderr);
  std::_Exit(EXIT_FAILURE);  // no atexit handlers or destructors: they are AVX code
}

}  // namespace
#endif
