// scan.cu: int32 x[n] -> int32 prefix[n], exclusive, modulo 2^32. Single pass with decoupled
// look-back: blocks claim 4096-item tiles (128 threads x 32 items) in order from an atomic counter;
// each tile is read once with 16-byte loads (TileLayout), scanned in registers (shuffles within a
// warp, shared memory between the 4 warps), offset by the sum of all earlier tiles found through
// look-back by warp 0, and written once with 16-byte stores. Memory traffic: n reads + n writes,
// nothing else but the tile status words. Two variants ship: "decoupled_lookback" (the tile in
// registers, any GPU) and, faster on sm_90 and later, "lookback_bulk" (8192-item tiles in shared
// memory, moved by Hopper's bulk copies).
#include "block_tile_scan.cuh"
#include "bulk_copy.cuh"
#include "launch_config.cuh"

namespace plugbench::cuda::opt {
namespace {

// The tile shape and the look-back's back-off, as one type: the shipped variants are
// ScanShape<128, 8, 4, 100> in registers and BulkScanShape in shared memory; the opt-in
// "lookback_*" variants are the other shapes tried (docs/performance.md).
// 32 items a thread beat 16 by 27 % at 2^28 with the tile size unchanged (4096 items).
template <int kThreadsPerBlock, int kVectorsPerLane, int kMinBlocksPerSm, unsigned kDelayNs,
          TileOrder kOrder = TileOrder::kClaimed, bool kStreaming = false,
          int kWindowTiles = kWarpThreads>
struct ScanShape {
  static constexpr int kThreads = kThreadsPerBlock;
  static constexpr int kBlocksPerSm = kMinBlocksPerSm;
  static constexpr unsigned kLookbackRetryDelayNs = kDelayNs;  // sleep between window reads
  static constexpr TileOrder kTileOrder = kOrder;
  static constexpr int kLookbackWindow = kWindowTiles;  // predecessors read per round trip
  using Layout = TileLayout<kThreads, kVectorsPerLane, kStreaming>;
  using Storage = TileScanStorage<Layout::kWarps>;
};
using DefaultScanShape = ScanShape<128, 8, 4, 100>;
// The shipped shared-memory tile (scan_kernel_shared_tile, sm_90 and later): 8192 items (256
// threads x 32, 32 KiB), 6 blocks per SM: the bytes in flight of 12 blocks of 4096 items with
// half the look-backs (0.655 ms at 2^28 against 0.667, results/h200/bulk-shapes.json).
using BulkScanShape = ScanShape<256, 8, 6, 100>;

// Block step shared by both agents: from each warp's total, the offset of this warp's first item
// in the whole scan: the sum of all earlier tiles (decoupled look-back by warp 0) and of the
// tile's earlier warps. Called by every thread of the block; two barriers.
// `while_looking_back` runs on every thread of warps 1, 2, ... between the two barriers, while warp
// 0 looks back (the pipelined kernel publishes its next tile's aggregate there).
struct NothingWhileLookingBack {
  __device__ void operator()() const {}
};

template <class Shape, class WhileLookingBack = NothingWhileLookingBack>
__device__ __forceinline__ uint32_t warp_offset_in_scan(uint32_t warp_total, int warp, int lane,
                                                        uint32_t tile, uint64_t* status,
                                                        typename Shape::Storage& storage,
                                                        WhileLookingBack while_looking_back = {}) {
  if (lane == 0) storage.warp_totals[warp] = warp_total;
  __syncthreads();

  uint32_t warp_prefix = 0;
  uint32_t tile_total = 0;
#pragma unroll
  for (int w = 0; w < Shape::Layout::kWarps; ++w) {
    const uint32_t total = storage.warp_totals[w];
    if (w < warp) warp_prefix += total;
    tile_total += total;
  }
  if (warp == 0) {
    const uint32_t tile_prefix =
        warp_tile_prefix<Shape::kLookbackRetryDelayNs, Shape::kLookbackWindow>(status, tile,
                                                                               tile_total, lane);
    if (lane == 0) storage.tile_prefix = tile_prefix;
  } else {
    while_looking_back();
  }
  __syncthreads();
  return storage.tile_prefix + warp_prefix;
}

// Agent: one tile, one block per tile, the block claiming its tile as it starts. (A persistent
// grid of 4 blocks per SM looping over tiles measured 1.01 ms at 2^28 against 0.96 ms, 256 x 16;
// claiming the next tile any earlier than after the look-back measured 1.7 ms: a claimed but not
// yet started tile holds up the look-backs of all later tiles.)
template <class Shape, bool kFull>
__device__ __forceinline__ void scan_tile(const uint32_t* __restrict__ in,
                                          uint32_t* __restrict__ out, uint64_t n, uint32_t tile,
                                          uint64_t* status, typename Shape::Storage& storage) {
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

// Tiles are claimed in increasing order by running blocks, each block holding one, so every tile
// a look-back waits for is being processed and publishes its aggregate without waiting itself: no
// deadlock, whatever order the hardware starts blocks in.
template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kBlocksPerSm)
    scan_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, uint64_t n,
                uint64_t* status, uint32_t* tile_counter) {
  __shared__ typename Shape::Storage storage;
  const uint32_t tile = tile_of_block<Shape::kTileOrder>(tile_counter, storage.next_tile);
  if (is_full_tile<Shape>(tile, n)) {
    scan_tile<Shape, true>(in, out, n, tile, status, storage);
  } else {
    scan_tile<Shape, false>(in, out, n, tile, status, storage);
  }
}

// The tile in shared memory instead of registers ("lookback_bulk"): one thread has the copy
// engine bring the whole tile in (bulk_copy.cuh), the warps read it there for their chunk sums and
// wait for the tile's prefix holding only those (8 per lane, not 32 items), then rewrite the tile
// in place with its prefix sums, and one thread has it copied out. With no items held in
// registers while a look-back waits, more tiles can wait at once (12 blocks of 4096 items per SM,
// or 6 of 8192, against 8 blocks of 4096 in registers).
template <class Shape>
struct SharedTileScanStorage {
  alignas(128) uint32_t tile[Shape::Layout::kTileItems];
  uint64_t loaded;  // mbarrier: phase 0 completes when the tile has landed
  typename Shape::Storage scan;
};

// The tile `tile`, already in shared memory (`items`, visible to every thread): scanned in place
// and written out. kFull: the whole tile lies below n and leaves by one bulk copy; the last,
// partial tile is written item by item (items past n, read as 0, are not written).
template <class Shape, bool kFull, class WhileLookingBack = NothingWhileLookingBack>
__device__ __forceinline__ void scan_tile_held_in_shared(uint32_t* items,
                                                         uint32_t* __restrict__ out, uint64_t n,
                                                         uint32_t tile, uint64_t* status,
                                                         typename Shape::Storage& storage,
                                                         WhileLookingBack while_looking_back = {}) {
  using Layout = typename Shape::Layout;
  constexpr uint32_t kTileBytes = Layout::kTileItems * sizeof(uint32_t);
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  const uint64_t tile_base = uint64_t{tile} * Layout::kTileItems;
  const uint32_t valid = kFull ? Layout::kTileItems : static_cast<uint32_t>(n - tile_base);

  // Lane `lane` owns items 4 lane .. 4 lane + 3 of each chunk of its warp's segment, as in
  // TileLayout: vector (segment start + k * chunk) / 4 + lane.
  auto* vectors = reinterpret_cast<uint4*>(items);
  const int first_vector = warp * (Layout::kWarpItems / 4) + lane;
  constexpr int kChunkVectors = Layout::kChunkItems / 4;
  uint32_t chunk_sums[Layout::kVectors];
#pragma unroll
  for (int k = 0; k < Layout::kVectors; ++k) {
    const uint4 v = vectors[first_vector + k * kChunkVectors];
    chunk_sums[k] = v.x + v.y + v.z + v.w;
  }
  uint32_t chunk_offsets[Layout::kVectors];
  const uint32_t warp_total = warp_segment_scan(chunk_sums, chunk_offsets, lane);
  const uint32_t base =
      warp_offset_in_scan<Shape>(warp_total, warp, lane, tile, status, storage, while_looking_back);
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

// As scan_kernel, every tile through shared memory.
template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kBlocksPerSm)
    scan_kernel_shared_tile(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, uint64_t n,
                            uint64_t* status, uint32_t* tile_counter) {
  static_assert(Shape::kTileOrder == TileOrder::kClaimed,
                "the claim's barrier is what publishes the mbarrier's initialization");
  __shared__ SharedTileScanStorage<Shape> storage;
  if (threadIdx.x == 0) bulk_barrier_init(&storage.loaded, 1);
  const uint32_t tile = tile_of_block<Shape::kTileOrder>(tile_counter, storage.scan.next_tile);
  if (is_full_tile<Shape>(tile, n)) {
    scan_tile_in_shared<Shape, true>(in, out, n, tile, status, storage);
  } else {
    scan_tile_in_shared<Shape, false>(in, out, n, tile, status, storage);
  }
}

// Pipelined ("lookback_bulk_pipelined"): a persistent grid, two tile buffers per block. As a round
// starts on tile t, thread 0 claims tile t + 1 and has the copy engine bring it into the other
// buffer; while warp 0 looks back for tile t, the other warps wait for tile t + 1 to land and
// publish its aggregate, so a tile's aggregate never waits for the look-back of the tile before
// it (when it did, in a first version, every aggregate queued behind the previous look-backs and
// the scan took 1.15 ms at 2^28). Why: ncu showed the one-tile blocks spending about half their
// life waiting for the look-back holding an idle tile, and the same tile movement with no
// look-back ran at 95 % of the copy rate (tools/probes/tile_copy_probe.cu).
// Measured behind lookback_bulk (0.683 against 0.651 ms at 2^28 in its best shape): opt-in.
// No deadlock: a tile's aggregate waits only for its own load; prefixes follow as in scan_kernel.
template <class Shape>
struct PipelinedScanStorage {
  alignas(128) uint32_t tile[2][Shape::Layout::kTileItems];
  uint64_t loaded[2];   // mbarriers: buffer b's tile has landed
  uint32_t claimed[2];  // the tile buffer b holds (or is receiving); >= tile_count: none left
  uint32_t helper_totals[Shape::Layout::kWarps];
  typename Shape::Storage scan;
};

// One thread: claims the next tile for buffer b and, when it is a full one, starts its bulk load
// (a partial tile is read item by item when its turn comes).
template <class Shape>
__device__ __forceinline__ void claim_and_start_load(const uint32_t* __restrict__ in, uint64_t n,
                                                     uint32_t tile_count, uint32_t* tile_counter,
                                                     PipelinedScanStorage<Shape>& storage, int b) {
  constexpr int kTileItems = Shape::Layout::kTileItems;
  const uint32_t tile = atomicAdd(tile_counter, 1u);
  storage.claimed[b] = tile;
  if (tile < tile_count && is_full_tile<Shape>(tile, n)) {
    bulk_load(storage.tile[b], in + uint64_t{tile} * kTileItems, kTileItems * 4u,
              &storage.loaded[b]);
  }
}

// Every thread of warps 1, 2, ...: once the full tile in buffer b has landed (phase `phase` of its
// barrier), its total, published as its aggregate (the tile's own look-back publishes it again).
template <class Shape>
__device__ __forceinline__ void publish_aggregate_early(PipelinedScanStorage<Shape>& storage, int b,
                                                        uint32_t phase, uint64_t* status) {
  constexpr int kHelperThreads = Shape::kThreads - kWarpThreads;
  constexpr int kTileVectors = Shape::Layout::kTileItems / 4;
  bulk_wait(&storage.loaded[b], phase);
  const auto* vectors = reinterpret_cast<const uint4*>(storage.tile[b]);
  uint32_t sum = 0;
  for (int i = threadIdx.x - kWarpThreads; i < kTileVectors; i += kHelperThreads) {
    const uint4 v = vectors[i];
    sum += v.x + v.y + v.z + v.w;
  }
  sum = warp_reduce_sum(sum);
  const int warp = threadIdx.x / kWarpThreads;
  if (threadIdx.x % kWarpThreads == 0) storage.helper_totals[warp] = sum;
  asm volatile("bar.sync 1, %0;" ::"r"(kHelperThreads) : "memory");  // warps 1, 2, ... only
  if (threadIdx.x == kWarpThreads) {
    uint32_t total = 0;
#pragma unroll
    for (int w = 1; w < Shape::Layout::kWarps; ++w) total += storage.helper_totals[w];
    TileStatus::publish(status, storage.claimed[b], TileStatus::kAggregate, total);
  }
}

template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kBlocksPerSm)
    scan_kernel_pipelined(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, uint64_t n,
                          uint64_t* status, uint32_t* tile_counter, uint32_t tile_count) {
  static_assert(Shape::kTileOrder == TileOrder::kClaimed, "a persistent block claims its tiles");
  static_assert(Shape::Layout::kWarps >= 2, "warps 1, 2, ... work while warp 0 looks back");
  constexpr int kTileItems = Shape::Layout::kTileItems;
  __shared__ PipelinedScanStorage<Shape> storage;
  if (threadIdx.x == 0) {
    bulk_barrier_init(&storage.loaded[0], 1);
    bulk_barrier_init(&storage.loaded[1], 1);
    claim_and_start_load<Shape>(in, n, tile_count, tile_counter, storage, 0);
  }
  __syncthreads();
  uint32_t phases = 0;  // bit b: the phase of loaded[b] to wait for next
  for (int b = 0;; b ^= 1) {
    const uint32_t tile = storage.claimed[b];
    if (tile >= tile_count) break;
    // Buffer b ^ 1 is free: thread 0 stored its tile last round and waited until the copy engine
    // had read it (the partial tile, stored item by item, is the last: no load follows it).
    // claimed[b ^ 1] is read by all after this round's first barrier.
    if (threadIdx.x == 0) {
      claim_and_start_load<Shape>(in, n, tile_count, tile_counter, storage, b ^ 1);
    }
    auto next_aggregate = [&] {
      const uint32_t next = storage.claimed[b ^ 1];
      // Tile 0 is always the first tile of a block (claimed before any second one); a partial
      // tile publishes in its own round.
      if (next < tile_count && next != 0 && is_full_tile<Shape>(next, n)) {
        publish_aggregate_early<Shape>(storage, b ^ 1, (phases >> (b ^ 1)) & 1u, status);
      }
    };
    if (is_full_tile<Shape>(tile, n)) {
      bulk_wait(&storage.loaded[b], (phases >> b) & 1u);
      phases ^= 1u << b;
      scan_tile_held_in_shared<Shape, true>(storage.tile[b], out, n, tile, status, storage.scan,
                                            next_aggregate);
    } else {
      load_tile_to_shared<Shape::kThreads, kTileItems, false>(
          storage.tile[b], in, uint64_t{tile} * kTileItems, n, nullptr);
      scan_tile_held_in_shared<Shape, false>(storage.tile[b], out, n, tile, status, storage.scan);
    }
  }
}

