// reduce.cu: int32 -> int64 sum as in the seed's lecture: a shared-memory tree per block of 256
// threads, one atomicAdd per block into the output; interleaved vs sequential addressing.
#include <plugbench/cuda/launch.cuh>
#include <plugbench/cuda_services.cuh>
#include <plugbench/plugin_sdk.hpp>

#include "block_threads.cuh"

#include <cstdint>

namespace {

using plugbench::cuda_naive::kThreads;

// Interleaved addressing: at step `step` the threads whose index is a multiple of 2 * step add;
// the rest of each warp idles, and the modulo is slow.
__global__ void reduce_interleaved_kernel(const int32_t* in, uint64_t n,
                                          unsigned long long* total) {
  __shared__ long long partial[kThreads];
  const unsigned tid = threadIdx.x;
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * kThreads + tid;
  partial[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned step = 1; step < kThreads; step *= 2) {
    if (tid % (2 * step) == 0) partial[tid] += partial[tid + step];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(total, static_cast<unsigned long long>(partial[0]));
}

// Sequential addressing: threads 0 .. step-1 add, so whole warps stay busy or idle together; each
// thread adds two elements while loading.
__global__ void reduce_sequential_kernel(const int32_t* in, uint64_t n, unsigned long long* total) {
  __shared__ long long partial[kThreads];
  const unsigned tid = threadIdx.x;
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * (2 * kThreads) + tid;
  long long sum = i < n ? in[i] : 0;
  if (i + kThreads < n) sum += in[i + kThreads];
  partial[tid] = sum;
  __syncthreads();
  for (unsigned step = kThreads / 2; step > 0; step /= 2) {
    if (tid < step) partial[tid] += partial[tid + step];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(total, static_cast<unsigned long long>(partial[0]));
}

// The int64 total wraps modulo 2^64 through the unsigned atomics, as two's complement requires.
template <class Kernel>
void reduce_with(plugbench::sdk::Call& call, Kernel kernel, uint64_t per_block) {
  cudaStream_t stream = call.session<plugbench::cuda::CudaServices>().stream();
  const uint64_t n = call.n();
  auto* total = reinterpret_cast<unsigned long long*>(call.output<int64_t>(0));
  PB_CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(*total), stream));
  if (n == 0) return;
  const unsigned blocks = plugbench::cuda::exact_grid(n, per_block);
  kernel<<<blocks, kThreads, 0, stream>>>(call.input<int32_t>(0), n, total);
  PB_CUDA_CHECK_LAUNCH();
}

void reduce_interleaved(plugbench::sdk::Call& call) {
  reduce_with(call, reduce_interleaved_kernel, kThreads);
}

void reduce_sequential(plugbench::sdk::Call& call) {
  reduce_with(call, reduce_sequential_kernel, 2 * kThreads);
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "interleaved",
                  .description = "shared-memory tree, interleaved addressing (divergent warps), "
                                 "one atomicAdd per block",
                  .run = reduce_interleaved});
PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "sequential",
                  .description = "shared-memory tree, sequential addressing, two loads per "
                                 "thread, one atomicAdd per block",
                  .run = reduce_sequential});
