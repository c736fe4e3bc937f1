// compact.cu: int32 x[n] -> int32 kept[n] (the non-zero x, in order), uint64 count[1]. The scan's
// single pass (scan.cu) over the keep flags: each 4096-item tile (128 x 32) counts its non-zero
// items, learns how many earlier tiles kept through decoupled look-back, packs its kept items in
// order into shared memory (while warp 0 looks back) and writes them out as one contiguous,
// coalesced run. The last tile writes the count. Entries of kept at or past the count are left
// untouched. Two variants ship: "decoupled_lookback" (the tile in registers, any GPU) and, faster
// on sm_90 and later, "lookback_bulk" (the tile in shared memory, moved by Hopper's bulk copies).
#include "block_tile_scan.cuh"
#include "bulk_copy.cuh"
#include "launch_config.cuh"

namespace plugbench::cuda::opt {
namespace {

// The tile shape and the look-back's back-off, as in scan.cu: the shipped variants are
// CompactShape<128, 8, 4, 100> in registers and BulkCompactShape in shared memory; the opt-in
// "lookback_*" variants are the other shapes tried.
// One block per tile (measured on the H200, 2^28, half kept, 256 x 16 tiles: 0.75 ms; a
// persistent grid looping over tiles: 0.81 ms).
template <int kThreadsPerBlock, int kVectorsPerLane, int kMinBlocksPerSm, unsigned kDelayNs,
          TileOrder kOrder = TileOrder::kClaimed, bool kStreaming = false,
          int kWindowTiles = kWarpThreads>
struct CompactShape {
  static constexpr int kThreads = kThreadsPerBlock;
  static constexpr int kBlocksPerSm = kMinBlocksPerSm;
  static constexpr unsigned kLookbackRetryDelayNs = kDelayNs;  // sleep between window reads
  static constexpr TileOrder kTileOrder = kOrder;
  static constexpr int kLookbackWindow = kWindowTiles;  // predecessors read per round trip
  using Layout = TileLayout<kThreads, kVectorsPerLane, kStreaming>;
  struct Storage {
    TileScanStorage<Layout::kWarps> scan;
    uint32_t kept[Layout::kTileItems];  // the tile's kept items, packed in order
  };
};
using DefaultCompactShape = CompactShape<128, 8, 4, 100>;

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

// Agent: one tile (see scan_tile in scan.cu for the claiming protocol).
template <class Shape, bool kFull>
__device__ __forceinline__ void compact_tile(const uint32_t* __restrict__ in,
                                             uint32_t* __restrict__ kept,
                                             unsigned long long* __restrict__ count, uint64_t n,
                                             uint32_t tile, uint32_t tile_count, uint64_t* status,
                                             typename Shape::Storage& storage) {
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
  if (lane == 0) storage.scan.warp_totals[warp] = warp_total;
  __syncthreads();

  uint32_t warp_prefix = 0;
  uint32_t tile_total = 0;
#pragma unroll
  for (int w = 0; w < Layout::kWarps; ++w) {
    const uint32_t total = storage.scan.warp_totals[w];
    if (w < warp) warp_prefix += total;
    tile_total += total;
  }
  // Pack this thread's kept items at their place within the tile.
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    uint32_t position = warp_prefix + chunk_offsets[k];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (items[4 * k + j] != 0) storage.kept[position++] = items[4 * k + j];
    }
  }
  if (warp == 0) {
    compact_tile_prefix<Shape>(tile, tile_count, tile_total, status, count, lane,
                               storage.scan.tile_prefix);
  }
  __syncthreads();

  uint32_t* destination = kept + storage.scan.tile_prefix;
  for (uint32_t i = threadIdx.x; i < tile_total; i += Shape::kThreads) {
    destination[i] = storage.kept[i];
  }
}