struct ScanWorkspace {
  uint32_t* tile_counter;
  uint64_t* status;
  uint64_t bytes;
};

ScanWorkspace scan_workspace_layout(void* base, uint64_t tile_count) {
  WorkspaceLayout layout(base);
  ScanWorkspace w{};
  w.tile_counter = layout.take<uint32_t>(1);
  w.status = layout.take<uint64_t>(tile_count);
  w.bytes = layout.bytes();
  return w;
}

template <class Shape>
uint64_t scan_tile_count(uint64_t n) {
  return div_up(n, Shape::Layout::kTileItems);
}

template <class Shape>
uint64_t scan_workspace(void*, const pb_problem& problem) {
  return scan_workspace_layout(nullptr, scan_tile_count<Shape>(problem.n)).bytes;
}

// Where a block keeps its tile: registers (scan_kernel, any GPU), shared memory (one tile per
// block, scan_kernel_shared_tile) or two tiles in shared memory, pipelined (scan_kernel_pipelined);
// the last two need Hopper's bulk copies.
enum class ScanAgent { kRegisters, kSharedTile, kSharedPipelined };

// Device entry.
template <class Shape, ScanAgent kAgent = ScanAgent::kRegisters>
void scan_decoupled_lookback(sdk::Call& call) {
  CudaServices& services = services_of(call);
  const cudaStream_t stream = services.stream();
  if constexpr (kAgent != ScanAgent::kRegisters) {
    const std::string reason = bulk_copy_unsupported_reason(
        "this scan", services.properties().major, services.properties().minor);
    if (!reason.empty()) throw sdk::unsupported(reason);
  }
  const uint64_t n = call.n();
  if (n == 0) return;
  const auto* in = call.input<uint32_t>(0);
  auto* out = call.output<uint32_t>(0);
  require_aligned(in, "x");
  require_aligned(out, "prefix");
  const uint64_t tile_count = scan_tile_count<Shape>(n);
  const ScanWorkspace w = scan_workspace_layout(call.workspace<void>(), tile_count);
  if (call.workspace_bytes() < w.bytes) {
    throw sdk::Failure(PB_ERROR, "scan: workspace smaller than asked for");
  }
  // Tile counter and every status word start at zero (kInvalid), on each run.
  PB_CUDA_CHECK(cudaMemsetAsync(call.workspace<void>(), 0, w.bytes, stream));
  const auto tiles = static_cast<unsigned>(tile_count);
  if constexpr (kAgent == ScanAgent::kSharedPipelined) {
    scan_kernel_pipelined<Shape>
        <<<grid_for(services, Shape::kBlocksPerSm, tile_count), Shape::kThreads, 0, stream>>>(
            in, out, n, w.status, w.tile_counter, tiles);
  } else if constexpr (kAgent == ScanAgent::kSharedTile) {
    scan_kernel_shared_tile<Shape>
        <<<tiles, Shape::kThreads, 0, stream>>>(in, out, n, w.status, w.tile_counter);
  } else {
    scan_kernel<Shape><<<tiles, Shape::kThreads, 0, stream>>>(in, out, n, w.status, w.tile_counter);
  }
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace
}  // namespace plugbench::cuda::opt

