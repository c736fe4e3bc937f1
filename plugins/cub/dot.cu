// dot.cu: float dot product with cub::DeviceReduce::TransformReduce: the products x[i] * y[i] of
// a counting iterator, summed in float by CUB's reduction; a one-thread kernel widens the float
// result to the double output.
#include "cub_session.cuh"

#include <plugbench/cuda/launch.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <cstdint>

namespace plugbench::cub_plugin {
namespace {

namespace thrust = THRUST_NS_QUALIFIER;

// The kernel's own float result sits in the first 256 bytes of the workspace, CUB's after it.
constexpr uint64_t kResultBytes = 256;

struct Product {
  const float* x;
  const float* y;
  __host__ __device__ float operator()(uint32_t i) const { return x[i] * y[i]; }
};

__global__ void widen_kernel(const float* result, double* dot) {
  *dot = *result;
}

cudaError_t device_dot(void* storage, size_t& bytes, const float* x, const float* y, float* result,
                       uint64_t n, cudaStream_t stream) {
  return cub::DeviceReduce::TransformReduce(storage, bytes, thrust::counting_iterator<uint32_t>(0),
                                            result, item_count(n), ::cuda::std::plus<float>{},
                                            Product{x, y}, 0.0f, stream);
}

uint64_t dot_workspace(void* session, const pb_problem& problem) {
  if (problem.n == 0) return 0;
  return kResultBytes + query_temp_storage(session, "cub::DeviceReduce::TransformReduce",
                                           [&](void* storage, size_t& bytes, cudaStream_t stream) {
                                             return device_dot(storage, bytes, nullptr, nullptr,
                                                               nullptr, problem.n, stream);
                                           });
}

void dot_library(sdk::Call& call) {
  cudaStream_t stream = call.session<cuda::CudaServices>().stream();
  double* dot = call.output<double>(0);
  if (call.n() == 0) {
    PB_CUDA_CHECK(cudaMemsetAsync(dot, 0, sizeof(double), stream));  // +0.0 is all zero bits
    return;
  }
  auto* result = call.workspace<float>();
  run_with_temp_storage(
      call, "cub::DeviceReduce::TransformReduce",
      [&](void* storage, size_t& bytes, cudaStream_t on) {
        return device_dot(storage, bytes, call.input<float>(0), call.input<float>(1), result,
                          call.n(), on);
      },
      kResultBytes);
  widen_kernel<<<1, 1, 0, stream>>>(result, dot);
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "library",
                  .description = "cub::DeviceReduce::TransformReduce of x[i] * y[i] in float",
                  .run = dot_library,
                  .workspace = dot_workspace,
                  .max_n = kMaxItems});

}  // namespace plugbench::cub_plugin
