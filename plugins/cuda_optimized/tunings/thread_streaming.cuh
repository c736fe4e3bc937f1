// thread_streaming.cuh: 16-byte streaming loads and stores (ld.global.cs / st.global.cs: evict
// first) as a vector policy of TileLayout (block_tile_scan.cuh), for the "*streaming" tunings:
// data touched exactly once, so it does not push out of L2 what is read again (the look-back's
// status words). On the H200 within 1 % of the cached vectors (docs/performance.md, round 4).
#pragma once

#include <cstdint>

namespace plugbench::cuda::opt {

struct StreamingVectors {
  __device__ __forceinline__ static uint4 load(const uint4* address) { return __ldcs(address); }
  __device__ __forceinline__ static void store(uint4* address, uint4 value) {
    __stcs(address, value);
  }
};

}  // namespace plugbench::cuda::opt
