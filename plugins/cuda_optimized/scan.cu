// scan.cu: int32 x[n] -> int32 prefix[n], exclusive, modulo 2^32. Single pass with decoupled
// look-back: blocks claim 4096-item tiles in order from an atomic counter; each tile is read once
// with 16-byte loads (TileLayout), scanned in registers (shuffles within a warp, shared memory
// between the 8 warps), offset by the sum of all earlier tiles found through look-back by warp 0,
// and written once with 16-byte stores. Memory traffic: n reads + n writes, nothing else but the
// tile status words.
#include "block_tile_scan.cuh"
#include "dispatch.cuh"

namespace plugbench::cuda::opt {
namespace {

constexpr int kScanThreads = 256;
constexpr int kScanBlocksPerSm = 4;
// false: one block per tile, claiming its tile as it starts (measured on the H200 at 2^28: 0.96
// ms); true: kScanBlocksPerSm blocks per SM loop over tiles, claiming the next one after each
// (1.01 ms).
constexpr bool kPersistentGrid = false;
constexpr unsigned kLookbackRetryDelayNs = 100;  // sleep between reads of a window not yet ready
using ScanLayout = TileLayout<kScanThreads>;
using ScanStorage = TileScanStorage<ScanLayout::kWarps>;

// Agent: one tile. In a persistent grid, once the tile's prefix is known (its look-back is over),
// thread 0 claims the block's next tile, the claim's latency hidden behind the stores, and leaves
// it in storage.next_tile for the caller to read after a barrier. Claiming any earlier would let
// a claimed but not yet started tile hold up the look-backs of all later tiles (measured: 1.7 ms).
template <bool kFull>
__device__ __forceinline__ void scan_tile(const uint32_t* __restrict__ in,
                                          uint32_t* __restrict__ out, uint64_t n, uint32_t tile,
                                          uint64_t* status, uint32_t* tile_counter,
                                          ScanStorage& storage) {
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  const uint64_t tile_base = uint64_t{tile} * ScanLayout::kTileItems;

  uint32_t items[ScanLayout::kItems];
  ScanLayout::load<kFull>(in, tile_base, n, warp, lane, items);

  uint32_t chunk_sums[ScanLayout::kVectors];
#pragma unroll
  for (int k = 0; k < ScanLayout::kVectors; ++k) {
    chunk_sums[k] = items[4 * k] + items[4 * k + 1] + items[4 * k + 2] + items[4 * k + 3];
  }
  uint32_t chunk_offsets[ScanLayout::kVectors];
  const uint32_t warp_total = warp_segment_scan(chunk_sums, chunk_offsets, lane);
  if (lane == 0) storage.warp_totals[warp] = warp_total;
  __syncthreads();

  uint32_t warp_prefix = 0;
  uint32_t tile_total = 0;
#pragma unroll
  for (int w = 0; w < ScanLayout::kWarps; ++w) {
    const uint32_t total = storage.warp_totals[w];
    if (w < warp) warp_prefix += total;
    tile_total += total;
  }
  if (warp == 0) {
    const uint32_t tile_prefix =
        warp_tile_prefix<kLookbackRetryDelayNs>(status, tile, tile_total, lane);
    if (lane == 0) storage.tile_prefix = tile_prefix;
  }
  __syncthreads();

  uint32_t next_claim = 0;
  if (kPersistentGrid && threadIdx.x == 0) next_claim = atomicAdd(tile_counter, 1u);
  const uint32_t base = storage.tile_prefix + warp_prefix;
#pragma unroll
  for (int k = 0; k < ScanLayout::kVectors; ++k) {
    uint32_t running = base + chunk_offsets[k];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const uint32_t value = items[4 * k + j];
      items[4 * k + j] = running;
      running += value;
    }
  }
  ScanLayout::store<kFull>(out, tile_base, n, warp, lane, items);
  if (threadIdx.x == 0) storage.next_tile = next_claim;
}

__global__ void __launch_bounds__(kScanThreads, kScanBlocksPerSm)
    scan_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, uint64_t n,
                uint32_t tile_count, uint64_t* status, uint32_t* tile_counter) {
  __shared__ ScanStorage storage;
  if (threadIdx.x == 0) storage.next_tile = atomicAdd(tile_counter, 1u);
  __syncthreads();
  uint32_t tile = storage.next_tile;
  // Tiles are claimed in increasing order by running blocks, each block holding one at a time, so
  // every tile a look-back waits for is being processed and publishes its aggregate without
  // waiting itself: no deadlock, whatever order the hardware starts blocks in.
  while (tile < tile_count) {
    if ((uint64_t{tile} + 1) * ScanLayout::kTileItems <= n) {
      scan_tile<true>(in, out, n, tile, status, tile_counter, storage);
    } else {
      scan_tile<false>(in, out, n, tile, status, tile_counter, storage);
    }
    if constexpr (!kPersistentGrid) break;
    __syncthreads();  // storage.next_tile is written; the tile's shared memory is free again
    tile = storage.next_tile;
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

uint64_t scan_tile_count(uint64_t n) {
  return div_up(n, ScanLayout::kTileItems);
}

uint64_t scan_workspace(void*, const pb_problem& problem) {
  return scan_workspace_layout(nullptr, scan_tile_count(problem.n)).bytes;
}

// Device entry.
void scan_decoupled_lookback(sdk::Call& call) {
  CudaServices& services = services_of(call);
  const cudaStream_t stream = services.stream();
  const uint64_t n = call.n();
  if (n == 0) return;
  const auto* in = call.input<uint32_t>(0);
  auto* out = call.output<uint32_t>(0);
  require_aligned(in, "x");
  require_aligned(out, "prefix");
  const uint64_t tile_count = scan_tile_count(n);
  const ScanWorkspace w = scan_workspace_layout(call.workspace<void>(), tile_count);
  if (call.workspace_bytes() < w.bytes) {
    throw sdk::Failure(PB_ERROR, "scan: workspace smaller than asked for");
  }
  // Tile counter and every status word start at zero (kInvalid), on each run.
  PB_CUDA_CHECK(cudaMemsetAsync(call.workspace<void>(), 0, w.bytes, stream));
  const unsigned grid = kPersistentGrid ? grid_for(services, kScanBlocksPerSm, tile_count)
                                        : static_cast<unsigned>(tile_count);
  scan_kernel<<<grid, kScanThreads, 0, stream>>>(in, out, n, static_cast<uint32_t>(tile_count),
                                                 w.status, w.tile_counter);
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace
}  // namespace plugbench::cuda::opt

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "decoupled_lookback",
                  .description = "single pass, 4096-item tiles in registers, 16-byte loads and "
                                 "stores, decoupled look-back by one warp",
                  .run = plugbench::cuda::opt::scan_decoupled_lookback,
                  .workspace = plugbench::cuda::opt::scan_workspace,
                  .max_n = uint64_t{1} << 40});
