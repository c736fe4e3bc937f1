// mandelbrot.cu: escape-time iterations with thrust::transform over the pixel indices, the same
// per-pixel float arithmetic as the other CUDA plugins.
#include "thrust_session.cuh"

#include <plugbench/cuda/mandelbrot.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <thrust/device_ptr.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cstdint>

namespace plugbench::thrust_plugin {
namespace {

struct PixelIterations {
  cuda::MandelbrotView view;
  __device__ int32_t operator()(uint64_t pixel) const {
    const auto width = static_cast<uint64_t>(view.width);
    return cuda::mandelbrot_iterations(view, static_cast<int>(pixel % width),
                                       static_cast<int>(pixel / width));
  }
};

void mandelbrot_transform(sdk::Call& call) {
  const cuda::MandelbrotView view = cuda::mandelbrot_view(call.problem());
  const uint64_t pixels = static_cast<uint64_t>(view.width) * static_cast<uint64_t>(view.height);
  if (pixels == 0) return;
  const auto iterations = thrust::device_pointer_cast(call.output<int32_t>(0));
  thrust::transform(session_policy(call), thrust::counting_iterator<uint64_t>(0),
                    thrust::counting_iterator<uint64_t>(pixels), iterations, PixelIterations{view});
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "mandelbrot",
                  .variant = "transform",
                  .description = "thrust::transform of a counting_iterator over the pixels",
                  .run = mandelbrot_transform});

}  // namespace plugbench::thrust_plugin
