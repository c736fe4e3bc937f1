// lookback_scan.cuh: tile status for single-pass scans with decoupled look-back (Merrill &
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016).
//
// One 64-bit word per tile: the status in the high half, the tile's 32-bit value in the low half,
// so a reader sees a flag and its value together (one atomic word; no fence between them). The
// words start zeroed (kInvalid): the caller clears them on the stream before each kernel.
// A tile publishes its aggregate before it looks back, and tiles are claimed in order through an
// atomic counter, so every predecessor a look-back waits for is running or done: no deadlock.
#pragma once

#include "thread_memory.cuh"
#include "warp_reduce.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

struct TileStatus {
  static constexpr uint32_t kInvalid = 0;    // nothing published yet
  static constexpr uint32_t kAggregate = 1;  // value = this tile's own total
  static constexpr uint32_t kPrefix = 2;     // value = total of all tiles up to and including it

  __device__ __forceinline__ static void publish(uint64_t* status, uint32_t tile, uint32_t flag,
                                                 uint32_t value) {
    store_relaxed(status + tile, (uint64_t{flag} << 32) | value);
  }
  __device__ __forceinline__ static uint32_t flag_of(uint64_t word) {
    return static_cast<uint32_t>(word >> 32);
  }
  __device__ __forceinline__ static uint32_t value_of(uint64_t word) {
    return static_cast<uint32_t>(word);
  }
};

// Called by all 32 lanes of one warp for a tile > 0 whose aggregate is already published.
// Returns, in every lane, the sum (mod 2^32) of the values of all tiles before `tile`. The warp
// reads a window of 32 predecessors at once (lane i reads tile - 1 - i), waits until none of them
// is invalid, then adds aggregates up to the nearest prefix; if the window holds no prefix it adds
// all 32 aggregates and moves the window down. Between two reads of a window that is not ready
// the warp sleeps kRetryDelayNs: spinning flat out on the few L2 lines where tiles are being
// published slows the publishers down (CUB's look-back backs off the same way).
template <unsigned kRetryDelayNs>
__device__ __forceinline__ uint32_t lookback_exclusive_prefix(const uint64_t* status,
                                                              uint32_t tile) {
  const int lane = threadIdx.x % kWarpThreads;
  uint32_t exclusive = 0;
  int64_t predecessor = static_cast<int64_t>(tile) - 1 - lane;
  for (;;) {
    uint64_t word;
    for (;;) {
      // Tiles before the first count as a prefix of 0 (tile 0 always publishes a prefix, so the
      // window stops there anyway; this only keeps the read in bounds).
      word = predecessor >= 0 ? load_relaxed(status + predecessor)
                              : uint64_t{TileStatus::kPrefix} << 32;
      if (!__any_sync(kFullWarp, TileStatus::flag_of(word) == TileStatus::kInvalid)) break;
      if constexpr (kRetryDelayNs > 0) __nanosleep(kRetryDelayNs);
    }

    const unsigned prefix_lanes =
        __ballot_sync(kFullWarp, TileStatus::flag_of(word) == TileStatus::kPrefix);
    uint32_t value = TileStatus::value_of(word);
    if (prefix_lanes != 0) {
      const int nearest_prefix = __ffs(prefix_lanes) - 1;  // lowest lane = closest tile
      if (lane > nearest_prefix) value = 0;
      return exclusive + warp_reduce_sum(value);
    }
    exclusive += warp_reduce_sum(value);
    predecessor -= kWarpThreads;
  }
}

}  // namespace plugbench::cuda::opt
