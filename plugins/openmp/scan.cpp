// scan.cpp (openmp): exclusive prefix sum of int32, modulo 2^32: each thread sums its block, the
// block sums are scanned, then each thread scans its block from its offset.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <cstdint>
#include <vector>

#include "thread_range.hpp"

namespace {

void scan_two_pass(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  auto* prefix = call.output<std::int32_t>(0);
  const std::uint64_t n = call.n();
  const int max_threads = omp_get_max_threads();
  // Unsigned sums wrap instead of overflowing. block_offsets[t + 1] first holds block t's sum.
  std::vector<std::uint32_t> block_offsets(static_cast<std::size_t>(max_threads) + 1, 0);
#pragma omp parallel num_threads(max_threads)
  {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    const auto block = plugbench::openmp::thread_range(n, thread, threads);
    std::uint32_t block_sum = 0;
    for (std::uint64_t i = block.begin; i < block.end; ++i) {
      block_sum += static_cast<std::uint32_t>(x[i]);
    }
    block_offsets[thread + 1] = block_sum;
#pragma omp barrier
#pragma omp single
    for (int t = 1; t <= threads; ++t) block_offsets[t] += block_offsets[t - 1];
    std::uint32_t running = block_offsets[thread];
    for (std::uint64_t i = block.begin; i < block.end; ++i) {
      const auto value = static_cast<std::uint32_t>(x[i]);
      prefix[i] = static_cast<std::int32_t>(running);
      running += value;
    }
  }
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "scan",
                  .variant = "two_pass",
                  .description = "block sums, their scan, then a scan of each block",
                  .run = scan_two_pass});
