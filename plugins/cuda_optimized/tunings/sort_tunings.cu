// sort_tunings.cu: the sort's tunings, built with -DPLUGBENCH_TUNINGS=ON: opt-in, run when named
// (-v cuda_optimized/onesweep_atomic_or_match).
#include "device_sort.cuh"

namespace plugbench::cuda::opt {

// The peers of a digit found through shared words (warp_match.cuh, MatchStyle::kAtomicOr) instead
// of ballots: a third fewer instructions, but the L1/shared pipe, busy already with the early
// counts and the tile's scatter, becomes the bound, and equal keys serialize on one word (H100,
// 2^28: uniform 5.81 ms against 5.31, equal 6.65 against 4.49; lab/performance-log.md).
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShippedTile<MatchStyle::kAtomicOr>>>(
    "onesweep_atomic_or_match",
    "onesweep whose warp match sets and reads a shared word per digit (atomic or) instead of 8 "
    "ballots",
    PB_KERNEL_OPT_IN)});

}  // namespace plugbench::cuda::opt
