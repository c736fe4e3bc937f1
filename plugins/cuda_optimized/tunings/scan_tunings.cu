// scan_tunings.cu: the scan's tunings, built with -DPLUGBENCH_TUNINGS=ON: every other design
// measured against the shipped ones (docs/performance.md), all opt-in, run when named (e.g. -v
// cuda_optimized/lookback_bulk_pipelined). Tile shapes and look-back settings of the shipped
// kernels (device_scan.cuh), and the pipelined agent, which exists only here.
#include "device_scan.cuh"
#include "thread_streaming.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

// Pipelined ("lookback_bulk_pipelined"): a persistent grid, two tile buffers per block. As a round
// starts on tile t, thread 0 claims tile t + 1 and has the copy engine bring it into the other
// buffer; while warp 0 looks back for tile t, the other warps wait for tile t + 1 to land and
// publish its aggregate, so a tile's aggregate never waits for the look-back of the tile before
// it (if it did, every aggregate would queue behind the previous look-backs: 1.15 ms at 2^28).
// Why: ncu showed the one-tile blocks spending about half their life waiting for the look-back
// holding an idle tile, and the same tile movement with no look-back ran at 95 % of the copy rate
// (tools/probes/tile_copy_probe.cu). Behind lookback_bulk (0.683 against 0.651 ms at 2^28 in its
// best shape). No deadlock: a tile's aggregate waits only for its own load; prefixes follow as in
// scan_kernel.
template <class Shape>
struct PipelinedScanStorage {
  alignas(128) uint32_t tile[2][Shape::Layout::kTileItems];
  uint64_t loaded[2];   // mbarriers: buffer b's tile has landed
  uint32_t claimed[2];  // the tile buffer b holds (or is receiving); >= tile_count: none left
  uint32_t helper_totals[Shape::Layout::kWarps];
  TileScanStorageOf<Shape> scan;
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

// A full tile held in shared memory, scanned as scan_tile_held_in_shared (agent_scan.cuh) scans
// it, except that warps 1, 2, ... run `while_looking_back` between the two barriers of the block
// step, while warp 0 looks back.
template <class Shape, class WhileLookingBack>
__device__ __forceinline__ void scan_full_tile_held_in_shared(
    uint32_t* items, uint32_t* __restrict__ out, uint64_t n, uint32_t tile, uint64_t* status,
    TileScanStorageOf<Shape>& storage, WhileLookingBack while_looking_back) {
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  uint32_t chunk_offsets[Shape::Layout::kVectors];
  const uint32_t warp_total = scan_warp_chunks_in_shared<Shape>(items, warp, lane, chunk_offsets);
  const WarpTotals totals = share_warp_totals(warp_total, warp, lane, storage);
  if (warp == 0) {
    look_back_tile<Shape>(status, tile, totals.tile, lane, storage.tile_prefix);
  } else {
    while_looking_back();
  }
  __syncthreads();
  write_scanned_tile_from_shared<Shape, true>(
      items, out, n, tile, storage.tile_prefix + totals.before, chunk_offsets, warp, lane);
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
      scan_full_tile_held_in_shared<Shape>(storage.tile[b], out, n, tile, status, storage.scan,
                                           next_aggregate);
    } else {
      load_tile_to_shared<Shape::kThreads, kTileItems, false>(
          storage.tile[b], in, uint64_t{tile} * kTileItems, n, nullptr);
      scan_tile_held_in_shared<Shape, false>(storage.tile[b], out, n, tile, status, storage.scan);
    }
  }
}

// Placement (device_scan.cuh): two tiles in shared memory, pipelined, in a persistent grid.
struct ScanTilesPipelined {
  static constexpr bool kBulkCopies = true;
  template <class Shape>
  static void launch(const ScanLaunch& l) {
    scan_kernel_pipelined<Shape>
        <<<grid_for(l.services, Shape::kBlocksPerSm, l.tile_count), Shape::kThreads, 0, l.stream>>>(
            l.in, l.out, l.n, l.workspace.status, l.workspace.tile_counter,
            static_cast<unsigned>(l.tile_count));
  }
};

// Tile shapes: TileShape<threads, 16-byte vectors per lane (items / 4), blocks per SM the compiler
// must fit, nanoseconds a look-back sleeps between reads of a window that is not ready, tile
// order, predecessors a look-back reads per round trip, vector policy> (agent_lookback.cuh).

