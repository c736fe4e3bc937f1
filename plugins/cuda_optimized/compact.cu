// compact.cu: int32 x[n] -> int32 kept[n] (the non-zero x, in order), uint64 count[1]. The scan's
// single pass (device_compact.cuh) over the keep flags: each tile counts its non-zero items,
// learns how many earlier tiles kept through decoupled look-back, packs its kept items in order
// (while warp 0 looks back) and writes them out as one contiguous, coalesced run. The last tile
// writes the count. Entries of kept at or past the count are left untouched. Two variants ship,
// with the scan's tile shapes: "decoupled_lookback" (4096-item tiles in registers, any GPU) and,
// faster on sm_90 and later, "lookback_bulk" (8192-item tiles in shared memory, moved by Hopper's
// bulk copies). The other designs measured are tunings (tunings/compact_tunings.cu).
#include "device_compact.cuh"

namespace plugbench::cuda::opt {

PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<RegisterTileShape>>(
    "decoupled_lookback",
    "single pass over keep flags with decoupled look-back, kept items packed in shared memory, "
    "coalesced stores")});

// On sm_90 and later, the fastest (unsupported, with the reason, on older GPUs;
// decoupled_lookback runs there).
PLUGBENCH_KERNEL({kernel_entry<DeviceCompact<SharedTileShape, true>>(
    "lookback_bulk",
    "decoupled_lookback with each 8192-item tile (256 x 32) in shared memory, copied in by "
    "Hopper's bulk copies (sm_90+) and packed in place, 6 blocks per SM")});

}  // namespace plugbench::cuda::opt
