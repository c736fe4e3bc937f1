// plugin.cu: the cub plugin: CUB's device-wide algorithms on the session's stream, temporary
// storage sized by the two-phase query and handed in as the workspace. CUB has no Mandelbrot.
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

PLUGBENCH_PLUGIN(plugbench::cuda::CudaServices,
                 {.name = "cub",
                  .version = "1.0.0",
                  .description = "CUB device-wide algorithms (DeviceReduce, DeviceHistogram, "
                                 "DeviceScan, DeviceSelect, DeviceRadixSort), temp storage "
                                 "allocated outside the timed region",
                  .memory_space = PB_MEMORY_DEVICE,
                  .build_info = plugbench::cuda::cuda_build_info()});
