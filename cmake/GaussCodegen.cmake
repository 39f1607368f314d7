# Code generation of the kernel and the in-tree plugins (docs/performance.md, "Build flags: LTO,
# interposition, AVX (stop 28)"):
#  - -fno-semantic-interposition (always, when the compiler knows it): the SDK's functions keep
#    default visibility in libgauss.so, and without this flag every call to one of them from
#    inside the kernel goes through the PLT and cannot be inlined, because the dynamic loader
#    could bind it to another definition. Gauss never relies on such interposition.
#  - GAUSS_ENABLE_LTO: link-time optimization of libgauss.so and of each in-tree plugin, so
#    that small functions of one source file are inlined into another (core/CMakeLists.txt).
#  - GAUSS_ENABLE_AVX: -mavx for everything this build compiles, 4 doubles per vector
#    instruction instead of SSE2's 2 (never -mfma or -march=native: contracting a*b+c into one
#    rounding would change results). Eigen's reductions then sum in another order, so results
#    may differ from a build without AVX in the last bits.
include(CheckCXXCompilerFlag)
include(CheckCXXSourceRuns)
include(CheckIPOSupported)

check_cxx_compiler_flag(-fno-semantic-interposition GAUSS_COMPILER_HAS_NO_SEMANTIC_INTERPOSITION)

# LTO: on by default in optimized builds (a Debug or sanitized build gains nothing from it and
# would only link more slowly).
check_ipo_supported(RESULT gauss_ipo_supported OUTPUT gauss_ipo_output LANGUAGES CXX)
if(gauss_ipo_supported AND NOT GAUSS_SANITIZE
   AND CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo|MinSizeRel)$")
  set(gauss_lto_default ON)
else()
  set(gauss_lto_default OFF)
endif()
option(GAUSS_ENABLE_LTO "Link-time optimization of libgauss and the in-tree plugins" ${gauss_lto_default})
if(GAUSS_ENABLE_LTO AND NOT gauss_ipo_supported)
  message(FATAL_ERROR "GAUSS_ENABLE_LTO is ON but the toolchain cannot do LTO: ${gauss_ipo_output}")
endif()

# AVX: off by default for now. With -mavx, GCC 12 warns (-Warray-bounds, false positives in
# Eigen's 256-bit copies of 2-vectors, tests/core/box_qp_test.cc) and the test suite has not yet
# run on an AVX build (docs/performance.md, "Build flags"); meant to become on by default when
# the compiler takes -mavx and the build host's CPU runs it (GAUSS_HOST_CPU_HAS_AVX, a machine
# that builds Gauss usually runs it). A build with AVX refuses to start on a CPU without it,
# with a message (core/src/cpu_check.cc), instead of dying on the first AVX instruction.
check_cxx_compiler_flag(-mavx GAUSS_COMPILER_HAS_AVX)
if(GAUSS_COMPILER_HAS_AVX AND NOT CMAKE_CROSSCOMPILING)
  check_cxx_source_runs("int main() { __builtin_cpu_init(); return __builtin_cpu_supports(\"avx\") ? 0 : 1; }"
    GAUSS_HOST_CPU_HAS_AVX)
endif()
option(GAUSS_ENABLE_AVX "Compile for CPUs with AVX (-mavx)" OFF)
if(GAUSS_ENABLE_AVX AND NOT GAUSS_HOST_CPU_HAS_AVX)
  message(WARNING "GAUSS_ENABLE_AVX is ON but this machine's CPU has no AVX: the programs and "
                  "tests of this build will refuse to run here")
endif()
if(GAUSS_ENABLE_AVX)
  if(NOT GAUSS_COMPILER_HAS_AVX)
    message(FATAL_ERROR "GAUSS_ENABLE_AVX is ON but ${CMAKE_CXX_COMPILER} does not accept -mavx")
  endif()
  add_compile_options(-mavx)
endif()
# Eigen aligns its objects to the widest vector it compiles for: 32 bytes with AVX, 16 without,
# and with more than 16 it allocates dynamic matrices with its own aligned allocator instead of
# malloc. Capping the alignment at 16 everywhere (here for this build, on gauss::core for
# programs and plugins built against the installed SDK) keeps the kernel and a plugin compatible
# whether or not either was built with AVX: a matrix allocated on one side can be resized or
# freed on the other. Eigen then uses unaligned loads and stores for its AVX vectors.
set(GAUSS_EIGEN_ABI_DEFINITIONS EIGEN_MAX_ALIGN_BYTES=16)
add_compile_definitions(${GAUSS_EIGEN_ABI_DEFINITIONS})

message(STATUS "Gauss code generation: LTO ${GAUSS_ENABLE_LTO}, AVX ${GAUSS_ENABLE_AVX}, "
               "-fno-semantic-interposition ${GAUSS_COMPILER_HAS_NO_SEMANTIC_INTERPOSITION}")
