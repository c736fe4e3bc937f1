// scan.cu: int32 x[n] -> int32 prefix[n], exclusive, modulo 2^32. Single pass with decoupled
// look-back (device_scan.cuh): blocks claim tiles in order from an atomic counter; each tile is
// read once, scanned (shuffles within a warp, shared memory between warps), offset by the sum of
// all earlier tiles found through look-back by warp 0, and written once. Memory traffic: n reads
// + n writes, nothing else but the tile status words. Two variants ship: "decoupled_lookback"
// (4096-item tiles in registers, any GPU) and, faster on sm_90 and later, "lookback_bulk"
// (8192-item tiles in shared memory, moved by Hopper's bulk copies). The opt-in variants here
// each change one thing of a shipped one, to show why the shipped one is as it is (README.md);
// the other designs measured are tunings (tunings/scan_tunings.cu).
#include "device_scan.cuh"

namespace plugbench::cuda::opt {

PLUGBENCH_KERNEL({kernel_entry<DeviceScan<RegisterTileShape>>(
    "decoupled_lookback",
    "single pass, 4096-item tiles (128 threads x 32 items) in registers, 16-byte loads and "
    "stores, decoupled look-back by one warp")});

// On sm_90 and later, the fastest: the tile never in registers (unsupported, with the reason,
// on older GPUs; decoupled_lookback runs there).
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<SharedTileShape, ScanTileInShared>>(
    "lookback_bulk",
    "decoupled_lookback with each 8192-item tile (256 x 32) in shared memory, copied in and out "
    "by Hopper's bulk copies (sm_90+), 6 blocks per SM")});

// The same 4096-item tile and the same 16-byte loads in flight per SM, in 8 warps of 16 items a
// thread instead of 4 of 32: 1.024 ms at 2^28 against 0.746. What bounds the tile is its critical
// path (the barriers every warp crosses while warp 0 looks back), not bytes or tiles in flight.
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<256, 4, 4, 100>>>(
    "lookback_256x16",
    "decoupled_lookback with 256 x 16-item tiles, 4 blocks per SM: the same 4096-item tile in "
    "twice the warps",
    PB_KERNEL_OPT_IN)});

// Tiles by block index, as CUB's single-pass scan takes them: a few % faster (no atomic claim and
// barrier before a tile's loads), but a look-back may then wait for a tile whose block has not
// started, so it relies on the hardware starting blocks in index order. The shipped kernels claim
// tiles from a counter: every tile waited for is running, so none can deadlock.
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 8, 4, 100, TileOrder::kBlockIndex>>>(
    "lookback_block_order",
    "decoupled_lookback with tile = block index (no atomic claim): relies on blocks starting in "
    "index order",
    PB_KERNEL_OPT_IN)});

// lookback_bulk's reason in one variant: the tile in shared memory at the register kernel's
// occupancy (128 x 32, 8 blocks per SM) ties decoupled_lookback; what the shared tile buys is
// more tiles waiting for their prefixes at once.
PLUGBENCH_KERNEL({kernel_entry<DeviceScan<TileShape<128, 8, 8, 100>, ScanTileInShared>>(
    "lookback_bulk_8blocks",
    "lookback_bulk with 4096-item tiles (128 x 32) at the register kernel's 8 blocks per SM "
    "(sm_90+)",
    PB_KERNEL_OPT_IN)});

}  // namespace plugbench::cuda::opt
