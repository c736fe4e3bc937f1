// agent_scan.cuh: one tile of the single-pass scan, done by one block: read once, scanned
// (shuffles within a warp, shared memory between warps), offset by the sum of all earlier tiles
// found through decoupled look-back by warp 0, written once. Two agents: the tile in registers
// (any GPU), and the tile in shared memory, moved by Hopper's bulk copies (sm_90 and later).
#pragma once

#include "agent_lookback.cuh"
#include "bulk_copy.cuh"
#include "warp_lookback.cuh"
#include "warp_scan.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

// Warp 0 (all 32 lanes), once the tile's total is known: publishes it, looks back, and notes the
// exclusive prefix (the sum over all earlier tiles) in `tile_prefix` for the block.
template <class Shape>
__device__ __forceinline__ void look_back_tile(uint64_t* status, uint32_t tile, uint32_t tile_total,
                                               int lane, uint32_t& tile_prefix) {
  const uint32_t prefix = warp_tile_prefix<Shape::kLookbackRetryDelayNs, Shape::kLookbackWindow>(
      status, tile, tile_total, lane);
  if (lane == 0) tile_prefix = prefix;
}

// Block step shared by both agents: from each warp's total, the offset of this warp's first item
// in the whole scan: the sum of all earlier tiles (decoupled look-back by warp 0) and of the
// tile's earlier warps. Called by every thread of the block; two barriers.
template <class Shape>
__device__ __forceinline__ uint32_t warp_offset_in_scan(uint32_t warp_total, int warp, int lane,
                                                        uint32_t tile, uint64_t* status,
                                                        TileScanStorageOf<Shape>& storage) {
  const WarpTotals totals = share_warp_totals(warp_total, warp, lane, storage);
  if (warp == 0) look_back_tile<Shape>(status, tile, totals.tile, lane, storage.tile_prefix);
  __syncthreads();
  return storage.tile_prefix + totals.before;
}

// Agent, tile in registers: one tile, one block per tile, the block claiming its tile as it
// starts. (A persistent grid of 4 blocks per SM looping over tiles measured 1.01 ms at 2^28
// against 0.96 ms, 256 x 16; claiming the next tile any earlier than after the look-back measured
// 1.7 ms: a claimed but not yet started tile holds up the look-backs of all later tiles.)
template <class Shape, bool kFull>
__device__ __forceinline__ void scan_tile(const uint32_t* __restrict__ in,
                                          uint32_t* __restrict__ out, uint64_t n, uint32_t tile,
                                          uint64_t* status, TileScanStorageOf<Shape>& storage) {
  using Layout = typename Shape::Layout;
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  const uint64_t tile_base = uint64_t{tile} * Layout::kTileItems;

  uint32_t items[Layout::kItems];
  Layout::template load<kFull>(in, tile_base, n, warp, lane, items);

  uint32_t chunk_sums[Layout::kVectors];
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    chunk_sums[k] = items[4 * k] + items[4 * k + 1] + items[4 * k + 2] + items[4 * k + 3];
  }
  uint32_t chunk_offsets[Layout::kVectors];
  const uint32_t warp_total = warp_segment_scan(chunk_sums, chunk_offsets, lane);
  const uint32_t base = warp_offset_in_scan<Shape>(warp_total, warp, lane, tile, status, storage);
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    uint32_t running = base + chunk_offsets[k];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const uint32_t value = items[4 * k + j];
      items[4 * k + j] = running;
      running += value;
    }
  }
  Layout::template store<kFull>(out, tile_base, n, warp, lane, items);
}

// Agent, tile in shared memory ("lookback_bulk"): one thread has the copy engine bring the whole
// tile in (bulk_copy.cuh), the warps read it there for their chunk sums and wait for the tile's
// prefix holding only those (8 per lane, not 32 items), then rewrite the tile in place with its
// prefix sums, and one thread has it copied out. With no items held in registers while a look-back
// waits, more tiles can wait at once (12 blocks of 4096 items per SM, or 6 of 8192, against 8
// blocks of 4096 in registers).
template <class Shape>
struct SharedTileScanStorage {
  alignas(128) uint32_t tile[Shape::Layout::kTileItems];
  uint64_t loaded;  // mbarrier: phase 0 completes when the tile has landed
  TileScanStorageOf<Shape> scan;
};

