// warp_scan.cuh: inclusive prefix sums across the 32 lanes of a full warp (Kogge-Stone over
// shuffles), modulo 2^32, and the scan of a warp's segment of a tile (chunk by chunk).
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

// Warp layer over a tile's segment: given each lane's sum for each of its chunks, computes for
// each chunk the sum of everything before that lane's part of it within the warp's segment, and
// returns the segment's total (in every lane). The 4 chunk scans are independent (ILP).
template <int kChunks>
__device__ __forceinline__ uint32_t warp_segment_scan(const uint32_t (&chunk_sums)[kChunks],
                                                      uint32_t (&exclusive)[kChunks], int lane) {
  uint32_t inclusive[kChunks];
#pragma unroll
  for (int k = 0; k < kChunks; ++k) inclusive[k] = warp_inclusive_sum(chunk_sums[k], lane);
  uint32_t before = 0;
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    exclusive[k] = before + inclusive[k] - chunk_sums[k];
    before += warp_broadcast_last(inclusive[k]);
  }
  return before;
}

}  // namespace plugbench::cuda::opt
