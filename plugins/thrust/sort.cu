// sort.cu: uint32 ascending with thrust::sort (a radix sort for arithmetic keys) on a copy of the
// input in the output buffer.
#include "thrust_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <thrust/device_ptr.h>
#include <thrust/sort.h>

#include <cstdint>

namespace plugbench::thrust_plugin {
namespace {

void sort_library(sdk::Call& call) {
  const uint64_t n = call.n();
  if (n == 0) return;
  cudaStream_t stream = call.session<cuda::CudaServices>().stream();
  uint32_t* out = call.output<uint32_t>(0);
  PB_CUDA_CHECK(cudaMemcpyAsync(out, call.input<uint32_t>(0), n * sizeof(uint32_t),
                                cudaMemcpyDeviceToDevice, stream));
  const auto keys = thrust::device_pointer_cast(out);
  thrust::sort(session_policy(call), keys, keys + n);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "library",
                  .description = "copy into the output, then thrust::sort in place",
                  .run = sort_library,
                  .flags = PB_KERNEL_ALLOCATES});

}  // namespace plugbench::thrust_plugin
