// dot.cu: float x[n], float y[n] -> double dot[1]. Products are taken in float and summed in float
// only four at a time (one 16-byte vector of each input); everything above that is double: each
// thread's running sum, the block's reduction and the final pass over the per-block partials. The
// second pass is a single block that adds the partials in a fixed order, so the result is the
// same bit for bit on every run (no floating-point atomics).
#include "block_reduce.cuh"
#include "launch_config.cuh"
#include "thread_memory.cuh"

namespace plugbench::cuda::opt {
namespace {

constexpr int kDotThreads = 256;
constexpr int kDotBlocksPerSm = 4;
constexpr int kDotUnroll = 4;  // 16-byte loads of each input in flight per thread and loop trip
constexpr int kFinishThreads = 256;

__device__ __forceinline__ double dot_of(float4 a, float4 b) {
  return static_cast<double>(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
}

// Agent: one thread's share of the grid-stride loop, in double.
__device__ __forceinline__ double thread_partial_dot(const float* __restrict__ x,
                                                     const float* __restrict__ y, uint64_t n) {
  const float4* xv = reinterpret_cast<const float4*>(x);
  const float4* yv = reinterpret_cast<const float4*>(y);
  const uint64_t vector_count = n / 4;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * kDotThreads;
  uint64_t i = static_cast<uint64_t>(blockIdx.x) * kDotThreads + threadIdx.x;
  double sum = 0;
  for (; i + (kDotUnroll - 1) * stride < vector_count; i += kDotUnroll * stride) {
    float4 a[kDotUnroll];
    float4 b[kDotUnroll];
#pragma unroll
    for (int u = 0; u < kDotUnroll; ++u) {
      a[u] = load_readonly(xv + i + u * stride);
      b[u] = load_readonly(yv + i + u * stride);
    }
#pragma unroll
    for (int u = 0; u < kDotUnroll; ++u) sum += dot_of(a[u], b[u]);
  }
  for (; i < vector_count; i += stride) sum += dot_of(load_readonly(xv + i), load_readonly(yv + i));
  const uint64_t tail = n - vector_count * 4;
  if (blockIdx.x == 0 && threadIdx.x < tail) {
    const uint64_t k = vector_count * 4 + threadIdx.x;
    sum += static_cast<double>(x[k] * y[k]);
  }
  return sum;
}

__global__ void __launch_bounds__(kDotThreads, kDotBlocksPerSm)
    dot_partials_kernel(const float* __restrict__ x, const float* __restrict__ y, uint64_t n,
                        double* __restrict__ partials) {
  using Reduce = BlockReduce<kDotThreads, double>;
  __shared__ Reduce::Storage storage;
  const double block_sum = Reduce::sum(thread_partial_dot(x, y, n), storage);
  if (threadIdx.x == 0) partials[blockIdx.x] = block_sum;
}

__global__ void __launch_bounds__(kFinishThreads)
    dot_finish_kernel(const double* __restrict__ partials, unsigned count,
                      double* __restrict__ dot) {
  using Reduce = BlockReduce<kFinishThreads, double>;
  __shared__ Reduce::Storage storage;
  double sum = 0;
  for (unsigned i = threadIdx.x; i < count; i += kFinishThreads) sum += partials[i];
  sum = Reduce::sum(sum, storage);
  if (threadIdx.x == 0) *dot = sum;
}

unsigned dot_grid(const CudaServices& services, uint64_t n) {
  return grid_for(services, kDotBlocksPerSm, div_up(n / 4, kDotThreads));
}

uint64_t dot_workspace(void* session, const pb_problem& problem) {
  return uint64_t{dot_grid(services_of(session), problem.n)} * sizeof(double);
}

// Device entry.
void dot_vectorized(sdk::Call& call) {
  CudaServices& services = services_of(call);
  const cudaStream_t stream = services.stream();
  const uint64_t n = call.n();
  const float* x = call.input<float>(0);
  const float* y = call.input<float>(1);
  auto* dot = call.output<double>(0);
  if (n == 0) {
    PB_CUDA_CHECK(cudaMemsetAsync(dot, 0, sizeof(double), stream));  // +0.0 is all zero bits
    return;
  }
  require_aligned(x, "x");
  require_aligned(y, "y");
  const unsigned grid = dot_grid(services, n);
  if (call.workspace_bytes() < uint64_t{grid} * sizeof(double)) {
    throw sdk::Failure(PB_ERROR, "dot: workspace smaller than asked for");
  }
  auto* partials = call.workspace<double>();
  dot_partials_kernel<<<grid, kDotThreads, 0, stream>>>(x, y, n, partials);
  PB_CUDA_CHECK_LAUNCH();
  dot_finish_kernel<<<1, kFinishThreads, 0, stream>>>(partials, grid, dot);
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace
}  // namespace plugbench::cuda::opt

PLUGBENCH_KERNEL({.workload = "dot",
                  .variant = "vectorized",
                  .description = "16-byte loads, float products summed 4 at a time, double "
                                 "partials, deterministic second pass",
                  .run = plugbench::cuda::opt::dot_vectorized,
                  .workspace = plugbench::cuda::opt::dot_workspace});
