// device_histogram.cuh: the histogram's kernel and device entry: uint8 pixels[n] -> uint32
// counts[256]. Each warp owns kCopies private 256-bin histograms in shared memory
// (warp_histogram.cuh; 16 warps a block), so lanes contend only with their own warp. Pixels come
// in 16-byte loads (16 pixels, four in flight per thread). At the end each block folds its
// histograms and adds every non-zero bin to the zeroed global counts with one atomic.
#pragma once

#include "launch_config.cuh"
#include "thread_memory.cuh"
#include "warp_histogram.cuh"

#include <cstddef>
#include <cstdint>
#include <string>

namespace plugbench::cuda::opt {

constexpr int kBins = 256;
constexpr int kHistogramThreads = 512;
constexpr int kHistogramWarps = kHistogramThreads / 32;
constexpr int kHistogramBlocksPerSm = 3;  // 40 registers for 4 loads in flight, no spills
constexpr int kHistogramUnroll = 4;       // 16-byte loads in flight per thread and loop trip

// kCopies sub-histograms per warp (1 shipped; 4 opt-in, 2 a tuning): lane l adds into copy l %
// kCopies, so lanes holding one value split over the copies, and copy c starts c * 32 / kCopies
// words past a multiple of 32, so one value in two copies never shares a bank. More than one copy
// needs more than the 48 KiB of static shared memory a block may have: dynamic shared memory.
template <int kCopies>
struct HistogramLayout {
  static constexpr int kPad = kCopies == 1 ? 0 : kWarpThreads / kCopies;
  static constexpr int kStride = kBins + kPad;  // words per copy
  static constexpr int kRows = kHistogramWarps * kCopies;
  static constexpr int kWords = kRows * kStride;
  static constexpr size_t kDynamicBytes = kCopies == 1 ? 0 : kWords * sizeof(unsigned);
};

template <int kCopies>
__global__ void __launch_bounds__(kHistogramThreads, kHistogramBlocksPerSm)
    histogram_kernel(const unsigned char* __restrict__ pixels, uint64_t n,
                     unsigned* __restrict__ counts) {
  using Layout = HistogramLayout<kCopies>;
  unsigned* rows;     // every copy of every warp, Layout::kRows rows of Layout::kStride words
  unsigned* own_row;  // the copy this lane adds into
  if constexpr (kCopies == 1) {
    __shared__ unsigned warp_bins[kHistogramWarps][kBins];
    rows = &warp_bins[0][0];
    own_row = warp_bins[threadIdx.x / kWarpThreads];
  } else {
    extern __shared__ unsigned copy_bins[];
    rows = copy_bins;
    own_row = copy_bins +
              (threadIdx.x / kWarpThreads * kCopies + threadIdx.x % kCopies) * Layout::kStride;
  }
  for (int i = threadIdx.x; i < Layout::kWords; i += kHistogramThreads) rows[i] = 0;
  __syncthreads();

  const WarpHistogram histogram{own_row};
  const uint4* vectors = reinterpret_cast<const uint4*>(pixels);
  const uint64_t vector_count = n / 16;
  const uint64_t stride = static_cast<uint64_t>(gridDim.x) * kHistogramThreads;
  const auto load_if = [&](uint64_t index) {
    return index < vector_count ? load_readonly(vectors + index) : make_uint4(0, 0, 0, 0);
  };
  // Each trip loads kHistogramUnroll vectors (all in flight together), then counts them. The loop
  // runs per warp (every lane takes every trip) because add_vector votes across the warp.
  const int lane = threadIdx.x % kWarpThreads;
  const uint64_t warp_first =
      static_cast<uint64_t>(blockIdx.x) * kHistogramThreads + (threadIdx.x - lane);
  for (uint64_t base = warp_first; base < vector_count; base += kHistogramUnroll * stride) {
    uint4 v[kHistogramUnroll];
#pragma unroll
    for (int u = 0; u < kHistogramUnroll; ++u) v[u] = load_if(base + lane + u * stride);
#pragma unroll
    for (int u = 0; u < kHistogramUnroll; ++u) {
      histogram.add_vector(v[u], base + lane + u * stride < vector_count, lane);
    }
  }
  const uint64_t tail = n - vector_count * 16;  // the last n % 16 pixels, one per thread of block 0
  if (blockIdx.x == 0 && threadIdx.x < tail) {
    atomicAdd(histogram.bins + pixels[vector_count * 16 + threadIdx.x], 1u);
  }
  __syncthreads();

  for (int bin = threadIdx.x; bin < kBins; bin += kHistogramThreads) {
    unsigned total = 0;
#pragma unroll
    for (int row = 0; row < Layout::kRows; ++row) total += rows[row * Layout::kStride + bin];
    if (total != 0) atomicAdd(counts + bin, total);
  }
}

// Device entry.
template <int kCopies>
void histogram_warp_privatized(sdk::Call& call) {
  CudaServices& services = services_of(call);
  const cudaStream_t stream = services.stream();
  const pb_problem& problem = call.problem();
  if (problem.bins != kBins) {
    throw sdk::unsupported("cuda_optimized histogram handles 256 bins (one per byte value), not " +
                           std::to_string(problem.bins));
  }
  const uint64_t n = call.n();
  const auto* pixels = call.input<unsigned char>(0);
  auto* counts = call.output<unsigned>(0);
  PB_CUDA_CHECK(cudaMemsetAsync(counts, 0, kBins * sizeof(unsigned), stream));
  if (n == 0) return;
  require_aligned(pixels, "pixels");
  const unsigned grid =
      grid_for(services, kHistogramBlocksPerSm, div_up(n / 16, kHistogramThreads));
  constexpr size_t kDynamicBytes = HistogramLayout<kCopies>::kDynamicBytes;
  if constexpr (kDynamicBytes > 0) {
    PB_CUDA_CHECK(cudaFuncSetAttribute(histogram_kernel<kCopies>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(kDynamicBytes)));
  }
  histogram_kernel<kCopies><<<grid, kHistogramThreads, kDynamicBytes, stream>>>(pixels, n, counts);
  PB_CUDA_CHECK_LAUNCH();
}

}  // namespace plugbench::cuda::opt
