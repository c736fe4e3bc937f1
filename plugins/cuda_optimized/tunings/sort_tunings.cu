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

// Tile shapes (keys a thread x blocks an SM) around the shipped 24x3, whose pass is latency-bound
// with 36.7 % of an SM's warps active (80 registers): more blocks an SM hide more latency if the
// registers they cap (65536 / (256 x blocks)) hold a thread's keys without spilling.
constexpr MatchStyle kShippedMatch = MatchStyle::kPredicatedNot;

PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShape<24, 4, kShippedMatch>>>(
    "onesweep_24x4", "onesweep, 24 keys a thread, 4 blocks an SM (64 registers)",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShape<20, 4, kShippedMatch>>>(
    "onesweep_20x4", "onesweep, 20 keys a thread, 4 blocks an SM (64 registers)",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShape<16, 5, kShippedMatch>>>(
    "onesweep_16x5", "onesweep, 16 keys a thread, 5 blocks an SM (48 registers)",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShape<16, 6, kShippedMatch>>>(
    "onesweep_16x6", "onesweep, 16 keys a thread, 6 blocks an SM (40 registers)",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShape<32, 3, kShippedMatch>>>(
    "onesweep_32x3", "onesweep, 32 keys a thread, 3 blocks an SM (80 registers)",
    PB_KERNEL_OPT_IN)});

}  // namespace plugbench::cuda::opt
