// warp_histogram.cuh: a warp-private 256-bin histogram in shared memory, fed 16-byte vectors of
// pixels by all 32 lanes together: a vector whose 16 bytes are equal costs one shared atomic of
// +16 instead of 16, and a warp whose 32 vectors all hold one value (a flat region) one atomic of
// +512.
#pragma once

#include "warp_reduce.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

struct WarpHistogram {
  unsigned* bins;

  __device__ __forceinline__ void add_word(unsigned word) const {
    atomicAdd(bins + (word & 0xffu), 1u);
    atomicAdd(bins + ((word >> 8) & 0xffu), 1u);
    atomicAdd(bins + ((word >> 16) & 0xffu), 1u);
    atomicAdd(bins + (word >> 24), 1u);
  }
  // Called by all 32 lanes together (it votes); `valid` is false for a lane with no vector.
  __device__ __forceinline__ void add_vector(uint4 v, bool valid, int lane) const {
    const unsigned repeated = __byte_perm(v.x, 0, 0x0000);  // byte 0 in all four bytes
    const bool uniform =
        valid && v.x == repeated && v.y == repeated && v.z == repeated && v.w == repeated;
    const unsigned value = v.x & 0xffu;
    const unsigned lane0_value = __shfl_sync(kFullWarp, value, 0);  // every lane must take part
    // The whole warp on one value (a flat region): one atomic for 512 pixels, instead of 32
    // lanes serializing on one address.
    if (__all_sync(kFullWarp, uniform && value == lane0_value)) {
      if (lane == 0) atomicAdd(bins + value, 16u * kWarpThreads);
      return;
    }
    if (!valid) return;
    if (uniform) {
      atomicAdd(bins + value, 16u);
    } else {
      add_word(v.x);
      add_word(v.y);
      add_word(v.z);
      add_word(v.w);
    }
  }
};

}  // namespace plugbench::cuda::opt
