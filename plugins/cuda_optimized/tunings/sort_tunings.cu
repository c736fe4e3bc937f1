// sort_tunings.cu: the sort's tunings, built with -DPLUGBENCH_TUNINGS=ON: opt-in, run when named
// (-v cuda_optimized/onesweep_atomic_or_match).
#include "device_sort.cuh"

namespace plugbench::cuda::opt {

// The peers of a digit found through shared words (warp_match.cuh, MatchStyle::kAtomicOr) instead
// of ballots: a third fewer instructions, but the L1/shared pipe, busy already with the early
// counts and the tile's scatter, becomes the bound, and equal keys serialize on one word (H100,
// 2^28: uniform 5.81 ms against 5.31, equal 6.65 against 4.49; lab/performance-log.md).
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepMiddleTile<MatchStyle::kAtomicOr>>>(
    "onesweep_atomic_or_match",
    "onesweep's 24-key tiles whose warp match sets and reads a shared word per digit (atomic or) "
    "instead of 8 ballots",
    PB_KERNEL_OPT_IN)});

// Tile shapes (keys a thread x blocks an SM) around 24x3 (80 registers, 36.7 % of an SM's warps),
// none spilling. H100, one run, paired over rounds (lab/results/h100/sort-shapes-17523b5/), each
// against 24x3: more warps helped only in part, 24x4 0.95-0.98x its time at 2^24 but 1.11x on
// uniform keys at 2^28. Larger tiles did better at large sizes, 32x3 0.93-0.95x at 2^28 (fewer
// look-backs, longer digit runs to write), but 1.07-1.16x at 2^16-2^20, where 16x6's smaller tiles
// give the SMs more blocks (0.75-0.80x at 2^16, 0.94-0.98x at 2^20, 1.03-1.23x at 2^28): the
// shipped sort takes each where it wins (sized_shape, device_sort.cuh).
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

// 9216-key tiles (36 keys a thread: 46,116 bytes of static shared memory, of the 48 KiB a block
// may have; 38 would fit, 40 would not), at 3 blocks an SM (80 registers: 32 bytes spill) and at
// 2 (111 registers, none spilled). H100, paired over rounds against 24x3 (lab/performance-log.md):
// 36x3 1.05-1.10x its speed at 2^28 and 36x2 1.00-1.09x, each short of 32x3 in the same run, and
// 0.76-0.92x at 2^16-2^22.
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShape<36, 3, kShippedMatch>>>(
    "onesweep_36x3", "onesweep, 36 keys a thread, 3 blocks an SM (80 registers)",
    PB_KERNEL_OPT_IN)});
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShape<36, 2, kShippedMatch>>>(
    "onesweep_36x2", "onesweep, 36 keys a thread, 2 blocks an SM (up to 128 registers)",
    PB_KERNEL_OPT_IN)});

// The shipped sort's middle shape alone at every size: what onesweep's choice of shape by size
// is measured against.
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepMiddleTile<kShippedMatch>>>(
    "onesweep_24x3", "onesweep in 24-key tiles at 3 blocks an SM at every size (80 registers)",
    PB_KERNEL_OPT_IN)});

}  // namespace plugbench::cuda::opt
