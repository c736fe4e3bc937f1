// sort.cu: the radix sort's variants (device_sort.cuh). Shipped: "onesweep", 6144-key tiles (256
// threads x 24 keys), 3 blocks an SM, the warp match in ballots folded in PTX. The opt-in variants
// here each change one thing of it, to show why it is as it is (README.md); the other designs
// measured are tunings (tunings/sort_tunings.cu).
#include "device_sort.cuh"

namespace plugbench::cuda::opt {

PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShippedTile<MatchStyle::kPredicatedNot>>>(
    "onesweep",
    "LSD radix, 8-bit digits: one histogram pass, then one kernel per digit with warp-match "
    "ranking and decoupled look-back")});

// The same kernel with the warp match folded in C++ (warp_match.cuh, MatchStyle::kSelect): nvcc
// tests each digit bit twice and selects, 7 instructions a bit against 4, and the issue-bound
// ranking is about a fifth slower (uniform 2^28: 6.37 ms against 5.14; docs/performance.md).
PLUGBENCH_KERNEL({kernel_entry<DeviceSort<OnesweepShippedTile<MatchStyle::kSelect>>>(
    "onesweep_select_match",
    "onesweep whose warp match folds each ballot with a select (7 instructions a digit bit "
    "against 4)",
    PB_KERNEL_OPT_IN)});

}  // namespace plugbench::cuda::opt
