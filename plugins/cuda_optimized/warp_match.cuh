// warp_match.cuh: which lanes of a full warp hold the same small label (a radix digit). One
// ballot per label bit: for 8-bit digits this beats match.any.sync, which is slow on few bits.
#pragma once

#include "warp_reduce.cuh"

namespace plugbench::cuda::opt {

// Mask of the lanes whose label agrees with this lane's label in the low kBits bits.
template <int kBits>
__device__ __forceinline__ unsigned warp_match_any(unsigned label) {
  unsigned peers = kFullWarp;
#pragma unroll
  for (int bit = 0; bit < kBits; ++bit) {
    const bool set = (label >> bit) & 1u;
    const unsigned lanes_set = __ballot_sync(kFullWarp, set);
    peers &= set ? lanes_set : ~lanes_set;
  }
  return peers;
}

__device__ __forceinline__ unsigned lanes_below(int lane) {
  return (1u << lane) - 1u;
}

}  // namespace plugbench::cuda::opt