// The tile in registers (the shipped decoupled_lookback's kernel).
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 4, 8, 100>>>(
    "lookback_128x16", "decoupled_lookback with 128 x 16-item tiles, 8 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 2, 8, 100>>>(
    "lookback_256x8", "decoupled_lookback with 256 x 8-item tiles, 8 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<512, 2, 4, 100>>>(
    "lookback_512x8", "decoupled_lookback with 512 x 8-item tiles, 4 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 6, 3, 100>>>(
    "lookback_256x24", "decoupled_lookback with 256 x 24-item tiles, 3 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 6, 6, 100>>>(
    "lookback_128x24", "decoupled_lookback with 128 x 24-item tiles, 6 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 8, 2, 100>>>(
    "lookback_256x32", "decoupled_lookback with 256 x 32-item tiles, 2 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 12, 2, 100>>>(
    "lookback_256x48", "decoupled_lookback with 256 x 48-item tiles, 2 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 12, 4, 100>>>(
    "lookback_128x48", "decoupled_lookback with 128 x 48-item tiles, 4 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<512, 8, 1, 100>>>(
    "lookback_512x32", "decoupled_lookback with 512 x 32-item tiles, 1 block per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 4, 4, 0>>>(
    "lookback_spin", "decoupled_lookback whose look-back spins without sleeping",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 4, 4, 400>>>(
    "lookback_sleep400", "decoupled_lookback whose look-back sleeps 400 ns between reads",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<
    DeviceScan<TileShape<128, 8, 4, 100, TileOrder::kClaimed, kWarpThreads, StreamingVectors>>>(
    "lookback_streaming", "decoupled_lookback with evict-first loads and stores",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<
    DeviceScan<TileShape<128, 8, 4, 100, TileOrder::kBlockIndex, kWarpThreads, StreamingVectors>>>(
    "lookback_block_order_streaming",
    "decoupled_lookback with tile = block index and evict-first loads and stores",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 8, 4, 100, TileOrder::kClaimed, 64>>>(
    "lookback_window64", "decoupled_lookback reading 64 predecessors per look-back step",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 8, 4, 100, TileOrder::kClaimed, 128>>>(
    "lookback_window128", "decoupled_lookback reading 128 predecessors per look-back step",
    PB_KERNEL_OPT_IN)});
// As built, the 128-wide window takes 108 registers (4 blocks per SM instead of 8); this one is
// held to 64 so that only the window differs from the shipped kernel.
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 8, 8, 100, TileOrder::kClaimed, 128>>>(
    "lookback_window128_8blocks", "lookback_window128 held to 64 registers (8 blocks per SM)",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 8, 4, 100, TileOrder::kBlockIndex, 128>>>(
    "lookback_block_order_window128",
    "decoupled_lookback with tile = block index, reading 128 predecessors per look-back step",
    PB_KERNEL_OPT_IN)});

// The tile in shared memory (the shipped lookback_bulk's kernel): 12 blocks per SM of 4096 items
// take 40 registers (ptxas spills 20 bytes a thread; 56 without the cap), 10 blocks 48 (no spill).
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 8, 12, 100>, ScanTileInShared>>(
    "lookback_bulk_128x32", "lookback_bulk with 4096-item tiles (128 x 32), 12 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 16, 6, 100>, ScanTileInShared>>(
    "lookback_bulk_128x64", "lookback_bulk with 8192-item tiles (128 x 64), 6 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 8, 10, 100>, ScanTileInShared>>(
    "lookback_bulk_10blocks", "lookback_bulk_128x32 at 10 blocks per SM (no spills)",
    PB_KERNEL_OPT_IN)});
// Where the shipped bulk tile trails cub (2^23 items, 4-7 %; lab/performance-log.md), two
// suspects: the last wave (8192 items at 6 blocks an SM make 1.29 waves there; 4096 at 6 make
// 2.59, where 4096 at 12 make the same waves as the shipped tile), and the look-back's latency on
// the chain of 1024 tiles (no sleep between polls, or 64 predecessors a round trip).
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 4, 6, 100>, ScanTileInShared>>(
    "lookback_bulk_256x16", "lookback_bulk with 4096-item tiles (256 x 16), 6 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 8, 6, 0>, ScanTileInShared>>(
    "lookback_bulk_spin", "lookback_bulk whose look-back spins without sleeping",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL(
    {kernel_entry<DeviceScan<TileShape<256, 8, 6, 100, TileOrder::kClaimed, 64>, ScanTileInShared>>(
        "lookback_bulk_window64", "lookback_bulk reading 64 predecessors per look-back step",
        PB_KERNEL_OPT_IN)});

// cub's own shape on sm_90 (its scan policy: 128 threads x 24 items, 8 blocks an SM) in the bulk
// kernel: whether the tile size cub picked, not the kernel, is what leads at 2^23.
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 6, 8, 100>, ScanTileInShared>>(
    "lookback_bulk_128x24", "lookback_bulk with cub's tile: 3072 items (128 x 24), 8 blocks per SM",
    PB_KERNEL_OPT_IN)});

// Pipelined: two buffers of 4096 or 2048 items a block (32 or 16 KiB).
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 4, 6, 100>, ScanTilesPipelined>>(
    "lookback_bulk_pipelined",
    "persistent blocks, two 4096-item tiles (256 x 16) in shared memory: the next tile loads, "
    "and warps 1-7 publish its aggregate, while warp 0 looks back (sm_90+), 6 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 8, 6, 100>, ScanTilesPipelined>>(
    "lookback_bulk_pipelined_128x32",
    "lookback_bulk_pipelined with 128 x 32-item tiles, 6 blocks per SM", PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 4, 12, 100>, ScanTilesPipelined>>(
    "lookback_bulk_pipelined_2048",
    "lookback_bulk_pipelined with two 2048-item tiles (128 x 16), 12 blocks per SM",
    PB_KERNEL_OPT_IN)});

// The shipped bulk tile clearing its look-back words with a kernel, as cub does, not a memset.
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<
    TileShape<256, 8, 6, 100, TileOrder::kClaimed, kWarpThreads, CachedVectors, KernelClear>,
    ScanTileInShared>>(
    "lookback_bulk_init_kernel",
    "lookback_bulk clearing its look-back words with a kernel of its own instead of a memset",
    PB_KERNEL_OPT_IN)});

}  // namespace plugbench::cuda::opt
