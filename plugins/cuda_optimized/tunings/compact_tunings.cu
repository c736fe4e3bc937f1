// compact_tunings.cu: the compaction's tunings, built with -DPLUGBENCH_TUNINGS=ON: the other tile
// shapes and look-back settings measured against the shipped ones (docs/performance.md), all
// opt-in, run when named (e.g. -v cuda_optimized/lookback_128x16). The shapes are the scan's
// (agent_lookback.cuh; tunings/scan_tunings.cu says what each parameter is).
#include "device_compact.cuh"
#include "thread_streaming.cuh"

namespace plugbench::cuda::opt {

// The tile in registers (the shipped decoupled_lookback's kernel).
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<128, 4, 8, 100>>>(
    "lookback_128x16", "decoupled_lookback with 128 x 16-item tiles, 8 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<256, 2, 8, 100>>>(
    "lookback_256x8", "decoupled_lookback with 256 x 8-item tiles, 8 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<512, 2, 4, 100>>>(
    "lookback_512x8", "decoupled_lookback with 512 x 8-item tiles, 4 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<256, 6, 3, 100>>>(
    "lookback_256x24", "decoupled_lookback with 256 x 24-item tiles, 3 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<128, 6, 6, 100>>>(
    "lookback_128x24", "decoupled_lookback with 128 x 24-item tiles, 6 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<256, 8, 2, 100>>>(
    "lookback_256x32", "decoupled_lookback with 256 x 32-item tiles, 2 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<128, 12, 4, 100>>>(
    "lookback_128x48", "decoupled_lookback with 128 x 48-item tiles, 4 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<256, 4, 4, 100>>>(
    "lookback_256x16", "decoupled_lookback with 256 x 16-item tiles, 4 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<256, 4, 4, 0>>>(
    "lookback_spin", "decoupled_lookback whose look-back spins without sleeping",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<128, 8, 4, 100, TileOrder::kBlockIndex>>>(
    "lookback_block_order", "decoupled_lookback with tile = block index (no atomic claim)",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<
    DeviceCompact<TileShape<128, 8, 4, 100, TileOrder::kClaimed, kWarpThreads, StreamingVectors>>>(
    "lookback_streaming", "decoupled_lookback with evict-first loads", PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<
    TileShape<128, 8, 4, 100, TileOrder::kBlockIndex, kWarpThreads, StreamingVectors>>>(
    "lookback_block_order_streaming",
    "decoupled_lookback with tile = block index and evict-first loads", PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<128, 8, 4, 100, TileOrder::kClaimed, 128>>>(
    "lookback_window128", "decoupled_lookback reading 128 predecessors per look-back step",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL(
    {kernel_entry<DeviceCompact<TileShape<128, 8, 4, 100, TileOrder::kBlockIndex, 128>>>(
        "lookback_block_order_window128",
        "decoupled_lookback with tile = block index, reading 128 predecessors per look-back step",
        PB_KERNEL_OPT_IN)});

// The tile in shared memory (the shipped lookback_bulk's kernel).
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<128, 8, 12, 100>, true>>(
    "lookback_bulk_128x32", "lookback_bulk with 4096-item tiles (128 x 32), 12 blocks per SM",
    PB_KERNEL_OPT_IN)});
// Half the items a wave, and the shipped bulk tile with its look-back changed
// (tunings/scan_tunings.cu says why).
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<256, 4, 6, 100>, true>>(
    "lookback_bulk_256x16", "lookback_bulk with 4096-item tiles (256 x 16), 6 blocks per SM",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<256, 8, 6, 0>, true>>(
    "lookback_bulk_spin", "lookback_bulk whose look-back spins without sleeping",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL(
    {kernel_entry<DeviceCompact<TileShape<256, 8, 6, 100, TileOrder::kClaimed, 64>, true>>(
        "lookback_bulk_window64", "lookback_bulk reading 64 predecessors per look-back step",
        PB_KERNEL_OPT_IN)});
// The pack without bank conflicts (agent_compact.cuh's BallotPack), at both bulk tile sizes.
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<SharedTileShape, true, BallotPack>>(
    "lookback_bulk_ballot",
    "lookback_bulk whose warps pack their kept items a row of 32 at a time, placed by a ballot",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<128, 8, 12, 100>, true, BallotPack>>(
    "lookback_bulk_ballot_128x32", "lookback_bulk_ballot with 4096-item tiles, 12 blocks per SM",
    PB_KERNEL_OPT_IN)});

// cub's scan shape on sm_90 (128 threads x 24 items, 8 blocks an SM; tunings/scan_tunings.cu).
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<TileShape<128, 6, 8, 100>, true>>(
    "lookback_bulk_128x24", "lookback_bulk with cub's tile: 3072 items (128 x 24), 8 blocks per SM",
    PB_KERNEL_OPT_IN)});

// The kept items stored 16 bytes a thread (agent_compact.cuh's VectorWriteOut), alone and with
// the ballot pack, and each warp storing its own run so (WarpVectorWriteOut): where 99 % are kept
// the write-out is twice keep50's.
PLUGBENCH_KERNEL(
    {kernel_entry<DeviceCompact<SharedTileShape, true, LaneVectorPack, VectorWriteOut>>(
        "lookback_bulk_vector_out", "lookback_bulk storing its kept items 16 bytes a thread",
        PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL(
    {kernel_entry<DeviceCompact<SharedTileShape, true, LaneVectorPack, WarpVectorWriteOut>>(
        "lookback_bulk_warp_vector_out",
        "lookback_bulk whose warps store their own kept items 16 bytes a lane", PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<SharedTileShape, true, BallotPack, VectorWriteOut>>(
    "lookback_bulk_ballot_vector_out",
    "lookback_bulk_ballot storing its kept items 16 bytes a thread", PB_KERNEL_OPT_IN)});

// The shipped bulk tile clearing its look-back words with a kernel, as cub does, not a memset.
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<
    TileShape<256, 8, 6, 100, TileOrder::kClaimed, kWarpThreads, CachedVectors, KernelClear>,
    true>>(
    "lookback_bulk_init_kernel",
    "lookback_bulk clearing its look-back words with a kernel of its own instead of a memset",
    PB_KERNEL_OPT_IN)});

}  // namespace plugbench::cuda::opt
