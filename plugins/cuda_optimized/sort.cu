// sort.cu: the radix sort's variants (device_sort.cuh). Shipped: "onesweep", the warp match in
// ballots folded in PTX, in tiles of 256 threads sized by the problem (sized_shape): 16 keys a
// thread at 6 blocks an SM below half a wave of those tiles, 32 keys at 3 from four waves of
// those, 24 keys at 3 between. On an H100, paired over rounds, six distributions: never slower
// than 24-key tiles at every size, 1.23-1.32x their speed at 2^16, 1.03-1.13x at 2^28
// (lab/performance-log.md). The opt-in variants here each change one thing of its 24-key tiles,
// to show why they are as they are (README.md); the other designs measured are tunings
// (tunings/sort_tunings.cu).
#include "device_sort.cuh"

namespace plugbench::cuda::opt {

PLUGBENCH_KERNEL({kernel_entry<DeviceSortSized<OnesweepShape<16, 6, MatchStyle::kPredicatedNot>,
                                               OnesweepMiddleTile<MatchStyle::kPredicatedNot>,
                                               OnesweepShape<32, 3, MatchStyle::kPredicatedNot>>>(
    "onesweep",
    "LSD radix, 8-bit digits: one histogram pass, then one kernel per digit with warp-match "
    "ranking and decoupled look-back, in tiles sized by the problem")});

// The 24-key tiles with the warp match folded in C++ (warp_match.cuh, MatchStyle::kSelect): nvcc
// tests each digit bit twice and selects, 7 instructions a bit against 4, and the issue-bound
// ranking is about a fifth slower (uniform 2^28: 6.37 ms against 5.14; docs/performance.md).
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepMiddleTile<MatchStyle::kSelect>>>(
    "onesweep_select_match",
    "onesweep's 24-key tiles whose warp match folds each ballot with a select (7 instructions "
    "a digit bit against 4)",
    PB_KERNEL_OPT_IN)});

}  // namespace plugbench::cuda::opt
