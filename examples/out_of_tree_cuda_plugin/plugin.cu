// plugin.cu (example_cuda): the plugin's entry, once per plugin. Its data lives in GPU memory, so
// the SDK's CudaServices provide the memory services (a session per device with its own stream,
// device and pinned memory, copies, CUDA-event timing, the L2 flush, the probe); the kernels
// register themselves in reduce.cu and scan.cu.
#include <plugbench/cuda_services.cuh>

PLUGBENCH_PLUGIN(plugbench::cuda::CudaServices,
                 {.name = "example_cuda",
                  .version = "1.0.0",
                  .description = "the out-of-tree CUDA example: reduce and scan on one GPU",
                  .memory_space = PB_MEMORY_DEVICE,
                  .build_info = plugbench::cuda::cuda_build_info()});