// The shipped shape first, then the shapes tried against it, opt-in (run them with
// -v cuda_optimized/lookback_128x16,...): threads x items per thread, blocks per SM the compiler
// must fit, nanoseconds a look-back sleeps between reads of a window that is not ready.
namespace plugbench::cuda::opt {
using ScanShape128x16 = ScanShape<128, 4, 8, 100>;
using ScanShape256x8 = ScanShape<256, 2, 8, 100>;
using ScanShape512x8 = ScanShape<512, 2, 4, 100>;
using ScanShape256x24 = ScanShape<256, 6, 3, 100>;
using ScanShape128x24 = ScanShape<128, 6, 6, 100>;
using ScanShape256x32 = ScanShape<256, 8, 2, 100>;
using ScanShape256x48 = ScanShape<256, 12, 2, 100>;
using ScanShape256x16 = ScanShape<256, 4, 4, 100>;
using ScanShape128x48 = ScanShape<128, 12, 4, 100>;
using ScanShape512x32 = ScanShape<512, 8, 1, 100>;
using ScanShape256x16Spin = ScanShape<256, 4, 4, 0>;
using ScanShape256x16Sleep400 = ScanShape<256, 4, 4, 400>;
using ScanShapeBlockOrder = ScanShape<128, 8, 4, 100, TileOrder::kBlockIndex>;
using ScanShapeStreaming = ScanShape<128, 8, 4, 100, TileOrder::kClaimed, true>;
using ScanShapeBlockOrderStreaming = ScanShape<128, 8, 4, 100, TileOrder::kBlockIndex, true>;
using ScanShapeWindow64 = ScanShape<128, 8, 4, 100, TileOrder::kClaimed, false, 64>;
using ScanShapeWindow128 = ScanShape<128, 8, 4, 100, TileOrder::kClaimed, false, 128>;
// As built, the 128-wide window took 108 registers (4 blocks per SM instead of 8); this one is
// held to 64 so that only the window differs from the shipped kernel.
using ScanShapeWindow128Occupancy8 = ScanShape<128, 8, 8, 100, TileOrder::kClaimed, false, 128>;
// The tile in shared memory: no items held in registers, so 12 blocks per SM can run (40
// registers: ptxas spills 20 bytes a thread; 56 without the cap), against 8 for the register
// kernel; and the same at 8 and 10 blocks, to tell the effects apart.
using ScanShapeSharedTile128x32 = ScanShape<128, 8, 12, 100>;
using ScanShapeSharedTile8Blocks = ScanShape<128, 8, 8, 100>;
using ScanShapeSharedTile10Blocks = ScanShape<128, 8, 10, 100>;  // 48 registers: no spill
using ScanShapeSharedTile128x64 = ScanShape<128, 16, 6, 100>;
using ScanShapeBlockOrderWindow128 = ScanShape<128, 8, 4, 100, TileOrder::kBlockIndex, false, 128>;
// Pipelined (scan_kernel_pipelined), two buffers of 4096 or 2048 items a block (32 or 16 KiB).
using ScanShapePipelined256x16 = ScanShape<256, 4, 6, 100>;
using ScanShapePipelined128x32 = ScanShape<128, 8, 6, 100>;
using ScanShapePipelined128x16 = ScanShape<128, 4, 12, 100>;
}  // namespace plugbench::cuda::opt

