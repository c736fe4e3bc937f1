// sort.cu: uint32 ascending with cub::DeviceRadixSort::SortKeys, input to output (CUB keeps the
// alternate key buffer in its temporary storage).
#include "cub_session.cuh"

#include <plugbench/plugin_sdk.hpp>

#include <cub/device/device_radix_sort.cuh>

#include <cstdint>

namespace plugbench::cub_plugin {
namespace {

cudaError_t device_sort(void* storage, size_t& bytes, const uint32_t* in, uint32_t* out, uint64_t n,
                        cudaStream_t stream) {
  return cub::DeviceRadixSort::SortKeys(storage, bytes, in, out, item_count(n), 0, 32, stream);
}

uint64_t sort_workspace(void* session, const pb_problem& problem) {
  if (problem.n == 0) return 0;
  return query_temp_storage(session, "cub::DeviceRadixSort::SortKeys",
                            [&](void* storage, size_t& bytes, cudaStream_t stream) {
                              return device_sort(storage, bytes, nullptr, nullptr, problem.n,
                                                 stream);
                            });
}

void sort_library(sdk::Call& call) {
  if (call.n() == 0) return;
  run_with_temp_storage(call, "cub::DeviceRadixSort::SortKeys",
                        [&](void* storage, size_t& bytes, cudaStream_t stream) {
                          return device_sort(storage, bytes, call.input<uint32_t>(0),
                                             call.output<uint32_t>(0), call.n(), stream);
                        });
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "library",
                  .description = "cub::DeviceRadixSort::SortKeys, all 32 bits",
                  .run = sort_library,
                  .workspace = sort_workspace,
                  .max_n = kMaxItems});

}  // namespace plugbench::cub_plugin