template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kBlocksPerSm)
    compact_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ kept,
                   unsigned long long* __restrict__ count, uint64_t n, uint32_t tile_count,
                   uint64_t* status, uint32_t* tile_counter) {
  __shared__ typename Shape::Storage storage;
  const uint32_t tile = tile_of_block<Shape::kTileOrder>(tile_counter, storage.scan.next_tile);
  if (is_full_tile<Shape>(tile, n)) {
    compact_tile<Shape, true>(in, kept, count, n, tile, tile_count, status, storage);
  } else {
    compact_tile<Shape, false>(in, kept, count, n, tile, tile_count, status, storage);
  }
}

// The tile in shared memory instead of registers ("lookback_bulk", as in scan.cu): the
// copy engine brings the whole tile in, and each warp packs its kept items in place at the start
// of its own segment of the tile, so no second buffer is needed: a kept item only ever moves to an
// earlier position, and chunk k's items land in chunks 0..k, which the warp has read by then. The
// block writes its warps' packed runs out one after another. No items in registers, so more
// tiles wait for their look-backs at once: 6 blocks of 8192 items per SM (or 12 of 4096), against
// 8 blocks of 4096 in registers.
template <class Shape>
struct CompactSharedTileStorage {
  alignas(128) uint32_t tile[Shape::Layout::kTileItems];
  uint64_t loaded;  // mbarrier: phase 0 completes when the tile has landed
  TileScanStorage<Shape::Layout::kWarps> scan;
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

  if (lane == 0) storage.scan.warp_totals[warp] = warp_total;
  __syncthreads();
  uint32_t tile_total = 0;
#pragma unroll
  for (int w = 0; w < Layout::kWarps; ++w) tile_total += storage.scan.warp_totals[w];
  if (warp == 0) {
    compact_tile_prefix<Shape>(tile, tile_count, tile_total, status, count, lane,
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

template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kBlocksPerSm)
    compact_kernel_shared_tile(const uint32_t* __restrict__ in, uint32_t* __restrict__ kept,
                               unsigned long long* __restrict__ count, uint64_t n,
                               uint32_t tile_count, uint64_t* status, uint32_t* tile_counter) {
  static_assert(Shape::kTileOrder == TileOrder::kClaimed,
                "the claim's barrier is what publishes the mbarrier's initialization");
  __shared__ CompactSharedTileStorage<Shape> storage;
  if (threadIdx.x == 0) bulk_barrier_init(&storage.loaded, 1);
  const uint32_t tile = tile_of_block<Shape::kTileOrder>(tile_counter, storage.scan.next_tile);
  if (is_full_tile<Shape>(tile, n)) {
    compact_tile_in_shared<Shape, true>(in, kept, count, n, tile, tile_count, status, storage);
  } else {
    compact_tile_in_shared<Shape, false>(in, kept, count, n, tile, tile_count, status, storage);
  }
}

struct CompactWorkspace {
  uint32_t* tile_counter;
  uint64_t* status;
  uint64_t bytes;
};

CompactWorkspace compact_workspace_layout(void* base, uint64_t tile_count) {
  WorkspaceLayout layout(base);
  CompactWorkspace w{};
  w.tile_counter = layout.take<uint32_t>(1);
  w.status = layout.take<uint64_t>(tile_count);
  w.bytes = layout.bytes();
  return w;
}

template <class Shape>
uint64_t compact_tile_count(uint64_t n) {
  return div_up(n, Shape::Layout::kTileItems);
}

template <class Shape>
uint64_t compact_workspace(void*, const pb_problem& problem) {
  return compact_workspace_layout(nullptr, compact_tile_count<Shape>(problem.n)).bytes;
}

// Device entry. kSharedTile: compact_kernel_shared_tile (Hopper's bulk copies).
template <class Shape, bool kSharedTile = false>
void compact_decoupled_lookback(sdk::Call& call) {
  CudaServices& services = services_of(call);
  const cudaStream_t stream = services.stream();
  if constexpr (kSharedTile) {
    const std::string reason = bulk_copy_unsupported_reason(
        "this compaction", services.properties().major, services.properties().minor);
    if (!reason.empty()) throw sdk::unsupported(reason);
  }
  const uint64_t n = call.n();
  auto* count = call.output<unsigned long long>(1);
  if (n == 0) {
    PB_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream));
    return;
  }
  const auto* in = call.input<uint32_t>(0);
  auto* kept = call.output<uint32_t>(0);
  require_aligned(in, "x");
  const uint64_t tile_count = compact_tile_count<Shape>(n);
  const CompactWorkspace w = compact_workspace_layout(call.workspace<void>(), tile_count);
  if (call.workspace_bytes() < w.bytes) {
    throw sdk::Failure(PB_ERROR, "compact: workspace smaller than asked for");
  }
  PB_CUDA_CHECK(cudaMemsetAsync(call.workspace<void>(), 0, w.bytes, stream));
  const auto grid = static_cast<unsigned>(tile_count);
  if constexpr (kSharedTile) {
    compact_kernel_shared_tile<Shape><<<grid, Shape::kThreads, 0, stream>>>(
        in, kept, count, n, static_cast<uint32_t>(tile_count), w.status, w.tile_counter);
  } else {
    compact_kernel<Shape><<<grid, Shape::kThreads, 0, stream>>>(
        in, kept, count, n, static_cast<uint32_t>(tile_count), w.status, w.tile_counter);
  }
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace
}  // namespace plugbench::cuda::opt