PLUGBENCH_KERNEL(
    {.workload = "scan",
     .variant = "decoupled_lookback",
     .description = "single pass, 4096-item tiles (128 threads x 32 items) in registers, "
                    "16-byte loads and stores, decoupled look-back by one warp",
     .run = plugbench::cuda::opt::scan_decoupled_lookback<plugbench::cuda::opt::DefaultScanShape>,
     .workspace = plugbench::cuda::opt::scan_workspace<plugbench::cuda::opt::DefaultScanShape>,
     .max_n = uint64_t{1} << 40});

// On sm_90 and later, the fastest: the tile never in registers (unsupported, with the reason,
// on older GPUs; decoupled_lookback runs there).
PLUGBENCH_KERNEL(
    {.workload = "scan",
     .variant = "lookback_bulk",
     .description = "decoupled_lookback with each 8192-item tile (256 x 32) in shared memory, "
                    "copied in and out by Hopper's bulk copies (sm_90+), 6 blocks per SM",
     .run = plugbench::cuda::opt::scan_decoupled_lookback<
         plugbench::cuda::opt::BulkScanShape, plugbench::cuda::opt::ScanAgent::kSharedTile>,
     .workspace = plugbench::cuda::opt::scan_workspace<plugbench::cuda::opt::BulkScanShape>,
     .max_n = uint64_t{1} << 40});

