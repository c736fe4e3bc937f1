// compact.cu: stream compaction (keep the nonzero int32 in order) as in the seed's course report:
// map each element to a 0/1 flag, exclusive-scan the flags (Blelloch) into output positions,
// scatter the kept elements; the count is the last position plus the last flag.
#include "work_efficient_scan.cuh"

#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include "block_threads.cuh"

#include <cstdint>

namespace {

using plugbench::cuda_naive::kThreads;

using plugbench::cuda::global_thread_index;
using plugbench::cuda::grid_for;
using plugbench::cuda::grid_stride;

// Map: 1 where the element is kept, 0 elsewhere and in the padding.
__global__ void map_nonzero_kernel(const int32_t* x, uint64_t n, uint32_t* flags, uint64_t length) {
  for (uint64_t i = global_thread_index(); i < length; i += grid_stride()) {
    flags[i] = i < n && x[i] != 0 ? 1u : 0u;
  }
}

__global__ void scatter_kernel(const int32_t* x, uint64_t n, const uint32_t* positions,
                               int32_t* kept) {
  for (uint64_t i = global_thread_index(); i < n; i += grid_stride()) {
    if (x[i] != 0) kept[positions[i]] = x[i];
  }
}

__global__ void count_kernel(const int32_t* x, uint64_t n, const uint32_t* positions,
                             uint64_t* count) {
  *count = static_cast<uint64_t>(positions[n - 1]) + (x[n - 1] != 0 ? 1u : 0u);
}

uint64_t compact_workspace(void*, const pb_problem& problem) {
  return plugbench::cuda_naive::padded_scan_length(problem.n) * sizeof(uint32_t);
}

void compact_map_scan_scatter(plugbench::sdk::Call& call) {
  cudaStream_t stream = call.session<plugbench::cuda::CudaServices>().stream();
  const uint64_t n = call.n();
  const int32_t* x = call.input<int32_t>(0);
  int32_t* kept = call.output<int32_t>(0);
  uint64_t* count = call.output<uint64_t>(1);
  if (n == 0) {
    PB_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(uint64_t), stream));
    return;
  }
  const uint64_t length = plugbench::cuda_naive::padded_scan_length(n);
  auto* positions = call.workspace<uint32_t>();
  map_nonzero_kernel<<<grid_for(length, kThreads), kThreads, 0, stream>>>(x, n, positions, length);
  PB_CUDA_CHECK_LAUNCH();
  plugbench::cuda_naive::blelloch_scan_in_place(positions, length, stream);
  scatter_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(x, n, positions, kept);
  PB_CUDA_CHECK_LAUNCH();
  count_kernel<<<1, 1, 0, stream>>>(x, n, positions, count);
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "map_scan_scatter",
                  .description = "0/1 flags, Blelloch exclusive scan into positions, scatter; "
                                 "count from the last position and flag",
                  .run = compact_map_scan_scatter,
                  .workspace = compact_workspace,
                  .max_n = UINT32_MAX});