namespace plugbench::cuda::opt {
using CompactShape128x16 = CompactShape<128, 4, 8, 100>;
using CompactShape256x8 = CompactShape<256, 2, 8, 100>;
using CompactShape512x8 = CompactShape<512, 2, 4, 100>;
using CompactShape256x16Spin = CompactShape<256, 4, 4, 0>;
using CompactShape256x24 = CompactShape<256, 6, 3, 100>;
using CompactShape128x24 = CompactShape<128, 6, 6, 100>;
using CompactShape256x32 = CompactShape<256, 8, 2, 100>;
using CompactShape128x48 = CompactShape<128, 12, 4, 100>;
using CompactShape256x16 = CompactShape<256, 4, 4, 100>;
using CompactShapeBlockOrder = CompactShape<128, 8, 4, 100, TileOrder::kBlockIndex>;
using CompactShapeStreaming = CompactShape<128, 8, 4, 100, TileOrder::kClaimed, true>;
using CompactShapeBlockOrderStreaming = CompactShape<128, 8, 4, 100, TileOrder::kBlockIndex, true>;
using CompactShapeWindow128 = CompactShape<128, 8, 4, 100, TileOrder::kClaimed, false, 128>;
using CompactShapeBlockOrderWindow128 =
    CompactShape<128, 8, 4, 100, TileOrder::kBlockIndex, false, 128>;
// The tile in shared memory (compact_kernel_shared_tile, sm_90 and later). Shipped: 8192 items
// (256 x 32) at 6 blocks per SM, scan's bulk shape: at 2^28 0.546 / 0.405 / 0.735 ms with half,
// 1 %, 99 % kept, against 0.561 / 0.424 / 0.760 for 4096 items at 12 blocks and 0.593 / 0.482 /
// 0.744 for cub (results/h200/targets-scan-compact.json).
using BulkCompactShape = CompactShape<256, 8, 6, 100>;
using CompactShapeSharedTile128x32 = CompactShape<128, 8, 12, 100>;
}  // namespace plugbench::cuda::opt

// Counts travel as 32-bit look-back values, hence the limit on n.
PLUGBENCH_KERNEL(
    {.workload = "compact",
     .variant = "decoupled_lookback",
     .description = "single pass over keep flags with decoupled look-back, kept items "
                    "packed in shared memory, coalesced stores",
     .run = plugbench::cuda::opt::compact_decoupled_lookback<
         plugbench::cuda::opt::DefaultCompactShape>,
     .workspace =
         plugbench::cuda::opt::compact_workspace<plugbench::cuda::opt::DefaultCompactShape>,
     .max_n = 0xffffffffull});

