// warp_reduce.cuh: sums across the 32 lanes of a full warp; every lane receives the total.
#pragma once

#include <cstdint>

namespace plugbench::cuda::opt {

inline constexpr unsigned kFullWarp = 0xffffffffu;
inline constexpr int kWarpThreads = 32;

// 32-bit integer sum in one instruction (redux.sync, sm_80+); wraps modulo 2^32.
__device__ __forceinline__ uint32_t warp_reduce_sum(uint32_t value) {
  return __reduce_add_sync(kFullWarp, value);
}

// Butterfly (xor) reduction: every lane ends with the same total, summed in the same order.
template <class T>
__device__ __forceinline__ T warp_reduce_sum(T value) {
#pragma unroll
  for (int offset = kWarpThreads / 2; offset > 0; offset /= 2) {
    value += __shfl_xor_sync(kFullWarp, value, offset);
  }
  return value;
}

}  // namespace plugbench::cuda::opt
