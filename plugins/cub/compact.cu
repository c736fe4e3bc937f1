// compact.cu: keep the nonzero int32 in order with cub::DeviceSelect::If; CUB writes the count of
// kept elements straight into the uint64 output.
#include "cub_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <cub/device/device_select.cuh>

#include <cstdint>

namespace plugbench::cub_plugin {
namespace {

struct NonZero {
  __host__ __device__ bool operator()(int32_t value) const { return value != 0; }
};

cudaError_t device_select(void* storage, size_t& bytes, const int32_t* in, int32_t* kept,
                          uint64_t* count, uint64_t n, cudaStream_t stream) {
  return cub::DeviceSelect::If(storage, bytes, in, kept, count, static_cast<int64_t>(n), NonZero{},
                               stream);
}

uint64_t compact_workspace(void* session, const pb_problem& problem) {
  if (problem.n == 0) return 0;
  return query_temp_storage(
      session, "cub::DeviceSelect::If", [&](void* storage, size_t& bytes, cudaStream_t stream) {
        return device_select(storage, bytes, nullptr, nullptr, nullptr, problem.n, stream);
      });
}

void compact_library(sdk::Call& call) {
  uint64_t* count = call.output<uint64_t>(1);
  if (call.n() == 0) {
    PB_CUDA_CHECK(
        cudaMemsetAsync(count, 0, sizeof(uint64_t), call.session<cuda::CudaServices>().stream()));
    return;
  }
  run_with_temp_storage(call, "cub::DeviceSelect::If",
                        [&](void* storage, size_t& bytes, cudaStream_t stream) {
                          return device_select(storage, bytes, call.input<int32_t>(0),
                                               call.output<int32_t>(0), count, call.n(), stream);
                        });
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "library",
                  .description = "cub::DeviceSelect::If with a nonzero predicate",
                  .run = compact_library,
                  .workspace = compact_workspace});

}  // namespace plugbench::cub_plugin
