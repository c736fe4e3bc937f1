// reduce.cu: int32 -> int64 sum with cub::DeviceReduce::Sum straight into the int64 output (the
// output type sets CUB's initial value and so its accumulator: int64).
#include "cub_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <cub/device/device_reduce.cuh>

#include <cstdint>

namespace plugbench::cub_plugin {
namespace {

cudaError_t device_sum(void* storage, size_t& bytes, const int32_t* in, int64_t* sum, uint64_t n,
                       cudaStream_t stream) {
  return cub::DeviceReduce::Sum(storage, bytes, in, sum, item_count(n), stream);
}

uint64_t reduce_workspace(void* session, const pb_problem& problem) {
  if (problem.n == 0) return 0;
  return query_temp_storage(
      session, "cub::DeviceReduce::Sum", [&](void* storage, size_t& bytes, cudaStream_t stream) {
        return device_sum(storage, bytes, nullptr, nullptr, problem.n, stream);
      });
}

void reduce_library(sdk::Call& call) {
  int64_t* sum = call.output<int64_t>(0);
  if (call.n() == 0) {
    PB_CUDA_CHECK(
        cudaMemsetAsync(sum, 0, sizeof(int64_t), call.session<cuda::CudaServices>().stream()));
    return;
  }
  run_with_temp_storage(
      call, "cub::DeviceReduce::Sum", [&](void* storage, size_t& bytes, cudaStream_t stream) {
        return device_sum(storage, bytes, call.input<int32_t>(0), sum, call.n(), stream);
      });
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "library",
                  .description = "cub::DeviceReduce::Sum into the int64 output",
                  .run = reduce_library,
                  .workspace = reduce_workspace,
                  .max_n = kMaxItems});

}  // namespace plugbench::cub_plugin
