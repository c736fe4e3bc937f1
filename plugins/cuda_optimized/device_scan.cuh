// device_scan.cuh: the single-pass scan's kernels and its device entry (a variant's `run` and
// workspace functions), generic in the tile shape (agent_lookback.cuh) and in where a block keeps
// its tile while it waits for its prefix (a placement: the kernel that does so).
#pragma once

#include "agent_scan.cuh"
#include "launch_config.cuh"

#include <cstdint>

namespace plugbench::cuda::opt {

// Tiles are claimed in increasing order by running blocks, each block holding one, so every tile
// a look-back waits for is being processed and publishes its aggregate without waiting itself: no
// deadlock, whatever order the hardware starts blocks in.
template <class Shape>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kBlocksPerSm)
    scan_kernel(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, uint64_t n,
                uint64_t* status, uint32_t* tile_counter) {
  __shared__ TileScanStorageOf<Shape> storage;
  const uint32_t tile = tile_of_block<Shape::kTileOrder>(tile_counter, storage.next_tile);
  if (is_full_tile<Shape>(tile, n)) {
    scan_tile<Shape, true>(in, out, n, tile, status, storage);
  } else {
    scan_tile<Shape, false>(in, out, n, tile, status, storage);
  }
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

// What a placement's kernel is launched with: the checked call's buffers and its cleared
// workspace.
struct ScanLaunch {
  const CudaServices& services;
  cudaStream_t stream;
  const uint32_t* in;
  uint32_t* out;
  uint64_t n;
  LookbackWorkspace workspace;
  uint64_t tile_count;
};

// Placements: kBulkCopies says whether the kernel needs Hopper's bulk copies (sm_90 and later);
// launch<Shape> launches it. The tile in registers (any GPU): one block per tile.
struct ScanTileInRegisters {
  static constexpr bool kBulkCopies = false;
  template <class Shape>
  static void launch(const ScanLaunch& l) {
    scan_kernel<Shape><<<static_cast<unsigned>(l.tile_count), Shape::kThreads, 0, l.stream>>>(
        l.in, l.out, l.n, l.workspace.status, l.workspace.tile_counter);
  }
};

// The tile in shared memory: one block per tile.
struct ScanTileInShared {
  static constexpr bool kBulkCopies = true;
  template <class Shape>
  static void launch(const ScanLaunch& l) {
    scan_kernel_shared_tile<Shape>
        <<<static_cast<unsigned>(l.tile_count), Shape::kThreads, 0, l.stream>>>(
            l.in, l.out, l.n, l.workspace.status, l.workspace.tile_counter);
  }
};

// Device entry: int32 x[n] -> int32 prefix[n], exclusive, modulo 2^32.
template <class Shape, class Placement = ScanTileInRegisters>
struct DeviceScan {
  static constexpr const char* kWorkload = "scan";
  static constexpr uint64_t kMaxN = uint64_t{1} << 40;
  static constexpr sdk::WorkspaceFunction workspace = lookback_workspace<Shape>;

  static void run(sdk::Call& call) {
    CudaServices& services = services_of(call);
    const cudaStream_t stream = services.stream();
    if constexpr (Placement::kBulkCopies) require_bulk_copies(services, "this scan");
    const uint64_t n = call.n();
    if (n == 0) return;
    const auto* in = call.input<uint32_t>(0);
    auto* out = call.output<uint32_t>(0);
    require_aligned(in, "x");
    require_aligned(out, "prefix");
    const uint64_t tile_count = lookback_tile_count<Shape>(n);
    const LookbackWorkspace w =
        clear_lookback_workspace<Shape>(call, stream, tile_count, kWorkload);
    Placement::template launch<Shape>({services, stream, in, out, n, w, tile_count});
    PB_CUDA_CHECK_LAUNCH();
  }
};

}  // namespace plugbench::cuda::opt
