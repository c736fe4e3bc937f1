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

// How a warp packs its kept items in place at the start of its segment of the tile (in shared
// memory), in order; returns how many it kept. A kept item moves to its own position or an earlier
// one, so a chunk's stores land in chunks the warp has read; a __syncwarp after reading a chunk
// keeps any lane from storing into it before every lane has read it.
//
// LaneVectorPack: lane `lane` reads items 4 lane .. 4 lane + 3 of each 128-item chunk as one
// 16-byte vector, and a warp scan of the lanes' counts places them. The segment is read twice (to
// count, then to pack), and a store instruction's lanes fall 4 words apart: 4 to a bank when most
// items are kept.
struct LaneVectorPack {
  template <class Layout>
  __device__ __forceinline__ static uint32_t pack(uint32_t* segment, int lane) {
    auto* vectors = reinterpret_cast<const uint4*>(segment);
    constexpr int kChunkVectors = Layout::kChunkItems / 4;
    uint32_t chunk_counts[Layout::kVectors];
#pragma unroll
    for (int k = 0; k < Layout::kVectors; ++k) {
      const uint4 v = vectors[lane + k * kChunkVectors];
      chunk_counts[k] = (v.x != 0) + (v.y != 0) + (v.z != 0) + (v.w != 0);
    }
    uint32_t chunk_offsets[Layout::kVectors];
    const uint32_t warp_total = warp_segment_scan(chunk_counts, chunk_offsets, lane);
#pragma unroll
    for (int k = 0; k < Layout::kVectors; ++k) {
      const uint4 v = vectors[lane + k * kChunkVectors];
      __syncwarp();
      uint32_t position = chunk_offsets[k];
      if (v.x != 0) segment[position++] = v.x;
      if (v.y != 0) segment[position++] = v.y;
      if (v.z != 0) segment[position++] = v.z;
      if (v.w != 0) segment[position] = v.w;
    }
    return warp_total;
  }
};

// BallotPack: lane `lane` reads items lane, lane + 32, lane + 64, lane + 96 of each chunk (rows of
// 32 consecutive words), and one ballot a row places the row's kept items: the segment is read
// once, no warp scan is needed, and a row's stores fall in consecutive words (no bank conflicts).
struct BallotPack {
  template <class Layout>
  __device__ __forceinline__ static uint32_t pack(uint32_t* segment, int lane) {
    constexpr int kRows = Layout::kChunkItems / kWarpThreads;
    const uint32_t lanes_before = (1u << lane) - 1u;
    uint32_t packed = 0;
#pragma unroll
    for (int k = 0; k < Layout::kVectors; ++k) {
      uint32_t row[kRows];
#pragma unroll
      for (int r = 0; r < kRows; ++r)
        row[r] = segment[k * Layout::kChunkItems + r * kWarpThreads + lane];
      __syncwarp();
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        const uint32_t keeps = __ballot_sync(0xffffffffu, row[r] != 0);
        if (row[r] != 0) segment[packed + __popc(keeps & lanes_before)] = row[r];
        packed += __popc(keeps);
      }
    }
    return packed;
  }
};

// How the block writes its warps' packed runs (each at the start of its warp's segment of the tile)
// out as one run from `destination` on, once the tile's prefix is known.
//
// RunsWriteOut: the runs one after another, the whole block storing each run's words (one word a
// thread, coalesced).
struct RunsWriteOut {
  template <class Layout, int kThreads>
  __device__ __forceinline__ static void write(uint32_t* destination, const uint32_t* tile,
                                               const uint32_t (&runs)[Layout::kWarps]) {
#pragma unroll
    for (int w = 0; w < Layout::kWarps; ++w) {
      const uint32_t run = runs[w];
      const uint32_t* packed = tile + w * Layout::kWarpItems;
      for (uint32_t i = threadIdx.x; i < run; i += kThreads) destination[i] = packed[i];
      destination += run;
    }
  }
};