#define PLUGBENCH_SCAN_SHAPE_VARIANT(name, shape, text)                                   \
  PLUGBENCH_KERNEL(                                                                       \
      {.workload = "scan",                                                                \
       .variant = name,                                                                   \
       .description = text,                                                               \
       .run = plugbench::cuda::opt::scan_decoupled_lookback<plugbench::cuda::opt::shape>, \
       .flags = PB_KERNEL_OPT_IN,                                                         \
       .workspace = plugbench::cuda::opt::scan_workspace<plugbench::cuda::opt::shape>,    \
       .max_n = uint64_t{1} << 40})
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_128x16", ScanShape128x16,
                             "decoupled_lookback with 128 x 16-item tiles, 8 blocks per SM");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_256x8", ScanShape256x8,
                             "decoupled_lookback with 256 x 8-item tiles, 8 blocks per SM");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_512x8", ScanShape512x8,
                             "decoupled_lookback with 512 x 8-item tiles, 4 blocks per SM");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_256x24", ScanShape256x24,
                             "decoupled_lookback with 256 x 24-item tiles, 3 blocks per SM");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_128x24", ScanShape128x24,
                             "decoupled_lookback with 128 x 24-item tiles, 6 blocks per SM");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_256x32", ScanShape256x32,
                             "decoupled_lookback with 256 x 32-item tiles, 2 blocks per SM");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_256x48", ScanShape256x48,
                             "decoupled_lookback with 256 x 48-item tiles, 2 blocks per SM");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_256x16", ScanShape256x16,
                             "decoupled_lookback with 256 x 16-item tiles, 4 blocks per SM (the "
                             "shipped shape until 2026-12-01)");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_128x48", ScanShape128x48,
                             "decoupled_lookback with 128 x 48-item tiles, 4 blocks per SM");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_512x32", ScanShape512x32,
                             "decoupled_lookback with 512 x 32-item tiles, 1 block per SM");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_spin", ScanShape256x16Spin,
                             "decoupled_lookback whose look-back spins without sleeping");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_sleep400", ScanShape256x16Sleep400,
                             "decoupled_lookback whose look-back sleeps 400 ns between reads");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_block_order", ScanShapeBlockOrder,
                             "decoupled_lookback with tile = block index (no atomic claim)");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_streaming", ScanShapeStreaming,
                             "decoupled_lookback with evict-first loads and stores");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_block_order_streaming", ScanShapeBlockOrderStreaming,
                             "decoupled_lookback with tile = block index and evict-first "
                             "loads and stores");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_window64", ScanShapeWindow64,
                             "decoupled_lookback reading 64 predecessors per look-back step");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_window128", ScanShapeWindow128,
                             "decoupled_lookback reading 128 predecessors per look-back step");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_window128_8blocks", ScanShapeWindow128Occupancy8,
                             "lookback_window128 held to 64 registers (8 blocks per SM)");
