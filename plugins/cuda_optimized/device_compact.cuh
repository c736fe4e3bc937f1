// device_compact.cuh: the single-pass compaction's kernels and its device entry (a variant's `run`
// and workspace functions), generic in the tile shape (agent_lookback.cuh) and in where a block
// keeps its tile (registers, or shared memory through Hopper's bulk copies).
#pragma once

#include "agent_compact.cuh"
#include "launch_config.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kBlocksPerSm)
    compact_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ kept,
                   unsigned long long* __restrict__ count, uint64_t n, uint32_t tile_count,
                   uint64_t* status, uint32_t* tile_counter) {
  __shared__ CompactTileStorage<Shape> storage;
  const uint32_t tile = tile_of_block<Shape::kTileOrder>(tile_counter, storage.scan.next_tile);
  if (is_full_tile<Shape>(tile, n)) {
    compact_tile<Shape, true>(in, kept, count, n, tile, tile_count, status, storage);
  } else {
    compact_tile<Shape, false>(in, kept, count, n, tile, tile_count, status, storage);
  }
}

template <class Shape, class Pack, class WriteOut>
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
    compact_tile_in_shared<Shape, Pack, WriteOut, true>(in, kept, count, n, tile, tile_count,
                                                        status, storage);
  } else {
    compact_tile_in_shared<Shape, Pack, WriteOut, false>(in, kept, count, n, tile, tile_count,
                                                         status, storage);
  }
}

// Device entry: int32 x[n] -> int32 kept[n] (the non-zero x, in order), uint64 count[1]; entries
// of kept at or past the count are left untouched. kSharedTile: compact_kernel_shared_tile
// (Hopper's bulk copies), whose warps pack their kept items with Pack and whose block writes them
// out with WriteOut (agent_compact.cuh). Counts travel as 32-bit look-back values, hence kMaxN.
template <class Shape, bool kSharedTile = false, class Pack = LaneVectorPack,
          class WriteOut = RunsWriteOut>
struct DeviceCompact {
  static constexpr const char* kWorkload = "compact";
  static constexpr uint64_t kMaxN = 0xffffffffull;
  static constexpr sdk::WorkspaceFunction workspace = lookback_workspace<Shape>;

  static void run(sdk::Call& call) {
    CudaServices& services = services_of(call);
    const cudaStream_t stream = services.stream();
    if constexpr (kSharedTile) require_bulk_copies(services, "this compaction");
    const uint64_t n = call.n();
    auto* count = call.output<unsigned long long>(1);
    if (n == 0) {
      PB_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream));
      return;
    }
    const auto* in = call.input<uint32_t>(0);
    auto* kept = call.output<uint32_t>(0);
    require_aligned(in, "x");
    const uint64_t tile_count = lookback_tile_count<Shape>(n);
    const LookbackWorkspace w =
        clear_lookback_workspace<Shape>(call, stream, tile_count, kWorkload);
    const auto grid = static_cast<unsigned>(tile_count);
    if constexpr (kSharedTile) {
      compact_kernel_shared_tile<Shape, Pack, WriteOut><<<grid, Shape::kThreads, 0, stream>>>(
          in, kept, count, n, static_cast<uint32_t>(tile_count), w.status, w.tile_counter);
    } else {
      compact_kernel<Shape><<<grid, Shape::kThreads, 0, stream>>>(
          in, kept, count, n, static_cast<uint32_t>(tile_count), w.status, w.tile_counter);
    }
    PB_CUDA_CHECK_LAUNCH();
  }
};

}  // namespace plugbench::cuda::opt
