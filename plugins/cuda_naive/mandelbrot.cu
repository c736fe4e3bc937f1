// mandelbrot.cu: escape-time iterations as in the seed's lecture: one thread per pixel in 16 x 16
// blocks, the float arithmetic of the seed with the one FMA the contract allows (the SDK's
// plugbench/cuda/mandelbrot.cuh).
#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda/mandelbrot.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <cstdint>
#include <string>

namespace {

constexpr unsigned kTile = 16;
constexpr uint64_t kMaxGridY = 65535;

__global__ void mandelbrot_pixel_kernel(plugbench::cuda::MandelbrotView view, int32_t* iterations) {
  const int x = static_cast<int>(blockIdx.x * kTile + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * kTile + threadIdx.y);
  if (x >= view.width || y >= view.height) return;
  iterations[static_cast<uint64_t>(y) * static_cast<uint64_t>(view.width) + x] =
      plugbench::cuda::mandelbrot_iterations(view, x, y);
}

void mandelbrot_pixel_per_thread(plugbench::sdk::Call& call) {
  cudaStream_t stream = call.session<plugbench::cuda::CudaServices>().stream();
  const plugbench::cuda::MandelbrotView view = plugbench::cuda::mandelbrot_view(call.problem());
  if (view.width == 0 || view.height == 0) return;
  const uint64_t rows_of_blocks = plugbench::cuda::ceil_div(view.height, kTile);
  if (rows_of_blocks > kMaxGridY) {
    throw plugbench::sdk::unsupported("mandelbrot: at most " + std::to_string(kMaxGridY * kTile) +
                                      " rows");
  }
  const dim3 block(kTile, kTile);
  const dim3 grid(plugbench::cuda::exact_grid(view.width, kTile),
                  static_cast<unsigned>(rows_of_blocks));
  mandelbrot_pixel_kernel<<<grid, block, 0, stream>>>(view, call.output<int32_t>(0));
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "pixel_per_thread",
                  .description = "one thread per pixel, 16 x 16 blocks, float iteration",
                  .run = mandelbrot_pixel_per_thread});