// First step on a tile held in shared memory (`items`, visible to every thread): each lane's chunk
// sums, scanned across the warp into `chunk_offsets`; returns the warp's total. Lane `lane` owns
// items 4 lane .. 4 lane + 3 of each chunk of its warp's segment, as in TileLayout: vector
// (segment start + k * chunk) / 4 + lane.
template <class Shape>
__device__ __forceinline__ uint32_t scan_warp_chunks_in_shared(
    const uint32_t* items, int warp, int lane, uint32_t (&chunk_offsets)[Shape::Layout::kVectors]) {
  using Layout = typename Shape::Layout;
  const auto* vectors = reinterpret_cast<const uint4*>(items);
  const int first_vector = warp * (Layout::kWarpItems / 4) + lane;
  constexpr int kChunkVectors = Layout::kChunkItems / 4;
  uint32_t chunk_sums[Layout::kVectors];
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    const uint4 v = vectors[first_vector + k * kChunkVectors];
    chunk_sums[k] = v.x + v.y + v.z + v.w;
  }
  return warp_segment_scan(chunk_sums, chunk_offsets, lane);
}

// Last step: the tile rewritten in place with its prefix sums, `base` being the offset of this
// warp's first item in the whole scan, and written out. kFull: the whole tile lies below n and
// leaves by one bulk copy; the last, partial tile is written item by item (items past n, read as
// 0, are not written).
template <class Shape, bool kFull>
__device__ __forceinline__ void write_scanned_tile_from_shared(
    uint32_t* items, uint32_t* __restrict__ out, uint64_t n, uint32_t tile, uint32_t base,
    const uint32_t (&chunk_offsets)[Shape::Layout::kVectors], int warp, int lane) {
  using Layout = typename Shape::Layout;
  constexpr uint32_t kTileBytes = Layout::kTileItems * sizeof(uint32_t);
  const uint64_t tile_base = uint64_t{tile} * Layout::kTileItems;
  const uint32_t valid = kFull ? Layout::kTileItems : static_cast<uint32_t>(n - tile_base);
  auto* vectors = reinterpret_cast<uint4*>(items);
  const int first_vector = warp * (Layout::kWarpItems / 4) + lane;
  constexpr int kChunkVectors = Layout::kChunkItems / 4;
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    uint4& slot = vectors[first_vector + k * kChunkVectors];
    const uint4 v = slot;
    uint4 prefix;
    prefix.x = base + chunk_offsets[k];
    prefix.y = prefix.x + v.x;
    prefix.z = prefix.y + v.y;
    prefix.w = prefix.z + v.z;
    slot = prefix;
  }
  if constexpr (kFull) {
    bulk_fence_shared_writes();
    __syncthreads();
    if (threadIdx.x == 0) bulk_store(out + tile_base, items, kTileBytes);
  } else {
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < valid; i += Shape::kThreads) {
      out[tile_base + i] = items[i];
    }
  }
}

// The tile `tile`, already in shared memory: scanned in place and written out.
template <class Shape, bool kFull>
__device__ __forceinline__ void scan_tile_held_in_shared(uint32_t* items,
                                                         uint32_t* __restrict__ out, uint64_t n,
                                                         uint32_t tile, uint64_t* status,
                                                         TileScanStorageOf<Shape>& storage) {
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  uint32_t chunk_offsets[Shape::Layout::kVectors];
  const uint32_t warp_total = scan_warp_chunks_in_shared<Shape>(items, warp, lane, chunk_offsets);
  const uint32_t base = warp_offset_in_scan<Shape>(warp_total, warp, lane, tile, status, storage);
  write_scanned_tile_from_shared<Shape, kFull>(items, out, n, tile, base, chunk_offsets, warp,
                                               lane);
}

template <class Shape, bool kFull>
__device__ __forceinline__ void scan_tile_in_shared(const uint32_t* __restrict__ in,
                                                    uint32_t* __restrict__ out, uint64_t n,
                                                    uint32_t tile, uint64_t* status,
                                                    SharedTileScanStorage<Shape>& storage) {
  constexpr int kTileItems = Shape::Layout::kTileItems;
  load_tile_to_shared<Shape::kThreads, kTileItems, kFull>(
      storage.tile, in, uint64_t{tile} * kTileItems, n, &storage.loaded);
  scan_tile_held_in_shared<Shape, kFull>(storage.tile, out, n, tile, status, storage.scan);
}

}  // namespace plugbench::cuda::opt
