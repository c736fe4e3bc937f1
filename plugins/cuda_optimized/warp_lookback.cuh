// warp_lookback.cuh: tile status for single-pass scans with decoupled look-back (Merrill &
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
// reads a window of kWindowTiles predecessors at once (lane i reads tiles tile - 1 - i - 32j,
// j < kWindowTiles / 32: the nearest 32 first), waits until none of them is invalid, then adds
// aggregates up to the nearest prefix; if the window holds no prefix it adds all of them and moves
// the window down. Between two reads of a window that is not ready the warp sleeps kRetryDelayNs:
// spinning flat out on the few L2 lines where tiles are being published slows the publishers down
// (CUB's look-back backs off the same way). Windows wider than a warp's 32 reads (the
// lookback_window* tunings) measured slower on the H200 (docs/performance.md, round 4).
template <unsigned kRetryDelayNs, int kWindowTiles = kWarpThreads>
__device__ __forceinline__ uint32_t lookback_exclusive_prefix(const uint64_t* status,
                                                              uint32_t tile) {
  static_assert(kWindowTiles % kWarpThreads == 0, "the window is a whole number of warps' reads");
  constexpr int kReads = kWindowTiles / kWarpThreads;
  const int lane = threadIdx.x % kWarpThreads;
  uint32_t exclusive = 0;
  int64_t nearest = static_cast<int64_t>(tile) - 1;  // the window's nearest predecessor
  for (;;) {
    uint64_t words[kReads];
    for (;;) {
      bool invalid = false;
#pragma unroll
      for (int j = 0; j < kReads; ++j) {
        // Tiles before the first count as a prefix of 0 (tile 0 always publishes a prefix, so
        // the window stops there anyway; this only keeps the read in bounds).
        const int64_t predecessor = nearest - lane - int64_t{kWarpThreads} * j;
        words[j] = predecessor >= 0 ? load_relaxed(status + predecessor)
                                    : uint64_t{TileStatus::kPrefix} << 32;
        invalid |= TileStatus::flag_of(words[j]) == TileStatus::kInvalid;
      }
      if (!__any_sync(kFullWarp, invalid)) break;
      if constexpr (kRetryDelayNs > 0) __nanosleep(kRetryDelayNs);
    }

    // Each lane adds its words up to the nearest prefix of the window (if any), then one warp sum.
    uint32_t lane_sum = 0;
    bool found = false;
#pragma unroll
    for (int j = 0; j < kReads; ++j) {
      if (found) break;
      const unsigned prefix_lanes =
          __ballot_sync(kFullWarp, TileStatus::flag_of(words[j]) == TileStatus::kPrefix);
      uint32_t value = TileStatus::value_of(words[j]);
      if (prefix_lanes != 0) {
        const int nearest_prefix = __ffs(prefix_lanes) - 1;  // lowest lane = closest tile
        if (lane > nearest_prefix) value = 0;
        found = true;
      }
      lane_sum += value;
    }
    exclusive += warp_reduce_sum(lane_sum);
    if (found) return exclusive;
    nearest -= kWindowTiles;
  }
}

// Called by all 32 lanes of warp 0 once the tile's total is known. Publishes the tile's aggregate,
// looks back, publishes the inclusive prefix and returns the exclusive one (tile 0: 0).
template <unsigned kRetryDelayNs, int kWindowTiles = kWarpThreads>
__device__ __forceinline__ uint32_t warp_tile_prefix(uint64_t* status, uint32_t tile,
                                                     uint32_t tile_total, int lane) {
  if (tile == 0) {
    if (lane == 0) TileStatus::publish(status, 0, TileStatus::kPrefix, tile_total);
    return 0;
  }
  if (lane == 0) TileStatus::publish(status, tile, TileStatus::kAggregate, tile_total);
  const uint32_t exclusive = lookback_exclusive_prefix<kRetryDelayNs, kWindowTiles>(status, tile);
  if (lane == 0) TileStatus::publish(status, tile, TileStatus::kPrefix, exclusive + tile_total);
  return exclusive;
}

}  // namespace plugbench::cuda::opt
