// work_efficient_scan.cu: the up-sweep and down-sweep levels of Blelloch's scan (see the header).
#include "work_efficient_scan.cuh"

#include "block_threads.cuh"

#include <plugbench/cuda/check.cuh>
#include <plugbench/cuda/launch.cuh>

namespace plugbench::cuda_naive {
namespace {

using cuda::global_thread_index;
using cuda::grid_stride;

// One up-sweep level: node k (of `nodes`) adds its left child's sum into its right child's slot.
__global__ void up_sweep_level(uint32_t* buffer, uint64_t half, uint64_t nodes) {
  for (uint64_t k = global_thread_index(); k < nodes; k += grid_stride()) {
    const uint64_t right = (k + 1) * 2 * half - 1;
    buffer[right] += buffer[right - half];
  }
}

// One down-sweep level: the left child gets the parent's prefix, the right child that prefix plus
// the left child's sum.
__global__ void down_sweep_level(uint32_t* buffer, uint64_t half, uint64_t nodes) {
  for (uint64_t k = global_thread_index(); k < nodes; k += grid_stride()) {
    const uint64_t right = (k + 1) * 2 * half - 1;
    const uint32_t left_sum = buffer[right - half];
    buffer[right - half] = buffer[right];
    buffer[right] += left_sum;
  }
}

}  // namespace

uint64_t padded_scan_length(uint64_t n) {
  uint64_t length = n == 0 ? 0 : 1;
  while (length < n) length *= 2;
  return length;
}

void blelloch_scan_in_place(uint32_t* d_buffer, uint64_t length, cudaStream_t stream) {
  if (length == 0) return;
  for (uint64_t half = 1; half < length; half *= 2) {
    const uint64_t nodes = length / (2 * half);
    up_sweep_level<<<cuda::grid_for(nodes, kThreads), kThreads, 0, stream>>>(d_buffer, half, nodes);
    PB_CUDA_CHECK_LAUNCH();
  }
  // The root's slot holds the total; the exclusive scan starts the down-sweep from zero there.
  PB_CUDA_CHECK(cudaMemsetAsync(d_buffer + (length - 1), 0, sizeof(uint32_t), stream));
  for (uint64_t half = length / 2; half >= 1; half /= 2) {
    const uint64_t nodes = length / (2 * half);
    down_sweep_level<<<cuda::grid_for(nodes, kThreads), kThreads, 0, stream>>>(d_buffer, half,
                                                                               nodes);
    PB_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace plugbench::cuda_naive
