// compact.cu: int32 x[n] -> int32 kept[n] (the non-zero x, in order), uint64 count[1]. The scan's
// single pass (scan.cu) over the keep flags: each 4096-item tile counts its non-zero items, learns
// how many earlier tiles kept through decoupled look-back, packs its kept items in order into
// shared memory (while warp 0 looks back) and writes them out as one contiguous, coalesced run.
// The last tile writes the count. Entries of kept at or past the count are left untouched.
#include "block_tile_scan.cuh"
#include "dispatch.cuh"

namespace plugbench::cuda::opt {
namespace {

constexpr int kCompactThreads = 256;
constexpr int kCompactBlocksPerSm = 4;
// As in scan.cu: one block per tile (measured on the H200, 2^28, half kept: 0.75 ms; a persistent
// grid: 0.81 ms).
constexpr bool kPersistentGrid = false;
constexpr unsigned kLookbackRetryDelayNs = 100;  // sleep between reads of a window not yet ready
using CompactLayout = TileLayout<kCompactThreads>;

struct CompactStorage {
  TileScanStorage<CompactLayout::kWarps> scan;
  uint32_t kept[CompactLayout::kTileItems];  // the tile's kept items, packed in order
};

// Agent: one tile (see scan_tile in scan.cu for the claiming protocol).
template <bool kFull>
__device__ __forceinline__ void compact_tile(const uint32_t* __restrict__ in,
                                             uint32_t* __restrict__ kept,
                                             unsigned long long* __restrict__ count, uint64_t n,
                                             uint32_t tile, uint32_t tile_count, uint64_t* status,
                                             uint32_t* tile_counter, CompactStorage& storage) {
  const int lane = threadIdx.x % kWarpThreads;
  const int warp = threadIdx.x / kWarpThreads;
  const uint64_t tile_base = uint64_t{tile} * CompactLayout::kTileItems;

  // Items past n read as 0, so they are never kept.
  uint32_t items[CompactLayout::kItems];
  CompactLayout::load<kFull>(in, tile_base, n, warp, lane, items);

  uint32_t chunk_counts[CompactLayout::kVectors];
#pragma unroll
  for (int k = 0; k < CompactLayout::kVectors; ++k) {
    chunk_counts[k] = (items[4 * k] != 0) + (items[4 * k + 1] != 0) + (items[4 * k + 2] != 0) +
                      (items[4 * k + 3] != 0);
  }
  uint32_t chunk_offsets[CompactLayout::kVectors];
  const uint32_t warp_total = warp_segment_scan(chunk_counts, chunk_offsets, lane);
  if (lane == 0) storage.scan.warp_totals[warp] = warp_total;
  __syncthreads();

  uint32_t warp_prefix = 0;
  uint32_t tile_total = 0;
#pragma unroll
  for (int w = 0; w < CompactLayout::kWarps; ++w) {
    const uint32_t total = storage.scan.warp_totals[w];
    if (w < warp) warp_prefix += total;
    tile_total += total;
  }
  // Pack this thread's kept items at their place within the tile.
#pragma unroll
  for (int k = 0; k < CompactLayout::kVectors; ++k) {
    uint32_t position = warp_prefix + chunk_offsets[k];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      if (items[4 * k + j] != 0) storage.kept[position++] = items[4 * k + j];
    }
  }
  if (warp == 0) {
    const uint32_t tile_prefix =
        warp_tile_prefix<kLookbackRetryDelayNs>(status, tile, tile_total, lane);
    if (lane == 0) {
      storage.scan.tile_prefix = tile_prefix;
      if (tile == tile_count - 1) *count = uint64_t{tile_prefix} + tile_total;
    }
  }
  __syncthreads();

  uint32_t next_claim = 0;
  if (kPersistentGrid && threadIdx.x == 0) next_claim = atomicAdd(tile_counter, 1u);
  uint32_t* destination = kept + storage.scan.tile_prefix;
  for (uint32_t i = threadIdx.x; i < tile_total; i += kCompactThreads) {
    destination[i] = storage.kept[i];
  }
  if (threadIdx.x == 0) storage.scan.next_tile = next_claim;
}

__global__ void __launch_bounds__(kCompactThreads, kCompactBlocksPerSm)
    compact_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ kept,
                   unsigned long long* __restrict__ count, uint64_t n, uint32_t tile_count,
                   uint64_t* status, uint32_t* tile_counter) {
  __shared__ CompactStorage storage;
  if (threadIdx.x == 0) storage.scan.next_tile = atomicAdd(tile_counter, 1u);
  __syncthreads();
  uint32_t tile = storage.scan.next_tile;
  while (tile < tile_count) {
    if ((uint64_t{tile} + 1) * CompactLayout::kTileItems <= n) {
      compact_tile<true>(in, kept, count, n, tile, tile_count, status, tile_counter, storage);
    } else {
      compact_tile<false>(in, kept, count, n, tile, tile_count, status, tile_counter, storage);
    }
    if constexpr (!kPersistentGrid) break;
    __syncthreads();  // storage.scan.next_tile is written; the tile's shared memory is free again
    tile = storage.scan.next_tile;
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

uint64_t compact_tile_count(uint64_t n) {
  return div_up(n, CompactLayout::kTileItems);
}

uint64_t compact_workspace(void*, const pb_problem& problem) {
  return compact_workspace_layout(nullptr, compact_tile_count(problem.n)).bytes;
}

// Device entry.
void compact_decoupled_lookback(sdk::Call& call) {
  CudaServices& services = services_of(call);
  const cudaStream_t stream = services.stream();
  const uint64_t n = call.n();
  auto* count = call.output<unsigned long long>(1);
  if (n == 0) {
    PB_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream));
    return;
  }
  const auto* in = call.input<uint32_t>(0);
  auto* kept = call.output<uint32_t>(0);
  require_aligned(in, "x");
  const uint64_t tile_count = compact_tile_count(n);
  const CompactWorkspace w = compact_workspace_layout(call.workspace<void>(), tile_count);
  if (call.workspace_bytes() < w.bytes) {
    throw sdk::Failure(PB_ERROR, "compact: workspace smaller than asked for");
  }
  PB_CUDA_CHECK(cudaMemsetAsync(call.workspace<void>(), 0, w.bytes, stream));
  const unsigned grid = kPersistentGrid ? grid_for(services, kCompactBlocksPerSm, tile_count)
                                        : static_cast<unsigned>(tile_count);
  compact_kernel<<<grid, kCompactThreads, 0, stream>>>(
      in, kept, count, n, static_cast<uint32_t>(tile_count), w.status, w.tile_counter);
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace
}  // namespace plugbench::cuda::opt

// Counts travel as 32-bit look-back values, hence the limit on n.
PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "decoupled_lookback",
                  .description = "single pass over keep flags with decoupled look-back, kept items "
                                 "packed in shared memory, coalesced stores",
                  .run = plugbench::cuda::opt::compact_decoupled_lookback,
                  .workspace = plugbench::cuda::opt::compact_workspace,
                  .max_n = 0xffffffffull});