// Stores count words at `out` on, word(i) the i-th, by `threads` participants of which this is
// number `index`: 16 bytes each from the first 16-byte boundary of `out`, the words before it and
// the last 0-3 words one each.
template <class Word>
__device__ __forceinline__ void store_words_vectorized(uint32_t* out, uint32_t count,
                                                       uint32_t index, uint32_t threads,
                                                       const Word& word) {
  const auto misaligned = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(out) / 4 % 4);
  const uint32_t head = min(count, (4u - misaligned) % 4u);
  if (index < head) out[index] = word(index);
  const uint32_t vectors = (count - head) / 4;
  auto* body = reinterpret_cast<uint4*>(out + head);
  for (uint32_t v = index; v < vectors; v += threads) {
    const uint32_t first = head + 4 * v;
    body[v] = make_uint4(word(first), word(first + 1), word(first + 2), word(first + 3));
  }
  const uint32_t tail = head + 4 * vectors + index;
  if (tail < count) out[tail] = word(tail);
}

// VectorWriteOut: the runs as one sequence, stored 16 bytes a thread (store_words_vectorized);
// each word found in its warp's run. A quarter of the store instructions, and no run ends with a
// partial store of every warp; the gather reads shared memory 4 words apart (4 to a bank).
struct VectorWriteOut {
  template <class Layout, int kThreads>
  __device__ __forceinline__ static void write(uint32_t* destination, const uint32_t* tile,
                                               const uint32_t (&runs)[Layout::kWarps]) {
    uint32_t starts[Layout::kWarps];  // where each warp's run begins in the sequence
    uint32_t total = 0;
#pragma unroll
    for (int w = 0; w < Layout::kWarps; ++w) {
      starts[w] = total;
      total += runs[w];
    }
    const auto word = [&](uint32_t position) {
      uint32_t offset = position;
#pragma unroll
      for (int w = 1; w < Layout::kWarps; ++w) {
        if (position >= starts[w]) offset = position - starts[w] + w * Layout::kWarpItems;
      }
      return tile[offset];
    };
    store_words_vectorized(destination, total, threadIdx.x, kThreads, word);
  }
};

// WarpVectorWriteOut: each warp stores its own run, 16 bytes a lane (store_words_vectorized):
// VectorWriteOut's stores without its search for each word's run, so a thread holds one run's
// start, not eight.
struct WarpVectorWriteOut {
  template <class Layout, int kThreads>
  __device__ __forceinline__ static void write(uint32_t* destination, const uint32_t* tile,
                                               const uint32_t (&runs)[Layout::kWarps]) {
    const int warp = threadIdx.x / kWarpThreads;
    uint32_t before = 0;
#pragma unroll
    for (int w = 0; w < Layout::kWarps; ++w) before += w < warp ? runs[w] : 0u;
    const uint32_t* packed = tile + warp * Layout::kWarpItems;
    store_words_vectorized(destination + before, runs[warp], threadIdx.x % kWarpThreads,
                           kWarpThreads, [&](uint32_t i) { return packed[i]; });
  }
};

// Agent, tile in shared memory ("lookback_bulk", as in agent_scan.cuh): the copy engine brings the
// whole tile in, and each warp packs its kept items in place at the start of its own segment of
// the tile, so no second buffer is needed: a kept item only ever moves to an earlier position, and
// chunk k's items land in chunks 0..k, which the warp has read by then. The block writes its
// warps' packed runs out as one run (WriteOut). No items in registers, so more tiles wait for their
// look-backs at once: 6 blocks of 8192 items per SM (or 12 of 4096), against 8 blocks of 4096 in
// registers.
template <class Shape>
struct CompactSharedTileStorage {
  alignas(128) uint32_t tile[Shape::Layout::kTileItems];
  uint64_t loaded;  // mbarrier: phase 0 completes when the tile has landed
  TileScanStorageOf<Shape> scan;
};

template <class Shape, class Pack, class WriteOut, bool kFull>
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

  const uint32_t warp_total =
      Pack::template pack<Layout>(storage.tile + warp * Layout::kWarpItems, lane);

  const WarpTotals totals = share_warp_totals(warp_total, warp, lane, storage.scan);
  if (warp == 0) {
    compact_tile_prefix<Shape>(tile, tile_count, totals.tile, status, count, lane,
                               storage.scan.tile_prefix);
  }
  __syncthreads();

  WriteOut::template write<Layout, Shape::kThreads>(kept + storage.scan.tile_prefix, storage.tile,
                                                    storage.scan.warp_totals);
}

}  // namespace plugbench::cuda::opt
