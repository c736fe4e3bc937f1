// thread_memory.cuh: per-thread memory accesses with explicit caching and ordering: 16-byte
// read-only vector loads, and the relaxed GPU-scope loads and stores that decoupled look-back uses.
#pragma once

#include <cstdint>

namespace plugbench::cuda::opt {

// 16-byte load through the read-only (non-coherent) path: inputs never change during a kernel.
__device__ __forceinline__ uint4 load_readonly(const uint4* address) {
  return __ldg(address);
}
__device__ __forceinline__ float4 load_readonly(const float4* address) {
  return __ldg(address);
}

// Relaxed loads and stores at GPU scope. They bypass L1 (which is not coherent across SMs), so a
// value one block publishes becomes visible to a spinning block. Every look-back in this plugin
// packs a status flag and its value into one word, so the single-copy atomicity of an aligned
// word is all the ordering it needs: no fence orders the flag against a separate value.
__device__ __forceinline__ uint64_t load_relaxed(const uint64_t* address) {
  uint64_t value;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(value) : "l"(address) : "memory");
  return value;
}
__device__ __forceinline__ uint32_t load_relaxed(const uint32_t* address) {
  uint32_t value;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(value) : "l"(address) : "memory");
  return value;
}
__device__ __forceinline__ void store_relaxed(uint64_t* address, uint64_t value) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" : : "l"(address), "l"(value) : "memory");
}
__device__ __forceinline__ void store_relaxed(uint32_t* address, uint32_t value) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" : : "l"(address), "r"(value) : "memory");
}

}  // namespace plugbench::cuda::opt
