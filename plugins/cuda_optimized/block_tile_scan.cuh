// block_tile_scan.cuh: the block layer shared by the single-pass scan and compaction. A tile is
// kThreads x (4 * kVectors) items of 32 bits (default 16): warp w owns a contiguous segment of
// kVectors chunks of 128 items and reads it chunk by chunk, lane l taking items 4l .. 4l + 3 of
// each chunk with one 16-byte load (every load instruction covers 512 contiguous bytes). Offsets
// inside a warp come from shuffle scans over the per-lane chunk sums (warp_scan.cuh); offsets
// between warps from shared memory (here); the offset of the tile from decoupled look-back
// (warp_lookback.cuh).
#pragma once

#include "thread_memory.cuh"
#include "warp_reduce.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

// How a full tile's 16-byte vectors are read and written: loads through the read-only path
// (inputs never change during a kernel), ordinary stores. TileLayout takes any type with these two
// functions.
struct CachedVectors {
  __device__ __forceinline__ static uint4 load(const uint4* address) {
    return load_readonly(address);
  }
  __device__ __forceinline__ static void store(uint4* address, uint4 value) { *address = value; }
};

template <int kThreads, int kVectorsPerLane = 4, class Vectors = CachedVectors>
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
        const uint4 v = Vectors::load(reinterpret_cast<const uint4*>(in + first));
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
        Vectors::store(
            reinterpret_cast<uint4*>(out + first),
            make_uint4(items[4 * k + 0], items[4 * k + 1], items[4 * k + 2], items[4 * k + 3]));
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (first + j < n) out[first + j] = items[4 * k + j];
        }
      }
    }
  }
};

// Shared memory of one tile's block-level scan.
template <int kWarps>
struct TileScanStorage {
  uint32_t warp_totals[kWarps];
  uint32_t tile_prefix;  // sum over all earlier tiles
  uint32_t next_tile;    // the tile the block processes (TileOrder::kClaimed)
};

template <class Shape>
using TileScanStorageOf = TileScanStorage<Shape::Layout::kWarps>;

// From each warp's total: the sum of the totals of the warps before this one, and the tile's
// total. Called by every thread of the block (lane 0 of each warp writes its warp's total); one
// barrier.
struct WarpTotals {
  uint32_t before;  // the totals of warps 0 .. warp - 1
  uint32_t tile;    // the totals of all warps
};

template <int kWarps>
__device__ __forceinline__ WarpTotals share_warp_totals(uint32_t warp_total, int warp, int lane,
                                                        TileScanStorage<kWarps>& storage) {
  if (lane == 0) storage.warp_totals[warp] = warp_total;
  __syncthreads();
  WarpTotals totals{0, 0};
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const uint32_t total = storage.warp_totals[w];
    if (w < warp) totals.before += total;
    totals.tile += total;
  }
  return totals;
}

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

}  // namespace plugbench::cuda::opt
