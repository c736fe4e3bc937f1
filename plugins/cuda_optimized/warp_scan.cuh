// warp_scan.cuh: inclusive prefix sums across the 32 lanes of a full warp (Kogge-Stone over
// shuffles), modulo 2^32.
#pragma once

#include "warp_reduce.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

__device__ __forceinline__ uint32_t warp_inclusive_sum(uint32_t value, int lane) {
#pragma unroll
  for (int offset = 1; offset < kWarpThreads; offset *= 2) {
    const uint32_t other = __shfl_up_sync(kFullWarp, value, offset);
    if (lane >= offset) value += other;
  }
  return value;
}

// The value lane 31 holds: after an inclusive scan, the warp's total.
__device__ __forceinline__ uint32_t warp_broadcast_last(uint32_t value) {
  return __shfl_sync(kFullWarp, value, kWarpThreads - 1);
}

}  // namespace plugbench::cuda::opt
