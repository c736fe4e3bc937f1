// histogram.cu: the Thrust idiom for a dense histogram: sort a copy of the pixels, find where each
// bin's run ends (upper_bound of 0..255), and take differences of those ends.
#include "thrust_session.cuh"

#include <plugbench/cuda/launch.cuh>
#include <plugbench/plugin_sdk.hpp>

#include <thrust/adjacent_difference.h>
#include <thrust/binary_search.h>
#include <thrust/device_ptr.h>
#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sort.h>

#include <cstdint>
#include <string>

namespace plugbench::thrust_plugin {
namespace {

constexpr uint32_t kBins = 256;

// Workspace: the sorted copy of the pixels, then the bins' cumulative counts.
uint64_t histogram_workspace(void*, const pb_problem& problem) {
  return cuda::align_up(problem.n) + kBins * sizeof(uint32_t);
}

void histogram_sort_search(sdk::Call& call) {
  if (call.problem().bins != kBins) {
    throw sdk::unsupported("histogram: only 256 bins (one per uint8 value), not " +
                           std::to_string(call.problem().bins));
  }
  auto policy = session_policy(call);
  cudaStream_t stream = call.session<cuda::CudaServices>().stream();
  const uint64_t n = call.n();
  const auto counts = thrust::device_pointer_cast(call.output<uint32_t>(0));
  if (n == 0) {
    thrust::fill_n(policy, counts, kBins, 0u);
    return;
  }
  auto* workspace = call.workspace<unsigned char>();
  const auto sorted = thrust::device_pointer_cast(reinterpret_cast<uint8_t*>(workspace));
  const auto ends =
      thrust::device_pointer_cast(reinterpret_cast<uint32_t*>(workspace + cuda::align_up(n)));
  PB_CUDA_CHECK(
      cudaMemcpyAsync(sorted.get(), call.input<uint8_t>(0), n, cudaMemcpyDeviceToDevice, stream));
  thrust::sort(policy, sorted, sorted + n);
  // ends[b] = number of pixels <= b; the counts are the differences of consecutive ends.
  thrust::upper_bound(policy, sorted, sorted + n, thrust::counting_iterator<uint32_t>(0),
                      thrust::counting_iterator<uint32_t>(kBins), ends);
  thrust::adjacent_difference(policy, ends, ends + kBins, counts);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "sort_search",
                  .description = "thrust::sort of a copy, upper_bound of each bin value, "
                                 "adjacent_difference",
                  .run = histogram_sort_search,
                  .flags = PB_KERNEL_ALLOCATES,
                  .workspace = histogram_workspace});

}  // namespace plugbench::thrust_plugin
