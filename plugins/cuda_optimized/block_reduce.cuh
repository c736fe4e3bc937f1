// block_reduce.cuh: sum over all threads of a block: warp butterflies, then one warp over the
// per-warp totals kept in shared memory. The result is valid in thread 0 only.
#pragma once

#include "warp_reduce.cuh"

namespace plugbench::cuda::opt {

template <int kThreads, class T>
struct BlockReduce {
  static_assert(kThreads % kWarpThreads == 0 && kThreads <= 1024, "whole warps, one block");
  static constexpr int kWarps = kThreads / kWarpThreads;
  struct Storage {
    T warp_totals[kWarps];
  };

  // Every thread of the block must call it. Holds one __syncthreads; reusing `storage` afterwards
  // needs another barrier first.
  __device__ __forceinline__ static T sum(T value, Storage& storage) {
    const int lane = threadIdx.x % kWarpThreads;
    const int warp = threadIdx.x / kWarpThreads;
    value = warp_reduce_sum(value);
    if (lane == 0) storage.warp_totals[warp] = value;
    __syncthreads();
    T total{};
    if (warp == 0) {
      total = lane < kWarps ? storage.warp_totals[lane] : T{};
      total = warp_reduce_sum(total);
    }
    return total;
  }
};

}  // namespace plugbench::cuda::opt
