// sort.cpp (openmp): uint32 keys ascending by parallel LSD radix sorts. In each pass every thread
// knows the digit counts of its block, the counts are scanned in (digit, thread) order, and every
// thread scatters its block to its own offsets, which keeps the sort stable.
#include <plugbench/plugin_sdk.hpp>

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "../cpu_common/radix_digits.hpp"
#include "combining_scatter.hpp"
#include "scatter_offsets.hpp"
#include "sort_kernels.hpp"
#include "streaming_store.hpp"
#include "thread_range.hpp"

namespace {

namespace cpu = plugbench::cpu;
using plugbench::openmp::CombiningScatter;
using plugbench::openmp::IgnoreLeavingKeys;

// lsd_radix: four passes of 8-bit digits; each pass counts its digits with a read of the array
// and writes every key straight to its place.
void lsd_radix(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
               std::uint64_t n) {
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
      std::uint64_t offsets[cpu::kRadixBuckets];
      plugbench::openmp::thread_offsets(
          cpu::kRadixBuckets, threads, thread, 0,
          [&](int t, int digit) { return thread_counts[t][pass][digit]; }, offsets);
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

void sort_lsd_radix(plugbench::sdk::Call& call) {
  cpu::run_radix_sort(call, lsd_radix);
}

// The tuned sort's digits: kBits wide, the last pass takes what is left of the 32 bits.
template <int Bits>
struct WideDigits {
  static constexpr int kBits = Bits;
  static constexpr int kBuckets = 1 << Bits;
  static constexpr int kPasses = (32 + Bits - 1) / Bits;
  static unsigned of(std::uint32_t key, int pass) {
    return (key >> (pass * Bits)) & (kBuckets - 1);
  }
};

// Which thread's block holds position `pos` in a pass: the inverse of thread_range, without a
// division per lookup (a lookup every few dozen keys of a pass).
class BlockOwners {
 public:
  BlockOwners(std::uint64_t n, int threads)
      : starts_(static_cast<std::size_t>(threads) + 1),
        threads_per_key_(static_cast<double>(threads) / static_cast<double>(n)),
        last_(threads - 1) {
    for (int t = 0; t < threads; ++t)
      starts_[t] = plugbench::openmp::thread_range(n, t, threads).begin;
    starts_[threads] = n;
  }

  int owner(std::uint64_t pos) const {
    int t = std::min(last_, static_cast<int>(static_cast<double>(pos) * threads_per_key_));
    while (pos < starts_[t]) --t;
    while (pos >= starts_[t + 1]) ++t;
    return t;
  }
  std::uint64_t end_of(int thread) const { return starts_[thread + 1]; }

 private:
  std::vector<std::uint64_t> starts_;  // thread t's block: [starts_[t], starts_[t + 1])
  double threads_per_key_;
  int last_;
};

// The on_leave of lsd_radix_combining's scatter when a pass makes the next pass's counts: the
// next digits of keys leaving for [position, position + count) are counted into
// counts[t * Digits::kBuckets + d] for the thread t whose block holds them in the next pass.
template <class Digits>
struct CountNextDigits {
  const BlockOwners& owners;
  int next_pass;
  std::uint32_t base;
  std::uint32_t* counts;

  void operator()(const std::uint32_t* keys, std::uint32_t count, std::uint64_t position) const {
    const int pass = next_pass;  // a local: the counts' stores could alias the member
    while (count > 0) {
      const int owner = owners.owner(position);
      const std::uint64_t room = owners.end_of(owner) - position;
      const auto part = static_cast<std::uint32_t>(std::min<std::uint64_t>(count, room));
      std::uint32_t* row = counts + static_cast<std::size_t>(owner) * Digits::kBuckets;
      for (std::uint32_t i = 0; i < part; ++i) ++row[Digits::of(keys[i] - base, pass)];
      keys += part;
      count -= part;
      position += part;
    }
  }
};

// How a pass after the first gets the digit counts of each thread's block: by reading the block
// before the pass (a read of the array per pass), or made by the previous pass as its blocks leave
// (CountNextDigits; no read, but the cores' work per key grows).
enum class NextCounts { reread, while_scattering };

// Adds the digits of key - base of passes [0, passes) for keys[block] to counts[pass * kBuckets
// + digit]; the passes' loop is unrolled for each count (passes <= Passes).
template <class Digits, int Passes = Digits::kPasses>
void count_first_digits(const std::uint32_t* keys, plugbench::openmp::ThreadRange block,
                        std::uint32_t base, int passes, std::uint64_t* counts) {
  if constexpr (Passes > 1) {
    if (passes < Passes) {
      count_first_digits<Digits, Passes - 1>(keys, block, base, passes, counts);
      return;
    }
  }
  if (passes == 0) return;
  for (std::uint64_t i = block.begin; i < block.end; ++i) {
    const std::uint32_t value = keys[i] - base;
    for (int pass = 0; pass < Passes; ++pass)
      ++counts[pass * Digits::kBuckets + Digits::of(value, pass)];
  }
}

// lsd_radix_combining: Digits::kPasses passes over the digits of key - span.base, those above
// span.bits left out (all zero); the input's digits are all counted in one read, and a pass whose
// digit is the same for every key is left out. The keys are written unchanged.
template <int Bits, std::uint32_t BlockKeys, NextCounts next_counts_by>
void lsd_radix_combining_over(const std::uint32_t* keys, std::uint32_t* sorted,
                              std::uint32_t* scratch, std::uint64_t n,
                              plugbench::openmp::KeySpan span) {
  using Digits = WideDigits<Bits>;
  constexpr int kBuckets = Digits::kBuckets;
  constexpr int kPasses = Digits::kPasses;
  const std::uint32_t base = span.base;
  const int counted = std::min(kPasses, (span.bits + Bits - 1) / Bits);
  const bool stream = plugbench::openmp::worth_streaming(n * sizeof(std::uint32_t));

  const int max_threads = omp_get_max_threads();
  const auto team = static_cast<std::size_t>(max_threads);
  // counts[t * kBuckets + d]: keys of digit d in thread t's block of the array this pass reads.
  std::vector<std::uint64_t> counts(team * kBuckets);
  // first_counts[t][pass][d]: the same for every pass over the input (decides the passes).
  std::vector<std::array<std::uint64_t, kPasses * kBuckets>> first_counts(team);
  // next_counts[w][t * kBuckets + d]: written by thread w during a pass, for the next one.
  std::vector<std::vector<std::uint32_t>> next_counts(team);
  std::array<std::uint64_t, kPasses * kBuckets> totals{};
  std::array<int, kPasses> passes{};
  int pass_count = 0;
#pragma omp parallel num_threads(max_threads)
  {
    const int thread = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    const auto block = plugbench::openmp::thread_range(n, thread, threads);
    const BlockOwners owners(n, threads);
    auto scatter = std::make_unique<CombiningScatter<kBuckets, BlockKeys>>(stream);
    std::vector<std::uint32_t>& my_next = next_counts[static_cast<std::size_t>(thread)];
    if constexpr (next_counts_by == NextCounts::while_scattering) {
      my_next.assign(static_cast<std::size_t>(threads) * kBuckets, 0);
    }
    {
      std::array<std::uint64_t, kPasses * kBuckets> local{};
      count_first_digits<Digits>(keys, block, base, counted, local.data());
      first_counts[static_cast<std::size_t>(thread)] = local;
    }
#pragma omp barrier
#pragma omp single
    {
      for (int t = 0; t < threads; ++t) {
        for (int i = 0; i < kPasses * kBuckets; ++i) totals[i] += first_counts[t][i];
      }
      for (int pass = 0; pass < counted; ++pass) {
        const auto* pass_totals = totals.data() + pass * kBuckets;
        if (std::find(pass_totals, pass_totals + kBuckets, n) == pass_totals + kBuckets) {
          passes[pass_count++] = pass;
        }
      }
    }
    if (pass_count > 0) {
      const auto& mine = first_counts[static_cast<std::size_t>(thread)];
      std::copy_n(mine.begin() + passes[0] * kBuckets, kBuckets,
                  counts.begin() + static_cast<std::ptrdiff_t>(thread) * kBuckets);
    } else {
      std::copy(keys + block.begin, keys + block.end, sorted + block.begin);
    }
#pragma omp barrier
    // Ping-pong between `sorted` and the scratch space so that the last pass ends in `sorted`.
    const std::uint32_t* source = keys;
    std::uint32_t* target = pass_count % 2 == 1 ? sorted : scratch;
    for (int step = 0; step < pass_count; ++step) {
      const int pass = passes[step];
      const int next_pass = next_counts_by == NextCounts::while_scattering && step + 1 < pass_count
                                ? passes[step + 1]
                                : -1;
      if (next_counts_by == NextCounts::reread && step > 0) {
        std::uint64_t local[kBuckets] = {};
        for (std::uint64_t i = block.begin; i < block.end; ++i) {
          ++local[Digits::of(source[i] - base, pass)];
        }
        std::copy(local, local + kBuckets,
                  counts.begin() + static_cast<std::ptrdiff_t>(thread) * kBuckets);
#pragma omp barrier
      }
      std::uint64_t offsets[kBuckets];
      plugbench::openmp::thread_offsets(
          kBuckets, threads, thread, 0,
          [&](int t, int digit) { return counts[static_cast<std::size_t>(t) * kBuckets + digit]; },
          offsets);
      const auto digit_of = [pass, base](std::uint32_t key) {
        return Digits::of(key - base, pass);
      };
      if (next_pass >= 0) {
        (*scatter)(source, block, digit_of, offsets, target,
                   CountNextDigits<Digits>{owners, next_pass, base, my_next.data()});
      } else {
        (*scatter)(source, block, digit_of, offsets, target, IgnoreLeavingKeys{});
      }
      plugbench::openmp::fence_streaming_stores();
#pragma omp barrier
      if (next_pass >= 0) {
        std::uint64_t* row = counts.data() + static_cast<std::size_t>(thread) * kBuckets;
        std::fill(row, row + kBuckets, 0);
        for (int w = 0; w < threads; ++w) {
          const std::uint32_t* theirs = next_counts[static_cast<std::size_t>(w)].data() +
                                        static_cast<std::size_t>(thread) * kBuckets;
          for (int digit = 0; digit < kBuckets; ++digit) row[digit] += theirs[digit];
        }
#pragma omp barrier
        std::fill(my_next.begin(), my_next.end(), 0);
      }
      source = target;
      target = target == sorted ? scratch : sorted;
    }
  }
}

template <int Bits, std::uint32_t BlockKeys, NextCounts next_counts_by>
void lsd_radix_combining(const std::uint32_t* keys, std::uint32_t* sorted, std::uint32_t* scratch,
                         std::uint64_t n) {
  lsd_radix_combining_over<Bits, BlockKeys, next_counts_by>(keys, sorted, scratch, n, {});
}

template <int Bits, std::uint32_t BlockKeys, NextCounts next_counts_by>
void sort_lsd_radix_combining(plugbench::sdk::Call& call) {
  cpu::run_radix_sort(call, lsd_radix_combining<Bits, BlockKeys, next_counts_by>);
}

}  // namespace

int plugbench::openmp::lsd_digit_bits(int span_bits) {
  return (span_bits + 8) / 9 < (span_bits + 7) / 8 ? 9 : 8;
}

void plugbench::openmp::lsd_combining_sort(const std::uint32_t* keys, std::uint32_t* sorted,
                                           std::uint32_t* scratch, std::uint64_t n, KeySpan span) {
  if (lsd_digit_bits(span.bits) == 9) {
    lsd_radix_combining_over<9, 64, NextCounts::reread>(keys, sorted, scratch, n, span);
  } else {
    lsd_radix_combining_over<8, 64, NextCounts::reread>(keys, sorted, scratch, n, span);
  }
}

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "lsd_radix",
                  .description = "parallel LSD radix, 8-bit digits, one-digit passes skipped",
                  .run = sort_lsd_radix,
                  .workspace = cpu::radix_workspace});

PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "lsd_radix_combining",
                  .description = "parallel LSD radix, keys leave 256 bytes at a time per digit",
                  .run = sort_lsd_radix_combining<8, 64, NextCounts::reread>,
                  .workspace = cpu::radix_workspace});

// Three passes of 11-bit digits (512 KiB of blocks a thread, in L2, against 64 KiB), each pass's
// counts made by the one before: 7 passes over the array instead of 12, for a host whose passes
// are bound by the memory's traffic. On a 2-core Xeon it took as much or more of the cores' time
// as lsd_radix_combining. max_n: the counts made during a pass are uint32.
PLUGBENCH_KERNEL({.workload = "sort",
                  .variant = "lsd_radix_combining_11bit",
                  .description = "lsd_radix_combining with three passes of 11-bit digits, the next "
                                 "digits counted as blocks leave",
                  .run = sort_lsd_radix_combining<11, 64, NextCounts::while_scattering>,
                  .flags = PB_KERNEL_OPT_IN,
                  .workspace = cpu::radix_workspace,
                  .max_n = std::numeric_limits<std::uint32_t>::max()});
