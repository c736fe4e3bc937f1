// plugin.cu: the thrust plugin: what a typical Thrust user writes for each workload, on the
// session's stream with cached temporary storage.
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

PLUGBENCH_PLUGIN(plugbench::cuda::CudaServices,
                 {.name = "thrust",
                  .version = "1.0.0",
                  .description = "Thrust algorithms (reduce, inner_product, sort, exclusive_scan, "
                                 "copy_if, transform) with a caching temporary allocator",
                  .memory_space = PB_MEMORY_DEVICE,
                  .build_info = plugbench::cuda::cuda_build_info()});
