// histogram_tunings.cu: the histogram's tunings, built with -DPLUGBENCH_TUNINGS=ON: opt-in, run
// when named (-v cuda_optimized/warp_privatized_2copies). Two sub-histograms per warp: between the
// shipped one and warp_privatized_4copies, and slower than one on the photo image (2^30: 0.379 ms
// against 0.315; docs/performance.md, histogram round 2).
#include "device_histogram.cuh"

PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "warp_privatized_2copies",
                  .description = "warp_privatized with 2 sub-histograms per warp (lane parity), "
                                 "bank-offset",
                  .run = plugbench::cuda::opt::histogram_warp_privatized<2>,
                  .flags = PB_KERNEL_OPT_IN});
