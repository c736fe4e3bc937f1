// sort.cpp (openmp): uint32 keys ascending by a parallel LSD radix sort (8-bit digits). In each
// pass every thread counts the digits of its block, the counts are scanned in (digit, thread)
// order, and every thread scatters its block to its own offsets, which keeps the sort stable.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../cpu_common/radix_digits.hpp"
#include "streaming_store.hpp"
#include "thread_range.hpp"

namespace {

namespace cpu = plugbench::cpu;

// Writes each key of source[block] to target[offsets[its digit]++], in order.
void scatter_directly(const std::uint32_t* source, plugbench::openmp::ThreadRange block, int pass,
                      std::uint64_t (&offsets)[cpu::kRadixBuckets], std::uint32_t* target) {
  for (std::uint64_t i = block.begin; i < block.end; ++i) {
    const std::uint32_t key = source[i];
    target[offsets[cpu::radix_digit(key, pass)]++] = key;
  }
}

// The same scatter through a block of kBlock keys per digit (64 keys: 256 bytes, 64 KiB for all
// digits, in L2): keys reach memory a block at a time, streamed when `stream`, instead of one
// store into each of 256 places; whole blocks keep the memory's writes sequential. A block is
// only streamed when this thread fills all of it; the partial blocks at the ends of a digit's
// run, shared with the neighbouring thread's run, are stored normally.
class CombiningScatter {
 public:
  explicit CombiningScatter(bool stream) : stream_(stream) {}

  void operator()(const std::uint32_t* source, plugbench::openmp::ThreadRange block, int pass,
                  std::uint64_t (&offsets)[cpu::kRadixBuckets], std::uint32_t* target) {
    for (int digit = 0; digit < cpu::kRadixBuckets; ++digit) {
      line_start_[digit] = offsets[digit] - offsets[digit] % kBlock;
      first_[digit] = fill_[digit] = static_cast<std::uint32_t>(offsets[digit] % kBlock);
    }
    for (std::uint64_t i = block.begin; i < block.end; ++i) {
      const std::uint32_t key = source[i];
      const unsigned digit = cpu::radix_digit(key, pass);
      std::uint32_t fill = fill_[digit];
      lines_[digit].keys[fill] = key;
      if (++fill == kBlock) {
        write_line(digit, target);
        fill = 0;
      }
      fill_[digit] = fill;
    }
    for (int digit = 0; digit < cpu::kRadixBuckets; ++digit) {
      const std::uint32_t first = first_[digit];
      std::copy(lines_[digit].keys + first, lines_[digit].keys + fill_[digit],
                target + line_start_[digit] + first);
    }
  }

 private:
  static constexpr std::uint32_t kBlock = 64;

  void write_line(unsigned digit, std::uint32_t* target) {
    const std::uint32_t first = first_[digit];
    std::uint32_t* line = target + line_start_[digit];
    if (first == 0) {
      plugbench::openmp::store_values(line, lines_[digit].keys, kBlock, stream_);
    } else {
      std::copy(lines_[digit].keys + first, lines_[digit].keys + kBlock, line + first);
    }
    line_start_[digit] += kBlock;
    first_[digit] = 0;
  }

  struct alignas(64) Block {
    std::uint32_t keys[kBlock];
  };
  Block lines_[cpu::kRadixBuckets];
  std::uint64_t line_start_[cpu::kRadixBuckets];
  std::uint32_t first_[cpu::kRadixBuckets];
  std::uint32_t fill_[cpu::kRadixBuckets];
  bool stream_;
};

// make_scatter() gives each thread its own scatter: a callable like scatter_directly.
template <class MakeScatter>
void lsd_radix_sort(plugbench::sdk::Call& call, MakeScatter&& make_scatter) {
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
    auto&& scatter = make_scatter();

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
      scatter(source, block, pass, offsets, target);
      plugbench::openmp::fence_streaming_stores();
#pragma omp barrier
      source = target;
      target = target == sorted ? scratch : sorted;
    }
  }
}

void sort_lsd_radix(plugbench::sdk::Call& call) {
  lsd_radix_sort(call, [] { return scatter_directly; });
}

void sort_lsd_radix_combining(plugbench::sdk::Call& call) {
  const bool stream = plugbench::openmp::worth_streaming(call.n() * sizeof(std::uint32_t));
  lsd_radix_sort(call, [stream] {
    return [lines = std::make_unique<CombiningScatter>(stream)](auto&&... arguments) {
      (*lines)(arguments...);
    };
  });
}

}  // namespace

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "lsd_radix",
                  .description = "parallel LSD radix, 8-bit digits, one-digit passes skipped",
                  .run = sort_lsd_radix,
                  .workspace = cpu::radix_workspace});

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "lsd_radix_combining",
                  .description = "parallel LSD radix, keys leave 256 bytes at a time per digit",
                  .run = sort_lsd_radix_combining,
                  .workspace = cpu::radix_workspace});
