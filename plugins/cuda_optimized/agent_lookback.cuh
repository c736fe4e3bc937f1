// agent_lookback.cuh: what the single-pass scan and compaction share above the block layer: one
// tile shape type (threads, items, occupancy, and how the look-back reads), the shipped shapes,
// and the look-back's workspace (a tile counter and one status word per tile), laid out and
// cleared by the host.
#pragma once

#include "block_tile_scan.cuh"
#include "launch_config.cuh"

#include <cstdint>
#include <string>

namespace plugbench::cuda::opt {

// How a call clears its look-back words before its kernel: a memset on the stream
// (MemsetClear), or a small kernel of its own (KernelClear), as cub's init kernel does.
struct MemsetClear {
  static void clear(void* words, uint64_t bytes, cudaStream_t stream) {
    PB_CUDA_CHECK(cudaMemsetAsync(words, 0, bytes, stream));
  }
};

// A template so that every source including this header may define it.
template <class Word>
__global__ void clear_lookback_words(Word* __restrict__ words, uint64_t count) {
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += uint64_t{gridDim.x} * blockDim.x) {
    words[i] = 0;
  }
}

struct KernelClear {
  static void clear(void* words, uint64_t bytes, cudaStream_t stream) {
    // The workspace's pieces start 256 bytes apart and hold 64-bit status words: bytes % 8 == 0.
    const uint64_t count = bytes / sizeof(uint64_t);
    constexpr unsigned kThreads = 256;
    const auto blocks = static_cast<unsigned>(div_up(count, uint64_t{kThreads}));
    clear_lookback_words<<<blocks, kThreads, 0, stream>>>(static_cast<uint64_t*>(words), count);
    PB_CUDA_CHECK_LAUNCH();
  }
};

// A tile of kThreadsPerBlock threads x (4 * kVectorsPerLane) items in blocks of which at least
// kMinBlocksPerSm fit an SM (__launch_bounds__); the look-back sleeps kDelayNs between reads of a
// window that is not ready and reads kWindowTiles predecessors a round trip; tiles are taken in
// kOrder; full tiles' vectors are moved by Vectors (block_tile_scan.cuh); a call clears its
// look-back words with Clear.
template <int kThreadsPerBlock, int kVectorsPerLane, int kMinBlocksPerSm, unsigned kDelayNs,
          TileOrder kOrder = TileOrder::kClaimed, int kWindowTiles = kWarpThreads,
          class Vectors = CachedVectors, class ClearWords = MemsetClear>
struct TileShape {
  static constexpr int kThreads = kThreadsPerBlock;
  static constexpr int kBlocksPerSm = kMinBlocksPerSm;
  static constexpr unsigned kLookbackRetryDelayNs = kDelayNs;  // sleep between window reads
  static constexpr TileOrder kTileOrder = kOrder;
  static constexpr int kLookbackWindow = kWindowTiles;  // predecessors read per round trip
  using Layout = TileLayout<kThreads, kVectorsPerLane, Vectors>;
  using Clear = ClearWords;
};

// The shipped shapes, the same for scan and compaction (docs/performance.md has the measurements
// behind them). Tile in registers ("decoupled_lookback"): 4096 items, 128 threads x 32, 4 blocks
// per SM asked for (64 registers: 8 run); 32 items a thread take 27 % less time than 16 at 2^28
// with the tile size unchanged (0.746 against 1.024 ms).
using RegisterTileShape = TileShape<128, 8, 4, 100>;
// Tile in shared memory ("lookback_bulk", sm_90 and later): 8192 items (256 threads x 32, 32 KiB),
// 6 blocks per SM: the bytes in flight of 12 blocks of 4096 items with half the look-backs. Scan
// 0.655 ms at 2^28 against 0.667 for 4096 items at 12 blocks (lab/results/h200/bulk-shapes.json);
// compaction 0.546 / 0.405 / 0.735 ms with half, 1 %, 99 % kept against 0.561 / 0.424 / 0.760
// (results/h200/targets-scan-compact.json).
using SharedTileShape = TileShape<256, 8, 6, 100>;

// The look-back's workspace: the counter tiles are claimed from, then one status word per tile.
struct LookbackWorkspace {
  uint32_t* tile_counter;
  uint64_t* status;
  uint64_t bytes;
};

inline LookbackWorkspace lookback_workspace_layout(void* base, uint64_t tile_count) {
  WorkspaceLayout layout(base);
  LookbackWorkspace w{};
  w.tile_counter = layout.take<uint32_t>(1);
  w.status = layout.take<uint64_t>(tile_count);
  w.bytes = layout.bytes();
  return w;
}

template <class Shape>
uint64_t lookback_tile_count(uint64_t n) {
  return div_up(n, Shape::Layout::kTileItems);
}

// The workspace function of a variant with this shape.
template <class Shape>
uint64_t lookback_workspace(void*, const pb_problem& problem) {
  return lookback_workspace_layout(nullptr, lookback_tile_count<Shape>(problem.n)).bytes;
}

// In a device entry: the call's workspace laid out for tile_count tiles (refused if it is smaller
// than asked for) and cleared on the stream: the tile counter and every status word start at zero
// (TileStatus::kInvalid), on each run.
template <class Shape>
LookbackWorkspace clear_lookback_workspace(sdk::Call& call, cudaStream_t stream,
                                           uint64_t tile_count, const char* workload) {
  const LookbackWorkspace w = lookback_workspace_layout(call.workspace<void>(), tile_count);
  if (call.workspace_bytes() < w.bytes) {
    throw sdk::Failure(PB_ERROR, std::string(workload) + ": workspace smaller than asked for");
  }
  Shape::Clear::clear(call.workspace<void>(), w.bytes, stream);
  return w;
}

}  // namespace plugbench::cuda::opt
