// histogram.cu: 256-bin histogram of uint8 pixels as in the seed's lecture: every thread adds to
// the global counts with atomics, or each block counts in shared memory and adds its 256 counts
// once. Grid-stride loops, 8 blocks of 256 threads per SM.
#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include "block_threads.cuh"

#include <cstdint>
#include <string>

namespace {

constexpr unsigned kBins = 256;
using plugbench::cuda_naive::kThreads;
constexpr unsigned kBlocksPerSm = 8;

using plugbench::cuda::global_thread_index;
using plugbench::cuda::grid_stride;

__global__ void histogram_global_kernel(const uint8_t* pixels, uint64_t n, uint32_t* counts) {
  for (uint64_t i = global_thread_index(); i < n; i += grid_stride()) {
    atomicAdd(&counts[pixels[i]], 1u);
  }
}

__global__ void histogram_shared_kernel(const uint8_t* pixels, uint64_t n, uint32_t* counts) {
  __shared__ uint32_t local[kBins];
  for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (uint64_t i = global_thread_index(); i < n; i += grid_stride()) {
    atomicAdd(&local[pixels[i]], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x) {
    if (local[b] > 0) atomicAdd(&counts[b], local[b]);
  }
}

template <class Kernel>
void histogram_with(plugbench::sdk::Call& call, Kernel kernel) {
  if (call.problem().bins != kBins) {
    throw plugbench::sdk::unsupported("histogram: only 256 bins (one per uint8 value), not " +
                                      std::to_string(call.problem().bins));
  }
  const auto& session = call.session<plugbench::cuda::CudaServices>();
  cudaStream_t stream = session.stream();
  uint32_t* counts = call.output<uint32_t>(0);
  PB_CUDA_CHECK(cudaMemsetAsync(counts, 0, kBins * sizeof(uint32_t), stream));
  const uint64_t n = call.n();
  if (n == 0) return;
  const uint64_t resident =
      static_cast<uint64_t>(session.properties().multiProcessorCount) * kBlocksPerSm;
  const unsigned blocks = plugbench::cuda::grid_for(n, kThreads, resident);
  kernel<<<blocks, kThreads, 0, stream>>>(call.input<uint8_t>(0), n, counts);
  PB_CUDA_CHECK_LAUNCH();
}

void histogram_global_atomics(plugbench::sdk::Call& call) {
  histogram_with(call, histogram_global_kernel);
}

void histogram_shared_atomics(plugbench::sdk::Call& call) {
  histogram_with(call, histogram_shared_kernel);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "global_atomics",
                  .description = "one atomicAdd on the global counts per pixel (contended on "
                                 "flat images)",
                  .run = histogram_global_atomics});
PLUGBENCH_KERNEL({.workload = "histogram",
                  .variant = "shared_atomics",
                  .description = "per-block histogram in shared memory, merged with one "
                                 "atomicAdd per bin and block",
                  .run = histogram_shared_atomics});
