// histogram.cu: uint8 pixels[n] -> uint32 counts[256], with warp-private histograms in shared
// memory (device_histogram.cuh).
#include "device_histogram.cuh"

PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "warp_privatized",
                  .description = "per-warp shared-memory histograms, 16-byte loads, flat vectors "
                                 "counted with one atomic",
                  .run = plugbench::cuda::opt::histogram_warp_privatized<1>});

// Sub-histograms per warp, the usual cure for atomics that collide on one address, made slower
// on the photo image (2^30: 0.465 ms against 0.315 with one copy; flat unchanged): its shared
// atomics wait on bank conflicts between different bins, not on equal bins, and more copies turn
// equal bins into different addresses (docs/performance.md, histogram round 2). The 2-copy
// variant is a tuning (tunings/histogram_tunings.cu).
PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "warp_privatized_4copies",
                  .description = "warp_privatized with 4 sub-histograms per warp (lane mod 4), "
                                 "bank-offset: more copies, more bank conflicts",
                  .run = plugbench::cuda::opt::histogram_warp_privatized<4>,
                  .flags = PB_KERNEL_OPT_IN});
