// One iteration of a spin-wait loop: tells the CPU the thread is spinning (a pause on x86, a
// yield on ARM), so that the spinning thread gives way to its sibling hyperthread and leaves
// the loop without a memory-order mis-speculation. Used by the thread pool's and the
// finite-difference columns' spin waits.
#pragma once

namespace gauss {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace gauss