PLUGBENCH_SCAN_SHAPE_VARIANT("lookback_block_order_window128", ScanShapeBlockOrderWindow128,
                             "decoupled_lookback with tile = block index, reading 128 "
                             "predecessors per look-back step");
#define PLUGBENCH_SCAN_SHARED_TILE_VARIANT(name, shape, text)                          \
  PLUGBENCH_KERNEL(                                                                    \
      {.workload = "scan",                                                             \
       .variant = name,                                                                \
       .description = text,                                                            \
       .run = plugbench::cuda::opt::scan_decoupled_lookback<                           \
           plugbench::cuda::opt::shape, plugbench::cuda::opt::ScanAgent::kSharedTile>, \
       .flags = PB_KERNEL_OPT_IN,                                                      \
       .workspace = plugbench::cuda::opt::scan_workspace<plugbench::cuda::opt::shape>, \
       .max_n = uint64_t{1} << 40})
PLUGBENCH_SCAN_SHARED_TILE_VARIANT("lookback_bulk_128x32", ScanShapeSharedTile128x32,
                                   "lookback_bulk with 4096-item tiles (128 x 32), 12 blocks per "
                                   "SM (named lookback_bulk until 2026-12-01)");
PLUGBENCH_SCAN_SHARED_TILE_VARIANT("lookback_bulk_8blocks", ScanShapeSharedTile8Blocks,
                                   "lookback_bulk_128x32 at the register kernel's 8 blocks per SM");
