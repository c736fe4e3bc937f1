// plugin.cu: the cuda_naive plugin: the textbook CUDA kernels of the seeds, one file per workload.
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

PLUGBENCH_PLUGIN(plugbench::cuda::CudaServices,
                 {.name = "cuda_naive",
                  .version = "1.0.0",
                  .description = "textbook CUDA kernels from the seeds: shared-memory trees, "
                                 "atomics, Hillis-Steele and Blelloch scans, split radix sort",
                  .memory_space = PB_MEMORY_DEVICE,
                  .build_info = plugbench::cuda::cuda_build_info()});
