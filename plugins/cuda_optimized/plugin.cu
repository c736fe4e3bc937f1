// plugin.cu: the cuda_optimized plugin's table: hand-written CUDA tuned for Hopper (H200), one file
// per workload beside this one, sharing the CUDA services (memory, stream, timer) of cuda_common.
#include "cuda_common/cuda_services.cuh"

#include <plugbench/plugin_sdk.hpp>

PLUGBENCH_PLUGIN(
    plugbench::cuda::CudaServices,
    {.name = "cuda_optimized",
     .version = "1.0.0",
     .description = "hand-written CUDA for Hopper: vectorized streaming, warp-private "
                    "histograms, single-pass decoupled look-back scans, onesweep radix "
                    "sort, unrolled Mandelbrot",
     .memory_space = PB_MEMORY_DEVICE,
     .build_info = plugbench::cuda::cuda_build_info()});