PLUGBENCH_SCAN_SHARED_TILE_VARIANT("lookback_bulk_128x64", ScanShapeSharedTile128x64,
                                   "lookback_bulk with 8192-item tiles (128 x 64), 6 blocks per "
                                   "SM");
PLUGBENCH_SCAN_SHARED_TILE_VARIANT("lookback_bulk_10blocks", ScanShapeSharedTile10Blocks,
                                   "lookback_bulk_128x32 at 10 blocks per SM (no spills)");
#define PLUGBENCH_SCAN_PIPELINED_VARIANT(name, shape, text)                                 \
  PLUGBENCH_KERNEL(                                                                         \
      {.workload = "scan",                                                                  \
       .variant = name,                                                                     \
       .description = text,                                                                 \
       .run = plugbench::cuda::opt::scan_decoupled_lookback<                                \
           plugbench::cuda::opt::shape, plugbench::cuda::opt::ScanAgent::kSharedPipelined>, \
       .flags = PB_KERNEL_OPT_IN,                                                           \
       .workspace = plugbench::cuda::opt::scan_workspace<plugbench::cuda::opt::shape>,      \
       .max_n = uint64_t{1} << 40})
PLUGBENCH_SCAN_PIPELINED_VARIANT("lookback_bulk_pipelined", ScanShapePipelined256x16,
                                 "persistent blocks, two 4096-item tiles (256 x 16) in shared "
                                 "memory: the next tile loads, and warps 1-7 publish its "
                                 "aggregate, while warp 0 looks back (sm_90+), 6 blocks per SM");
PLUGBENCH_SCAN_PIPELINED_VARIANT("lookback_bulk_pipelined_128x32", ScanShapePipelined128x32,
                                 "lookback_bulk_pipelined with 128 x 32-item tiles, 6 blocks per "
                                 "SM");
PLUGBENCH_SCAN_PIPELINED_VARIANT("lookback_bulk_pipelined_2048", ScanShapePipelined128x16,
                                 "lookback_bulk_pipelined with two 2048-item tiles (128 x 16), 12 "
                                 "blocks per SM");
