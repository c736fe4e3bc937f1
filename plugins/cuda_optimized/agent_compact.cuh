// agent_compact.cuh: one tile of the single-pass compaction, done by one block: the scan's tile
// (agent_scan.cuh) over the keep flags. The tile counts its non-zero items, learns how many
// earlier tiles kept through decoupled look-back, packs its kept items in order (while warp 0
// looks back) and writes them out as one contiguous, coalesced run; the last tile writes the
// count. One block per tile (measured on the H200, 2^28, half kept, 256 x 16 tiles: 0.75 ms; a
// persistent grid looping over tiles: 0.81 ms). Two agents: the tile in registers (any GPU), and
// the tile in shared memory, moved by Hopper's bulk copies (sm_90 and later).
#pragma once

#include "agent_lookback.cuh"
#include "bulk_copy.cuh"
#include "warp_lookback.cuh"
#include "warp_scan.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

// Warp 0's part of a compaction tile once the tile's total is known: look back, note the tile's
// prefix in shared memory for the block, and, in the last tile, write the count.
template <class Shape>
__device__ __forceinline__ void compact_tile_prefix(uint32_t tile, uint32_t tile_count,
                                                    uint32_t tile_total, uint64_t* status,
                                                    unsigned long long* __restrict__ count,
                                                    int lane, uint32_t& tile_prefix_out) {
  const uint32_t tile_prefix =
      warp_tile_prefix<Shape::kLookbackRetryDelayNs, Shape::kLookbackWindow>(status, tile,
                                                                             tile_total, lane);
  if (lane == 0) {
    tile_prefix_out = tile_prefix;
    if (tile == tile_count - 1) *count = uint64_t{tile_prefix} + tile_total;
  }
}

template <class Shape>
struct CompactTileStorage {
  TileScanStorageOf<Shape> scan;
  uint32_t kept[Shape::Layout::kTileItems];  // the tile's kept items, packed in order
};

// Agent, tile in registers (see scan_tile in agent_scan.cuh for the claiming protocol).
template <class Shape, bool kFull>
__device__ __forceinline__ void compact_tile(const uint32_t* __restrict__ in,
                                             uint32_t* __restrict__ kept,
                                             unsigned long long* __restrict__ count, uint64_t n,
                                             uint32_t tile, uint32_t tile_count, uint64_t* status,
                                             CompactTileStorage<Shape>& storage) {
  using Layout = typename Shape::Layout;
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  const uint64_t tile_base = uint64_t{tile} * Layout::kTileItems;

  // Items past n read as 0, so they are never kept.
  uint32_t items[Layout::kItems];
  Layout::template load<kFull>(in, tile_base, n, warp, lane, items);

  uint32_t chunk_counts[Layout::kVectors];
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    chunk_counts[k] = (items[4 * k] != 0) + (items[4 * k + 1] != 0) + (items[4 * k + 2] != 0) +
                      (items[4 * k + 3] != 0);
  }
  uint32_t chunk_offsets[Layout::kVectors];
  const uint32_t warp_total = warp_segment_scan(chunk_counts, chunk_offsets, lane);
  const WarpTotals totals = share_warp_totals(warp_total, warp, lane, storage.scan);
  // Pack this thread's kept items at their place within the tile.
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    uint32_t position = totals.before + chunk_offsets[k];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (items[4 * k + j] != 0) storage.kept[position++] = items[4 * k + j];
    }
  }
  if (warp == 0) {
    compact_tile_prefix<Shape>(tile, tile_count, totals.tile, status, count, lane,
                               storage.scan.tile_prefix);
  }
  __syncthreads();

  uint32_t* destination = kept + storage.scan.tile_prefix;
  for (uint32_t i = threadIdx.x; i < totals.tile; i += Shape::kThreads) {
    destination[i] = storage.kept[i];
  }
}

// Agent, tile in shared memory ("lookback_bulk", as in agent_scan.cuh): the copy engine brings the
// whole tile in, and each warp packs its kept items in place at the start of its own segment of
// the tile, so no second buffer is needed: a kept item only ever moves to an earlier position, and
// chunk k's items land in chunks 0..k, which the warp has read by then. The block writes its
// warps' packed runs out one after another. No items in registers, so more tiles wait for their
// look-backs at once: 6 blocks of 8192 items per SM (or 12 of 4096), against 8 blocks of 4096 in
// registers.
template <class Shape>
struct CompactSharedTileStorage {
  alignas(128) uint32_t tile[Shape::Layout::kTileItems];
  uint64_t loaded;  // mbarrier: phase 0 completes when the tile has landed
  TileScanStorageOf<Shape> scan;
};

template <class Shape, bool kFull>
__device__ __forceinline__ void compact_tile_in_shared(const uint32_t* __restrict__ in,
                                                       uint32_t* __restrict__ kept,
                                                       unsigned long long* __restrict__ count,
                                                       uint64_t n, uint32_t tile,
                                                       uint32_t tile_count, uint64_t* status,
                                                       CompactSharedTileStorage<Shape>& storage) {
  using Layout = typename Shape::Layout;
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  const uint64_t tile_base = uint64_t{tile} * Layout::kTileItems;
  // Items past n read as 0, so they are never kept.
  load_tile_to_shared<Shape::kThreads, Layout::kTileItems, kFull>(storage.tile, in, tile_base, n,
                                                                  &storage.loaded);

  // Lane `lane` owns items 4 lane .. 4 lane + 3 of each chunk of its warp's segment (TileLayout).
  auto* vectors = reinterpret_cast<const uint4*>(storage.tile);
  const int first_vector = warp * (Layout::kWarpItems / 4) + lane;
  constexpr int kChunkVectors = Layout::kChunkItems / 4;
  uint32_t chunk_counts[Layout::kVectors];
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    const uint4 v = vectors[first_vector + k * kChunkVectors];
    chunk_counts[k] = (v.x != 0) + (v.y != 0) + (v.z != 0) + (v.w != 0);
  }
  uint32_t chunk_offsets[Layout::kVectors];
  const uint32_t warp_total = warp_segment_scan(chunk_counts, chunk_offsets, lane);

  // Pack in place: the whole warp reads chunk k before any lane writes into chunks 0..k.
  uint32_t* segment = storage.tile + warp * Layout::kWarpItems;
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    const uint4 v = vectors[first_vector + k * kChunkVectors];
    __syncwarp();
    uint32_t position = chunk_offsets[k];
    if (v.x != 0) segment[position++] = v.x;
    if (v.y != 0) segment[position++] = v.y;
    if (v.z != 0) segment[position++] = v.z;
    if (v.w != 0) segment[position] = v.w;
  }

  const WarpTotals totals = share_warp_totals(warp_total, warp, lane, storage.scan);
  if (warp == 0) {
    compact_tile_prefix<Shape>(tile, tile_count, totals.tile, status, count, lane,
                               storage.scan.tile_prefix);
  }
  __syncthreads();

  uint32_t* destination = kept + storage.scan.tile_prefix;
#pragma unroll
  for (int w = 0; w < Layout::kWarps; ++w) {
    const uint32_t run = storage.scan.warp_totals[w];
    const uint32_t* packed = storage.tile + w * Layout::kWarpItems;
    for (uint32_t i = threadIdx.x; i < run; i += Shape::kThreads) destination[i] = packed[i];
    destination += run;
  }
}

}  // namespace plugbench::cuda::opt
