// plugin.cu: the cuda_optimized plugin's table: hand-written CUDA tuned for Hopper (H200), one file
// per workload beside this one, sharing the SDK's CUDA services (plugbench/cuda_services.cuh).
// A build with -DPLUGBENCH_TUNINGS=ON adds the tunings (tunings/); build_info's "tunings" says
// whether this one has them.
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <string>
#include <utility>
#include <vector>

namespace {

#if PLUGBENCH_CUDA_OPTIMIZED_TUNINGS
constexpr const char* kTunings = "on";
#else
constexpr const char* kTunings = "off";
#endif

std::vector<std::pair<std::string, std::string>> cuda_optimized_build_info() {
  std::vector<std::pair<std::string, std::string>> info = plugbench::cuda::cuda_build_info();
  info.emplace_back("tunings", kTunings);
  return info;
}

}  // namespace

PLUGBENCH_PLUGIN(
    plugbench::cuda::CudaServices,
    {.name = "cuda_optimized",
     .version = "1.0.0",
     .description = "hand-written CUDA for Hopper: vectorized streaming, warp-private "
                    "histograms, single-pass decoupled look-back scans, onesweep radix "
                    "sort, unrolled Mandelbrot",
     .memory_space = PB_MEMORY_DEVICE,
     .build_info = cuda_optimized_build_info()});
