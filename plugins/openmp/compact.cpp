// compact.cpp (openmp): keeps the nonzero int32 values in order: each thread counts its block's
// nonzero values, the counts are scanned, then each thread writes its block at its offset.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <cstdint>
#include <vector>

#include "thread_range.hpp"

namespace {

void compact_two_pass(plugbench::sdk::Call& call) {
  const auto* x = call.input<std::int32_t>(0);
  auto* kept = call.output<std::int32_t>(0);
  const std::uint64_t n = call.n();
  const int max_threads = omp_get_max_threads();
  // offsets[t + 1] first holds block t's count of nonzero values.
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(max_threads) + 1, 0);
  std::uint64_t total = 0;
#pragma omp parallel num_threads(max_threads)
  {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    const auto block = plugbench::openmp::thread_range(n, thread, threads);
    std::uint64_t block_count = 0;
    for (std::uint64_t i = block.begin; i < block.end; ++i) block_count += x[i] != 0;
    offsets[thread + 1] = block_count;
#pragma omp barrier
#pragma omp single
    {
      for (int t = 1; t <= threads; ++t) offsets[t] += offsets[t - 1];
      total = offsets[threads];
    }
    // Branch-free: store every value, advance only past nonzero ones. Stopping once the block's
    // count is written keeps the stray stores inside this thread's part of `kept`.
    std::int32_t* out = kept + offsets[thread];
    std::uint64_t written = 0;
    for (std::uint64_t i = block.begin; written < block_count; ++i) {
      const std::int32_t value = x[i];
      out[written] = value;
      written += value != 0;
    }
  }
  *call.output<std::uint64_t>(1) = total;
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "compact",
                  .variant = "two_pass",
                  .description = "count per block, scan of the counts, ordered scatter",
                  .run = compact_two_pass});
