// block_tile_scan.cuh: the block layer shared by the single-pass scan and compaction. A tile is
// kThreads x (4 * kVectors) items of 32 bits (default 16): warp w owns a contiguous segment of
// kVectors chunks of 128 items and reads it chunk by chunk, lane l taking items 4l .. 4l + 3 of
// each chunk with one 16-byte load (every load instruction covers 512 contiguous bytes). Offsets
// inside a warp come from shuffle scans over the per-lane chunk sums; offsets between warps from
// shared memory; the offset of the tile from decoupled look-back (warp_lookback.cuh).
#pragma once

#include "thread_memory.cuh"
#include "warp_lookback.cuh"
#include "warp_scan.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

// kStreaming: full tiles are read and written with evict-first hints (thread_memory.cuh).
template <int kThreads, int kVectorsPerLane = 4, bool kStreaming = false>
struct TileLayout {
  static constexpr int kWarps = kThreads / kWarpThreads;
  static constexpr int kVectors = kVectorsPerLane;  // 16-byte chunks per lane
  static constexpr int kItems = 4 * kVectors;
  static constexpr int kChunkItems = 4 * kWarpThreads;
  static constexpr int kWarpItems = kVectors * kChunkItems;
  static constexpr int kTileItems = kThreads * kItems;

  // Index of the first of the 4 items lane `lane` holds in chunk k.
  __device__ __forceinline__ static uint64_t first_item(uint64_t tile_base, int warp, int lane,
                                                        int k) {
    return tile_base + static_cast<uint64_t>(warp) * kWarpItems + k * kChunkItems + lane * 4;
  }

  // kFull: the whole tile lies below n (16-byte accesses); otherwise items at or past n read as 0
  // and are not written.
  template <bool kFull>
  __device__ __forceinline__ static void load(const uint32_t* __restrict__ in, uint64_t tile_base,
                                              uint64_t n, int warp, int lane,
                                              uint32_t (&items)[kItems]) {
#pragma unroll
    for (int k = 0; k < kVectors; ++k) {
      const uint64_t first = first_item(tile_base, warp, lane, k);
      if constexpr (kFull) {
        const auto* address = reinterpret_cast<const uint4*>(in + first);
        const uint4 v = kStreaming ? load_streaming(address) : load_readonly(address);
        items[4 * k + 0] = v.x;
        items[4 * k + 1] = v.y;
        items[4 * k + 2] = v.z;
        items[4 * k + 3] = v.w;
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) items[4 * k + j] = first + j < n ? in[first + j] : 0u;
      }
    }
  }

  template <bool kFull>
  __device__ __forceinline__ static void store(uint32_t* __restrict__ out, uint64_t tile_base,
                                               uint64_t n, int warp, int lane,
                                               const uint32_t (&items)[kItems]) {
#pragma unroll
    for (int k = 0; k < kVectors; ++k) {
      const uint64_t first = first_item(tile_base, warp, lane, k);
      if constexpr (kFull) {
        auto* address = reinterpret_cast<uint4*>(out + first);
        const uint4 v =
            make_uint4(items[4 * k + 0], items[4 * k + 1], items[4 * k + 2], items[4 * k + 3]);
        if constexpr (kStreaming) {
          store_streaming(address, v);
        } else {
          *address = v;
        }
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (first + j < n) out[first + j] = items[4 * k + j];
        }
      }
    }
  }
};

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

// Shared memory of one tile's block-level scan.
template <int kWarps>
struct TileScanStorage {
  uint32_t warp_totals[kWarps];
  uint32_t tile_prefix;  // sum over all earlier tiles
  uint32_t next_tile;    // the tile the block processes (TileOrder::kClaimed)
};

// How a block learns which tile it scans. kClaimed: thread 0 takes the next one from an atomic
// counter as the block starts, so tiles start in order whatever order the hardware starts blocks
// in, and every tile a look-back waits for is running: no deadlock. kBlockIndex: the tile is
// blockIdx.x, which saves an L2 atomic round trip and a barrier before the tile's first load but
// relies on blocks starting in index order, as CUB's single-pass scan does.
enum class TileOrder { kClaimed, kBlockIndex };

// Whether tile `tile` of a Shape lies wholly below n (moves by 16-byte or bulk copies); only the
// last tile may not.
template <class Shape>
__device__ __forceinline__ bool is_full_tile(uint32_t tile, uint64_t n) {
  return (uint64_t{tile} + 1) * Shape::Layout::kTileItems <= n;
}

template <TileOrder kOrder>
__device__ __forceinline__ uint32_t tile_of_block(uint32_t* tile_counter, uint32_t& claimed) {
  if constexpr (kOrder == TileOrder::kBlockIndex) {
    return blockIdx.x;
  } else {
    if (threadIdx.x == 0) claimed = atomicAdd(tile_counter, 1u);
    __syncthreads();
    return claimed;
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
