// sort.cpp (openmp): uint32 keys ascending by a parallel LSD radix sort (8-bit digits). In each
// pass every thread counts the digits of its block, the counts are scanned in (digit, thread)
// order, and every thread scatters its block to its own offsets, which keeps the sort stable.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../cpu_common/radix_digits.hpp"
#include "thread_range.hpp"

namespace {

namespace cpu = plugbench::cpu;

void sort_lsd_radix(plugbench::sdk::Call& call) {
  const auto* keys = call.input<std::uint32_t>(0);
  auto* sorted = call.output<std::uint32_t>(0);
  const std::uint64_t n = call.n();
  if (n <= 1) {
    std::copy(keys, keys + n, sorted);
    return;
  }
  auto* scratch = cpu::radix_scratch(call);

  const int max_threads = omp_get_max_threads();
  // thread_counts[t][pass]: digit counts of thread t's block of the array the pass reads.
  std::vector<cpu::DigitCounts> thread_counts(static_cast<std::size_t>(max_threads));
  cpu::RadixPlan plan;
#pragma omp parallel num_threads(max_threads)
  {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    const auto block = plugbench::openmp::thread_range(n, thread, threads);
    cpu::DigitCounts& mine = thread_counts[thread];

    // Counting every digit of the input at once decides which passes run (the totals) and gives
    // the first pass its per-thread counts, since that pass reads the input.
    {
      cpu::DigitCounts local{};
      cpu::count_digits(keys + block.begin, block.size(), local);
      mine = local;
    }
#pragma omp barrier
#pragma omp single
    {
      cpu::DigitCounts totals{};
      for (int t = 0; t < threads; ++t) {
        for (int pass = 0; pass < cpu::kRadixPasses; ++pass) {
          for (int digit = 0; digit < cpu::kRadixBuckets; ++digit) {
            totals[pass][digit] += thread_counts[t][pass][digit];
          }
        }
      }
      plan = cpu::plan_radix_passes(totals, n);
    }

    if (plan.count == 0) std::copy(keys + block.begin, keys + block.end, sorted + block.begin);
    // Ping-pong between `sorted` and the scratch space so that the last pass ends in `sorted`.
    const std::uint32_t* source = keys;
    std::uint32_t* target = plan.count % 2 == 1 ? sorted : scratch;
    for (int step = 0; step < plan.count; ++step) {
      const int pass = plan.passes[step];
      if (step > 0) {
        std::uint64_t local[cpu::kRadixBuckets] = {};
        for (std::uint64_t i = block.begin; i < block.end; ++i) {
          ++local[cpu::radix_digit(source[i], pass)];
        }
        std::copy(local, local + cpu::kRadixBuckets, mine[pass].begin());
#pragma omp barrier
      }
      // This thread's keys of digit d go after all keys of smaller digits and after the keys of
      // digit d in the blocks of lower threads.
      std::uint64_t offsets[cpu::kRadixBuckets];
      std::uint64_t running = 0;
      for (int digit = 0; digit < cpu::kRadixBuckets; ++digit) {
        for (int t = 0; t < threads; ++t) {
          if (t == thread) offsets[digit] = running;
          running += thread_counts[t][pass][digit];
        }
      }
      for (std::uint64_t i = block.begin; i < block.end; ++i) {
        const std::uint32_t key = source[i];
        target[offsets[cpu::radix_digit(key, pass)]++] = key;
      }
#pragma omp barrier
      source = target;
      target = target == sorted ? scratch : sorted;
    }
  }
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "lsd_radix",
                  .description = "parallel LSD radix, 8-bit digits, one-digit passes skipped",
                  .run = sort_lsd_radix,
                  .workspace = cpu::radix_workspace});
