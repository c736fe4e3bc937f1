// block_scan.cuh: exclusive prefix sum of one 32-bit value per thread across a block (warp scans,
// then the per-warp totals through shared memory), modulo 2^32.
#pragma once

#include "warp_scan.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

template <int kThreads>
struct BlockScan {
  static_assert(kThreads % kWarpThreads == 0 && kThreads <= 1024, "whole warps, one block");
  static constexpr int kWarps = kThreads / kWarpThreads;
  struct Storage {
    uint32_t warp_totals[kWarps];
  };

  // Every thread of the block must call it; `total` receives the block's sum in every thread.
  // Holds one __syncthreads; reusing `storage` afterwards needs another barrier first.
  __device__ __forceinline__ static uint32_t exclusive_sum(uint32_t value, uint32_t& total,
                                                           Storage& storage) {
    const int lane = threadIdx.x % kWarpThreads;
    const int warp = threadIdx.x / kWarpThreads;
    const uint32_t inclusive = warp_inclusive_sum(value, lane);
    if (lane == kWarpThreads - 1) storage.warp_totals[warp] = inclusive;
    __syncthreads();
    uint32_t warp_prefix = 0;
    uint32_t block_total = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const uint32_t warp_total = storage.warp_totals[w];
      if (w < warp) warp_prefix += warp_total;
      block_total += warp_total;
    }
    total = block_total;
    return warp_prefix + inclusive - value;
  }
};

}  // namespace plugbench::cuda::opt