// The shapes tried against it, opt-in (-v cuda_optimized/lookback_128x16,...).
#define PLUGBENCH_COMPACT_SHAPE_VARIANT(name, shape, text)                                   \
  PLUGBENCH_KERNEL(                                                                          \
      {.workload = "compact",                                                                \
       .variant = name,                                                                      \
       .description = text,                                                                  \
       .run = plugbench::cuda::opt::compact_decoupled_lookback<plugbench::cuda::opt::shape>, \
       .flags = PB_KERNEL_OPT_IN,                                                            \
       .workspace = plugbench::cuda::opt::compact_workspace<plugbench::cuda::opt::shape>,    \
       .max_n = 0xffffffffull})
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_128x16", CompactShape128x16,
                                "decoupled_lookback with 128 x 16-item tiles, 8 blocks per SM");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_256x8", CompactShape256x8,
                                "decoupled_lookback with 256 x 8-item tiles, 8 blocks per SM");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_512x8", CompactShape512x8,
                                "decoupled_lookback with 512 x 8-item tiles, 4 blocks per SM");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_256x24", CompactShape256x24,
                                "decoupled_lookback with 256 x 24-item tiles, 3 blocks per SM");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_128x24", CompactShape128x24,
                                "decoupled_lookback with 128 x 24-item tiles, 6 blocks per SM");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_256x32", CompactShape256x32,
                                "decoupled_lookback with 256 x 32-item tiles, 2 blocks per SM");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_128x48", CompactShape128x48,
                                "decoupled_lookback with 128 x 48-item tiles, 4 blocks per SM");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_256x16", CompactShape256x16,
                                "decoupled_lookback with 256 x 16-item tiles, 4 blocks per SM (the "
                                "shipped shape until 2026-12-01)");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_spin", CompactShape256x16Spin,
                                "decoupled_lookback whose look-back spins without sleeping");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_block_order", CompactShapeBlockOrder,
                                "decoupled_lookback with tile = block index (no atomic claim)");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_streaming", CompactShapeStreaming,
                                "decoupled_lookback with evict-first loads");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_block_order_streaming", CompactShapeBlockOrderStreaming,
                                "decoupled_lookback with tile = block index and evict-first "
                                "loads");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_window128", CompactShapeWindow128,
                                "decoupled_lookback reading 128 predecessors per look-back step");
PLUGBENCH_COMPACT_SHAPE_VARIANT("lookback_block_order_window128", CompactShapeBlockOrderWindow128,
                                "decoupled_lookback with tile = block index, reading 128 "
                                "predecessors per look-back step");
// On sm_90 and later, the fastest (unsupported, with the reason, on older GPUs; decoupled_lookback
// runs there).
PLUGBENCH_KERNEL(
    {.workload = "compact",
     .variant = "lookback_bulk",
     .description = "decoupled_lookback with each 8192-item tile (256 x 32) in shared memory, "
                    "copied in by Hopper's bulk copies (sm_90+) and packed in place, 6 blocks "
                    "per SM",
     .run = plugbench::cuda::opt::compact_decoupled_lookback<plugbench::cuda::opt::BulkCompactShape,
                                                             true>,
     .workspace = plugbench::cuda::opt::compact_workspace<plugbench::cuda::opt::BulkCompactShape>,
     .max_n = 0xffffffffull});
PLUGBENCH_KERNEL(
    {.workload = "compact",
     .variant = "lookback_bulk_128x32",
     .description = "lookback_bulk with 4096-item tiles (128 x 32), 12 blocks per SM (named "
                    "lookback_bulk until 2026-12-01)",
     .run = plugbench::cuda::opt::compact_decoupled_lookback<
         plugbench::cuda::opt::CompactShapeSharedTile128x32, true>,
     .flags = PB_KERNEL_OPT_IN,
     .workspace = plugbench::cuda::opt::compact_workspace<
         plugbench::cuda::opt::CompactShapeSharedTile128x32>,
     .max_n = 0xffffffffull});
