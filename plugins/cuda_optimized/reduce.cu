// reduce.cu: int32 x[n] -> int64 sum[1]. One streaming pass: a grid of 8 blocks of 256 threads per
// multiprocessor strides over x in 16-byte loads (4 in flight per thread), sums in 64 bits, reduces
// each block with warp shuffles and adds the block's total to the zeroed output with one 64-bit
// atomic. Integer addition is associative, so the atomics leave the result deterministic.
#include "block_reduce.cuh"
#include "launch_config.cuh"
#include "thread_memory.cuh"

namespace plugbench::cuda::opt {
namespace {

constexpr int kReduceThreads = 256;
constexpr int kReduceBlocksPerSm = 8;
constexpr int kReduceUnroll = 4;  // 16-byte loads in flight per thread and loop trip

__device__ __forceinline__ long long sum_of(uint4 v) {
  return static_cast<long long>(static_cast<int>(v.x)) + static_cast<int>(v.y) +
         static_cast<int>(v.z) + static_cast<int>(v.w);
}

// Agent: one thread's share of the grid-stride loop, as a 64-bit partial sum.
__device__ __forceinline__ long long thread_partial_sum(const int* __restrict__ x, uint64_t n) {
  const uint4* vectors = reinterpret_cast<const uint4*>(x);
  const uint64_t vector_count = n / 4;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * kReduceThreads;
  uint64_t i = static_cast<uint64_t>(blockIdx.x) * kReduceThreads + threadIdx.x;
  long long sum = 0;
  for (; i + (kReduceUnroll - 1) * stride < vector_count; i += kReduceUnroll * stride) {
    uint4 v[kReduceUnroll];
#pragma unroll
    for (int u = 0; u < kReduceUnroll; ++u) v[u] = load_readonly(vectors + i + u * stride);
#pragma unroll
    for (int u = 0; u < kReduceUnroll; ++u) sum += sum_of(v[u]);
  }
  for (; i < vector_count; i += stride) sum += sum_of(load_readonly(vectors + i));
  // The last n % 4 elements, one per thread of block 0.
  const uint64_t tail = n - vector_count * 4;
  if (blockIdx.x == 0 && threadIdx.x < tail) sum += x[vector_count * 4 + threadIdx.x];
  return sum;
}

__global__ void __launch_bounds__(kReduceThreads, kReduceBlocksPerSm)
    reduce_kernel(const int* __restrict__ x, uint64_t n, unsigned long long* __restrict__ sum) {
  using Reduce = BlockReduce<kReduceThreads, long long>;
  __shared__ Reduce::Storage storage;
  const long long block_sum = Reduce::sum(thread_partial_sum(x, n), storage);
  // Two's complement: adding the unsigned image of a negative total wraps to the right answer.
  if (threadIdx.x == 0) atomicAdd(sum, static_cast<unsigned long long>(block_sum));
}

// Device entry.
void reduce_vectorized(sdk::Call& call) {
  CudaServices& services = services_of(call);
  const cudaStream_t stream = services.stream();
  const uint64_t n = call.n();
  const int* x = call.input<int>(0);
  auto* sum = call.output<unsigned long long>(0);
  PB_CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(unsigned long long), stream));
  if (n == 0) return;
  require_aligned(x, "x");
  const unsigned grid = grid_for(services, kReduceBlocksPerSm, div_up(n / 4, kReduceThreads));
  reduce_kernel<<<grid, kReduceThreads, 0, stream>>>(x, n, sum);
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace
}  // namespace plugbench::cuda::opt

PLUGBENCH_KERNEL({.workload = "reduce",
                  .variant = "vectorized",
                  .description = "16-byte loads, 64-bit per-thread sums, warp shuffles, one "
                                 "atomic per block",
                  .run = plugbench::cuda::opt::reduce_vectorized});
